/**
 * The PostgreSQL job engine: pg-boss (a queue in PostgreSQL with SKIP LOCKED fetches, expiry and
 * retries with backoff). Each item is one pg-boss job `{ jobId, itemIndex }` inserted in the same
 * transaction as the job's rows. Any process with the same DATABASE_URL (`furrow serve` with its
 * in-process worker, `furrow worker`) takes items from it. A worker killed mid-item leaves its
 * pg-boss job `active` until it expires; pg-boss then retries it and the item is taken over.
 *
 * Give-up: when pg-boss stops retrying an item (its retry limit reached, or it expired for the
 * last time) it moves the pg-boss job to the dead-letter queue `furrow-guidance-items-dead`; every
 * runner also works that queue and settles the item as `failed` (`AttemptsExhausted`), so the job
 * reaches a final status instead of staying `running`.
 */
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Sql, SqlParam } from '../store/sql.js';
import type { Store } from '../store/store.js';
import { claimItem, runClaimedItem, settleItem, type QueuedItem, type RunContext } from './engine.js';
import { workPriority } from './estimate.js';
import type { JobRunner } from './embedded.js';

export const ITEM_QUEUE = 'furrow-guidance-items';
/** Where pg-boss moves an item it gave up on (see the module comment). */
export const DEAD_ITEM_QUEUE = 'furrow-guidance-items-dead';
const SCHEMA = 'pgboss';

export interface PgBossOptions {
  /** Seconds before an active pg-boss job whose worker went silent is retried (default: item time cap + 30). */
  expireInSeconds?: number;
  /** pg-boss maintenance (expiry) interval, seconds (default 30). */
  maintenanceIntervalSeconds?: number;
  /** How often an idle worker polls, seconds (default 0.5, pg-boss's minimum). */
  pollingIntervalSeconds?: number;
  /** pg-boss retries of an item (default 5: our own attempt limit decides first). */
  retryLimit?: number;
  retryDelaySeconds?: number;
}

interface PgBossDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

const poolDb = (pool: pg.Pool): PgBossDb => ({ executeSql: (text, values) => pool.query(text, values as unknown[]) });
const txDb = (tx: Sql): PgBossDb => ({
  executeSql: async (text, values) => ({ rows: await tx.query(text, (values ?? []) as SqlParam[]) }),
});

/** A started pg-boss on the store's pool, with the item queue created. */
export async function startBoss(
  store: Store,
  opts: PgBossOptions & { supervise: boolean; expireInSeconds: number },
): Promise<PgBoss> {
  const pool = store.db.pgPool;
  if (!pool) throw new Error('the pg-boss engine needs a PostgreSQL store');
  const boss = new PgBoss({
    db: poolDb(pool),
    schema: SCHEMA,
    supervise: opts.supervise,
    schedule: false,
    maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds ?? 30,
  } as PgBoss.ConstructorOptions);
  boss.on('error', () => undefined);
  await boss.start();
  // The dead-letter queue first: the item queue refers to it.
  await ensureQueue(boss, DEAD_ITEM_QUEUE, { retryLimit: 5, retryDelay: 2, retryBackoff: true, expireInSeconds: 60 });
  await ensureQueue(boss, ITEM_QUEUE, {
    retryLimit: opts.retryLimit ?? 5,
    retryDelay: opts.retryDelaySeconds ?? 2,
    retryBackoff: true,
    expireInSeconds: opts.expireInSeconds,
    deadLetter: DEAD_ITEM_QUEUE,
  });
  return boss;
}

async function ensureQueue(boss: PgBoss, name: string, options: Omit<PgBoss.Queue, 'name'>): Promise<void> {
  if (!(await boss.getQueue(name))) {
    try {
      await boss.createQueue(name, { name, ...options });
      return;
    } catch (err) {
      // Another process created it at the same moment.
      if (!(await boss.getQueue(name))) throw err;
    }
  }
  await boss.updateQueue(name, { name, ...options });
}

/** The last error pg-boss recorded for a job (a handler's thrown error, or its expiry). */
function lastError(output: unknown): string {
  const o = output as { message?: unknown; value?: { message?: unknown } } | null | undefined;
  const message = o?.message ?? o?.value?.message;
  return typeof message === 'string' ? message : 'unknown';
}

/**
 * Inserts one pg-boss job per item inside the submitting transaction, prioritised by the item's
 * work estimate (pg-boss fetches the highest priority first): the largest items start first.
 */
export async function enqueueItems(boss: PgBoss, tx: Sql, jobId: string, items: QueuedItem[]): Promise<void> {
  const jobs = items.map(({ index, workEstimate }) => ({
    name: ITEM_QUEUE,
    data: { jobId, itemIndex: index },
    priority: workPriority(workEstimate),
  }));
  for (let i = 0; i < jobs.length; i += 1000) {
    await (boss.insert as (jobs: unknown[], options: { db: PgBossDb }) => Promise<unknown>)(jobs.slice(i, i + 1000), {
      db: txDb(tx),
    });
  }
}

/** Workers taking items from the pg-boss queue, `concurrency` at a time. */
export async function startPgBossRunner(
  ctx: RunContext,
  opts: PgBossOptions & { concurrency?: number } = {},
): Promise<JobRunner & { boss: PgBoss }> {
  const concurrency = Math.max(1, opts.concurrency ?? ctx.planner.threads);
  const expireInSeconds = opts.expireInSeconds ?? ctx.settings.planTimeoutCapSeconds + 30;
  const boss = await startBoss(ctx.store, { ...opts, supervise: true, expireInSeconds });
  let finished = 0;
  const handler = async ([job]: PgBoss.Job<{ jobId: string; itemIndex: number }>[]) => {
    const item = await claimItem(ctx.store, job.data.jobId, job.data.itemIndex, expireInSeconds);
    if (!item) {
      // Finished by an earlier delivery, or its job was cancelled: an item of a cancelled job
      // still `running` here lost its worker (this is a redelivery after expiry) and is settled.
      await settleItem(
        ctx.store,
        job.data.jobId,
        job.data.itemIndex,
        { code: 'Cancelled', message: 'cancelled' },
        { onlyCancelled: true },
      );
      return;
    }
    let cause = '';
    const outcome = await runClaimedItem(ctx, item, { onRetry: (message) => (cause = message) });
    if (outcome === 'done' || outcome === 'failed') finished++;
    // pg-boss retries it with backoff (the message becomes its output, quoted if it gives up).
    if (outcome === 'retry') throw new Error(`attempt ${item.attempts} failed transiently: ${cause}`);
  };
  // pg-boss gave up on these (retry limit reached, or expired for the last time).
  const giveUp = async ([job]: PgBoss.JobWithMetadata<{ jobId: string; itemIndex: number }>[]) => {
    const settled = await settleItem(ctx.store, job.data.jobId, job.data.itemIndex, {
      code: 'AttemptsExhausted',
      message:
        `the queue stopped retrying the item (retry limit reached, or it expired for the last time; last ` +
        `error: ${lastError(job.output)}); it was not planned`,
    });
    if (settled) {
      finished++;
      ctx.logger?.warn(
        { jobId: job.data.jobId, item: job.data.itemIndex, err: lastError(job.output) },
        'guidance job item given up by the queue',
      );
    }
  };
  // pg-boss's worker sleeps out its polling interval after every fetch, even one that returned an
  // item: with 0.5 s and items that plan in ~0.15 s, a worker would spend most of its time asleep.
  // Notifying the worker from its own handler skips that sleep, so a slot fetches its next item as
  // soon as it is free; only an empty fetch waits the interval (pg-boss resets the flag per fetch).
  for (let i = 0; i < concurrency; i++) {
    let workerId = '';
    workerId = await boss.work(
      ITEM_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5 },
      async (jobs: PgBoss.Job<{ jobId: string; itemIndex: number }>[]) => {
        try {
          await handler(jobs);
        } finally {
          boss.notifyWorker(workerId);
        }
      },
    );
  }
  await boss.work(
    DEAD_ITEM_QUEUE,
    { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5 },
    giveUp,
  );
  return {
    kind: 'pg-boss',
    concurrency,
    boss,
    get finished() {
      return finished;
    },
    notify() {},
    async close() {
      await boss.stop({ graceful: true, wait: true, close: false, timeout: 30_000 } as PgBoss.StopOptions);
    },
  };
}
