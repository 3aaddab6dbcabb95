import { describe, expect, it } from 'vitest';
import { countCusps, countsAsTurn } from './manoeuvres.js';
import { planRoute } from '../plan.js';
import { createLocalFrame } from '../geometry/projection.js';
import type { PathPlanRequest } from '../types.js';

const seg = (type: 'Track' | 'Turn' | 'Connector', pts: number[], reverse?: boolean) => ({
  type,
  xy: Float64Array.from(pts),
  ...(reverse ? { reverse } : {}),
});

describe('manoeuvres: reversing pieces are turns, cusps are counted', () => {
  it('counts a gear change inside a piece and at the joint between pieces, not sub-centimetre jitter', () => {
    // forward along x, back along x (cusp), forward again (cusp)
    expect(countCusps([seg('Turn', [0, 0, 5, 0, 2, 0, 2, 0.001, 8, 1])])).toBe(2);
    // a track driven forward, then a connector that backs out from where it ended: a cusp at the joint
    expect(countCusps([seg('Track', [0, 0, 10, 0]), seg('Connector', [10, 0, 6, 0, 6, 5], true)])).toBe(1);
    // a jitter of 5 mm back is noise
    expect(countCusps([seg('Track', [0, 0, 10, 0, 9.995, 0, 20, 0])])).toBe(0);
    expect(countsAsTurn(seg('Connector', [0, 0, 1, 0], true))).toBe(true);
    expect(countsAsTurn(seg('Connector', [0, 0, 1, 0]))).toBe(false);
  });

  it('a reversing machine at W 3 m, R 12 m: K-turns counted as turns, each cusp costs cuspStopSeconds', () => {
    const frame = createLocalFrame([[15, 48]]);
    const ring = (
      [
        [-120, -75],
        [120, -75],
        [120, 75],
        [-120, 75],
        [-120, -75],
      ] as [number, number][]
    ).map(([x, y]) => frame.toLonLat(x, y));
    const request = (cuspStopSeconds: number): PathPlanRequest => ({
      field: { type: 'Polygon', coordinates: [ring] },
      machine: { widthMeters: 3, turnRadiusMeters: 12, reverseAllowed: true, cuspStopSeconds },
      headland: { passes: 3 },
      tracks: { preferredDirectionDegrees: 90 },
      routeOptions: { algorithm: 'snake' },
    });
    const plan = planRoute(request(3));
    const reversing = plan.route.filter((s) => (s.type === 'Turn' || s.type === 'Connector') && s.reverse === true);
    expect(reversing.length).toBeGreaterThan(10);
    const turnPieces = plan.route.filter((s) => s.type === 'Turn').length;
    const reversingConnectors = reversing.filter((s) => s.type === 'Connector').length;
    expect(plan.metrics.turns).toBe(turnPieces + reversingConnectors);
    // every reversing manoeuvre changes gear at least once
    const cusps = plan.metrics.cusps as number;
    expect(cusps).toBeGreaterThanOrEqual(reversing.length);
    const still = planRoute(request(0));
    expect(still.metrics.cusps).toBe(cusps);
    expect(plan.metrics.timeSeconds - still.metrics.timeSeconds).toBeCloseTo(3 * cusps, 1);
  });
});
