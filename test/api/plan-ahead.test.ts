/**
 * Planning ahead of a launch (packages/api/src/plan-ahead.ts): the exchange of a launch code into a
 * field never planned starts the plan the web app will ask for first (@furrow/web's
 * firstPlanRequest); the app's request gets it, charged once; nothing else is planned ahead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createRateLimiter, inProcessPlanner, openStore, type Planner, type Store } from '@furrow/api';
import { planRoute, type PathPlanRequest } from '@furrow/core';
import { createWebMount, firstPlanRequest } from '@furrow/web';
import { call, square } from './support.js';

type App = ReturnType<typeof createApp>;

/** The real planner, counting its plans; `threads` 1 as a pool (plans ahead need planning off the event loop). */
function countingPlanner(threads: number): Planner & { count: () => number } {
  let n = 0;
  const inner = inProcessPlanner((request, runtime) => {
    n++;
    return planRoute(request, runtime);
  });
  return { ...inner, threads, count: () => n };
}

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('planning ahead of a launch', () => {
  let store: Store;
  let app: App;
  let planner: ReturnType<typeof countingPlanner>;
  let adminKey: string;
  let endUserId = '';
  let farmId = '';
  let companyId = '';

  beforeAll(async () => {
    store = await openStore('memory:');
    planner = countingPlanner(1);
    const admin = await store.createAccountKey({ name: 'ahead admin', partnerAdmin: true, initialCredits: 100 });
    adminKey = admin.apiKey;
    app = createApp({
      store,
      planner,
      limiter: createRateLimiter({ points: 100_000, windowSeconds: 60 }),
      config: { appUrl: 'http://app.test' },
      web: createWebMount(),
    });
    const t = { app, adminKey };
    const user = await call(t, 'POST', '/api/partner/users', {
      partnerUserId: 'ahead-user',
      email: 'ahead@example.org',
      firstName: 'End',
      lastName: 'User',
      countryCode: 'DE',
    });
    endUserId = user.body.userId;
    const company = await call(t, 'POST', '/api/partner/companies', {
      partnerCompanyId: 'ahead-co',
      name: 'Ahead farms',
      countryCode: 'DE',
    });
    companyId = company.body.companyId;
    await store.grantCredits('company', companyId, 10, 'test');
    await call(t, 'POST', '/api/partner/company-accesses', {
      partnerUserId: 'ahead-user',
      partnerCompanyId: 'ahead-co',
    });
    const grower = await call(t, 'POST', `/api/companies/${companyId}/growers`, { name: 'G', source: 'api' });
    const farm = await call(t, 'POST', `/api/growers/${grower.body.growerId}/farms`, { name: 'F', source: 'api' });
    farmId = farm.body.farmId;
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  async function newField(lon: number, withInputs = false): Promise<string> {
    const saved = await call({ app, adminKey }, 'POST', '/api/fields/save', {
      farmId,
      name: `field ${lon}`,
      boundary: square(lon).coordinates,
      // A gate and a start point: the app's first request carries them, so the plan ahead must too.
      ...(withInputs ? { accessPoints: [[lon, 47.372]], stagingArea: [lon - 0.0002, 47.372] } : {}),
    });
    expect(saved.status).toBe(201);
    return saved.body.vBoundary.boundaryId as string;
  }

  /** Exchanges a launch code of the end user into `returnUrl`; returns the exchange's answer. */
  async function exchangeInto(returnUrl: string): Promise<Record<string, unknown>> {
    const code = await call({ app, adminKey }, 'POST', '/api/partner/launch', { userId: 'ahead-user', returnUrl });
    expect(code.status).toBe(201);
    const exchange = await call({ app, adminKey }, 'POST', '/api/partner/launch/exchange', {
      code: code.body.code,
      userId: endUserId,
    });
    expect(exchange.status).toBe(200);
    return exchange.body as Record<string, unknown>;
  }

  /** Launches the end user into the field; returns the session's headers. */
  async function launch(boundaryId: string): Promise<Record<string, string>> {
    const body = await exchangeInto(`http://app.test/path-planning/boundary/${boundaryId}`);
    return { Authorization: `Bearer ${body['token'] as string}`, 'Content-Type': 'application/json' };
  }

  const plan = (boundaryId: string, headers: Record<string, string>, request: unknown) =>
    app.request(`/api/path-plans/direct/geojson?boundaryId=${boundaryId}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(request),
    });
  const balance = () => store.balance('company', companyId);

  it("plans a launched field never planned ahead of the app; the app's first request gets that plan", async () => {
    const boundaryId = await newField(8.6, true);
    const before = planner.count();
    const headers = await launch(boundaryId);
    await until(() => planner.count() === before + 1); // planned before the app asks
    const boundary = await (await app.request(`/api/boundaries/${boundaryId}`, { headers })).json();
    const request = firstPlanRequest(boundary)!;
    expect(request['accessPoints']).toEqual([[8.6, 47.372]]);
    const credits = await balance();
    const res = await plan(boundaryId, headers, request);
    expect(res.status).toBe(200);
    expect(res.headers.get('server-timing')).toMatch(/^wait;dur=[\d.]+, plan;dur=[\d.]+, render;dur=[\d.]+$/);
    const got = (await res.json()) as { metrics: unknown; features: { properties: { type: string } }[] };
    expect(planner.count()).toBe(before + 1); // not planned again
    expect(await balance()).toBe(credits - 1); // charged when asked for, once
    // The plan of that request, as the library plans it.
    expect(got.metrics).toEqual(planRoute(JSON.parse(JSON.stringify(request)) as PathPlanRequest).metrics);
    expect(got.features.filter((f) => f.properties.type === 'AccessPoint')).toHaveLength(1);
    // Taken once: the same request again is planned again.
    expect((await plan(boundaryId, headers, request)).status).toBe(200);
    expect(planner.count()).toBe(before + 2);
  });

  it('starts the plan as the code is issued; the exchange does not plan it again', async () => {
    const boundaryId = await newField(8.74);
    const returnUrl = `http://app.test/path-planning/boundary/${boundaryId}`;
    const before = planner.count();
    const code = await call({ app, adminKey }, 'POST', '/api/partner/launch', { userId: 'ahead-user', returnUrl });
    expect(code.status).toBe(201);
    await until(() => planner.count() === before + 1); // before any exchange
    const exchange = await call({ app, adminKey }, 'POST', '/api/partner/launch/exchange', {
      code: code.body.code,
      userId: endUserId,
    });
    expect(exchange.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(planner.count()).toBe(before + 1);
    const headers = { Authorization: `Bearer ${exchange.body.token}`, 'Content-Type': 'application/json' };
    expect((await plan(boundaryId, headers, firstPlanRequest(exchange.body.field)!)).status).toBe(200);
    expect(planner.count()).toBe(before + 1); // the app's request took it
  });

  it('starts one plan ahead for many codes issued at once (the planning slot is taken as each starts)', async () => {
    // A planning thread holds its slot while it plans: here 500 ms per plan.
    const inner = countingPlanner(1);
    let started = 0;
    const slow: Planner = {
      ...inner,
      plan: async (request, signal) => {
        started++;
        await new Promise((r) => setTimeout(r, 500));
        return inner.plan(request, signal);
      },
    };
    const other = createApp({
      store,
      planner: slow,
      limiter: createRateLimiter({ points: 100_000, windowSeconds: 60 }),
      config: { appUrl: 'http://app.test' },
      web: createWebMount(),
    });
    const fields = await Promise.all([8.76, 8.78, 8.8, 8.82, 8.84].map((lon) => newField(lon)));
    await Promise.all(
      fields.map(async (id) => {
        const res = await call({ app: other, adminKey }, 'POST', '/api/partner/launch', {
          userId: 'ahead-user',
          returnUrl: `http://app.test/path-planning/boundary/${id}`,
        });
        expect(res.status).toBe(201);
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(started).toBe(1);
  });

  it("answers the exchange with the launched field as GET /api/boundaries/{id} answers it, the user's own only", async () => {
    const boundaryId = await newField(8.7, true);
    const body = await exchangeInto(`http://app.test/path-planning/boundary/${boundaryId}`);
    const headers = { Authorization: `Bearer ${body['token'] as string}` };
    const got = await app.request(`/api/boundaries/${boundaryId}`, { headers });
    expect(got.status).toBe(200);
    expect(body['field']).toEqual(await got.json());
    expect((body['field'] as { latestPlanId: unknown }).latestPlanId).toBeNull();
    expect((body['field'] as { accessPoints: unknown }).accessPoints).toEqual([[8.7, 47.372]]);

    // Another page of the app, or a field of a company the user has no access to: no field.
    expect((await exchangeInto('http://app.test/profile'))['field']).toBeNull();
    const t = { app, adminKey };
    const other = await call(t, 'POST', '/api/partner/companies', {
      partnerCompanyId: 'not-theirs',
      name: 'Someone else',
      countryCode: 'DE',
    });
    const grower = await call(t, 'POST', `/api/companies/${other.body.companyId}/growers`, {
      name: 'G',
      source: 'api',
    });
    const farm = await call(t, 'POST', `/api/growers/${grower.body.growerId}/farms`, { name: 'F', source: 'api' });
    const saved = await call(t, 'POST', '/api/fields/save', {
      farmId: farm.body.farmId,
      name: 'not theirs',
      boundary: square(8.72).coordinates,
    });
    expect(saved.status).toBe(201);
    const theirs = saved.body.vBoundary.boundaryId as string;
    const before = planner.count();
    const refused = await exchangeInto(`http://app.test/path-planning/boundary/${theirs}`);
    expect(refused['field']).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    expect(planner.count()).toBe(before); // nor planned ahead
  });

  it('plans nothing ahead for a field with a stored plan; another request than the first is planned itself', async () => {
    const stored = await newField(8.62);
    const saved = await call({ app, adminKey }, 'POST', `/api/boundaries/${stored}/plans`, {
      request: { equipment: { widthMeters: 6 }, exteriorHeadlandPasses: 1 },
    });
    expect(saved.status).toBe(201);
    let before = planner.count();
    await launch(stored);
    await new Promise((r) => setTimeout(r, 300));
    expect(planner.count()).toBe(before);

    const fresh = await newField(8.64);
    before = planner.count();
    const headers = await launch(fresh);
    await until(() => planner.count() === before + 1);
    const boundary = await (await app.request(`/api/boundaries/${fresh}`, { headers })).json();
    const other = { ...firstPlanRequest(boundary)!, machine: { widthMeters: 9, turnRadiusMeters: 6 } };
    const res = await plan(fresh, headers, other);
    expect(res.status).toBe(200);
    expect(planner.count()).toBe(before + 2);
    expect(((await res.json()) as { metrics: unknown }).metrics).toEqual(
      planRoute(JSON.parse(JSON.stringify(other)) as PathPlanRequest).metrics,
    );
  });

  it('plans nothing ahead when planning runs in-process (it would hold up the launch) or without a web app', async () => {
    for (const [threads, web] of [
      [0, createWebMount()],
      [1, undefined],
    ] as const) {
      const p = countingPlanner(threads);
      const other = createApp({
        store,
        planner: p,
        limiter: createRateLimiter({ points: 100_000, windowSeconds: 60 }),
        config: { appUrl: 'http://app.test' },
        ...(web ? { web } : {}),
      });
      const boundaryId = await newField(8.66 + threads * 0.01);
      const code = await call({ app: other, adminKey }, 'POST', '/api/partner/launch', {
        userId: 'ahead-user',
        returnUrl: `http://app.test/path-planning/boundary/${boundaryId}`,
      });
      const exchange = await call({ app: other, adminKey }, 'POST', '/api/partner/launch/exchange', {
        code: code.body.code,
        userId: endUserId,
      });
      expect(exchange.status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      expect(p.count()).toBe(0);
    }
  });
});
