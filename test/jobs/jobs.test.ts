/**
 * Guidance jobs over HTTP on both store backends: embedded PGlite (claim loop) always, and
 * PostgreSQL (pg-boss) where it is installed. A fake planner whose metrics encode each request
 * checks that every result belongs to its item; one small job runs the real planner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_VERSION,
  createApp,
  createRateLimiter,
  openStore,
  poolPlanner,
  startJobs,
  type JobService,
  type Store,
} from '@furrow/api';
import * as core from '@furrow/core';
import { describeWith } from '../support/requires.js';
import { openPostgresStore } from '../api/pg.js';
import { readCorpusField } from '../api/support.js';
import { accountWithCompany, allResults, call, expectedMetrics, fakePlanner, squareAt, waitForJob } from './support.js';

type Backend = { store: Store; cleanup: () => Promise<void> };

async function farmOf(store: Store, companyId: string): Promise<string> {
  const grower = await store.createGrower(companyId, { name: 'g', source: 'api', archived: false });
  return (await store.createFarm(grower, { name: 'f', source: 'api', archived: false })).id;
}

function jobSuite(open: () => Promise<Backend>) {
  let store: Store;
  let cleanup: () => Promise<void>;
  let jobs: JobService;
  const calls = new Map<string, number>();
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    ({ store, cleanup } = await open());
    const planner = fakePlanner(calls);
    jobs = await startJobs({
      store,
      planner,
      concurrency: 4,
      pollMs: 50,
      settings: { retryDelaySeconds: 0, maxAttempts: 3, planTimeoutCapSeconds: 1, planTimeoutGraceSeconds: 0 },
      pgBoss: { retryDelaySeconds: 1, maintenanceIntervalSeconds: 5, expireInSeconds: 10 },
    });
    app = createApp({
      store,
      planner,
      limiter: createRateLimiter({ points: 100_000, windowSeconds: 60 }),
      config: { planTimeoutCapSeconds: 1, planTimeoutGraceSeconds: 0 },
    });
  }, 60_000);
  afterAll(async () => {
    await jobs?.close();
    await cleanup?.();
  }, 60_000);

  it('documents the four job routes and requires a key on each', async () => {
    const doc = await (await app.request('/openapi.json')).json();
    const ops = Object.entries(doc.paths as Record<string, Record<string, { tags?: string[] }>>).flatMap(([p, o]) =>
      Object.entries(o)
        .filter(([, op]) => op.tags?.includes('Guidance jobs'))
        .map(([m]) => `${m.toUpperCase()} ${p}`),
    );
    expect(ops.sort()).toEqual([
      'DELETE /api/guidance-jobs/{jobId}',
      'GET /api/guidance-jobs/{jobId}',
      'GET /api/guidance-jobs/{jobId}/results',
      'POST /api/guidance-jobs',
    ]);
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['POST', '/api/guidance-jobs'],
      ['GET', `/api/guidance-jobs/${id}`],
      ['GET', `/api/guidance-jobs/${id}/results`],
      ['DELETE', `/api/guidance-jobs/${id}`],
    ]) {
      const res = await app.request(path, {
        method,
        headers: method === 'POST' ? { 'Content-Type': 'application/json' } : {},
        body: method === 'POST' ? '{"items":[]}' : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('plans a 50-item job: every item once, in item order, stored, exportable, charged once each', async () => {
    const acct = await accountWithCompany(store, `fifty-${store.db.kind}`, 100, 30);
    // A stored field for the boundaryId items.
    const saved = await call(app, 'POST', '/api/fields/save', acct.apiKey, {
      farmId: await farmOf(store, acct.companyId),
      name: 'stored',
      boundary: squareAt(9.5).coordinates,
    });
    expect(saved.status).toBe(201);
    const boundaryId = saved.body.vBoundary.boundaryId as string;

    const items = Array.from({ length: 50 }, (_, i) =>
      i % 10 === 9
        ? { boundaryId, equipment: { widthMeters: 3 + i } }
        : i % 2 === 0
          ? {
              boundary: squareAt(8 + i * 0.01),
              equipment: { widthMeters: 3 + i },
              exteriorHeadlandPasses: i % 5,
              name: `inline ${i}`,
            }
          : { field: squareAt(8 + i * 0.01), machine: { widthMeters: 3 + i }, headland: { passes: i % 4 } },
    );
    const submitted = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, {
      defaults: { routeOptions: { maxOptimizerTime: 1 } },
      items,
    });
    expect(submitted.status).toBe(202);
    const jobId = submitted.body.jobId as string;
    expect(submitted.headers.get('location')).toBe(`/api/guidance-jobs/${jobId}`);
    expect(submitted.headers.get('retry-after')).toBe('5');
    expect(['queued', 'running']).toContain(submitted.body.status);
    expect(submitted.body.progress.total).toBe(50);

    const final = await waitForJob(app, acct.apiKey, jobId, 60_000);
    expect(final.body.status).toBe('completed');
    expect(final.body.progress).toMatchObject({ done: 50, failed: 0, total: 50 });
    expect(final.body.finishedAt).not.toBeNull();
    expect(final.headers.get('retry-after')).toBeNull();

    const results = await allResults(app, acct.apiKey, jobId, 20);
    expect(results.map((r) => r.index)).toEqual(items.map((_, i) => i));
    for (const [i, r] of results.entries()) {
      const item = items[i] as Record<string, any>;
      const geometry = item.boundaryId ? squareAt(9.5) : (item.boundary ?? item.field);
      const request = { ...item, ...(item.boundaryId ? { boundary: geometry } : {}) };
      expect(r.status, `item ${i}`).toBe('done');
      expect(r.attempts).toBe(1);
      expect(r.metrics).toEqual(expectedMetrics(request));
      if (item.boundaryId) expect(r.boundaryId).toBe(boundaryId);
    }
    expect(new Set(results.map((r) => r.planId)).size).toBe(50);
    // Each plan is a stored plan like any other: readable and exportable.
    const stored = await call(app, 'GET', `/api/plans/${results[9].planId}`, acct.apiKey);
    expect(stored.status).toBe(200);
    expect(stored.body.boundaryId).toBe(boundaryId);
    expect(stored.body.request.routeOptions).toEqual({ maxOptimizerTime: 1 });
    expect(stored.body.plan.metrics).toEqual(results[9].metrics);
    // stored in the compressed form the planning thread made, and only in it
    const form = await store.db.query<{ text: boolean; gzip: boolean }>(
      'SELECT plan IS NOT NULL AS text, plan_gzip IS NOT NULL AS gzip FROM plans WHERE plan_id = $1',
      [results[9].planId],
    );
    expect(form[0]).toEqual({ text: false, gzip: true });
    const exported = await app.request(`/api/plans/${results[0].planId}/export?format=geojson`, {
      headers: { 'X-API-KEY': acct.apiKey },
    });
    expect(exported.status).toBe(200);
    // Credits: the company's 30 first, then 20 of the user's; one ledger entry per item.
    expect(await store.balance('company', acct.companyId)).toBe(0);
    expect(await store.balance('user', acct.userId)).toBe(80);
    const ledger = await store.db.query<{ reason: string }>('SELECT reason FROM credit_ledger WHERE reason LIKE $1', [
      `guidance-jobs/${jobId}/%`,
    ]);
    expect(ledger.length).toBe(50);
    expect(new Set(ledger.map((l) => l.reason)).size).toBe(50);
    const planRows = await store.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM plans p JOIN guidance_job_items i ON i.plan_id = p.plan_id WHERE i.job_id = $1',
      [jobId],
    );
    expect(Number(planRows[0].n)).toBe(50);
  }, 90_000);

  it("plans a boundaryId item with the boundary's stored plan inputs; the item's own and defaults win", async () => {
    const acct = await accountWithCompany(store, `inputs-${store.db.kind}`, 100, 0);
    const saved = await call(app, 'POST', '/api/fields/save', acct.apiKey, {
      farmId: await farmOf(store, acct.companyId),
      name: 'with inputs',
      boundary: squareAt(9.7).coordinates,
    });
    const boundaryId = saved.body.vBoundary.boundaryId as string;
    const zone = squareAt(9.7005, 47.3705, 0.0004);
    const inputs = {
      obstacles: [{ geometry: zone, passable: true }],
      accessPoints: [[9.7, 47.371]],
      stagingArea: [9.6999, 47.3701],
    };
    expect((await call(app, 'PUT', `/api/boundaries/${boundaryId}/plan-inputs`, acct.apiKey, inputs)).status).toBe(200);
    const ownGate = [[9.702, 47.371]];
    const ownStart = [9.7021, 47.3721];
    const submitted = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, {
      defaults: { equipment: { widthMeters: 6 } },
      items: [
        { boundaryId },
        { boundaryId, accessPoints: ownGate, routeOptions: { stagingArea: ownStart } },
        { boundaryId, obstacles: [] },
      ],
    });
    expect(submitted.status).toBe(202);
    await waitForJob(app, acct.apiKey, submitted.body.jobId, 60_000);
    const results = await allResults(app, acct.apiKey, submitted.body.jobId);
    expect(results.map((r) => r.status)).toEqual(['done', 'done', 'done']);
    const requests = await Promise.all(
      results.map(async (r) => (await call(app, 'GET', `/api/plans/${r.planId}`, acct.apiKey)).body.request),
    );
    // Planned with what the boundary keeps…
    expect(requests[0].obstacles).toEqual(inputs.obstacles);
    expect(requests[0].accessPoints).toEqual(inputs.accessPoints);
    expect(requests[0].routeOptions).toEqual({ stagingArea: inputs.stagingArea });
    // …unless the item gives its own (an empty list too).
    expect(requests[1].accessPoints).toEqual(ownGate);
    expect(requests[1].routeOptions).toEqual({ stagingArea: ownStart });
    expect(requests[1].obstacles).toEqual(inputs.obstacles);
    expect(requests[2].obstacles).toEqual([]);
    expect(requests[2].accessPoints).toEqual(inputs.accessPoints);
  }, 90_000);

  it('records invalid input as the item error without retrying, retries transient failures, enforces the time limit', async () => {
    const acct = await accountWithCompany(store, `errors-${store.db.kind}`, 100, 0);
    const degenerate = {
      type: 'Polygon',
      coordinates: [
        [
          [7.1, 47.1],
          [7.2, 47.1],
          [7.1, 47.1],
        ],
      ],
    };
    const items = [
      { boundary: squareAt(7.3), equipment: { widthMeters: 6 } },
      { boundary: degenerate, equipment: { widthMeters: 6 } },
      { boundary: squareAt(7.5), equipment: { widthMeters: 6, turnRadiusMeters: 55 } },
      { boundary: squareAt(7.7), equipment: { widthMeters: 6, turnRadiusMeters: 77 } },
    ];
    const submitted = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, { items });
    expect(submitted.status).toBe(202);
    const final = await waitForJob(app, acct.apiKey, submitted.body.jobId, 60_000);
    expect(final.body.status).toBe('completed_with_errors');
    expect(final.body.progress).toMatchObject({ done: 2, failed: 2, total: 4 });
    const results = await allResults(app, acct.apiKey, submitted.body.jobId);
    expect(results[0]).toMatchObject({ status: 'done', attempts: 1 });
    expect(results[1].status).toBe('failed');
    expect(results[1].attempts).toBe(1);
    expect(results[1].error.code).toMatch(/InvalidGeometry|ValidationFailed/);
    expect(results[1].metrics).toBeUndefined();
    expect(results[2]).toMatchObject({ status: 'done', attempts: 2 });
    expect(results[3].status).toBe('failed');
    expect(results[3].error.code).toBe('PlanTimeout');
    expect(await store.balance('user', acct.userId)).toBe(98);
  }, 90_000);

  it('rejects malformed jobs with 400 naming the item, before anything is queued', async () => {
    const acct = await accountWithCompany(store, `bad-${store.db.kind}`, 100, 0);
    const bad = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, {
      items: [
        { boundary: squareAt(6), equipment: { widthMeters: 6 } },
        { boundary: squareAt(6.1), equipment: { widthMeters: -1 } },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('items[1].equipment.widthMeters');
    const unknownBoundary = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, {
      items: [{ boundaryId: '00000000-0000-4000-8000-000000000000' }],
    });
    expect(unknownBoundary.status).toBe(400);
    expect(unknownBoundary.body.error.details[0].path).toBe('items[0].boundaryId');
    expect((await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, { items: [] })).status).toBe(400);
    const n = await store.db.query<{ n: string }>('SELECT count(*) AS n FROM guidance_jobs WHERE created_by = $1', [
      acct.userId,
    ]);
    expect(Number(n[0].n)).toBe(0);
  });

  it('cancels what has not started; cancelled items are neither planned nor charged', async () => {
    const acct = await accountWithCompany(store, `cancel-${store.db.kind}`, 100, 0);
    const items = Array.from({ length: 40 }, (_, i) => ({
      boundary: squareAt(5 + i * 0.01),
      equipment: { widthMeters: 6, turnRadiusMeters: 33 },
    }));
    const submitted = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, { items });
    const jobId = submitted.body.jobId;
    await waitForJob(app, acct.apiKey, jobId, 30_000, (j) => j.progress.done >= 2);
    const cancelled = await call(app, 'DELETE', `/api/guidance-jobs/${jobId}`, acct.apiKey);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body.progress.cancelled).toBeGreaterThan(0);
    const final = await waitForJob(app, acct.apiKey, jobId, 30_000);
    expect(final.body.status).toBe('cancelled');
    const p = final.body.progress;
    expect(p.done + p.failed + p.cancelled).toBe(40);
    expect(p.cancelled).toBeGreaterThanOrEqual(20);
    // Nothing else gets planned afterwards.
    await new Promise((r) => setTimeout(r, 1500));
    const later = await call(app, 'GET', `/api/guidance-jobs/${jobId}`, acct.apiKey);
    expect(later.body.progress).toEqual(p);
    expect(await store.balance('user', acct.userId)).toBe(100 - p.done);
    const results = await allResults(app, acct.apiKey, jobId, 100);
    expect(results.filter((r) => r.status === 'cancelled').every((r) => r.planId === undefined)).toBe(true);
    // A finished job cannot be cancelled again as something else; cancelling twice is fine.
    expect((await call(app, 'DELETE', `/api/guidance-jobs/${jobId}`, acct.apiKey)).status).toBe(200);
  }, 60_000);

  it("scopes jobs to the caller's companies (404 for others) and refuses a job without credits (402)", async () => {
    const owner = await accountWithCompany(store, `owner-${store.db.kind}`, 100, 0);
    const other = await accountWithCompany(store, `other-${store.db.kind}`, 100, 0);
    const submitted = await call(app, 'POST', '/api/guidance-jobs', owner.apiKey, {
      items: [{ boundary: squareAt(4), equipment: { widthMeters: 6 } }],
    });
    const jobId = submitted.body.jobId;
    for (const [method, path] of [
      ['GET', `/api/guidance-jobs/${jobId}`],
      ['GET', `/api/guidance-jobs/${jobId}/results`],
      ['DELETE', `/api/guidance-jobs/${jobId}`],
    ]) {
      const r = await call(app, method, path, other.apiKey);
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await call(app, 'GET', '/api/guidance-jobs/not-a-uuid', owner.apiKey)).status).toBe(404);
    // Another company's boundary cannot be planned through a job.
    const foreign = await call(app, 'POST', '/api/guidance-jobs', other.apiKey, {
      companyId: owner.companyId,
      items: [{ boundary: squareAt(4), equipment: { widthMeters: 6 } }],
    });
    expect(foreign.status).toBe(404);
    const broke = await accountWithCompany(store, `broke-${store.db.kind}`, 0, 0);
    const refused = await call(app, 'POST', '/api/guidance-jobs', broke.apiKey, {
      items: [{ boundary: squareAt(4), equipment: { widthMeters: 6 } }],
    });
    expect(refused.status).toBe(402);
    expect(refused.body.creditsRequired).toBe(1);
    await waitForJob(app, owner.apiKey, jobId, 30_000);
  }, 60_000);
}

describe('guidance jobs, embedded store (PGlite, claim loop)', () => {
  jobSuite(async () => {
    const store = await openStore('memory:');
    return { store, cleanup: () => store.close() };
  });
});

describeWith(['postgres'], 'guidance jobs, PostgreSQL (pg-boss)', () => {
  jobSuite(openPostgresStore);
});

describe('guidance jobs with the real planner on the worker pool (embedded store)', () => {
  let store: Store;
  let jobs: JobService;
  beforeAll(async () => {
    store = await openStore('memory:');
    // The pool serialises each plan on its worker thread (planToJson): what is stored is checked below.
    jobs = await startJobs({ store, planner: poolPlanner({ threads: 1 }), concurrency: 1, pollMs: 50 });
  }, 60_000);
  afterAll(async () => {
    await jobs?.close();
    await store?.close();
  }, 60_000);

  it('plans real corpus fields with the metrics the library gives for the same requests', async () => {
    const acct = await accountWithCompany(store, 'real', 100, 0);
    const app = createApp({ store, limiter: createRateLimiter({ points: 100_000, windowSeconds: 60 }) });
    const requests = ['de-bb-074', 'cz-023', 'pt-017'].map((id, i) => ({
      boundary: readCorpusField(id).geometry,
      equipment: { widthMeters: 6 + i },
      exteriorHeadlandPasses: 1,
    }));
    const submitted = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, { items: requests });
    expect(submitted.status).toBe(202);
    const final = await waitForJob(app, acct.apiKey, submitted.body.jobId, 120_000);
    expect(final.body.status).toBe('completed');
    const results = await allResults(app, acct.apiKey, submitted.body.jobId);
    // Expected: the library itself, called here on the same requests.
    const expected = await Promise.all(
      requests.map(
        async (r) => (await (core as any).planRoute(r)) as { metrics: unknown; route: unknown[]; version: string },
      ),
    );
    expect(results.map((r) => r.metrics)).toEqual(expected.map((p) => p.metrics));
    // The stored plan is the library's plan with the API's version and without crosshatches.
    for (let i = 0; i < requests.length; i++) {
      const stored = await call(app, 'GET', `/api/plans/${results[i].planId}`, acct.apiKey);
      expect(stored.status).toBe(200);
      expect(stored.body.plan.route).toEqual(expected[i].route);
      expect(stored.body.plan.version).toBe(API_VERSION);
      expect(stored.body.plan).not.toHaveProperty('crosshatches');
    }
  }, 180_000);

  it("plans a stored boundary's start point and gate like the library does with them", async () => {
    const acct = await accountWithCompany(store, 'real-inputs', 100, 0);
    const app = createApp({ store, limiter: createRateLimiter({ points: 100_000, windowSeconds: 60 }) });
    const field = readCorpusField('cz-023').geometry as { type: string; coordinates: number[][][] };
    const grower = await store.createGrower(acct.companyId, { name: 'g', source: 'api', archived: false });
    const farm = await store.createFarm(grower, { name: 'f', source: 'api', archived: false });
    const saved = await call(app, 'POST', '/api/fields/save', acct.apiKey, {
      farmId: farm.id,
      name: 'cz-023',
      boundary: field.coordinates,
    });
    expect(saved.status).toBe(201);
    const boundaryId = saved.body.vBoundary.boundaryId as string;
    const shell = field.coordinates[0];
    const far = shell[Math.floor(shell.length / 2)];
    const inputs = { accessPoints: [far], stagingArea: far };
    expect((await call(app, 'PUT', `/api/boundaries/${boundaryId}/plan-inputs`, acct.apiKey, inputs)).status).toBe(200);
    const options = { equipment: { widthMeters: 6 }, exteriorHeadlandPasses: 1 };
    const submitted = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, {
      items: [{ boundaryId, ...options }],
    });
    expect(submitted.status).toBe(202);
    await waitForJob(app, acct.apiKey, submitted.body.jobId, 120_000);
    const [result] = await allResults(app, acct.apiKey, submitted.body.jobId);
    expect(result.status).toBe('done');
    const stored = await call(app, 'GET', `/api/plans/${result.planId}`, acct.apiKey);
    const withInputs = (await (core as any).planRoute({
      boundary: field,
      ...options,
      accessPoints: inputs.accessPoints,
      routeOptions: { stagingArea: inputs.stagingArea },
    })) as { route: { coordinates: number[][] }[] };
    const without = (await (core as any).planRoute({ boundary: field, ...options })) as typeof withInputs;
    expect(stored.body.plan.route).toEqual(withInputs.route);
    // (the inputs matter here: without them the route starts elsewhere)
    expect(without.route[0].coordinates[0]).not.toEqual(withInputs.route[0].coordinates[0]);
  }, 180_000);
});
