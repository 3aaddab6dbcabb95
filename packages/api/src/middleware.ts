/** The API's cross-cutting middleware, each an option-taking factory (Hono style). */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { jwtVerify } from 'jose';
import type { ApiConfig, AppEnv, Caller, Deps } from './context.js';
import { isUtf8 } from 'node:buffer';
import { ApiError, badRequest } from './errors.js';
import { firstTextProblem } from './schemas.js';
import { hashSecret } from './store/store.js';
import { API_VERSION, CORRELATION_HEADER, VERSION_HEADER } from './version.js';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** Correlation id (taken from the caller's header when sane), version header, one log line per request. */
export function requestContext(deps: Pick<Deps, 'logger'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header(CORRELATION_HEADER);
    const correlationId = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    c.set('correlationId', correlationId);
    c.set('caller', undefined);
    const started = performance.now();
    await next();
    c.header(CORRELATION_HEADER, correlationId);
    c.header(VERSION_HEADER, API_VERSION);
    const caller = c.get('caller');
    // Never the key itself: only its public id.
    deps.logger.info(
      {
        correlationId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        keyId: caller?.keyId,
        userId: caller?.userId,
      },
      'request',
    );
  };
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * Bodies of POST/PUT/PATCH must be JSON (415 otherwise), well-formed and storable text (400
 * otherwise: `firstTextProblem` names the field holding a NUL or invalid UTF-8);
 * paths in `rawBodyPaths` take other media types (boundary import).
 */
export function jsonBodies(rawBodyPaths: RegExp[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return next();
    if (rawBodyPaths.some((re) => re.test(c.req.path))) return next();
    const contentType = c.req.header('Content-Type');
    const mediaType = contentType ? contentType.split(';')[0].trim().toLowerCase() : '';
    const length = Number(c.req.header('Content-Length') ?? 0);
    const hasBody = c.req.raw.body !== null && (length > 0 || c.req.header('Transfer-Encoding') !== undefined);
    if (mediaType === '' && !hasBody) return next();
    if (!JSON_TYPE.test(mediaType)) {
      throw new ApiError(
        415,
        'UnsupportedMediaType',
        `send the body as application/json (got ${mediaType === '' ? 'no Content-Type' : `"${mediaType}"`})`,
      );
    }
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    let body: unknown;
    try {
      body = await c.req.json();
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      throw new ApiError(400, 'InvalidJson', `the request body is not valid JSON: ${detail}`, [
        { path: '(body)', message: detail },
      ]);
    }
    // Every string of every body is storable text: no NUL, no invalid UTF-8 (400 naming the field).
    const problem = firstTextProblem(body, !isUtf8(bytes));
    if (problem) throw badRequest(problem.path, problem.message);
    return next();
  };
}

/** Same-length constant-time comparison of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Resolves the caller from `X-API-KEY` (keys are stored as SHA-256 digests of a 256-bit secret,
 * found by digest and compared in constant time) or from a launch session (`Authorization:
 * Bearer <JWT>`). Sets `caller`; an unusable credential is remembered for `requireCaller`.
 */
export function resolveCaller(deps: Pick<Deps, 'store' | 'jwtSecret'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('X-API-KEY');
    let caller: Caller | undefined;
    if (key !== undefined && key !== '') {
      const digest = hashSecret(key);
      const row = await deps.store.findKeyByHashCached(digest);
      if (row && digestsEqual(row.keyHash, digest) && row.revokedAt === null) {
        if (row.expiresAt !== null && Date.parse(row.expiresAt) <= Date.now()) c.set('authRefusal', 'expired');
        else caller = { userId: row.userId, keyId: row.keyId, partnerAdmin: row.partnerAdmin, via: 'api-key' };
      }
    } else {
      const auth = c.req.header('Authorization');
      if (auth?.startsWith('Bearer ')) {
        try {
          const { payload } = await jwtVerify(auth.slice(7), await deps.jwtSecret(), {
            issuer: 'furrow',
            audience: 'furrow-web',
          });
          if (typeof payload.sub === 'string') caller = { userId: payload.sub, partnerAdmin: false, via: 'session' };
        } catch (err) {
          caller = undefined;
          if ((err as { code?: string }).code === 'ERR_JWT_EXPIRED') c.set('authRefusal', 'expired');
        }
      }
    }
    c.set('caller', caller);
    return next();
  };
}

/**
 * Rate limit per key (or per launch session, or per client address without a credential), on
 * every request: API, documentation, app pages. The X-RateLimit-* headers go on every response,
 * error bodies included (`onError` adds them from the context).
 */
export function rateLimit(deps: Pick<Deps, 'limiter'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const caller = c.get('caller');
    const bucket = caller?.keyId
      ? `key:${caller.keyId}`
      : caller
        ? `session:${caller.userId}`
        : `addr:${clientAddress(c.env)}`;
    const d = await deps.limiter.consume(bucket);
    const headers = {
      'X-RateLimit-Limit': String(d.limit),
      'X-RateLimit-Remaining': String(d.remaining),
      'X-RateLimit-Reset': String(d.resetSeconds),
    };
    c.set('rateHeaders', headers);
    if (!d.allowed) {
      throw new ApiError(
        429,
        'RATE_LIMIT_EXCEEDED',
        `rate limit of ${d.limit} requests per ${deps.limiter.windowSeconds} s exceeded; retry after ` +
          `${d.resetSeconds} s`,
        [],
        { limit: d.limit, windowSeconds: deps.limiter.windowSeconds, retryAfterSeconds: d.resetSeconds },
        { 'Retry-After': String(d.resetSeconds) },
      );
    }
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}

/**
 * `X-Content-Type-Options: nosniff` on every response, and on the app's pages (HTML) a
 * `frame-ancestors` policy: only the app's own origin and the partner origins configured for
 * launch return URLs may embed it.
 */
export function securityHeaders(config: Pick<ApiConfig, 'appUrl' | 'returnUrlOrigins'>): MiddlewareHandler<AppEnv> {
  const origins = [...new Set([config.appUrl, ...config.returnUrlOrigins].map((u) => new URL(u).origin))];
  const frameAncestors = `frame-ancestors 'self' ${origins.join(' ')}`;
  return async (c, next) => {
    await next();
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    if (!/^text\/html\b/i.test(c.res.headers.get('Content-Type') ?? '')) return;
    const policy = c.res.headers.get('Content-Security-Policy');
    const kept = policy
      ? policy
          .split(';')
          .map((d) => d.trim())
          .filter((d) => d !== '' && !/^frame-ancestors\b/i.test(d))
      : [];
    c.res.headers.set('Content-Security-Policy', [...kept, frameAncestors].join('; '));
  };
}

function clientAddress(env: unknown): string {
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'local';
}

/** 401 unless a valid key or session was presented. */
export function requireCaller(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get('caller')) {
      const key = c.req.header('X-API-KEY');
      const bearer = c.req.header('Authorization')?.startsWith('Bearer ') === true;
      const expired = c.get('authRefusal') === 'expired';
      const message =
        key !== undefined && key !== ''
          ? expired
            ? 'the API key has expired: create a new one (POST /api/api-keys)'
            : 'the API key is invalid or has been revoked'
          : bearer
            ? expired
              ? 'the session has expired: launch the application again from the partner'
              : 'the session token is invalid'
            : 'missing API key: send it in the X-API-KEY header';
      throw new ApiError(401, 'Unauthorized', message);
    }
    return next();
  };
}

/** 403 (`NotAuthorized`) for a launch session: the route takes an API key only. */
export function requireApiKey(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('caller')?.via !== 'api-key') {
      throw new ApiError(403, 'NotAuthorized', 'API keys are managed with an API key, not a launch session');
    }
    return next();
  };
}

/** 403 (`NotAuthorized`) unless the key carries the partner admin flag. */
export function requirePartnerAdmin(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get('caller')?.partnerAdmin) {
      throw new ApiError(
        403,
        'NotAuthorized',
        'this call needs a partner admin key (keys without the partner admin flag cannot call /api/partner/*)',
      );
    }
    return next();
  };
}
