/**
 * `furrow worker`: plans guidance-job items from the pg-boss queue of DATABASE_URL until SIGINT /
 * SIGTERM. Start as many as needed, on any machine that reaches the database.
 *
 * Environment: DATABASE_URL (postgres://…, required), FURROW_WORKER_THREADS (items at once = planning
 * threads, default = cores), plus the job settings read by `jobSettingsFromEnv`.
 */
import { availableParallelism } from 'node:os';
import pino from 'pino';
import { poolPlanner, type Planner } from '../planner.js';
import { openStore } from '../store/store.js';
import { untilStopSignal } from '../signals.js';
import type { JobSettings } from './engine.js';
import type { PgBossOptions } from './pgboss.js';
import { startJobs } from './service.js';

type Env = Record<string, string | undefined>;

function num(env: Env, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number ≥ ${min} (got "${raw}")`);
  return n;
}

/**
 * Job tuning shared by `furrow serve` and `furrow worker`: FURROW_JOB_MAX_ATTEMPTS (3),
 * FURROW_JOB_RETRY_DELAY_SECONDS (2, doubled per attempt), FURROW_JOB_EXPIRE_SECONDS (pg-boss:
 * seconds before a silent worker's item is retried; default item time cap + 30),
 * FURROW_JOB_MAINTENANCE_SECONDS (pg-boss expiry sweep, 30), FURROW_PLAN_COST, FURROW_PLAN_TIMEOUT_SECONDS.
 */
export function jobSettingsFromEnv(env: Env): { settings: Partial<JobSettings>; pgBoss: PgBossOptions } {
  const settings: Partial<JobSettings> = {
    maxAttempts: num(env, 'FURROW_JOB_MAX_ATTEMPTS', 3, 1),
    retryDelaySeconds: num(env, 'FURROW_JOB_RETRY_DELAY_SECONDS', 2, 0),
    planCostCredits: num(env, 'FURROW_PLAN_COST', 1, 0),
    planTimeoutCapSeconds: num(env, 'FURROW_PLAN_TIMEOUT_SECONDS', 120, 1),
  };
  const pgBoss: PgBossOptions = {
    maintenanceIntervalSeconds: num(env, 'FURROW_JOB_MAINTENANCE_SECONDS', 30, 1),
    retryDelaySeconds: settings.retryDelaySeconds,
  };
  if (env.FURROW_JOB_EXPIRE_SECONDS) pgBoss.expireInSeconds = num(env, 'FURROW_JOB_EXPIRE_SECONDS', 150, 1);
  return { settings, pgBoss };
}

export interface WorkerCommandOptions {
  threads?: number;
  /** Resolves when the worker should stop (default: SIGINT / SIGTERM). */
  until?: Promise<void>;
  planner?: Planner;
  out?: (line: string) => void;
}

export async function workerCommand(env: Env = process.env, opts: WorkerCommandOptions = {}): Promise<number> {
  const out = opts.out ?? ((line: string) => process.stderr.write(`${line}\n`));
  const url = env.DATABASE_URL ?? '';
  if (!url.startsWith('postgres://') && !url.startsWith('postgresql://')) {
    out(
      'furrow worker: DATABASE_URL must name a PostgreSQL database (postgres://…); the embedded store is planned ' +
        'by `furrow serve` itself.',
    );
    return 2;
  }
  const logger = pino({ level: env.FURROW_LOG_LEVEL ?? 'info' }, pino.destination(2));
  const threads = opts.threads ?? num(env, 'FURROW_WORKER_THREADS', availableParallelism(), 1);
  const { settings, pgBoss } = jobSettingsFromEnv(env);
  const store = await openStore(url);
  const planner = opts.planner ?? poolPlanner({ threads });
  try {
    const jobs = await startJobs({ store, planner, worker: true, settings, pgBoss, logger, concurrency: threads });
    logger.info({ threads, engine: jobs.engine, pid: process.pid }, 'furrow worker ready');
    await (opts.until ?? untilStopSignal());
    logger.info({ finished: jobs.runner?.finished ?? 0 }, 'furrow worker stopping');
    await jobs.close();
    return 0;
  } finally {
    await planner.close();
    await store.close();
  }
}
