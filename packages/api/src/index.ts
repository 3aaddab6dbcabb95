/** @furrow/api: the HTTP API (Hono), its store, and the server commands the CLI calls. */
export { createApp, type CreateAppOptions, type WebMount } from './app.js';
export { createPlanAhead, stableJson, type FirstPlanRequest } from './plan-ahead.js';
export {
  serve,
  serveCommand,
  createKeyCommand,
  inviteUserCommand,
  type InviteUserOptions,
  type ServeOptions,
  type RunningServer,
  type CreateKeyOptions,
} from './server.js';
export { defaultConfig, type ApiConfig, type App, type AppEnv, type Caller } from './context.js';
export { inProcessPlanner, poolPlanner, type Planner, type PlanFunction } from './planner.js';
export { createPlanGate, type PlanGate, type PlanGateOptions } from './plan-gate.js';
export { createAdmission, type Admission } from './admission.js';
export type { AdmissionOptions, PlanAhead } from './context.js';
export { createRateLimiter, type RateLimiter, type RateDecision } from './ratelimit.js';
export { Store, openStore, hashSecret, generateApiKey } from './store/store.js';
export { migrations, migrate } from './store/migrations.js';
export { type Sql, type SqlBackend, pgliteBackend, postgresBackend } from './store/sql.js';
export { openSql } from './store/open.js';
export { ApiError } from './errors.js';
export { API_VERSION, VERSION_HEADER, CORRELATION_HEADER } from './version.js';
export * from './portals/index.js';
export * from './jobs/index.js';
