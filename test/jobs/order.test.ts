/**
 * Longest-processing-time order: both queues hand out the items of a job with the largest work
 * estimate first, so a job's slow fields do not run last while the other workers sit idle. One
 * slot, items submitted smallest first: the planner is called largest first.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  createApp,
  createRateLimiter,
  defaultJobSettings,
  estimateWork,
  openStore,
  startJobs,
  startPgBossRunner,
  type JobRunner,
  type JobService,
  type Store,
} from '@furrow/api';
import { describeWith } from '../support/requires.js';
import { openPostgresStore } from '../api/pg.js';
import { accountWithCompany, call, fakePlanner, squareAt, waitForJob } from './support.js';

/** A square with `holes` small square holes inside it. */
function squareWithHoles(lon: number, d: number, holes: number) {
  const outer = squareAt(lon, 47.37, d).coordinates[0];
  const inner = Array.from({ length: holes }, (_, k) => {
    const x = lon + (d * (k + 1)) / (holes + 2),
      y = 47.37 + d / 2,
      h = d / (4 * (holes + 2));
    return [
      [x, y],
      [x, y + h],
      [x + h, y + h],
      [x + h, y],
      [x, y],
    ];
  });
  return { type: 'Polygon' as const, coordinates: [outer, ...inner] };
}

describe('estimateWork', () => {
  it('grows with area, with holes and obstacles, and as the machine narrows', () => {
    const req = { machine: { widthMeters: 6 } };
    const small = estimateWork(squareAt(1, 47.37, 0.001), req);
    const large = estimateWork(squareAt(1, 47.37, 0.004), req);
    expect(small).toBeGreaterThan(0);
    // Four times the side: 16 times the area, 4 times the square root.
    expect(large / small).toBeCloseTo(4, 1);
    expect(estimateWork(squareWithHoles(1, 0.004, 2), req)).toBeGreaterThan(large * 2);
    expect(
      estimateWork(squareAt(1, 47.37, 0.004), { ...req, obstacles: [{ geometry: squareAt(1.001, 47.371, 0.0005) }] }),
    ).toBeGreaterThan(large * 1.9);
    expect(estimateWork(squareAt(1, 47.37, 0.004), { machine: { widthMeters: 24 } })).toBeCloseTo(large / 2, 5);
    expect(estimateWork({ type: 'Point', coordinates: [1, 2] }, req)).toBe(0);
  });
});

function orderSuite(
  open: () => Promise<{ store: Store; cleanup: () => Promise<void> }>,
  engine: 'embedded' | 'pg-boss',
) {
  let store: Store;
  let cleanup: (() => Promise<void>) | undefined;
  let jobs: JobService | undefined;
  let runner: JobRunner | undefined;
  afterAll(async () => {
    await runner?.close();
    await jobs?.close();
    await cleanup?.();
  }, 60_000);

  it('plans the largest items of a job first', async () => {
    ({ store, cleanup } = await open());
    const calls = new Map<string, number>();
    const times = new Map<string, number[]>();
    const planner = fakePlanner(calls, times);
    const settings = {
      ...defaultJobSettings,
      retryDelaySeconds: 1,
      planTimeoutCapSeconds: 5,
      planTimeoutGraceSeconds: 0,
    };
    // The PostgreSQL worker starts after the submit, so its first fetch sees the whole job.
    jobs = await startJobs({ store, planner, settings, concurrency: 1, pollMs: 50, worker: engine === 'embedded' });
    const app = createApp({
      store,
      planner,
      limiter: createRateLimiter({ points: 100_000, windowSeconds: 60 }),
      config: { planTimeoutCapSeconds: 5, planTimeoutGraceSeconds: 0 },
    });
    const acct = await accountWithCompany(store, `order-${engine}`, 100, 0);
    // Submitted smallest first; each differs from the next by a clear factor in the estimate.
    const geometries = [
      squareAt(4.1, 47.37, 0.0005),
      squareAt(4.2, 47.37, 0.001),
      squareAt(4.3, 47.37, 0.002),
      squareAt(4.4, 47.37, 0.004),
      squareWithHoles(4.5, 0.004, 3),
      squareWithHoles(4.6, 0.008, 3),
    ];
    const submitted = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, {
      items: geometries.map((boundary) => ({ boundary, equipment: { widthMeters: 6 } })),
    });
    expect(submitted.status).toBe(202);
    if (engine === 'pg-boss')
      runner = await startPgBossRunner({ store, planner, settings }, { concurrency: 1, expireInSeconds: 30 });
    const final = await waitForJob(app, acct.apiKey, submitted.body.jobId, 60_000);
    expect(final.body.status).toBe('completed');
    const started = geometries.map((g, i) => ({ i, t: times.get(JSON.stringify(g.coordinates[0][0]))![0] }));
    started.sort((a, b) => a.t - b.t);
    expect(started.map((s) => s.i)).toEqual([5, 4, 3, 2, 1, 0]);
  }, 90_000);
}

describe('largest items first, embedded store (claim loop)', () => {
  orderSuite(async () => {
    const store = await openStore('memory:');
    return { store, cleanup: () => store.close() };
  }, 'embedded');
});

describeWith(['postgres'], 'largest items first, PostgreSQL (pg-boss priority)', () => {
  orderSuite(openPostgresStore, 'pg-boss');
});
