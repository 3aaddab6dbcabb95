/**
 * The pg-boss runner fetches its next item as soon as a slot is free. pg-boss's own worker loop
 * sleeps out its polling interval after every fetch, even one that brought an item; the runner
 * skips that sleep, so only an empty fetch waits. Checked with a long polling interval (3 s) and
 * one slot: the items of one job follow each other with no interval-long pause between them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createApp,
  createRateLimiter,
  defaultJobSettings,
  openStore,
  startJobs,
  startPgBossRunner,
  type JobRunner,
  type JobService,
  type Store,
} from '@furrow/api';
import { describeWith } from '../support/requires.js';
import { startPostgres, type TestPostgres } from '../api/pg.js';
import { accountWithCompany, call, fakePlanner, squareAt, waitForJob } from './support.js';

const POLL_SECONDS = 3;

describeWith(
  ['postgres'],
  'pg-boss runner: the next item is fetched when a slot frees, not after the polling interval',
  () => {
    let pg: TestPostgres;
    let store: Store;
    let sender: JobService;
    let runner: JobRunner | undefined;
    const calls = new Map<string, number>();
    const times = new Map<string, number[]>();
    const planner = fakePlanner(calls, times);
    const settings = {
      ...defaultJobSettings,
      retryDelaySeconds: 1,
      planTimeoutCapSeconds: 5,
      planTimeoutGraceSeconds: 0,
    };

    beforeAll(async () => {
      pg = await startPostgres();
      store = await openStore(pg.url);
      sender = await startJobs({ store, planner, worker: false, settings });
    }, 60_000);
    afterAll(async () => {
      await runner?.close();
      await sender?.close();
      await store?.close();
      pg?.stop();
    }, 60_000);

    it('plans 6 items on one slot without a polling pause between them', async () => {
      const app = createApp({
        store,
        planner,
        limiter: createRateLimiter({ points: 100_000, windowSeconds: 60 }),
        config: { planTimeoutCapSeconds: 5, planTimeoutGraceSeconds: 0 },
      });
      const acct = await accountWithCompany(store, 'fetch-loop', 100, 0);
      const lons = [3.1, 3.2, 3.3, 3.4, 3.5, 3.6];
      const items = lons.map((lon) => ({ boundary: squareAt(lon), equipment: { widthMeters: 6 } }));
      const submitted = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, { items });
      expect(submitted.status).toBe(202);
      runner = await startPgBossRunner(
        { store, planner, settings },
        { concurrency: 1, pollingIntervalSeconds: POLL_SECONDS, expireInSeconds: 30 },
      );
      const final = await waitForJob(app, acct.apiKey, submitted.body.jobId, 60_000);
      expect(final.body.status).toBe('completed');
      expect(final.body.progress).toMatchObject({ done: 6, failed: 0, total: 6 });
      // Each item planned once; one slot plans them one after another. The fake planner returns at
      // once, so consecutive starts are apart by the per-item bookkeeping (tens of ms), far below the
      // polling interval a sleeping worker would add between them.
      const starts = lons.map((lon) => {
        const t = times.get(JSON.stringify(squareAt(lon).coordinates[0][0]));
        expect(t).toHaveLength(1);
        return t![0];
      });
      starts.sort((a, b) => a - b);
      const gaps = starts.slice(1).map((t, i) => t - starts[i]);
      expect(Math.max(...gaps)).toBeLessThan((POLL_SECONDS * 1000) / 2);
    }, 90_000);
  },
);
