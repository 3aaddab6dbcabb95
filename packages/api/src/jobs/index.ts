/** Bulk guidance jobs: routes, the shared engine, the embedded and pg-boss runners. */
export { jobRoutes, mergeRequest, MAX_JOB_ITEMS, RETRY_AFTER_SECONDS } from './routes.js';
export { startJobs, jobServiceFor, type JobService, type StartJobsOptions } from './service.js';
export { startEmbeddedRunner, type JobRunner, type EmbeddedRunnerOptions } from './embedded.js';
export { startPgBossRunner, ITEM_QUEUE, DEAD_ITEM_QUEUE, type PgBossOptions } from './pgboss.js';
export { workerCommand, type WorkerCommandOptions } from './worker-command.js';
export { estimateWork, workPriority } from './estimate.js';
export {
  defaultJobSettings,
  getJob,
  getResults,
  type JobSettings,
  type JobStatus,
  type JobView,
  type ItemResult,
  type ItemError,
} from './engine.js';
