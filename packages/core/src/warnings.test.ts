/** Quality problems are never silent: each is a warning with a code, a message and a place. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planRoute } from './plan.js';
import { createLocalFrame } from './geometry/projection.js';
import type { FieldGeometry, PathPlanRequest, Plan, Position } from './types.js';

const frame = createLocalFrame([[9, 52]]);
const ring = (pts: [number, number][]): Position[] => [
  ...pts.map(([x, y]) => frame.toLonLat(x, y)),
  frame.toLonLat(pts[0][0], pts[0][1]),
];
const twoParts: FieldGeometry = {
  type: 'MultiPolygon',
  coordinates: [
    [
      ring([
        [0, 0],
        [100, 0],
        [100, 80],
        [0, 80],
      ]),
    ],
    [
      ring([
        [120, 0],
        [220, 0],
        [220, 80],
        [120, 80],
      ]),
    ],
  ],
};

/** be-wal-000 (5 ha, convex): with one headland pass the tracks leave no stretch long enough for a cross-hatch. */
const corpus = JSON.parse(
  readFileSync(new URL('../../../test/fields/be-wal-000.geojson', import.meta.url), 'utf8'),
) as { type: string; geometry?: FieldGeometry };
const beWal000 = (corpus.type === 'Feature' ? corpus.geometry : corpus) as FieldGeometry;

const plan = (field: FieldGeometry, extra: Partial<PathPlanRequest> = {}): Plan =>
  planRoute({
    field,
    machine: { widthMeters: 6, turnRadiusMeters: 6 },
    tracks: { preferredDirectionDegrees: 0 },
    ...extra,
  });

function expectPlaced(p: Plan): void {
  for (const w of p.warnings) {
    expect(w.code).toMatch(/^[a-z-]+$/);
    expect(w.message.length).toBeGreaterThan(10);
    expect(
      w.geometry !== undefined || w.sequence !== undefined || w.feature !== undefined,
      `${w.code} has a place`,
    ).toBe(true);
  }
}

describe('warnings', () => {
  it('useCrossHatches with one headland pass and nothing to hatch: the empty result is warned, not silent', () => {
    const p = plan(beWal000, { headland: { passes: 1, fitTurns: false }, options: 'useCrossHatches', tracks: {} });
    expect(p.crosshatches).toEqual([]);
    const w = p.warnings.find((x) => x.code === 'crosshatches-empty');
    expect(w?.feature).toBe('crosshatches');
    expect(w?.message).toMatch(/no cross-hatch pass/);
    expectPlaced(p);
  });

  it('every warning of plans that warn (parts, curved tracks refused, cross-hatches) has a place', () => {
    for (const p of [
      plan(twoParts),
      plan(beWal000, { headland: { passes: 1, fitTurns: false }, options: 'useCrossHatches', tracks: {} }),
      plan(beWal000, { headland: { passes: 1 }, routeOptions: { algorithm: 'clusteredSpiral' }, tracks: {} }),
    ]) {
      expect(p.warnings.length).toBeGreaterThan(0);
      expectPlaced(p);
    }
  });
});
