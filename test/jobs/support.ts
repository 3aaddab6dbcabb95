/** Helpers of the guidance-job suites: a counting fake planner, accounts with a company, polling. */
import { inProcessPlanner, type PlanFunction, type Planner, type Store } from '@furrow/api';
import { expect } from 'vitest';
import { jsonInit } from '../api/support.js';

type Req = Record<string, any>;

/**
 * A deterministic stand-in for planRoute whose metrics encode the request (so a result can be
 * matched to its item): turns = headland passes, workingDistanceMeters = width × 100, and
 * fieldAreaSquareMeters = the first vertex's longitude × 1e6. Invalid rings (fewer than 4
 * positions) throw a PlanError-shaped error; `machine.turnRadiusMeters` 77 never finishes,
 * 55 fails transiently on its first call per field, 44 on its first two, 66 on every call,
 * 33 takes 150 ms. `times` (optional) receives each call's clock time (ms) per field.
 */
export function fakePlanRoute(calls: Map<string, number>, times?: Map<string, number[]>) {
  return async (request: Req) => {
    const geometry = request.field ?? request.boundary;
    const machine = request.machine ?? request.equipment;
    const ring = geometry.type === 'Polygon' ? geometry.coordinates[0] : geometry.coordinates[0][0];
    const key = JSON.stringify(ring[0]);
    calls.set(key, (calls.get(key) ?? 0) + 1);
    times?.set(key, [...(times.get(key) ?? []), performance.now()]);
    if (ring.length < 4) {
      const err = new Error('the boundary needs at least 3 distinct positions') as Error & {
        code: string;
        details: unknown[];
      };
      err.name = 'PlanError';
      err.code = 'invalid-boundary';
      err.details = [];
      throw err;
    }
    if (machine.turnRadiusMeters === 77) await new Promise(() => undefined);
    if (machine.turnRadiusMeters === 55 && calls.get(key) === 1) throw new Error('connection reset (transient)');
    if (machine.turnRadiusMeters === 44 && calls.get(key)! <= 2) throw new Error('connection reset (transient)');
    if (machine.turnRadiusMeters === 66) throw new Error('connection reset (transient, every time)');
    if (machine.turnRadiusMeters === 33) await new Promise((r) => setTimeout(r, 150));
    return { version: 'fake', metrics: expectedMetrics(request), route: [] };
  };
}

export function expectedMetrics(request: Req): Record<string, number> {
  const geometry = request.field ?? request.boundary;
  const machine = request.machine ?? request.equipment;
  const ring = geometry.type === 'Polygon' ? geometry.coordinates[0] : geometry.coordinates[0][0];
  return {
    turns: request.headland?.passes ?? request.exteriorHeadlandPasses ?? 2,
    workingDistanceMeters: machine.widthMeters * 100,
    fieldAreaSquareMeters: Math.round(ring[0][0] * 1e6),
  };
}

/** The fake on the in-process planner (its PlanError-shaped errors pass core's isPlanError by name and code). */
export function fakePlanner(calls: Map<string, number>, times?: Map<string, number[]>): Planner {
  const fn = fakePlanRoute(calls, times);
  return inProcessPlanner(fn as unknown as PlanFunction);
}

export const squareAt = (lon: number, lat = 47.37, d = 0.002) => ({
  type: 'Polygon' as const,
  coordinates: [
    [
      [lon, lat],
      [lon + d, lat],
      [lon + d, lat + d],
      [lon, lat + d],
      [lon, lat],
    ],
  ],
});

/** A partner-admin account with one company (with `companyCredits`) and `userCredits` of its own. */
export async function accountWithCompany(store: Store, name: string, userCredits: number, companyCredits: number) {
  const { userId, apiKey } = await store.createAccountKey({ name, partnerAdmin: true, initialCredits: userCredits });
  const { company } = await store.provisionCompany(userId, userId, {
    partnerCompanyId: `${name}-co`,
    name: `${name} Co`,
    countryCode: 'DE',
  });
  if (companyCredits > 0) await store.grantCredits('company', company.companyId, companyCredits, 'test');
  return { userId, apiKey, companyId: company.companyId };
}

type AppLike = { request(path: string, init?: RequestInit): Response | Promise<Response> };

export async function call(app: AppLike, method: string, path: string, key: string, body?: unknown) {
  const res = await app.request(path, jsonInit(method, key, body));
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Polls a job until it stops changing (or `timeoutMs`), as a client would (faster). */
export async function waitForJob(
  app: AppLike,
  key: string,
  jobId: string,
  timeoutMs: number,
  until?: (job: any) => boolean,
) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await call(app, 'GET', `/api/guidance-jobs/${jobId}`, key);
    expect(r.status).toBe(200);
    const done = until ? until(r.body) : r.body.progress.queued + r.body.progress.running === 0;
    if (done) return r;
    if (Date.now() > end)
      throw new Error(`job ${jobId} did not finish within ${timeoutMs} ms: ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

export async function allResults(app: AppLike, key: string, jobId: string, limit = 20) {
  const items: any[] = [];
  for (let offset = 0; ; offset += limit) {
    const r = await call(app, 'GET', `/api/guidance-jobs/${jobId}/results?limit=${limit}&offset=${offset}`, key);
    expect(r.status).toBe(200);
    items.push(...r.body.items);
    if (r.body.items.length < limit) return items;
  }
}
