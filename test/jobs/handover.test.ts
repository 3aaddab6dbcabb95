/**
 * The embedded claim loop hands a planning thread its next item as soon as the thread has planned
 * one, and records the finished item after that claim: with one slot, every item after the first
 * is claimed (started_at) before the item planned just before it is recorded (finished_at, the
 * start of its recording transaction). Without the hand-over the claim waits for the recording.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  createApp,
  createRateLimiter,
  defaultJobSettings,
  openStore,
  startJobs,
  type JobService,
  type Store,
} from '@furrow/api';
import { accountWithCompany, call, fakePlanner, squareAt, waitForJob } from './support.js';

describe('embedded claim loop: next item claimed before the last one is recorded', () => {
  let store: Store | undefined;
  let jobs: JobService | undefined;
  afterAll(async () => {
    await jobs?.close();
    await store?.close();
  }, 60_000);

  it('claims each next item while the previous plan is still unrecorded, and records every item once', async () => {
    store = await openStore('memory:');
    const calls = new Map<string, number>();
    const planner = fakePlanner(calls);
    const settings = {
      ...defaultJobSettings,
      retryDelaySeconds: 1,
      planTimeoutCapSeconds: 5,
      planTimeoutGraceSeconds: 0,
    };
    jobs = await startJobs({ store, planner, settings, concurrency: 1, pollMs: 50 });
    const app = createApp({
      store,
      planner,
      limiter: createRateLimiter({ points: 100_000, windowSeconds: 60 }),
      config: { planTimeoutCapSeconds: 5, planTimeoutGraceSeconds: 0 },
    });
    const acct = await accountWithCompany(store, 'handover', 100, 0);
    const items = Array.from({ length: 6 }, (_, i) => ({
      boundary: squareAt(5 + i / 10),
      equipment: { widthMeters: 6 },
    }));
    const submitted = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, { items });
    expect(submitted.status).toBe(202);
    const final = await waitForJob(app, acct.apiKey, submitted.body.jobId, 60_000);
    expect(final.body.status).toBe('completed');
    const rows = await store.db.query<{
      item_index: number;
      started: string;
      finished: string;
      plan_id: string | null;
    }>(
      `SELECT item_index, to_char(started_at, 'YYYY-MM-DD HH24:MI:SS.US') AS started, to_char(finished_at, 'YYYY-MM-DD HH24:MI:SS.US') AS finished, plan_id
       FROM guidance_job_items WHERE job_id = $1 ORDER BY started_at`,
      [submitted.body.jobId],
    );
    expect(rows).toHaveLength(6);
    for (let k = 1; k < rows.length; k++)
      expect(
        rows[k].started < rows[k - 1].finished,
        `item ${rows[k].item_index} claimed before item ${rows[k - 1].item_index} was recorded`,
      ).toBe(true);
    // Each item planned once and stored once.
    expect([...calls.values()].every((n) => n === 1)).toBe(true);
    const plans = await store.db.query<{ n: string; distinct_plans: string }>(
      'SELECT count(*) AS n, count(DISTINCT p.plan_id) AS distinct_plans FROM plans p JOIN guidance_job_items i ON i.plan_id = p.plan_id WHERE i.job_id = $1',
      [submitted.body.jobId],
    );
    expect(Number(plans[0].n)).toBe(6);
    expect(Number(plans[0].distinct_plans)).toBe(6);
  }, 90_000);
});
