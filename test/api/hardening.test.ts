/**
 * The API under attack and in a farmer's hands: who pays for a plan (the company for its
 * fields), validation before any credit is taken, key management for API-key callers only,
 * text validation of stored strings, rate headers and security headers on every response.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Planner, type Store } from '@furrow/api';
import { bowTie, call, jsonInit, makeApp, shapeB, square, stubPlanner, type TestApp } from './support.js';
import { zipBomb } from '../support/zip-bomb.js';

let store: Store;
let A: TestApp;

interface Farmer {
  userId: string;
  companyId: string;
  farmId: string;
  fieldId: string;
  boundaryId: string;
  bearer: Record<string, string>;
}

let tags = 0;
/** A partner's end user with a company holding `companyCredits`, one saved field, and a launch session. */
async function farmer(t: TestApp, companyCredits: number): Promise<Farmer> {
  const tag = `h${++tags}`;
  const user = await call(t, 'POST', '/api/partner/users', {
    partnerUserId: `${tag}-user`,
    firstName: 'Farm',
    lastName: 'Er',
  });
  const company = await call(t, 'POST', '/api/partner/companies', {
    partnerCompanyId: `${tag}-co`,
    name: `${tag} farms`,
    countryCode: 'DE',
  });
  expect(
    (
      await call(t, 'POST', '/api/partner/company-accesses', {
        partnerUserId: `${tag}-user`,
        partnerCompanyId: `${tag}-co`,
      })
    ).status,
  ).toBe(201);
  if (companyCredits > 0)
    expect(
      (await call(t, 'POST', '/api/partner/credits', { partnerCompanyId: `${tag}-co`, credits: companyCredits }))
        .status,
    ).toBe(200);
  const { companyId } = company.body;
  const grower = await call(t, 'POST', `/api/companies/${companyId}/growers`, { name: 'Grower' });
  const farm = await call(t, 'POST', `/api/growers/${grower.body.growerId}/farms`, { name: 'Farm' });
  const field = await call(t, 'POST', '/api/fields/save', {
    farmId: farm.body.farmId,
    name: 'North',
    boundary: square().coordinates,
  });
  expect(field.status).toBe(201);
  const launch = await call(t, 'POST', '/api/partner/launch', { userId: `${tag}-user` });
  const exchange = await call(
    t,
    'POST',
    '/api/partner/launch/exchange',
    { code: launch.body.code, userId: user.body.userId },
    null,
  );
  expect(exchange.status).toBe(200);
  return {
    userId: user.body.userId,
    companyId,
    farmId: farm.body.farmId,
    fieldId: field.body.field.fieldId,
    boundaryId: field.body.vBoundary.boundaryId,
    bearer: { Authorization: `Bearer ${exchange.body.token}` },
  };
}

const balances = async (f: Farmer) => {
  const credits = await call(A, 'GET', '/api/credits', undefined, null, f.bearer);
  return { user: credits.body.user.balance as number, company: credits.body.companies[0].balance as number };
};

beforeAll(async () => {
  store = await openStore('memory:');
  A = await makeApp(store);
});
afterAll(async () => {
  await store?.close();
});

describe('who pays for a plan', () => {
  it("charges the company for a plan of its stored boundary made in a launch session; the farmer's own account stays untouched", async () => {
    const f = await farmer(A, 50);
    expect(await balances(f)).toEqual({ user: 0, company: 50 });
    for (let i = 0; i < 2; i++) {
      const res = await call(
        A,
        'POST',
        `/api/path-plans/direct/geojson?boundaryId=${f.boundaryId}`,
        shapeB(),
        null,
        f.bearer,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect(await balances(f)).toEqual({ user: 0, company: 48 });
    // A plan of no stored field is the caller's own: the farmer has no credits of its own.
    const own = await call(A, 'POST', '/api/path-plans/direct', shapeB(), null, f.bearer);
    expect(own.status).toBe(402);
    expect(own.body.creditsAvailable).toBe(0);
  });

  it('plans the stored boundary only: another field under its boundaryId is refused (400) and nothing is charged', async () => {
    const f = await farmer(A, 5);
    const other = await call(
      A,
      'POST',
      `/api/path-plans/direct?boundaryId=${f.boundaryId}`,
      shapeB({ boundary: square(9, 48) }),
      null,
      f.bearer,
    );
    expect(other.status).toBe(400);
    expect(other.body.error.details[0].path).toBe('boundary');
    expect((await balances(f)).company).toBe(5);
  });

  it('charges the company for a fleet plan of its stored boundary (?boundaryId=), as for one machine', async () => {
    const f = await farmer(A, 5);
    const fleet = {
      boundary: square(),
      fleet: [
        { id: 'm1', widthMeters: 6 },
        { id: 'm2', widthMeters: 6 },
      ],
    };
    const own = await call(A, 'POST', '/api/path-plans/fleet/geojson', fleet, null, f.bearer);
    expect(own.status).toBe(402);
    const res = await call(
      A,
      'POST',
      `/api/path-plans/fleet/geojson?boundaryId=${f.boundaryId}`,
      fleet,
      null,
      f.bearer,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await balances(f)).toEqual({ user: 0, company: 4 });
    const other = { ...fleet, boundary: square(9, 48) };
    const refused = await call(A, 'POST', `/api/path-plans/fleet?boundaryId=${f.boundaryId}`, other, null, f.bearer);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe('boundary');
    expect((await balances(f)).company).toBe(4);
  }, 120_000);

  it("never charges a company the caller cannot access (404, like any other company's boundary)", async () => {
    const f = await farmer(A, 5);
    const g = await farmer(A, 5);
    const res = await call(A, 'POST', `/api/path-plans/direct?boundaryId=${g.boundaryId}`, shapeB(), null, f.bearer);
    expect(res.status).toBe(404);
    expect((await balances(g)).company).toBe(5);
  });
});

/** The stub planner, slowed down: a plan holds its credit for a while, as a real one does. */
function slowStubPlanner(ms: number): Planner {
  const inner = stubPlanner();
  return {
    ...inner,
    plan: async (request, signal) => (await new Promise((r) => setTimeout(r, ms)), inner.plan(request, signal)),
  };
}

describe('validation before any credit is taken', () => {
  it('answers a bow-tie 422 self-intersection even with no credit left (not 402)', async () => {
    const poor = await store.createAccountKey({ name: 'poor', partnerAdmin: false, initialCredits: 0 });
    const res = await call(A, 'POST', '/api/path-plans/direct', shapeB({ boundary: bowTie }), poor.apiKey);
    expect(res.status).toBe(422);
    expect(res.body.error.reason).toBe('self-intersection');
  });

  it('concurrent plans on N credits: bow-ties never hold a credit a valid request needs', async () => {
    // All 16 admitted at once (planQueue): this is about credits, not admission (plan-gate.test.ts).
    const t = await makeApp(store, { planner: slowStubPlanner(40), config: { planQueue: 16 } });
    const n = 4;
    const user = await store.createAccountKey({ name: 'n credits', partnerAdmin: false, initialCredits: n });
    const requests = [
      ...Array.from({ length: 3 * n }, () =>
        call(t, 'POST', '/api/path-plans/direct', shapeB({ boundary: bowTie }), user.apiKey),
      ),
      ...Array.from({ length: n }, () => call(t, 'POST', '/api/path-plans/direct', shapeB(), user.apiKey)),
    ];
    const statuses = (await Promise.all(requests)).map((r) => r.status);
    expect(statuses.slice(0, 3 * n).every((s) => s === 422)).toBe(true);
    expect(statuses.slice(3 * n)).toEqual(new Array(n).fill(200));
    expect(await store.balance('user', user.userId)).toBe(0);
  });
});

describe('archives on boundary import', () => {
  it('answers a 2 × 1.5 GiB zip bomb 413 with the error body, the server growing by less than 64 MB', async () => {
    const f = await farmer(A, 0);
    const bomb = await zipBomb();
    const before = process.memoryUsage().rss;
    const res = await A.app.request(`/api/fields/${f.fieldId}/boundaries/import?filename=a.zip`, {
      method: 'POST',
      headers: { 'X-API-KEY': A.adminKey, 'Content-Type': 'application/zip' },
      body: bomb,
    });
    const rise = process.memoryUsage().rss - before;
    expect(res.status).toBe(413);
    const body = await res.json();
    expect(body.error.code).toBe('PayloadTooLarge');
    expect(body.error.message).toMatch(/compressed more than 200:1/);
    expect(body.error.details[0].path).toBe('a.zip');
    expect(typeof body.correlationId).toBe('string');
    expect(rise).toBeLessThan(64e6);
    expect((await call(A, 'GET', `/api/fields/${f.fieldId}/boundaries`)).body.total).toBe(1);
  });
});

describe('API keys are managed with an API key only', () => {
  it('refuses a launch session on GET, POST and DELETE /api/api-keys (403) and revokes nothing', async () => {
    const f = await farmer(A, 0);
    const own = await call(A, 'POST', '/api/api-keys', { name: 'farmer key', partnerUserId: `h${tags}-user` });
    expect(own.status).toBe(201);
    for (const [method, path, body] of [
      ['GET', '/api/api-keys', undefined],
      ['POST', '/api/api-keys', { name: 'from a session' }],
      ['DELETE', `/api/api-keys/${own.body.keyId}`, undefined],
    ] as const) {
      const res = await call(A, method, path, body, null, f.bearer);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.errorCode).toBe('NotAuthorized');
    }
    // The key still works.
    expect((await call(A, 'GET', '/api/user/current', undefined, own.body.apiKey)).status).toBe(200);
  });
});

describe('rate-limit and security headers on every response', () => {
  const rateHeaders = (res: Response) =>
    ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((h) => res.headers.get(h));

  it('counts a 413 against the limit and carries the headers', async () => {
    const t = await makeApp(store, { rate: { points: 3, windowSeconds: 60 }, config: { bodyLimitBytes: 2000 } });
    const big = shapeB({ obstacles: Array.from({ length: 40 }, () => ({ geometry: square() })) });
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.app.request('/api/path-plans/direct', jsonInit('POST', t.adminKey, big));
      expect(res.status).toBe(413);
      expect(rateHeaders(res).every((h) => h !== null)).toBe(true);
      remaining.push(res.headers.get('X-RateLimit-Remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const over = await t.app.request('/api/user/current', jsonInit('GET', t.adminKey));
    expect(over.status).toBe(429);
    expect(over.headers.get('Retry-After')).not.toBeNull();
    expect(over.headers.get('X-RateLimit-Remaining')).toBe('0');
  });

  it('on /docs, /openapi.json, app pages, unknown paths and API errors too', async () => {
    const { mountWebApp } = await import('@furrow/web');
    const { createApp, createRateLimiter } = await import('@furrow/api');
    const app = createApp({
      store,
      limiter: createRateLimiter({ points: 100, windowSeconds: 60 }),
      config: { appUrl: 'http://app.test', returnUrlOrigins: ['https://partner.example:8443'] },
      web: mountWebApp,
    });
    for (const path of [
      '/docs',
      '/openapi.json',
      '/launch',
      '/path-planning/boundary/b1',
      '/healthz',
      '/no/such/page',
      '/api/user/current',
    ]) {
      const res = await app.request(path);
      expect(
        rateHeaders(res).every((h) => h !== null),
        path,
      ).toBe(true);
      expect(res.headers.get('X-Content-Type-Options'), path).toBe('nosniff');
    }
  });

  it("lets only the app's origin and the configured partner origins frame the app pages", async () => {
    const { mountWebApp } = await import('@furrow/web');
    const { createApp, createRateLimiter } = await import('@furrow/api');
    const app = createApp({
      store,
      limiter: createRateLimiter({ points: 100, windowSeconds: 60 }),
      config: { appUrl: 'http://app.test', returnUrlOrigins: ['https://partner.example:8443/embed'] },
      web: mountWebApp,
    });
    const page = await app.request('/launch');
    const policy = (page.headers.get('Content-Security-Policy') ?? '').split(';').map((d) => d.trim());
    expect(policy).toContain("frame-ancestors 'self' http://app.test https://partner.example:8443");
    expect(policy.filter((d) => d.startsWith('frame-ancestors'))).toHaveLength(1);
    if (page.status === 200) expect(policy).toContain("default-src 'self'");
    const api = await app.request('/api/user/current');
    expect(api.headers.get('Content-Security-Policy')).toBeNull();
  });
});
