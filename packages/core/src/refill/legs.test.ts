import { describe, expect, it } from 'vitest';
import { Region } from '../geometry/region.js';
import { buildWaypoints } from '../turns/waypointPath.js';
import type { PathsD } from '../geometry/clipper.js';
import { filletCorners, legLengthMeters, routeLeg, type LegRouter } from './legs.js';
import { withRefillDetours, withStagingLegs, type ExtrasSegment } from './routeExtras.js';

// A U-shaped field (counter-clockwise): two 100 m arms (x 0-40 and 160-200) joined by a 40 m base along y 0-40; the bay
// between the arms is not field.
const U: PathsD = [
  [
    { x: 0, y: 0 },
    { x: 200, y: 0 },
    { x: 200, y: 140 },
    { x: 160, y: 140 },
    { x: 160, y: 40 },
    { x: 40, y: 40 },
    { x: 40, y: 140 },
    { x: 0, y: 140 },
  ],
];
const flat = U.map((r) => r.flatMap((p) => [p.x, p.y]));
const region = new Region(U);
let wp: ReturnType<typeof buildWaypoints> | undefined;
const router: LegRouter = { region, rings: flat, waypoints: () => (wp ??= buildWaypoints(U, 2)) };

/** Share of the leg's length (sampled every 0.5 m) that lies outside the field. */
function outsideMeters(xy: Float64Array): number {
  let out = 0;
  for (let i = 2; i < xy.length; i += 2) {
    const mx = (xy[i] + xy[i - 2]) / 2,
      my = (xy[i + 1] + xy[i - 1]) / 2;
    if (!region.contains(mx, my)) out += Math.hypot(xy[i] - xy[i - 2], xy[i + 1] - xy[i - 1]);
  }
  return out;
}

describe('legs routed inside the field', () => {
  it('a leg between the two arms goes round the bay instead of across it', () => {
    const a: [number, number] = [20, 120],
      b: [number, number] = [180, 120];
    expect(region.segmentClear(a[0], a[1], b[0], b[1])).toBe(false);
    const leg = routeLeg(router, a, b);
    const xy = Float64Array.from(leg.flat());
    expect(outsideMeters(xy)).toBe(0);
    // round the bay's corners (40, 40) and (160, 40): at least 2 × √(20² + 80²) + 120 m = 284.9 m
    expect(legLengthMeters(leg)).toBeGreaterThan(284.9);
    expect(routeLeg(undefined, a, b)).toEqual([a, b]);
  });

  it('a staging area west of the field joins it at its nearest boundary point, then goes round the bay', () => {
    // staging 10 m west of the left arm; the first track starts in the right arm: the straight line would cross the
    // left arm and the bay
    const staging: [number, number] = [-10, 120];
    const segs: ExtrasSegment[] = [{ type: 'Track', xy: Float64Array.from([180, 60, 180, 130]) }];
    const routed = withStagingLegs(segs, staging, (xy) => ({ type: 'Connector', xy }), { router });
    const straight = withStagingLegs(segs, staging, (xy) => ({ type: 'Connector', xy }));
    // the straight leg crosses the bay (about 120 m outside the field); the routed one is outside only for the 10 m to
    // the left arm
    expect(outsideMeters(straight[0].xy)).toBeGreaterThan(100);
    expect(outsideMeters(routed[0].xy)).toBeLessThan(10.5);
    expect(Array.from(routed[0].xy.slice(0, 2))).toEqual(staging);
    expect(Array.from(routed[0].xy.slice(-2))).toEqual([180, 60]);
    const back = routed[routed.length - 1].xy;
    expect(Array.from(back.slice(-2))).toEqual(staging);
    expect(outsideMeters(back)).toBeLessThan(10.5);
    for (let i = 2; i < routed[0].xy.length; i += 2)
      expect(
        Math.hypot(routed[0].xy[i] - routed[0].xy[i - 2], routed[0].xy[i + 1] - routed[0].xy[i - 1]),
      ).toBeLessThanOrEqual(0.5 + 1e-9);
  });

  it('a staging area the straight line reaches directly keeps the straight leg', () => {
    const leg = routeLeg(router, [100, -50], [100, 20]);
    expect(leg).toEqual([
      [100, -50],
      [100, 20],
    ]);
  });

  it('refill detours follow the routed legs and their length is what the metrics count', () => {
    const frame = {
      toLocal: (lon: number, lat: number): [number, number] => [lon, lat],
      toLonLat: (x: number, y: number): [number, number] => [x, y],
    };
    const segs: ExtrasSegment[] = [
      { type: 'Track', xy: Float64Array.from([180, 40, 180, 140]) },
      { type: 'Track', xy: Float64Array.from([20, 140, 20, 40]) },
    ];
    // 10 m × 200 m = 0.2 ha at 100 l/ha = 20 l, 12 l tank: one refill 120 m along the route, in the left arm; depot 10
    // m east of the right arm
    const capacity = { tankCapacity: 12, applicationRatePerHectare: 100 };
    const r = withRefillDetours(
      segs,
      capacity,
      { calculateRefillPoints: true, refillStrategyType: 'Exact' },
      10,
      [210, 120],
      frame,
      [],
      (xy) => ({ type: 'Connector', xy, connector: 'refill' }),
      router,
    )!;
    expect(r.points).toHaveLength(1);
    const legs = r.segments.filter((s) => s.connector === 'refill');
    expect(legs).toHaveLength(2);
    const len = (xy: Float64Array): number => {
      let l = 0;
      for (let i = 2; i < xy.length; i += 2) l += Math.hypot(xy[i] - xy[i - 2], xy[i + 1] - xy[i - 1]);
      return l;
    };
    expect(len(legs[0].xy) + len(legs[1].xy)).toBeCloseTo(r.detourMeters, 6);
    expect(r.points[0].detourMeters).toBeCloseTo(r.detourMeters, 3);
    // round the bay, not across it: only the 10 m from the right arm to the depot are outside
    for (const l of legs) expect(outsideMeters(l.xy)).toBeLessThan(10.5);
    expect(r.detourMeters).toBeGreaterThan(2 * 200);
  });
});

describe('filletCorners', () => {
  it('rounds a right-angle corner with an arc of the radius, tangent to both legs', () => {
    const out = filletCorners(
      [
        [0, 0],
        [100, 0],
        [100, 100],
      ],
      6,
    );
    // the arc starts 6 m before the corner and ends 6 m after it; every arc point is 6 m from the centre (94, 6)
    const arc = out.slice(1, -1);
    expect(arc[0][0]).toBeCloseTo(94, 9);
    expect(arc[0][1]).toBeCloseTo(0, 9);
    expect(arc[arc.length - 1][0]).toBeCloseTo(100, 9);
    expect(arc[arc.length - 1][1]).toBeCloseTo(6, 9);
    for (const p of arc) expect(Math.hypot(p[0] - 94, p[1] - 6)).toBeCloseTo(6, 9);
    // shorter than the corner by 2·6 − 6π/2
    expect(legLengthMeters(out)).toBeCloseTo(200 - 12 + 3 * Math.PI, 1);
    for (let i = 1; i < arc.length; i++)
      expect(Math.hypot(arc[i][0] - arc[i - 1][0], arc[i][1] - arc[i - 1][1])).toBeLessThanOrEqual(0.4 + 1e-9);
  });

  it('a routed leg has no bend tighter than the radius where its legs are long enough', () => {
    // waypoints 9 m (1.5 R) inside the boundary, as the planner builds them
    let wp9: ReturnType<typeof buildWaypoints> | undefined;
    const leg = routeLeg(
      { ...router, waypoints: () => (wp9 ??= buildWaypoints(U, 9)), turnRadiusMeters: 6 },
      [20, 120],
      [180, 120],
    );
    let tightest = Infinity;
    for (let i = 2; i < leg.length; i++) {
      const [a, b, c] = [leg[i - 2], leg[i - 1], leg[i]];
      const area2 = Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
      if (area2 < 1e-9) continue;
      const r =
        (Math.hypot(b[0] - a[0], b[1] - a[1]) *
          Math.hypot(c[0] - b[0], c[1] - b[1]) *
          Math.hypot(a[0] - c[0], a[1] - c[1])) /
        (2 * area2);
      tightest = Math.min(tightest, r);
    }
    expect(tightest).toBeGreaterThan(5.99);
    expect(outsideMeters(Float64Array.from(leg.flat()))).toBe(0);
  });
});
