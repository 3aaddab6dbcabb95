/** What every route can reach: the store, the planner, limits, configuration and the caller. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Logger } from 'pino';
import type { PlanGate } from './plan-gate.js';
import type { ApiPlan, Planner } from './planner.js';
import type { PathPlanRequestBody } from './schemas.js';
import type { RateLimiter } from './ratelimit.js';
import type { Store } from './store/store.js';

/** Admission of every request (admission.ts). */
export interface AdmissionOptions {
  /** Requests served at once. */
  maxInFlight: number;
  /** The shortest wait for a slot, ms (longer when requests are served slowly, see above). */
  waitMs: number;
  /** Requests that may wait at once (default 4 × maxInFlight); more are refused at once. */
  maxWaiting?: number;
}

export interface ApiConfig {
  /** Credits one plan costs (direct or stored). */
  planCostCredits: number;
  /** Largest accepted request body, bytes. */
  bodyLimitBytes: number;
  /** Upper bound on any plan's run time, seconds, whatever maxOptimizerTime asks. */
  planTimeoutCapSeconds: number;
  /** Seconds a plan may run beyond its maxOptimizerTime (geometry, turns, metrics). */
  planTimeoutGraceSeconds: number;
  /** The web application's address, for launch URLs. */
  appUrl: string;
  /** Origins a launch returnUrl may point to besides appUrl's. */
  returnUrlOrigins: string[];
  launchCodeSeconds: number;
  /** Lifetime of the JWT sessions issued by the launch exchange, seconds. */
  sessionSeconds: number;
  /** Credits given to a key created by `furrow keys create` or the bootstrap key. */
  initialCredits: number;
  /** Synchronous plans run at once (default: the planner's threads, at least 1). */
  planConcurrency?: number;
  /** Synchronous plans that may wait for a slot; more are answered 429 (default: 2 × planConcurrency). */
  planQueue?: number;
  /**
   * Admission of every request: `maxInFlight` served at once, the next wait for a slot (at least
   * `waitMs`), then 429 (`reason: "server-busy"`). Default: none (`serve()` sets it from the environment).
   */
  admission?: AdmissionOptions;
}

export const defaultConfig: ApiConfig = {
  planCostCredits: 1,
  bodyLimitBytes: 10 * 1024 * 1024,
  planTimeoutCapSeconds: 120,
  planTimeoutGraceSeconds: 30,
  appUrl: 'http://127.0.0.1:8787',
  returnUrlOrigins: [],
  launchCodeSeconds: 600,
  sessionSeconds: 8 * 3600,
  initialCredits: 1000,
};

export interface Caller {
  userId: string;
  /** The key's id, or undefined for a launch session (JWT). */
  keyId?: string;
  partnerAdmin: boolean;
  via: 'api-key' | 'session';
}

/** Plans started ahead of the app's first request (plan-ahead.ts `createPlanAhead`). */
export interface PlanAhead {
  /**
   * After a launch code is issued, and again when it is exchanged: plans the launched field (as
   * `GET /api/boundaries/{boundaryId}` answers it: plan-ahead.ts `launchedField`), if the app will plan it and
   * it is not planned ahead already.
   */
  afterLaunch(userId: string, field: unknown): void;
  /** The plan started ahead for this user and request (once), else undefined. */
  take(userId: string, request: PathPlanRequestBody): Promise<ApiPlan> | undefined;
}

export interface Deps {
  store: Store;
  planner: Planner;
  /** Bounds the synchronous plans running and waiting (429 beyond). */
  planGate: PlanGate;
  limiter: RateLimiter;
  config: ApiConfig;
  logger: Logger;
  /** HS256 secret of launch sessions. */
  jwtSecret: () => Promise<Uint8Array>;
  /** Plans a launched field ahead of the web app's request (with a web app that says what it asks first). */
  planAhead?: PlanAhead;
}

export interface AppEnv {
  Variables: {
    correlationId: string;
    caller: Caller | undefined;
    /** Why a presented credential was refused (for the 401 message). */
    authRefusal: 'expired' | undefined;
    /** The rate limit's X-RateLimit-* headers of this request, set on every response (errors too). */
    rateHeaders: Record<string, string> | undefined;
  };
}

export type App = OpenAPIHono<AppEnv>;

/** The caller of an authenticated route (the auth middleware guarantees it). */
export function callerOf(c: { get(key: 'caller'): Caller | undefined }): Caller {
  const caller = c.get('caller');
  if (!caller) throw new Error('route reached without a caller');
  return caller;
}
