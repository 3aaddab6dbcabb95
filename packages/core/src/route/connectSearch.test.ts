/**
 * The connect stage's geometry pieces: the indexed region test, loop queries, junctions on
 * loops, the kink bound, and the hybrid-A* connector search (route/connectSearch.ts).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Region, segmentsIntersect } from '../geometry/region.js';
import type { PathsD } from '../geometry/clipper.js';
import { worstCurvatureRatio } from '../geometry/curvature.js';
import { turnCandidates } from '../turns/index.js';
import type { Pose } from '../turns/types.js';
import {
  junctionOnLoop,
  kinksWithinRadius,
  loopDefects,
  makeLoop,
  nearestOnLoop,
  sliceLoop,
} from '../turns/connectorRings.js';
import { canLeave, defaultExpansions, searchConnector } from './connectSearch.js';
import { inPocket } from './headlandEntry.js';
import { shotIn as shotOf } from '../__fixtures__/shots.js';

const R = 6;

function ring(points: [number, number][]): { x: number; y: number }[] {
  return points.map(([x, y]) => ({ x, y }));
}

/** An L-shaped corridor `width` wide: along +x from (0, 0) to (L, 0), then up +y to (L, L). */
function corridorL(width: number, L = 120): PathsD {
  const h = width / 2;
  return [
    ring([
      [-h, -h],
      [L + h, -h],
      [L + h, L],
      [L - h, L],
      [L - h, h],
      [-h, h],
    ]),
  ];
}

function circleXY(cx: number, cy: number, r: number, n: number): Float64Array {
  const xy = new Float64Array(2 * n + 2);
  for (let i = 0; i <= n; i++) {
    const a = (2 * Math.PI * i) / n;
    xy[2 * i] = cx + r * Math.cos(a);
    xy[2 * i + 1] = cy + r * Math.sin(a);
  }
  return xy;
}

/** Straightforward reference: the polyline's first point inside and no segment touching an edge. */
function containsNaive(region: Region, xy: ArrayLike<number>): boolean {
  if (!region.contains(xy[0], xy[1])) return false;
  const e = region.edges;
  for (let i = 2; i < xy.length; i += 2) {
    for (let k = 0; k < e.length; k += 4) {
      if (segmentsIntersect(xy[i - 2], xy[i - 1], xy[i], xy[i + 1], e[k], e[k + 1], e[k + 2], e[k + 3])) return false;
    }
  }
  return true;
}

describe('Region.containsPolyline (runs of points, one index query per run)', () => {
  it('agrees with the per-segment test against every edge on random polylines', () => {
    // A field with a hole: a 100 × 60 rectangle, a 20 × 20 hole.
    const region = new Region([
      ring([
        [0, 0],
        [100, 0],
        [100, 60],
        [0, 60],
      ]),
      ring([
        [40, 20],
        [40, 40],
        [60, 40],
        [60, 20],
      ]),
    ]);
    fc.assert(
      fc.property(
        fc.double({ min: -10, max: 110, noNaN: true }),
        fc.double({ min: -10, max: 70, noNaN: true }),
        fc.array(fc.tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true })), {
          minLength: 1,
          maxLength: 120,
        }),
        (x0, y0, steps) => {
          const xy = [x0, y0];
          for (const [dx, dy] of steps) xy.push(xy[xy.length - 2] + dx, xy[xy.length - 1] + dy);
          expect(region.containsPolyline(xy)).toBe(containsNaive(region, xy));
        },
      ),
      { seed: 7, numRuns: 300 },
    );
  });

  it('rings() gives back the rings it was built from', () => {
    const rings = [
      ring([
        [0, 0],
        [100, 0],
        [100, 60],
        [0, 60],
      ]),
      ring([
        [40, 20],
        [40, 40],
        [60, 40],
        [60, 20],
      ]),
    ];
    expect(new Region(rings).rings()).toEqual(rings);
  });
});

describe('connector loops', () => {
  it('nearestOnLoop (indexed) matches a scan of every segment', () => {
    const loop = makeLoop(circleXY(0, 0, 40, 97));
    fc.assert(
      fc.property(
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: -80, max: 80, noNaN: true }),
        (x, y) => {
          let best = Infinity;
          for (let i = 2; i < loop.xy.length; i += 2) {
            const ax = loop.xy[i - 2],
              ay = loop.xy[i - 1],
              dx = loop.xy[i] - ax,
              dy = loop.xy[i + 1] - ay;
            const l2 = dx * dx + dy * dy;
            const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / l2));
            best = Math.min(best, Math.hypot(ax + t * dx - x, ay + t * dy - y));
          }
          expect(nearestOnLoop(loop, x, y).distance).toBeCloseTo(best, 9);
          // With a reach: farther loops answer Infinity, nearer ones the same distance.
          const capped = nearestOnLoop(loop, x, y, 10).distance;
          if (best > 10) expect(capped).toBe(Infinity);
          else expect(capped).toBeCloseTo(best, 9);
        },
      ),
      { seed: 11, numRuns: 200 },
    );
  });

  it(
    'a junction on a dense ring sits on a vertex, headed along the chord driven next (enter) or just driven ' +
      '(leave)',
    () => {
      const loop = makeLoop(circleXY(0, 0, 2 * R, 200));
      for (const dir of [1, -1] as const) {
        for (const s of [3.3, 17.01, loop.lengthMeters - 0.01]) {
          const enter = junctionOnLoop(loop, s, dir, 'enter');
          const slice = sliceLoop(loop, enter.s, 3, dir);
          // No repeated first point; the first chord has the pose's heading.
          expect(Math.hypot(slice[2] - slice[0], slice[3] - slice[1])).toBeGreaterThan(0.01);
          expect(
            Math.abs(Math.sin(Math.atan2(slice[3] - slice[1], slice[2] - slice[0]) - enter.pose.headingRadians)),
          ).toBeLessThan(1e-9);
          const leave = junctionOnLoop(loop, s, dir, 'leave');
          const before = sliceLoop(loop, leave.s - dir * 3, 3, dir);
          const n = before.length;
          expect(
            Math.abs(
              Math.sin(
                Math.atan2(before[n - 1] - before[n - 3], before[n - 2] - before[n - 4]) - leave.pose.headingRadians,
              ),
            ),
          ).toBeLessThan(1e-9);
        }
      }
    },
  );

  it('a smooth ring has no defects; a ring with a sharp corner has one there', () => {
    expect(loopDefects(makeLoop(circleXY(0, 0, 1.15 * R, 240)), R).length).toBe(0);
    const square = makeLoop(Float64Array.from([0, 0, 50, 0, 50, 50, 0, 50, 0, 0]));
    const d = loopDefects(square, R);
    expect(d.length).toBe(4);
    for (const s of d) expect([0, 50, 100, 150]).toContain(Math.round(s));
  });
});

describe('kinksWithinRadius', () => {
  it('accepts a circle of radius R sampled at any spacing, rejects one of 0.8 R', () => {
    for (const n of [30, 90, 400]) {
      expect(kinksWithinRadius(circleXY(0, 0, R, n), R)).toBe(true);
      expect(kinksWithinRadius(circleXY(0, 0, 0.8 * R, n), R)).toBe(false);
    }
  });

  it(
    'rejects a 22° corner between two 0.5 m chords (a curve of radius R turns 4.8° there), not between two 10 m ' +
      'chords',
    () => {
      expect(kinksWithinRadius([0, 0, 0.5, 0, 1, 0.2], R)).toBe(false);
      expect(kinksWithinRadius([0, 0, 0.5, 0, 1, 0], R)).toBe(true);
      // Chords of 10 m: a radius-R curve can turn 2·asin(10/12) ≈ 113° between them.
      expect(kinksWithinRadius([0, 0, 10, 0, 20, 4], R)).toBe(true);
    },
  );
});

describe('searchConnector (hybrid A*)', () => {
  const shotIn = (region: Region): ReturnType<typeof shotOf> => shotOf(region, R);

  it('finds a forward path round a right-angle bend of a 14 m corridor where no single manoeuvre fits', () => {
    const region = new Region(corridorL(14));
    const from: Pose = { x: 10, y: 0, headingRadians: 0 };
    const to: Pose = { x: 120, y: 100, headingRadians: Math.PI / 2 };
    // No direct Dubins path between the two stays inside.
    expect(turnCandidates(from, to, { turnRadiusMeters: R }).some((c) => region.containsPolyline(c.points))).toBe(
      false,
    );
    const xy = searchConnector(from, to, region, shotIn(region), { turnRadiusMeters: R });
    expect(xy).toBeDefined();
    const p = xy as Float64Array;
    expect(Math.hypot(p[0] - from.x, p[1] - from.y)).toBeLessThan(1e-9);
    expect(Math.hypot(p[p.length - 2] - to.x, p[p.length - 1] - to.y)).toBeLessThan(1e-6);
    expect(region.containsPolyline(p)).toBe(true);
    expect(worstCurvatureRatio(p, R).ratio).toBeLessThanOrEqual(1 + 1e-6);
    expect(kinksWithinRadius(p, R)).toBe(true);
    for (let i = 2; i < p.length; i += 2)
      expect(Math.hypot(p[i] - p[i - 2], p[i + 1] - p[i - 1])).toBeLessThanOrEqual(0.5 + 1e-9);
  });

  it(
    'gives up (undefined) when the goal needs a U-turn in a corridor narrower than 2R, and canLeave sees the ' +
      'pocket',
    () => {
      // A straight dead-end corridor 8 m wide: turning round needs 2R = 12 m.
      const region = new Region([
        ring([
          [0, -4],
          [80, -4],
          [80, 4],
          [0, 4],
        ]),
      ]);
      const from: Pose = { x: 10, y: 0, headingRadians: 0 };
      const back: Pose = { x: 5, y: 0, headingRadians: Math.PI };
      expect(
        searchConnector(from, back, region, shotIn(region), { turnRadiusMeters: R, maxExpansions: 3000 }),
      ).toBeUndefined();
      // Facing the closed end 3 m away: nothing leaves; facing down the corridor: it does.
      expect(canLeave({ x: 77, y: 0, headingRadians: 0 }, region, R)).toBe(false);
      expect(canLeave({ x: 77, y: 0, headingRadians: Math.PI }, region, R)).toBe(true);
      // Reached from behind (backwards = can a forward path arrive here): yes along the corridor.
      expect(canLeave({ x: 77, y: 0, headingRadians: 0 }, region, R, true)).toBe(true);
    },
  );

  it('counts a bay with room to circle but no way out as a pocket (inPocket), open ground not', () => {
    // A round bay of radius 14 m (all the ground there is): the machine (R 6 m) circles in it.
    const bay = new Region([
      ring(
        Array.from(
          { length: 64 },
          (_, i) => [14 * Math.cos((2 * Math.PI * i) / 64), 14 * Math.sin((2 * Math.PI * i) / 64)] as [number, number],
        ),
      ),
    ]);
    const inBay: Pose = { x: 0, y: 0, headingRadians: 0 };
    // Room to turn round (open ground, what the pocket test alone looked for), but nowhere 4 R away.
    expect(canLeave(inBay, bay, R, false, 150, 600, true)).toBe(true);
    expect(canLeave(inBay, bay, R)).toBe(false);
    expect(inPocket(inBay, bay, R)).toBe(true);
    // The same pose in a wide field, and at the closed end of the corridor above.
    const field = new Region([
      ring([
        [-100, -100],
        [100, -100],
        [100, 100],
        [-100, 100],
      ]),
    ]);
    expect(inPocket(inBay, field, R)).toBe(false);
    const corridor = new Region([
      ring([
        [0, -4],
        [80, -4],
        [80, 4],
        [0, 4],
      ]),
    ]);
    expect(inPocket({ x: 77, y: 0, headingRadians: 0 }, corridor, R)).toBe(true);
  });
});

describe('search budget and output rounding', () => {
  it('gives a far goal more expansions than a near one, within bounds', () => {
    const L = (R * Math.PI) / 12;
    expect(defaultExpansions(50, L)).toBe(8000);
    expect(defaultExpansions(Infinity, L)).toBe(8000);
    // A 1 km way inside the field (it-tus-033: 8000 ran out, 10 000 found it).
    expect(defaultExpansions(1000, L)).toBeGreaterThan(12000);
    expect(defaultExpansions(1e6, L)).toBe(40000);
  });

  it('keeps back a margin for the output rounding on short chords, not on an arc of radius R', () => {
    // Points on a circle of radius R every 0.3 m: within the bound.
    const arc: number[] = [];
    for (let i = 0; i <= 40; i++) {
      const t = (i * 0.3) / R;
      arc.push(R * Math.sin(t), R - R * Math.cos(t));
    }
    expect(kinksWithinRadius(arc, R)).toBe(true);
    // A vertex 0.0019 rad past the bound between 0.18 m and 0.33 m chords: within 0.002 rad, but
    // the 1e-9° rounding of the plan can push it past (at-ref-003, spiral).
    const a = 0.18,
      b = 0.33;
    const turn = Math.asin(a / (2 * R)) + Math.asin(b / (2 * R)) + 0.0019;
    expect(kinksWithinRadius([-a, 0, 0, 0, b * Math.cos(turn), b * Math.sin(turn)], R)).toBe(false);
    // Between 1 m chords only 0.0004 rad is kept back: 0.0015 past the bound still passes.
    const t1 = 2 * Math.asin(1 / (2 * R)) + 0.0015;
    expect(kinksWithinRadius([-1, 0, 0, 0, Math.cos(t1), Math.sin(t1)], R)).toBe(true);
  });
});
