/**
 * The Hono app factory: middleware, routes, the OpenAPI document, `/docs`, one `onError`.
 * Build it with `createApp(deps)`; `app.request()` exercises it without a port.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { bodyLimit } from 'hono/body-limit';
import { except } from 'hono/combine';
import { compress } from 'hono/compress';
import { etag } from 'hono/etag';
import pino from 'pino';
import { randomBytes } from 'node:crypto';
import { type ApiConfig, type App, type AppEnv, type Deps, defaultConfig } from './context.js';
import { createAdmission } from './admission.js';
import { mountDocs } from './docs.js';
import { ApiError, errorBody, fromPlanError } from './errors.js';
import {
  jsonBodies,
  rateLimit,
  requestContext,
  requireApiKey,
  requireCaller,
  requirePartnerAdmin,
  resolveCaller,
  securityHeaders,
} from './middleware.js';
import { PlanAbortedError, inProcessPlanner, type Planner } from './planner.js';
import { createPlanGate } from './plan-gate.js';
import { createRateLimiter, type RateLimiter } from './ratelimit.js';
import { accountRoutes } from './routes/account.js';
import { validationHook } from './routes/common.js';
import { plansRoutes } from './routes/plans.js';
import { createPlanAhead, type FirstPlanRequest } from './plan-ahead.js';
import { fleetRoutes } from './routes/fleet.js';
import { extraRoutes } from './routes/registry.js';
import type { Store } from './store/store.js';
import { API_VERSION, CORRELATION_HEADER, VERSION_HEADER } from './version.js';

export interface CreateAppOptions {
  store: Store;
  /** Default: in-process planning with @furrow/core's planRoute (the server passes a worker pool). */
  planner?: Planner;
  /** Default: 600 requests per 60 s per key, shared in PostgreSQL when the store is PostgreSQL. */
  limiter?: RateLimiter;
  config?: Partial<ApiConfig>;
  /** Default: silent. */
  logger?: pino.Logger;
  /** HS256 secret of launch sessions (default: generated once and kept in the store's settings). */
  jwtSecret?: string;
  /** Mounts the web application (static files, pages) on the app, after the API routes. */
  web?: WebMount;
}

/**
 * Mounts a web application; `firstPlanRequest`, when the app has it, names the plan request the
 * app sends first for a field it opens, so a launch into that field plans it ahead (plan-ahead.ts).
 */
export type WebMount = ((app: App) => void) & { firstPlanRequest?: FirstPlanRequest };

/** Routes whose body is not JSON (boundary import takes files). */
const RAW_BODY_PATHS = [/^\/api\/fields\/[^/]+\/boundaries\/import$/, /^\/api\/boundaries\/read$/];

export function createApp(opts: CreateAppOptions): App {
  const config: ApiConfig = { ...defaultConfig, ...opts.config };
  const logger = opts.logger ?? pino({ level: 'silent' });
  let secret: Promise<Uint8Array> | undefined;
  const planner = opts.planner ?? inProcessPlanner();
  const planConcurrency = config.planConcurrency ?? Math.max(1, planner.threads);
  const deps: Deps = {
    store: opts.store,
    planner,
    planGate: createPlanGate({ concurrency: planConcurrency, queue: config.planQueue ?? 2 * planConcurrency }),
    limiter: opts.limiter ?? createRateLimiter({ points: 600, windowSeconds: 60, pgPool: opts.store.db.pgPool }),
    config,
    logger,
    jwtSecret: () =>
      (secret ??= (
        opts.jwtSecret
          ? Promise.resolve(opts.jwtSecret)
          : opts.store.setting('jwt_secret', () => randomBytes(32).toString('base64url'))
      ).then((s) => new TextEncoder().encode(s))),
  };

  // Only with planning off the event loop: an in-process plan ahead would hold up the launch's own requests.
  if (opts.web?.firstPlanRequest && planner.threads > 0)
    deps.planAhead = createPlanAhead(deps, opts.web.firstPlanRequest);

  const app: App = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.onError((err, c) => {
    const correlationId = c.get('correlationId') ?? 'none';
    const apiError = toApiError(err);
    if (apiError.status >= 500) logger.error({ correlationId, err: errorForLog(err) }, 'request failed');
    else logger.info({ correlationId, status: apiError.status, code: apiError.code }, 'request rejected');
    // A plain Response: Hono's c.json types its status without 499 (ClientClosedRequest, an unofficial code).
    const res = Response.json(errorBody(apiError, correlationId), { status: apiError.status });
    for (const [k, v] of Object.entries(apiError.headers)) res.headers.set(k, v);
    res.headers.set(CORRELATION_HEADER, correlationId);
    res.headers.set(VERSION_HEADER, API_VERSION);
    for (const [k, v] of Object.entries(c.get('rateHeaders') ?? {})) res.headers.set(k, v);
    return res;
  });
  app.notFound((c) => {
    throw new ApiError(404, 'NotFound', `no route for ${c.req.method} ${c.req.path}`);
  });

  // Order matters: the caller is known before the rate limit (its bucket), and the rate limit
  // comes before everything that can refuse a request (a 413 counts and carries the headers).
  const launchExchange = '/api/partner/launch/exchange';
  app.use('*', requestContext(deps));
  app.use('*', securityHeaders(config));
  app.use('/api/*', except(launchExchange, resolveCaller(deps)));
  app.use('*', rateLimit(deps));
  // Admission (after the rate limit, so a 429 carries its headers): `maxInFlight` served at once, the next wait.
  if (config.admission) app.use('*', except('/healthz', createAdmission(config.admission).middleware));
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: config.bodyLimitBytes,
      onError: () => {
        throw new ApiError(413, 'PayloadTooLarge', `the request body exceeds ${config.bodyLimitBytes} bytes`, [
          { path: '(body)', message: `at most ${config.bodyLimitBytes} bytes` },
        ]);
      },
    }),
  );
  // Every /api route but the launch exchange needs a key (or a launch session).
  app.use('/api/*', except(launchExchange, requireCaller()));
  app.use('/api/partner/*', except(launchExchange, requirePartnerAdmin()));
  // Keys are managed with an API key; a launch session manages none.
  app.use('/api/api-keys', requireApiKey());
  app.use('/api/api-keys/*', requireApiKey());
  app.use('/api/*', jsonBodies(RAW_BODY_PATHS));
  // Plan JSON is large and compresses ~5×: gzip it for clients that accept it. A stored plan never
  // changes: it carries an ETag and is revalidated (304) rather than sent again.
  app.use('/api/path-plans/*', compress());
  app.use('/api/plans/*', compress(), etag(), async (c, next) => {
    await next();
    if (c.req.method === 'GET' && c.res.ok && !c.res.headers.has('Cache-Control'))
      c.res.headers.set('Cache-Control', 'private, no-cache');
  });

  app.route('/', plansRoutes(deps));
  app.route('/', fleetRoutes(deps));
  app.route('/', accountRoutes(deps));
  for (const routes of extraRoutes) app.route('/', routes(deps));

  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-KEY',
  });
  app.doc31('/openapi.json', (c) => ({
    openapi: '3.1.0',
    info: {
      title: 'furrow API',
      version: API_VERSION,
      description:
        'Coverage route planning for farm machines: Quick Start plans, partner provisioning, land entities, launch ' +
        'codes. Send your key in the X-API-KEY header.',
    },
    servers: [{ url: new URL(c.req.url).origin }],
  }));
  mountDocs(app);
  app.get('/healthz', (c) => c.json({ ok: true, version: API_VERSION }));
  opts.web?.(app);
  return app;
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const fromPlan = fromPlanError(err);
  if (fromPlan) return fromPlan;
  if (err instanceof PlanAbortedError) {
    return err.reason === 'timeout'
      ? new ApiError(
          503,
          'PlanTimeout',
          'planning exceeded its time limit; lower routeOptions.maxOptimizerTime or simplify the field',
          [],
          {},
          { 'Retry-After': '1' },
        )
      : new ApiError(499, 'ClientClosedRequest', err.message);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    if (status === 400)
      return new ApiError(400, 'InvalidJson', err.message, [{ path: '(body)', message: err.message }]);
    if (status === 413) return new ApiError(413, 'PayloadTooLarge', err.message);
    return new ApiError(status, status === 401 ? 'Unauthorized' : 'HttpError', err.message);
  }
  return new ApiError(500, 'InternalError', 'an internal error occurred; quote the correlationId when reporting it');
}

function errorForLog(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { value: String(err) };
}
