/**
 * Retries, giving up and job statuses, on both engines: transient failures are retried with exponential backoff;
 * an item that never gets a result (failing every time, or its worker dying on every attempt)
 * ends `failed` with `AttemptsExhausted` / `PlanFailed`, and a cancelled job whose running item
 * lost its worker still finishes. No job stays `running` forever.
 *
 * Runners are started inside each test (a "dying worker" must act while none runs); a sender-only
 * job service, started first, stays registered for the routes throughout.
 */
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApp,
  createRateLimiter,
  defaultJobSettings,
  ITEM_QUEUE,
  openStore,
  startEmbeddedRunner,
  startJobs,
  startPgBossRunner,
  type JobRunner,
  type JobService,
  type JobSettings,
  type Store,
} from '@furrow/api';
import { describeWith } from '../support/requires.js';
import { startPostgres, type TestPostgres } from '../api/pg.js';
import { accountWithCompany, allResults, call, fakePlanner, squareAt, waitForJob } from './support.js';

type Engine = 'embedded' | 'pg-boss';
type Backend = { store: Store; url?: string; cleanup: () => Promise<void> };

const keyOf = (lon: number) => JSON.stringify(squareAt(lon).coordinates[0][0]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function giveUpSuite(engine: Engine, open: () => Promise<Backend>) {
  const calls = new Map<string, number>();
  const times = new Map<string, number[]>();
  const planner = fakePlanner(calls, times);
  // pg-boss gives up after 3 deliveries (retryLimit 2) before our own limit (6) decides; the embedded
  // engine has only our limit (3).
  const settings: JobSettings = {
    ...defaultJobSettings,
    maxAttempts: engine === 'embedded' ? 3 : 6,
    retryDelaySeconds: 1,
    planTimeoutCapSeconds: 5,
    planTimeoutGraceSeconds: 0,
  };
  const pgBoss = {
    retryLimit: 2,
    retryDelaySeconds: 1,
    expireInSeconds: 2,
    maintenanceIntervalSeconds: 1,
    pollingIntervalSeconds: 0.5,
  };
  let backend: Backend;
  let sender: JobService;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    backend = await open();
    sender = await startJobs({ store: backend.store, planner, worker: false, settings, pgBoss });
    app = createApp({
      store: backend.store,
      planner,
      limiter: createRateLimiter({ points: 100_000, windowSeconds: 60 }),
      config: { planTimeoutCapSeconds: 5, planTimeoutGraceSeconds: 0 },
    });
  }, 60_000);
  afterAll(async () => {
    await sender?.close();
    await backend?.cleanup();
  }, 60_000);

  const startRunner = (): Promise<JobRunner> => {
    const ctx = { store: backend.store, planner, settings };
    return engine === 'embedded'
      ? startEmbeddedRunner(ctx, { concurrency: 2, pollMs: 50, sweepMs: 200 })
      : startPgBossRunner(ctx, { ...pgBoss, concurrency: 2 });
  };

  /** A pg-boss worker that takes the item's queue entry and dies (never completes it), `times` times over. */
  async function dieOn(jobId: string, deliveries: number, claim: boolean): Promise<void> {
    const boss = new PgBoss({
      connectionString: backend.url!,
      schema: 'pgboss',
      supervise: true,
      schedule: false,
      maintenanceIntervalSeconds: 1,
    } as PgBoss.ConstructorOptions);
    boss.on('error', () => undefined);
    await boss.start();
    try {
      for (let n = 0; n < deliveries; n++) {
        const deadline = Date.now() + 30_000;
        for (;;) {
          const [job] = ((await boss.fetch(ITEM_QUEUE)) ?? []) as PgBoss.Job<{ jobId: string; itemIndex: number }>[];
          if (job) {
            expect(job.data.jobId).toBe(jobId);
            break;
          }
          if (Date.now() > deadline) throw new Error(`delivery ${n + 1} never came`);
          await sleep(200);
        }
        // As our handler's claim would: the item is running, with a lease.
        if (claim)
          await backend.store.db.query(
            "UPDATE guidance_job_items SET status = 'running', attempts = attempts + 1, started_at = now(), lease_until = now() + interval '2 seconds' WHERE job_id = $1",
            [jobId],
          );
      }
    } finally {
      await boss.stop({ graceful: false, close: true, wait: true } as PgBoss.StopOptions);
    }
  }

  it('retries transient failures with exponential backoff; an item failing every time ends failed', async () => {
    const acct = await accountWithCompany(backend.store, `retry-${engine}`, 100, 0);
    const items = [
      { boundary: squareAt(2.1), equipment: { widthMeters: 6, turnRadiusMeters: 44 } }, // fails twice, then plans
      { boundary: squareAt(2.2), equipment: { widthMeters: 6, turnRadiusMeters: 66 } }, // fails every time
      { boundary: squareAt(2.3), equipment: { widthMeters: 6 } },
    ];
    const submitted = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, { items });
    expect(submitted.status).toBe(202);
    const runner = await startRunner();
    try {
      const final = await waitForJob(app, acct.apiKey, submitted.body.jobId, 60_000);
      expect(final.body.status).toBe('completed_with_errors');
      expect(final.body.progress).toMatchObject({ done: 2, failed: 1, running: 0, queued: 0, total: 3 });
      expect(final.body.finishedAt).not.toBeNull();
      expect(final.headers.get('retry-after')).toBeNull();
    } finally {
      await runner.close();
    }
    const results = await allResults(app, acct.apiKey, submitted.body.jobId);
    expect(results[0]).toMatchObject({ status: 'done', attempts: 3 });
    expect(results[2]).toMatchObject({ status: 'done', attempts: 1 });
    // Backoff: at least 1 s before the second attempt, at least 2 s before the third.
    const t = times.get(keyOf(2.1))!;
    expect(t.length).toBe(3);
    expect(t[1] - t[0]).toBeGreaterThanOrEqual(950);
    expect(t[2] - t[1]).toBeGreaterThanOrEqual(1950);
    // The always-failing item: 3 attempts, then its error (our limit on the embedded engine;
    // pg-boss's retry limit, through its dead-letter queue, on PostgreSQL).
    expect(results[1].status).toBe('failed');
    expect(results[1].attempts).toBe(3);
    expect(calls.get(keyOf(2.2))).toBe(3);
    if (engine === 'embedded') {
      expect(results[1].error.code).toBe('PlanFailed');
      expect(results[1].error.message).toMatch(/every time/);
    } else {
      expect(results[1].error.code).toBe('AttemptsExhausted');
      expect(results[1].error.message).toMatch(
        /stopped retrying.*attempt 3 failed transiently: .*connection reset \(transient, every time\)/,
      );
    }
    expect(results[1].planId).toBeUndefined();
    expect(await backend.store.balance('user', acct.userId)).toBe(98);
  }, 90_000);

  it('gives up on an item whose worker dies on every attempt: the job ends instead of running forever', async () => {
    const acct = await accountWithCompany(backend.store, `dying-${engine}`, 100, 0);
    const submitted = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, {
      items: [
        { boundary: squareAt(2.5), equipment: { widthMeters: 6 } },
        ...(engine === 'embedded' ? [{ boundary: squareAt(2.6), equipment: { widthMeters: 6 } }] : []),
      ],
    });
    expect(submitted.status).toBe(202);
    const jobId = submitted.body.jobId as string;
    if (engine === 'embedded') {
      // A crash on item 0's last attempt, and on item 1's first: both leases ran out.
      await backend.store.db.query(
        `UPDATE guidance_job_items SET status = 'running', attempts = CASE item_index WHEN 0 THEN 3 ELSE 1 END, started_at = now(),
           lease_until = now() - interval '1 second' WHERE job_id = $1`,
        [jobId],
      );
    } else {
      // Three workers in a row take the item's queue entry and die before claiming it: pg-boss
      // expires it each time and gives up after the third (retryLimit 2). The item is still `queued`.
      await dieOn(jobId, 3, false);
      const stuck = await call(app, 'GET', `/api/guidance-jobs/${jobId}`, acct.apiKey);
      expect(stuck.body.status).toBe('queued');
    }
    const runner = await startRunner();
    try {
      const final = await waitForJob(app, acct.apiKey, jobId, 60_000);
      expect(final.body.finishedAt).not.toBeNull();
      const results = await allResults(app, acct.apiKey, jobId);
      expect(results[0].status).toBe('failed');
      expect(results[0].error.code).toBe('AttemptsExhausted');
      expect(calls.get(keyOf(2.5))).toBeUndefined();
      if (engine === 'embedded') {
        expect(final.body.status).toBe('completed_with_errors');
        expect(results[0].attempts).toBe(3);
        expect(results[0].error.message).toMatch(/started 3 times/);
        // The other interrupted item had attempts left: taken over and planned.
        expect(results[1]).toMatchObject({ status: 'done', attempts: 2 });
      } else {
        expect(final.body.status).toBe('failed');
        expect(results[0].error.message).toMatch(/expired|timeout/);
      }
    } finally {
      await runner.close();
    }
  }, 90_000);

  it('reports queued, then running, then failed when every item failed; a finished job cannot be cancelled (409)', async () => {
    const acct = await accountWithCompany(backend.store, `statuses-${engine}`, 100, 0);
    const degenerate = {
      type: 'Polygon',
      coordinates: [
        [
          [2.95, 47.1],
          [2.96, 47.1],
          [2.95, 47.1],
        ],
      ],
    };
    const submitted = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, {
      items: [
        // Never finishes: stopped by its time limit (maxOptimizerTime 1 s + no grace).
        {
          boundary: squareAt(2.9),
          equipment: { widthMeters: 6, turnRadiusMeters: 77 },
          routeOptions: { maxOptimizerTime: 1 },
        },
        { boundary: degenerate, equipment: { widthMeters: 6 } },
      ],
    });
    expect(submitted.status).toBe(202);
    const jobId = submitted.body.jobId as string;
    // No worker runs yet.
    const queued = await call(app, 'GET', `/api/guidance-jobs/${jobId}`, acct.apiKey);
    expect(queued.body).toMatchObject({
      status: 'queued',
      startedAt: null,
      finishedAt: null,
      progress: { queued: 2, running: 0, total: 2 },
    });
    expect(queued.headers.get('retry-after')).toBe('5');
    const runner = await startRunner();
    try {
      const running = await waitForJob(app, acct.apiKey, jobId, 20_000, (j) => j.status !== 'queued');
      expect(running.body.status).toBe('running');
      expect(running.body.startedAt).not.toBeNull();
      expect(running.headers.get('retry-after')).toBe('5');
      const final = await waitForJob(app, acct.apiKey, jobId, 30_000);
      expect(final.body.status).toBe('failed');
      expect(final.body.progress).toMatchObject({ done: 0, failed: 2, total: 2 });
    } finally {
      await runner.close();
    }
    const results = await allResults(app, acct.apiKey, jobId);
    expect(results[0].error.code).toBe('PlanTimeout');
    expect(results[0].attempts).toBe(1);
    expect(results[1].error.code).toMatch(/InvalidGeometry|ValidationFailed/);
    const again = await call(app, 'DELETE', `/api/guidance-jobs/${jobId}`, acct.apiKey);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('JobFinished');
    expect(await backend.store.balance('user', acct.userId)).toBe(100);
  }, 90_000);

  it('a cancelled job whose running item lost its worker still finishes', async () => {
    const acct = await accountWithCompany(backend.store, `cancel-dead-${engine}`, 100, 0);
    const submitted = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, {
      items: [
        { boundary: squareAt(2.7), equipment: { widthMeters: 6 } },
        ...(engine === 'embedded' ? [{ boundary: squareAt(2.8), equipment: { widthMeters: 6 } }] : []),
      ],
    });
    const jobId = submitted.body.jobId as string;
    if (engine === 'embedded') {
      await backend.store.db.query(
        "UPDATE guidance_job_items SET status = 'running', attempts = 1, started_at = now(), lease_until = now() - interval '1 second' WHERE job_id = $1 AND item_index = 0",
        [jobId],
      );
    } else {
      await dieOn(jobId, 1, true);
    }
    const cancelled = await call(app, 'DELETE', `/api/guidance-jobs/${jobId}`, acct.apiKey);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body.progress.running).toBe(1);
    expect(cancelled.headers.get('retry-after')).toBe('5');
    const runner = await startRunner();
    try {
      const final = await waitForJob(app, acct.apiKey, jobId, 60_000);
      expect(final.body.status).toBe('cancelled');
      expect(final.body.progress).toMatchObject({
        running: 0,
        queued: 0,
        done: 0,
        failed: 0,
        cancelled: engine === 'embedded' ? 2 : 1,
      });
      expect(final.body.finishedAt).not.toBeNull();
      expect(final.headers.get('retry-after')).toBeNull();
    } finally {
      await runner.close();
    }
    expect(calls.get(keyOf(2.7))).toBeUndefined();
    expect(await backend.store.balance('user', acct.userId)).toBe(100);
  }, 90_000);
}

describe('retries and giving up, embedded store (PGlite)', () => {
  giveUpSuite('embedded', async () => {
    const store = await openStore('memory:');
    return { store, cleanup: () => store.close() };
  });
});

describeWith(['postgres'], 'retries and giving up, PostgreSQL (pg-boss)', () => {
  let pg: TestPostgres | undefined;
  giveUpSuite('pg-boss', async () => {
    pg = await startPostgres();
    const store = await openStore(pg.url);
    return {
      store,
      url: pg.url,
      cleanup: async () => {
        await store.close();
        pg?.stop();
      },
    };
  });
});
