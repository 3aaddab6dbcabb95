/**
 * The PostgreSQL job engine: pg-boss (a queue in PostgreSQL with SKIP LOCKED fetches, expiry and
 * retries with backoff). Each item is one pg-boss job `{ jobId, itemIndex }` inserted in the same
 * transaction as the job's rows. Any process with the same DATABASE_URL (`furrow serve` with its
 * in-process worker, `furrow worker`) takes items from it. A worker killed mid-item leaves its
 * pg-boss job `active` until it expires; pg-boss then retries it and the item is taken over.
 */
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Sql } from '../store/sql.js';
import type { Store } from '../store/store.js';
import { claimItem, runClaimedItem, type RunContext } from './engine.js';
import type { JobRunner } from './embedded.js';

export const ITEM_QUEUE = 'furrow-guidance-items';
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
const txDb = (tx: Sql): PgBossDb => ({ executeSql: async (text, values) => ({ rows: await tx.query(text, (values ?? []) as never) }) });

/** A started pg-boss on the store's pool, with the item queue created. */
export async function startBoss(store: Store, opts: PgBossOptions & { supervise: boolean; expireInSeconds: number }): Promise<PgBoss> {
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
  const queue = {
    retryLimit: opts.retryLimit ?? 5,
    retryDelay: opts.retryDelaySeconds ?? 2,
    retryBackoff: true,
    expireInSeconds: opts.expireInSeconds,
  };
  if (!(await boss.getQueue(ITEM_QUEUE))) {
    try {
      await boss.createQueue(ITEM_QUEUE, { name: ITEM_QUEUE, ...queue });
    } catch (err) {
      // Another process created it at the same moment.
      if (!(await boss.getQueue(ITEM_QUEUE))) throw err;
    }
  } else {
    await boss.updateQueue(ITEM_QUEUE, { name: ITEM_QUEUE, ...queue });
  }
  return boss;
}

/** Inserts one pg-boss job per item inside the submitting transaction. */
export async function enqueueItems(boss: PgBoss, tx: Sql, jobId: string, indices: number[]): Promise<void> {
  const jobs = indices.map((itemIndex) => ({ name: ITEM_QUEUE, data: { jobId, itemIndex } }));
  for (let i = 0; i < jobs.length; i += 1000) {
    await (boss.insert as (jobs: unknown[], options: { db: PgBossDb }) => Promise<unknown>)(jobs.slice(i, i + 1000), { db: txDb(tx) });
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
    if (!item) return; // finished by an earlier delivery, or cancelled
    const outcome = await runClaimedItem(ctx, item);
    if (outcome === 'done' || outcome === 'failed') finished++;
    if (outcome === 'retry') throw new Error(`item ${item.itemIndex} of job ${item.jobId} failed transiently (attempt ${item.attempts})`);
  };
  for (let i = 0; i < concurrency; i++) {
    await boss.work(ITEM_QUEUE, { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5 }, handler);
  }
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
