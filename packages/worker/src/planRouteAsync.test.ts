/**
 * planRouteAsync in Node: the same plan as planRoute, progress by stage in order, PlanError across
 * the thread, and abort() ends the planning within 100 ms. The worker runs the built core
 * (dist/node-worker.js): `npm run build` first.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLAN_STAGES, isPlanError, planRoute } from '@furrow/core';
import type { FieldGeometry, PathPlanRequest, PlanProgress } from '@furrow/core';
import { planRouteAsync } from './index.js';

function field(id: string): FieldGeometry {
  const g = JSON.parse(readFileSync(new URL(`../../../test/fields/${id}.geojson`, import.meta.url), 'utf8')) as {
    type: string;
    geometry?: FieldGeometry;
    features?: { geometry: FieldGeometry }[];
  };
  return (
    g.type === 'Feature' ? g.geometry : g.type === 'FeatureCollection' ? g.features![0].geometry : g
  ) as FieldGeometry;
}

describe('planRouteAsync (worker_threads)', () => {
  it('returns the plan planRoute makes, reporting each stage in order', async () => {
    const request: PathPlanRequest = {
      field: field('at-033'),
      machine: { widthMeters: 6, turnRadiusMeters: 6 },
      routeOptions: { algorithm: 'snake' },
    };
    const seen: PlanProgress[] = [];
    const plan = await planRouteAsync(request, { onProgress: (p) => seen.push(p) });
    expect(JSON.stringify(plan)).toBe(JSON.stringify(planRoute(request)));
    const first = seen.filter((p) => p.planning === 1).map((p) => p.stage);
    expect(first).toEqual([...PLAN_STAGES]);
  }, 60_000);

  it('rejects with the PlanError of a bad request', async () => {
    const err = await planRouteAsync({ field: field('at-033'), machine: { widthMeters: -1 } }).catch((e: unknown) => e);
    expect(isPlanError(err)).toBe(true);
    expect((err as { code: string }).code).toBe('width-not-positive');
  }, 60_000);

  it('stops within 100 ms of abort()', async () => {
    // A large field at a narrow width: planning takes seconds, far longer than the wait below.
    const request: PathPlanRequest = { field: field('it-tus-033'), machine: { widthMeters: 3, turnRadiusMeters: 6 } };
    const controller = new AbortController();
    let stages = 0;
    const planning = planRouteAsync(request, { signal: controller.signal, onProgress: () => stages++ });
    // Abort once the worker is planning (its first stage reported).
    while (stages === 0) await new Promise((r) => setTimeout(r, 20));
    const t0 = performance.now();
    controller.abort();
    const err = await planning.catch((e: unknown) => e);
    const ms = performance.now() - t0;
    expect((err as { name: string }).name).toBe('AbortError');
    expect(ms).toBeLessThan(100);
  }, 60_000);

  it('rejects at once when the signal is already aborted', async () => {
    await expect(
      planRouteAsync({ field: field('at-033'), machine: { widthMeters: 6 } }, { signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});
