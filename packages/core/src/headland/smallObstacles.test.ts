import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { createLocalFrame } from '../geometry/projection.js';
import type { GeoJsonPolygon, Plan } from '../types.js';

const frame = createLocalFrame([[9.1, 47.4]]);
function polygon(...rings: [number, number][][]): GeoJsonPolygon {
  return {
    type: 'Polygon',
    coordinates: rings.map((r) => {
      const ll = r.map(([x, y]) => frame.toLonLat(x, y));
      return [...ll, ll[0]];
    }),
  };
}
/** A square pole of side `a` centred at (x, y), clockwise (a hole). */
const pole = (x: number, y: number, a: number): [number, number][] => [
  [x - a / 2, y - a / 2],
  [x - a / 2, y + a / 2],
  [x + a / 2, y + a / 2],
  [x + a / 2, y - a / 2],
];
const shell: [number, number][] = [
  [0, 0],
  [240, 0],
  [240, 160],
  [0, 160],
];
const machine = { widthMeters: 12, turnRadiusMeters: 9 };

const interiorPasses = (plan: Plan): number =>
  (plan.headlands as { type: string }[]).filter((h) => h.type === 'InteriorHeadland').length;

describe('small obstacles get no headland rounds', () => {
  // three poles (2-3 m) on one line across the tracks, one of them exactly on a track's line
  const field = polygon(shell, pole(120, 80, 3), pole(100, 80, 2), pole(141, 83, 2.5));
  const request = { field, machine, headland: { passes: 2 }, tracks: { preferredDirectionDegrees: 0 } };

  it(
    'tracks swerve round poles smaller than the working width, with no interior passes, inside the field and out ' +
      'of the poles',
    () => {
      const plan = planRoute(request);
      expect(interiorPasses(plan)).toBe(0);
      expect((plan.headlandStyle as { smallObstaclesWithoutRounds?: number }).smallObstaclesWithoutRounds).toBe(3);
      const check = checkPlan(request, plan);
      expect(check.violations).toEqual([]);
      // some track bends round a pole (more than two points)
      expect(plan.route.some((s) => s.type === 'Track' && s.coordinates.length > 2)).toBe(true);
    },
  );

  it('overlaps less than rounds round each pole (the old behaviour, asked for with smallObstacleSizeMeters 0)', () => {
    const swerved = planRoute(request);
    const rounds = planRoute({ ...request, headland: { passes: 2, smallObstacleSizeMeters: 0 } });
    expect(interiorPasses(rounds)).toBeGreaterThan(0);
    expect(swerved.metrics.overlapRatio).toBeLessThan(rounds.metrics.overlapRatio);
    expect(swerved.metrics.nonWorkingDistanceMeters).toBeLessThan(rounds.metrics.nonWorkingDistanceMeters);
  });

  it('an obstacle as large as the working width keeps its rounds', () => {
    const plan = planRoute({
      field: polygon(shell, pole(120, 80, 14)),
      machine,
      headland: { passes: 2 },
      tracks: { preferredDirectionDegrees: 0 },
    });
    expect(interiorPasses(plan)).toBeGreaterThan(0);
  });
});

describe('a small obstacle near one that keeps its rounds', () => {
  // A, 7 m across, is larger than the working width (6 m) and keeps its rounds; B, a 1 m pole, lies
  // 2.5 m off A's side, where A's first round runs: that round cannot swerve round B on A's short
  // sides, so B keeps its rounds too.
  const field = polygon(shell, pole(120, 40, 7), pole(120, 46.5, 1));
  const request = {
    field,
    machine: { widthMeters: 6, turnRadiusMeters: 6 },
    headland: { passes: 3 },
    routeOptions: { algorithm: 'snake' as const },
  };

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
  const request = {
    field: polygon(shell, pole(126, 27.5, 2)),
    machine,
    headland: { passes: 2 },
    tracks: { preferredDirectionDegrees: 0 },
  };
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
      const a = local(s.coordinates[0]),
        b = local(s.coordinates[s.coordinates.length - 1]);
      return Math.abs(a[0] - b[0]) > 1;
    });
    expect(shifted.length).toBe(1);
    const [x0, y0] = local(shifted[0].coordinates[0]),
      [x1, y1] = local(shifted[0].coordinates.at(-1)!);
    const bottom = y0 < y1 ? x0 : x1;
    expect(Math.abs(bottom - 126)).toBeGreaterThanOrEqual(1 + 1.5 - 1e-6);
  });

  it("a pole on a pass's rounded corner: rounds, or no pass runs over it", () => {
    // on the inner pass's corner arc (R 12 m about (30, 30)): a pass swerves only where it runs straight
    const cornered = {
      ...request,
      field: polygon(shell, pole(21.5, 21.5, 0.4)),
      machine: { widthMeters: 12, turnRadiusMeters: 12 },
      headland: { passes: 2, corners: 'rounded' as const },
    };
    const p = planRoute(cornered);
    expect(checkPlan(cornered, p).violations.filter((v) => v.code === 'inside-no-go')).toEqual([]);
    const withoutRounds = (p.headlandStyle as { smallObstaclesWithoutRounds?: number }).smallObstaclesWithoutRounds;
    expect(withoutRounds === 0 || nearestPass(p, 21.5, 21.5, 0.2) >= 1.5 - 1e-3).toBe(true);
  });
});

/**
 * How near the headland passes' centre lines come to a square pole of half side h at (px, py), m (sampled every 0.25
 * m).
 */
function nearestPass(p: Plan, px: number, py: number, h: number): number {
  let nearest = Infinity;
  for (const s of p.route) {
    if (s.type !== 'ExteriorHeadland' && s.type !== 'InteriorHeadland') continue;
    for (let i = 1; i < s.coordinates.length; i++) {
      const [ax, ay] = frame.toLocal(s.coordinates[i - 1][0], s.coordinates[i - 1][1]),
        [bx, by] = frame.toLocal(s.coordinates[i][0], s.coordinates[i][1]);
      const n = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / 0.25));
      for (let k = 0; k <= n; k++) {
        const x = ax + ((bx - ax) * k) / n,
          y = ay + ((by - ay) * k) / n;
        nearest = Math.min(nearest, Math.hypot(Math.max(Math.abs(x - px) - h, 0), Math.max(Math.abs(y - py) - h, 0)));
      }
    }
  }
  return nearest;
}

describe('a pole in the headland band', () => {
  // on the outer pass's line along the bottom edge (its centre line at y = 6 m)
  const request = {
    field: polygon(shell, pole(120, 6, 2)),
    machine,
    headland: { passes: 2 },
    tracks: { preferredDirectionDegrees: 0 },
  };

  it(
    "a thin zone across the pass's line, its ends farther from the line than the clearance, is seen and swerved " +
      'round',
    () => {
      // 5 m long, 0.4 m wide, at 45° across the outer pass's line: its corners lie 1.6–1.9 m off the line
      const c = Math.SQRT1_2,
        L = 2.5,
        W = 0.2;
      const sliver: [number, number][] = [
        [120 - L * c + W * c, 6 - L * c - W * c],
        [120 - L * c - W * c, 6 - L * c + W * c],
        [120 + L * c - W * c, 6 + L * c + W * c],
        [120 + L * c + W * c, 6 + L * c - W * c],
      ];
      const thin = { ...request, field: polygon(shell, sliver) };
      const plan = planRoute(thin);
      expect(checkPlan(thin, plan).violations).toEqual([]);
      expect(interiorPasses(plan)).toBe(0);
    },
  );

  it('gets no rounds: the pass swerves round it on arcs the machine can drive, and keeps its clearance', () => {
    const plan = planRoute(request);
    expect(interiorPasses(plan)).toBe(0);
    expect((plan.headlandStyle as { smallObstaclesWithoutRounds?: number }).smallObstaclesWithoutRounds).toBe(1);
    expect(checkPlan(request, plan).violations).toEqual([]);
    expect(nearestPass(plan, 120, 6, 1)).toBeGreaterThanOrEqual(1.5 - 1e-3); // (lon/lat to 9 decimals)
    // it swerves (a pass on its line would run through the pole), no more than the pole needs
    expect(nearestPass(plan, 120, 6, 1)).toBeLessThan(3);
  });
});
