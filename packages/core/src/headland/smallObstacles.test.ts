import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { createLocalFrame } from '../geometry/projection.js';
import type { GeoJsonPolygon, Plan } from '../types.js';

const frame = createLocalFrame([[9.1, 47.4]]);
function polygon(...rings: [number, number][][]): GeoJsonPolygon {
  return { type: 'Polygon', coordinates: rings.map((r) => { const ll = r.map(([x, y]) => frame.toLonLat(x, y)); return [...ll, ll[0]]; }) };
}
/** A square pole of side `a` centred at (x, y), clockwise (a hole). */
const pole = (x: number, y: number, a: number): [number, number][] => [[x - a / 2, y - a / 2], [x - a / 2, y + a / 2], [x + a / 2, y + a / 2], [x + a / 2, y - a / 2]];
const shell: [number, number][] = [[0, 0], [240, 0], [240, 160], [0, 160]];
const machine = { widthMeters: 12, turnRadiusMeters: 9 };

const interiorPasses = (plan: Plan): number => (plan.headlands as { type: string }[]).filter((h) => h.type === 'InteriorHeadland').length;

describe('small obstacles get no headland rounds', () => {
  // three poles (2-3 m) on one line across the tracks, one of them exactly on a track's line
  const field = polygon(shell, pole(120, 80, 3), pole(100, 80, 2), pole(141, 83, 2.5));
  const request = { field, machine, headland: { passes: 2 }, tracks: { preferredDirectionDegrees: 0 } };

  it('tracks swerve round poles smaller than the working width, with no interior passes, inside the field and out of the poles', () => {
    const plan = planRoute(request);
    expect(interiorPasses(plan)).toBe(0);
    expect((plan.headlandStyle as { smallObstaclesWithoutRounds?: number }).smallObstaclesWithoutRounds).toBe(3);
    const check = checkPlan(request, plan);
    expect(check.violations).toEqual([]);
    // some track bends round a pole (more than two points)
    expect(plan.route.some((s) => s.type === 'Track' && s.coordinates.length > 2)).toBe(true);
  });

  it('overlaps less than rounds round each pole (the old behaviour, asked for with smallObstacleSizeMeters 0)', () => {
    const swerved = planRoute(request);
    const rounds = planRoute({ ...request, headland: { passes: 2, smallObstacleSizeMeters: 0 } });
    expect(interiorPasses(rounds)).toBeGreaterThan(0);
    expect(swerved.metrics.overlapRatio).toBeLessThan(rounds.metrics.overlapRatio);
    expect(swerved.metrics.nonWorkingDistanceMeters).toBeLessThan(rounds.metrics.nonWorkingDistanceMeters);
  });

  it('an obstacle as large as the working width keeps its rounds', () => {
    const plan = planRoute({ field: polygon(shell, pole(120, 80, 14)), machine, headland: { passes: 2 }, tracks: { preferredDirectionDegrees: 0 } });
    expect(interiorPasses(plan)).toBeGreaterThan(0);
  });
});

describe('a small obstacle near one that keeps its rounds', () => {
  // Two poles under the working width: A 26 m from the edge (under the margin of 3 passes × 6 m + 2R:
  // it keeps its rounds), B 32 m from the edge but 8.5 m from A, where A's second round runs.
  const field = polygon(shell, pole(120, 26.5, 1), pole(120, 36.5, 2));
  const request = { field, machine: { widthMeters: 6, turnRadiusMeters: 6 }, headland: { passes: 3 }, routeOptions: { algorithm: 'snake' as const } };

  it('keeps its rounds too, so no headland pass runs over it', () => {
    const plan = planRoute(request);
    expect((plan.headlandStyle as { smallObstaclesWithoutRounds?: number }).smallObstaclesWithoutRounds).toBe(0);
    expect(interiorPasses(plan)).toBeGreaterThan(0);
    expect(checkPlan(request, plan).violations.filter((v) => v.code === 'inside-no-go')).toEqual([]);
  });
});
