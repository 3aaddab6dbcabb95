/**
 * Embedding contract (docs/web.md): URL flags `embedded=true&chrome=false` and the
 * runtime message `{type: 'embedded-mode', embedded, chrome, hideOrgSelector,
 * hideFieldSelector, hideSideNav}` from the parent window, accepted only from origins the
 * partner allowed.
 */

export interface EmbeddingState {
  /** Inside a partner's product: the partner's theme applies. */
  embedded: boolean;
  /** false hides all of the app's own chrome (side navigation, organisation and field selectors). */
  chrome: boolean;
  /** Individual overrides; undefined follows `chrome`. */
  hideOrgSelector?: boolean;
  hideFieldSelector?: boolean;
  hideSideNav?: boolean;
}

/** What is visible, resolved from an embedding state. */
export interface ChromeVisibility {
  sideNav: boolean;
  orgSelector: boolean;
  fieldSelector: boolean;
  partnerTheme: boolean;
}

function flag(value: string | null): boolean | undefined {
  if (value === null) return undefined;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1' || v === 'yes' || v === '') return true;
  if (v === 'false' || v === '0' || v === 'no') return false;
  return undefined;
}

/** Reads `embedded`, `chrome` and the three hide flags from a page URL's query. */
export function embeddingFromUrl(search: string | URLSearchParams): EmbeddingState {
  const q = typeof search === 'string' ? new URLSearchParams(search) : search;
  const state: EmbeddingState = {
    embedded: flag(q.get('embedded')) ?? false,
    chrome: flag(q.get('chrome')) ?? true,
  };
  for (const key of ['hideOrgSelector', 'hideFieldSelector', 'hideSideNav'] as const) {
    const v = flag(q.get(key));
    if (v !== undefined) state[key] = v;
  }
  return state;
}

const EMBEDDING_FLAGS = ['embedded', 'chrome', 'hideOrgSelector', 'hideFieldSelector', 'hideSideNav'] as const;

/**
 * The embedding flags of a page URL's query, as a query to carry onto the app's own links (so
 * moving between pages inside a partner's iframe keeps its mode); '' when there are none.
 */
export function embeddingQuery(search: string | URLSearchParams): string {
  const q = typeof search === 'string' ? new URLSearchParams(search) : search;
  const out = new URLSearchParams();
  for (const key of EMBEDDING_FLAGS) {
    const v = q.get(key);
    if (v !== null && flag(v) !== undefined) out.set(key, v);
  }
  const text = out.toString();
  return text ? `?${text}` : '';
}

export function resolveVisibility(s: EmbeddingState): ChromeVisibility {
  return {
    sideNav: !(s.hideSideNav ?? !s.chrome),
    orgSelector: !(s.hideOrgSelector ?? !s.chrome),
    fieldSelector: !(s.hideFieldSelector ?? !s.chrome),
    partnerTheme: s.embedded,
  };
}

export type EmbeddedModeMessage = {
  type: 'embedded-mode';
  embedded?: boolean;
  chrome?: boolean;
  hideOrgSelector?: boolean;
  hideFieldSelector?: boolean;
  hideSideNav?: boolean;
};

const MESSAGE_FLAGS = ['embedded', 'chrome', 'hideOrgSelector', 'hideFieldSelector', 'hideSideNav'] as const;

/**
 * The message if `data` is a well-formed `embedded-mode` message, else undefined.
 * Every flag is optional but, when present, must be a boolean (a malformed message is ignored whole).
 */
export function parseEmbeddedModeMessage(data: unknown): EmbeddedModeMessage | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const d = data as Record<string, unknown>;
  if (d['type'] !== 'embedded-mode') return undefined;
  const msg: EmbeddedModeMessage = { type: 'embedded-mode' };
  for (const k of MESSAGE_FLAGS) {
    const v = d[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') return undefined;
    msg[k] = v;
  }
  return msg;
}

/** The state after a message: flags the message carries replace the current ones. */
export function applyEmbeddedModeMessage(state: EmbeddingState, msg: EmbeddedModeMessage): EmbeddingState {
  const next: EmbeddingState = { ...state };
  for (const k of MESSAGE_FLAGS) {
    const v = msg[k];
    if (v !== undefined) next[k] = v;
  }
  return next;
}

/** Normalises an origin string (scheme://host[:port], lower-case, default ports dropped). */
export function normalizeOrigin(origin: string): string | undefined {
  try {
    const u = new URL(origin);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return u.origin;
  } catch {
    return undefined;
  }
}

/**
 * May a window at `origin` steer the app? Only exact origins the partner allowed (and the
 * app's own origin). `"null"` (sandboxed or file pages) is never allowed; no wildcards.
 */
export function isOriginAllowed(origin: string, allowedOrigins: readonly string[], appOrigin: string): boolean {
  const o = normalizeOrigin(origin);
  if (o === undefined) return false;
  if (o === normalizeOrigin(appOrigin)) return true;
  return allowedOrigins.some((a) => normalizeOrigin(a) === o);
}

/** A partner theme: colours and a display name. Only safe CSS colour values are accepted. */
export interface PartnerTheme {
  name?: string;
  primaryColor?: string;
  accentColor?: string;
  backgroundColor?: string;
  textColor?: string;
}

const COLOR = /^(#[0-9a-fA-F]{3,8}|rgba?\([0-9.,\s%]+\)|hsla?\([0-9.,\s%deg]+\)|[a-zA-Z]{3,20})$/;

/** Keeps only well-formed theme values (colours cannot smuggle CSS: no `;`, `url(`, braces). */
export function sanitizeTheme(raw: unknown): PartnerTheme | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const theme: PartnerTheme = {};
  for (const k of ['primaryColor', 'accentColor', 'backgroundColor', 'textColor'] as const) {
    const v = r[k];
    if (typeof v === 'string' && COLOR.test(v.trim())) theme[k] = v.trim();
  }
  if (typeof r['name'] === 'string' && r['name'].trim() !== '') theme.name = r['name'].trim().slice(0, 80);
  return Object.keys(theme).length > 0 ? theme : undefined;
}
