/**
 * OAuth 2.0 access tokens for a portal, per company: the client-credentials grant or the
 * refresh-token grant (RFC 6749 §4.4 / §6). Tokens are cached until shortly before they
 * expire; a rotated refresh token is kept and handed to `onRefreshTokenRotated` so the caller
 * can persist it (Trimble's refresh tokens are single-use).
 */
import { PortalError, type PortalName } from './errors.js';

export type OAuthGrant =
  { type: 'client_credentials'; scope?: string } | { type: 'refresh_token'; refreshToken: string; scope?: string };

export interface OAuthConfig {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  grant: OAuthGrant;
  /** How the client authenticates at the token endpoint: HTTP Basic (default) or form fields. */
  clientAuth?: 'basic' | 'body';
}

export interface TokenSourceDeps {
  fetch?: typeof fetch;
  /** Milliseconds since the epoch (default Date.now). */
  now?: () => number;
  onRefreshTokenRotated?: (refreshToken: string) => void | Promise<void>;
  /** Abort a token request after this long (default 15 s). */
  timeoutMs?: number;
}

/** Refresh this long before the token's stated expiry. */
const EXPIRY_MARGIN_MS = 60_000;

export class OAuthTokenSource {
  private token: { value: string; expiresAt: number } | undefined;
  private inFlight: Promise<string> | undefined;
  private refreshToken: string | undefined;

  constructor(
    private readonly portal: PortalName,
    private readonly config: OAuthConfig,
    private readonly deps: TokenSourceDeps = {},
  ) {
    for (const k of ['tokenUrl', 'clientId', 'clientSecret'] as const) {
      if (typeof config[k] !== 'string' || config[k].length === 0)
        throw new PortalError(portal, 'portal-config', `${portal}: oauth.${k} is required`);
    }
    try {
      new URL(config.tokenUrl);
    } catch {
      throw new PortalError(portal, 'portal-config', `${portal}: oauth.tokenUrl "${config.tokenUrl}" is not a URL`);
    }
    if (config.grant?.type === 'refresh_token') {
      if (!config.grant.refreshToken)
        throw new PortalError(
          portal,
          'portal-config',
          `${portal}: oauth.grant.refreshToken is required for the refresh_token grant`,
        );
      this.refreshToken = config.grant.refreshToken;
    } else if (config.grant?.type !== 'client_credentials') {
      throw new PortalError(
        portal,
        'portal-config',
        `${portal}: oauth.grant.type must be client_credentials or refresh_token`,
      );
    }
  }

  /** The current refresh token (after any rotation), for persisting. */
  currentRefreshToken(): string | undefined {
    return this.refreshToken;
  }

  /** Forget the cached access token (after a 401 from the API). */
  invalidate(): void {
    this.token = undefined;
  }

  async accessToken(): Promise<string> {
    const now = (this.deps.now ?? Date.now)();
    if (this.token && this.token.expiresAt - EXPIRY_MARGIN_MS > now) return this.token.value;
    this.inFlight ??= this.fetchToken().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchToken(): Promise<string> {
    const { config, portal } = this;
    const form = new URLSearchParams();
    form.set('grant_type', config.grant.type);
    if (config.grant.type === 'refresh_token') form.set('refresh_token', this.refreshToken as string);
    if (config.grant.scope) form.set('scope', config.grant.scope);
    const headers: Record<string, string> = {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json',
    };
    if ((config.clientAuth ?? 'basic') === 'basic') {
      const credentials = `${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`;
      headers.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    } else {
      form.set('client_id', config.clientId);
      form.set('client_secret', config.clientSecret);
    }
    const doFetch = this.deps.fetch ?? fetch;
    let res: Response;
    try {
      res = await doFetch(config.tokenUrl, {
        method: 'POST',
        headers,
        body: form.toString(),
        signal: AbortSignal.timeout(this.deps.timeoutMs ?? 15_000),
      });
    } catch (err) {
      throw new PortalError(
        portal,
        'portal-network',
        `${portal}: token endpoint ${config.tokenUrl} unreachable ` +
          `(${err instanceof Error ? err.message : String(err)})`,
      );
    }
    const text = await res.text();
    if (!res.ok) {
      const code = res.status >= 500 ? 'portal-unavailable' : 'portal-auth-failed';
      throw new PortalError(
        portal,
        code,
        `${portal}: token endpoint answered ${res.status}` +
          (res.status < 500
            ? ' — check the client id/secret or re-authorise the company ' +
              '(the refresh token may be expired or already used)'
            : ''),
        {
          status: res.status,
          responseBody: text.slice(0, 2000),
        },
      );
    }
    let body: { access_token?: unknown; expires_in?: unknown; refresh_token?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new PortalError(portal, 'portal-auth-failed', `${portal}: token endpoint answered without JSON`, {
        status: res.status,
        responseBody: text.slice(0, 2000),
      });
    }
    if (typeof body.access_token !== 'string' || body.access_token.length === 0) {
      throw new PortalError(portal, 'portal-auth-failed', `${portal}: token endpoint answered without access_token`, {
        status: res.status,
      });
    }
    const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600;
    this.token = { value: body.access_token, expiresAt: (this.deps.now ?? Date.now)() + expiresIn * 1000 };
    if (
      typeof body.refresh_token === 'string' &&
      body.refresh_token.length > 0 &&
      body.refresh_token !== this.refreshToken
    ) {
      this.refreshToken = body.refresh_token;
      await this.deps.onRefreshTokenRotated?.(body.refresh_token);
    }
    return body.access_token;
  }
}
