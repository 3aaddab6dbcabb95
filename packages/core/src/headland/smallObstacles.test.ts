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
  // Two poles under the working width: A 12 m from the edge, inside the band of 3 passes × 6 m (it
  // keeps its rounds), B 24 m from the edge, past the band, but 10 m from A, where A's rounds run.
  const field = polygon(shell, pole(120, 12.5, 1), pole(120, 24.5, 2));
  const request = { field, machine: { widthMeters: 6, turnRadiusMeters: 6 }, headland: { passes: 3 }, routeOptions: { algorithm: 'snake' as const } };

  it('keeps its rounds too, so no headland pass runs over it', () => {
    const plan = planRoute(request);
    expect((plan.headlandStyle as { smallObstaclesWithoutRounds?: number }).smallObstaclesWithoutRounds).toBe(0);
    expect(interiorPasses(plan)).toBeGreaterThan(0);
    expect(checkPlan(request, plan).violations.filter((v) => v.code === 'inside-no-go')).toEqual([]);
  });
});

describe('a pole just past the headland passes', () => {
  // W 12 m, 2 passes: the band is 24 m deep; the pole's near side is 26.5 m from the bottom edge, so
  // the tracks past it have no room for an S between their start and the pole.
  const request = { field: polygon(shell, pole(126, 27.5, 2)), machine, headland: { passes: 2 }, tracks: { preferredDirectionDegrees: 0 } };
  const plan = planRoute(request);
  const local = (c: number[]): [number, number] => frame.toLocal(c[0], c[1]);

  it('gets no rounds, and the track by it starts swerved rather than cut into a stub', () => {
    expect(interiorPasses(plan)).toBe(0);
    expect((plan.headlandStyle as { smallObstaclesWithoutRounds?: number }).smallObstaclesWithoutRounds).toBe(1);
    expect(checkPlan(request, plan).violations).toEqual([]);
    const plain = planRoute({ ...request, field: polygon(shell) });
    const tracksOf = (p: Plan) => p.route.filter((s) => s.type === 'Track');
    // no track is cut in two: as many tracks as on the field without the pole
    expect(tracksOf(plan).length).toBe(tracksOf(plain).length);
    // the track by the pole ends (or starts) off its line, shifted clear of the pole, and keeps its clearance
    const shifted = tracksOf(plan).filter((s) => {
      const a = local(s.coordinates[0]), b = local(s.coordinates[s.coordinates.length - 1]);
      return Math.abs(a[0] - b[0]) > 1;
    });
    expect(shifted.length).toBe(1);
    const [x0, y0] = local(shifted[0].coordinates[0]), [x1, y1] = local(shifted[0].coordinates.at(-1)!);
    const bottom = y0 < y1 ? x0 : x1;
    expect(Math.abs(bottom - 126)).toBeGreaterThanOrEqual(1 + 1.5 - 1e-6);
  });

  it('a pole the rounded corners of the passes reach keeps its rounds', () => {
    // past the band (its vertices 25.6 m from both sides of a corner), where the inner pass's rounded
    // corner (R 12 m: an arc about (30, 30)) sweeps its 12 m swath over it
    const cornered = { ...request, field: polygon(shell, pole(25.8, 25.8, 0.4)), machine: { widthMeters: 12, turnRadiusMeters: 12 }, headland: { passes: 2, corners: 'rounded' as const } };
    const p = planRoute(cornered);
    expect(checkPlan(cornered, p).violations.filter((v) => v.code === 'inside-no-go')).toEqual([]);
    // how near the headland passes' centre lines come to the pole
    let nearest = Infinity;
    for (const s of p.route) {
      if (s.type !== 'ExteriorHeadland' && s.type !== 'InteriorHeadland') continue;
      for (let i = 1; i < s.coordinates.length; i++) {
        const [ax, ay] = local(s.coordinates[i - 1]), [bx, by] = local(s.coordinates[i]);
        const t = Math.max(0, Math.min(1, ((25.8 - ax) * (bx - ax) + (25.8 - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2 || 1)));
        nearest = Math.min(nearest, Math.hypot(ax + t * (bx - ax) - 25.8, ay + t * (by - ay) - 25.8));
      }
    }
    const withoutRounds = (p.headlandStyle as { smallObstaclesWithoutRounds?: number }).smallObstaclesWithoutRounds;
    // either its rounds are driven, or no pass's swath reaches it
    expect(withoutRounds === 0 || nearest > 6 + 0.2).toBe(true);
  });
});
