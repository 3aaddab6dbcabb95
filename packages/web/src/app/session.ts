/**
 * The end user's session after a launch-code exchange.
 *
 * Choice (docs/web.md): the JWT is kept in the app origin's `sessionStorage` (per tab, never
 * readable by other origins, gone when the tab closes) and sent as `Authorization: Bearer`.
 * A cookie would be invisible to scripts, but in a partner's iframe the app is a third party
 * and browsers block or partition its cookies; sessionStorage works there too. The expiry
 * (the JWT's `exp`, or the exchange's `expiresInSec`, whichever is sooner) is honoured: an
 * expired session is dropped on read and the page says so.
 */
import type { PartnerTheme } from './embedding.js';
import { normalizeOrigin, sanitizeTheme } from './embedding.js';

export interface Session {
  token: string;
  /** Epoch milliseconds after which the session is no longer used. */
  expiresAtMs: number;
  userId?: string;
  /** Origins allowed to post `embedded-mode` messages (the partner's). */
  allowedOrigins: string[];
  theme?: PartnerTheme;
}

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const SESSION_STORAGE_KEY = 'furrow.session';
/** Used only when neither the JWT nor the exchange says when the session ends. */
export const DEFAULT_SESSION_SECONDS = 3600;

function base64UrlDecode(s: string): string {
  const b64 = s
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(s.length / 4) * 4, '=');
  const bin = atob(b64);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The (unverified) payload of a JWT, or undefined when `token` is not a JWT. The server verifies. */
export function decodeJwtPayload(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(base64UrlDecode(parts[1])) as unknown;
    return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function pick(obj: unknown, ...keys: string[]): unknown {
  if (typeof obj !== 'object' || obj === null) return undefined;
  for (const k of keys) {
    const v = (obj as Record<string, unknown>)[k];
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

/**
 * Embedding settings a partner puts in the launch's `returnUrl` (its server sends that URL
 * with its admin key; the API stores it with the code and returns it from the exchange):
 * `embedOrigin` (repeatable: origins allowed to post `embedded-mode` messages) and
 * `partnerTheme` (JSON: name, primaryColor, accentColor, backgroundColor, textColor).
 */
export function embeddingFromReturnUrl(
  returnUrl: string | undefined,
  appOrigin: string,
): { allowedOrigins: string[]; theme?: PartnerTheme } {
  if (!returnUrl) return { allowedOrigins: [] };
  let u: URL;
  try {
    u = new URL(returnUrl, appOrigin);
  } catch {
    return { allowedOrigins: [] };
  }
  const allowedOrigins = u.searchParams
    .getAll('embedOrigin')
    .flatMap((o) => o.split(','))
    .map((o) => normalizeOrigin(o.trim()))
    .filter((o): o is string => o !== undefined);
  let theme: PartnerTheme | undefined;
  const raw = u.searchParams.get('partnerTheme');
  if (raw) {
    try {
      theme = sanitizeTheme(JSON.parse(raw));
    } catch {
      theme = undefined;
    }
  }
  return { allowedOrigins, ...(theme ? { theme } : {}) };
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * Builds a session from the exchange response. Accepts the token as `token`, `jwt`,
 * `accessToken`, `sessionToken` or `session.token`; the embedding settings as
 * `allowedOrigins` / `embedOrigins` and `theme` at the top level or under `partner` / `embedding`.
 * Undefined when the body holds no token or the session is already over.
 */
export function sessionFromExchange(body: unknown, nowMs: number, appOrigin = 'http://localhost'): Session | undefined {
  const session = pick(body, 'session');
  const token =
    pick(body, 'token', 'jwt', 'accessToken', 'sessionToken') ?? pick(session, 'token', 'jwt', 'accessToken');
  if (typeof token !== 'string' || token.length === 0) return undefined;

  const candidates: number[] = [];
  const exp = decodeJwtPayload(token)?.['exp'];
  if (typeof exp === 'number') candidates.push(exp * 1000);
  const expiresIn = pick(body, 'expiresInSec', 'expiresIn', 'expires_in') ?? pick(session, 'expiresInSec', 'expiresIn');
  if (typeof expiresIn === 'number') candidates.push(nowMs + expiresIn * 1000);
  const expiresAt = pick(body, 'expiresAt') ?? pick(session, 'expiresAt');
  if (typeof expiresAt === 'string' && !Number.isNaN(Date.parse(expiresAt))) candidates.push(Date.parse(expiresAt));
  const expiresAtMs = candidates.length > 0 ? Math.min(...candidates) : nowMs + DEFAULT_SESSION_SECONDS * 1000;
  if (!(expiresAtMs > nowMs)) return undefined;

  const partner = pick(body, 'partner', 'embedding');
  const returnUrl = pick(body, 'returnUrl');
  const fromReturnUrl = embeddingFromReturnUrl(typeof returnUrl === 'string' ? returnUrl : undefined, appOrigin);
  const allowedOrigins = [
    ...stringList(pick(body, 'allowedOrigins', 'embedOrigins')),
    ...stringList(pick(partner, 'allowedOrigins', 'embedOrigins')),
    ...fromReturnUrl.allowedOrigins,
  ];
  const theme = sanitizeTheme(pick(body, 'theme') ?? pick(partner, 'theme')) ?? fromReturnUrl.theme;
  const user = pick(body, 'user');
  const userId = pick(body, 'userId') ?? pick(user, 'userId', 'id');
  return {
    token,
    expiresAtMs,
    allowedOrigins: [...new Set(allowedOrigins)],
    ...(typeof userId === 'string' ? { userId } : {}),
    ...(theme ? { theme } : {}),
  };
}

/** Reads, writes and forgets the session in a storage (the tab's sessionStorage in the app). */
export class SessionStore {
  constructor(
    private readonly storage: KeyValueStorage,
    private readonly now: () => number = () => Date.now(),
  ) {}

  save(session: Session): void {
    this.storage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
  }

  /** The live session; an expired or corrupt one is removed and reported as `expired`. */
  load(): { session?: Session; expired: boolean } {
    const raw = this.storage.getItem(SESSION_STORAGE_KEY);
    if (raw === null) return { expired: false };
    try {
      const s = JSON.parse(raw) as Session;
      if (typeof s.token !== 'string' || typeof s.expiresAtMs !== 'number') throw new Error('corrupt');
      if (s.expiresAtMs <= this.now()) {
        this.clear();
        return { expired: true };
      }
      return { session: { ...s, allowedOrigins: stringList(s.allowedOrigins) }, expired: false };
    } catch {
      this.clear();
      return { expired: false };
    }
  }

  /** Merges embedding settings learned later (e.g. from /api/user/current) into the stored session. */
  update(patch: Partial<Pick<Session, 'allowedOrigins' | 'theme' | 'userId'>>): Session | undefined {
    const { session } = this.load();
    if (!session) return undefined;
    const next = { ...session, ...patch };
    this.save(next);
    return next;
  }

  clear(): void {
    this.storage.removeItem(SESSION_STORAGE_KEY);
  }
}

/**
 * Where to go after a successful exchange: `returnUrl` only when it is on the app's own origin
 * (a relative path or an absolute URL of the same origin); anything else is refused (no open redirect).
 */
export function safeReturnUrl(returnUrl: string | null, appOrigin: string): string | undefined {
  if (returnUrl === null || returnUrl.trim() === '') return undefined;
  try {
    const u = new URL(returnUrl, appOrigin);
    if (u.origin !== new URL(appOrigin).origin) return undefined;
    if (u.pathname === '/launch') return undefined;
    // The API's default returnUrl is the app's root: the app's home page is /app.
    if (u.pathname === '/' || u.pathname === '') return `/app${u.search}${u.hash}`;
    return u.pathname + u.search + u.hash;
  } catch {
    return undefined;
  }
}

/**
 * Where a successful launch goes: the returnUrl the API stored with the code, else the one in
 * the address bar, when it is on the app's origin (else undefined: refused); with neither, the
 * home page, which lists the user's fields.
 */
export function launchTarget(
  stored: string | null,
  fromAddressBar: string | null,
  appOrigin: string,
): string | undefined {
  const given = stored !== null && stored.trim() !== '' ? stored : fromAddressBar;
  if (given === null || given.trim() === '') return '/';
  return safeReturnUrl(given, appOrigin);
}
