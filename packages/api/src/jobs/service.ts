/**
 * One job service per store: how submitted items reach a queue (`enqueue`), and optionally the
 * worker that plans them in this process. PostgreSQL → pg-boss; the embedded store → the
 * store's own items table claimed by a loop over the worker-thread pool.
 *
 * `startJobs` is what `serve()` and `furrow worker` call; the job routes find the service of
 * their store with `jobServiceFor` (a sender-only one is made when none was started).
 */
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Planner } from '../planner.js';
import type { Sql } from '../store/sql.js';
import type { Store } from '../store/store.js';
import { startEmbeddedRunner, type JobRunner } from './embedded.js';
import { defaultJobSettings, type JobSettings, type QueuedItem } from './engine.js';
import { enqueueItems, startBoss, startPgBossRunner, type PgBossOptions } from './pgboss.js';

export interface JobService {
  readonly engine: 'embedded' | 'pg-boss';
  /** The in-process worker, when this process plans items. */
  readonly runner?: JobRunner;
  settings: JobSettings;
  enqueue(tx: Sql, jobId: string, items: QueuedItem[]): Promise<void>;
  /** Called after a submit commits (wakes an embedded worker). */
  submitted(): void;
  close(): Promise<void>;
}

export interface StartJobsOptions {
  store: Store;
  planner: Planner;
  /** Run a worker in this process (default true). */
  worker?: boolean;
  settings?: Partial<JobSettings>;
  logger?: Logger;
  /** Items planned at once by this process's worker (default: the planner's threads). */
  concurrency?: number;
  /** Embedded engine: idle poll interval, milliseconds. */
  pollMs?: number;
  /** Embedded engine: how often the give-up sweep runs, milliseconds (default 5000). */
  sweepMs?: number;
  /** pg-boss engine tuning (tests shorten expiry and maintenance). */
  pgBoss?: PgBossOptions;
}

const services = new WeakMap<Store, Promise<JobService>>();

export function startJobs(opts: StartJobsOptions): Promise<JobService> {
  const made = makeService(opts);
  services.set(opts.store, made);
  made.catch(() => services.delete(opts.store));
  return made;
}

/** The service of `store`; a sender-only one (no worker) when none was started. */
export function jobServiceFor(
  store: Store,
  planner: Planner,
  settings: Partial<JobSettings> = {},
): Promise<JobService> {
  return services.get(store) ?? startJobs({ store, planner, worker: false, settings });
}

async function makeService(opts: StartJobsOptions): Promise<JobService> {
  const settings: JobSettings = { ...defaultJobSettings, ...opts.settings };
  const ctx = { store: opts.store, planner: opts.planner, settings, logger: opts.logger };
  const worker = opts.worker ?? true;
  if (opts.store.db.kind === 'postgres') {
    const expireInSeconds = opts.pgBoss?.expireInSeconds ?? settings.planTimeoutCapSeconds + 30;
    let runner: (JobRunner & { boss: PgBoss }) | undefined;
    let boss: PgBoss;
    if (worker) {
      runner = await startPgBossRunner(ctx, { ...opts.pgBoss, expireInSeconds, concurrency: opts.concurrency });
      boss = runner.boss;
    } else {
      boss = await startBoss(opts.store, { ...opts.pgBoss, supervise: false, expireInSeconds });
    }
    return {
      engine: 'pg-boss',
      runner,
      settings,
      enqueue: (tx, jobId, items) => enqueueItems(boss, tx, jobId, items),
      submitted() {},
      async close() {
        if (runner) await runner.close();
        else await boss.stop({ graceful: false, close: false, wait: true } as PgBoss.StopOptions);
        services.delete(opts.store);
      },
    };
  }
  const runner = worker
    ? await startEmbeddedRunner(ctx, { concurrency: opts.concurrency, pollMs: opts.pollMs, sweepMs: opts.sweepMs })
    : undefined;
  return {
    engine: 'embedded',
    runner,
    settings,
    enqueue: async () => undefined,
    submitted: () => runner?.notify(),
    async close() {
      await runner?.close();
      services.delete(opts.store);
    },
  };
}
