/**
 * Calls to a portal's data API: bearer token, JSON bodies, retries with exponential backoff
 * on 429 / 5xx / network errors (honouring Retry-After), one token refresh on 401, and
 * PortalErrors that say what happened.
 */
import { codeForStatus, PortalError, type PortalName } from './errors.js';
import type { OAuthTokenSource } from './oauth.js';

export interface RetryPolicy {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** First backoff delay, ms (default 500); doubled each retry. */
  baseDelayMs?: number;
  /** Upper bound of any one wait, Retry-After included (default 30 s). */
  maxDelayMs?: number;
}

export interface PortalHttpDeps {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Per-request timeout, ms (default 30 s). */
  timeoutMs?: number;
}

export interface PortalResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
  attempts: number;
}

const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);

/** Parses Retry-After (delta seconds or an HTTP date) into ms, or undefined. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const s = Number(value);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

export class PortalHttp {
  private readonly policy: Required<RetryPolicy>;

  constructor(
    private readonly portal: PortalName,
    private readonly baseUrl: string,
    private readonly tokens: OAuthTokenSource,
    private readonly mediaType: string,
    policy: RetryPolicy = {},
    private readonly deps: PortalHttpDeps = {},
  ) {
    try {
      const u = new URL(baseUrl);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('protocol');
    } catch {
      throw new PortalError(portal, 'portal-config', `${portal}: baseUrl "${baseUrl}" is not an http(s) URL`);
    }
    this.policy = {
      maxRetries: policy.maxRetries ?? 3,
      baseDelayMs: policy.baseDelayMs ?? 500,
      maxDelayMs: policy.maxDelayMs ?? 30_000,
    };
  }

  /** Absolute URL of an API path ("/organizations/1/…"). */
  url(path: string): string {
    return this.baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
  }

  async postJson(path: string, body: unknown, what: string): Promise<PortalResponse> {
    const url = this.url(path);
    const sleep = this.deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const doFetch = this.deps.fetch ?? fetch;
    const payload = JSON.stringify(body);
    let refreshedAfter401 = false;
    let attempts = 0;
    for (let retry = 0; ; retry++) {
      attempts++;
      const token = await this.tokens.accessToken();
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, Accept: this.mediaType, 'Content-Type': this.mediaType },
          body: payload,
          signal: AbortSignal.timeout(this.deps.timeoutMs ?? 30_000),
        });
      } catch (err) {
        if (retry < this.policy.maxRetries) {
          await sleep(this.backoff(retry));
          continue;
        }
        throw new PortalError(
          this.portal,
          'portal-network',
          `${this.portal}: ${what} failed: ${url} unreachable after ${attempts} attempts ` +
            `(${err instanceof Error ? err.message : String(err)})`,
          { attempts },
        );
      }
      const text = await res.text();
      if (res.ok) {
        let parsed: unknown = undefined;
        if (text.length > 0) {
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
        }
        return { status: res.status, headers: res.headers, body: parsed, text, attempts };
      }
      if (res.status === 401 && !refreshedAfter401) {
        // The token may have been revoked or expired early: fetch a new one once.
        refreshedAfter401 = true;
        this.tokens.invalidate();
        retry--;
        continue;
      }
      if (RETRY_STATUSES.has(res.status) && retry < this.policy.maxRetries) {
        const wait = retryAfterMs(res.headers.get('retry-after'));
        await sleep(Math.min(this.policy.maxDelayMs, wait ?? this.backoff(retry)));
        continue;
      }
      const code = codeForStatus(res.status);
      throw new PortalError(
        this.portal,
        code,
        `${this.portal}: ${what} failed: ${res.status} from POST ${url}${detail(text)}`,
        {
          status: res.status,
          attempts,
          responseBody: text.slice(0, 2000),
        },
      );
    }
  }

  private backoff(retry: number): number {
    return Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** retry);
  }
}

/** A short reason from a JSON error body, if it has one. */
function detail(text: string): string {
  try {
    const b = JSON.parse(text) as Record<string, unknown>;
    const m =
      b.message ??
      b.error_description ??
      b.error ??
      (Array.isArray(b.errors) ? JSON.stringify(b.errors).slice(0, 300) : undefined);
    return typeof m === 'string' && m.length > 0 ? ` — ${m.slice(0, 300)}` : '';
  } catch {
    return '';
  }
}
