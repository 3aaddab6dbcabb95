/**
 * The same request gives the same plan, byte for byte, on an idle or a loaded machine: ten corpus
 * fields are planned (default request, the wall clock `performance.now()` as the cap), then planned
 * again with two worker threads burning CPU beside the planner, and the plans' JSON compared. The
 * ordering is bounded by a counted work budget (packages/core/src/clock.ts), not by the clock.
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { planRoute } from '@furrow/core';
import type { FieldGeometry, PathPlanRequest } from '@furrow/core';

const FIELDS = [
  'at-033',
  'be-vlg-081',
  'bg-079',
  'ch-021',
  'cz-097',
  'de-bb-075',
  'de-sh-017',
  'dk-036',
  'ie-010',
  'pt-026',
];

function request(id: string): PathPlanRequest {
  const g = JSON.parse(readFileSync(new URL(`../fields/${id}.geojson`, import.meta.url), 'utf8')) as {
    type: string;
    geometry?: FieldGeometry;
  };
  return {
    field: (g.type === 'Feature' ? g.geometry : g) as FieldGeometry,
    machine: { widthMeters: 6, turnRadiusMeters: 6 },
    routeOptions: { maxOptimizerTime: 5 },
  };
}

describe('plans do not depend on the machine load', () => {
  it('plans ten corpus fields byte for byte the same with two CPU-burning threads beside the planner', async () => {
    // the wall clock injected as the API and the CLI do (the default is the same clock)
    const plan = (id: string): string => JSON.stringify(planRoute(request(id), { now: () => performance.now() }));
    const idle = FIELDS.map(plan);
    const burners = [0, 1].map(
      () => new Worker('let x = 0; for (;;) x = (x * 1103515245 + 12345) % 2147483648;', { eval: true }),
    );
    try {
      await new Promise((r) => setTimeout(r, 200));
      const loaded = FIELDS.map(plan);
      for (let i = 0; i < FIELDS.length; i++) {
        expect(loaded[i], FIELDS[i]).toBe(idle[i]);
        expect(loaded[i], FIELDS[i]).not.toContain('"code":"time-limit"');
      }
    } finally {
      await Promise.all(burners.map((w) => w.terminate()));
    }
  }, 300_000);
});
