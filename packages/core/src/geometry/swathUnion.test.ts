import { describe, expect, it } from 'vitest';
import { areaOf, unionPolygons } from './clipper.js';
import type { PathD, PathsD } from './clipper.js';
import { unionSwaths } from './swathUnion.js';
import { computeCoverage, sweepPasses } from './computeCoverage.js';
import { curvedUnionOnce, sameRingAs, turnedSwaths } from './swaths.js';

const P = 6;
const square = (x: number, y: number, s: number): PathD => [
  { x, y },
  { x: x + s, y },
  { x: x + s, y: y + s },
  { x, y: y + s },
];
const rect = (x0: number, y0: number, x1: number, y1: number): PathD => [
  { x: x0, y: y0 },
  { x: x1, y: y0 },
  { x: x1, y: y1 },
  { x: x0, y: y1 },
];

/** Winding number of all rings round (x, y): NonZero, covered where not 0. */
function windingAt(paths: PathsD, x: number, y: number): number {
  let w = 0;
  for (const ring of paths) {
    for (let i = 0, n = ring.length, j = n - 1; i < n; j = i++) {
      const a = ring[j],
        b = ring[i];
      const side = (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y);
      if (a.y <= y) {
        if (b.y > y && side > 0) w++;
      } else if (b.y <= y && side < 0) w--;
    }
  }
  return w;
}

/**
 * "Curved" swaths: a 100 × 100 m sheet of crossing bands leaving a 10 × 10 grid of 3 × 3 m gaps
 * (the union's holes), one gap holding an island. "Straight" swaths: one crossing the gap at
 * (17, 17) and one lying wholly inside the gap at (67, 37); one reaching just into the gap at (7, 87).
 */
function swaths(): { curved: PathsD; straight: PathsD } {
  const curved: PathsD = [];
  for (let i = 0; i < 10; i++) {
    curved.push(rect(0, i * 10, 100, i * 10 + 7));
    curved.push(rect(i * 10, 0, i * 10 + 7, 100));
  }
  curved.push(square(47.5, 47.5, 1)); // an island in the gap at (47, 47)
  const straight: PathsD = [rect(16, 15, 19, 20), rect(67.5, 37.5, 68.5, 38.5), rect(5, 88, 7.5, 89)];
  return { curved, straight };
}

describe('unionSwaths', () => {
  it('is the union of all the swaths: the same area, the same points covered', () => {
    const { curved, straight } = swaths();
    const one = unionPolygons([...curved, ...straight], P);
    const two = unionSwaths(() => unionPolygons(curved, P), straight, P);
    expect(unionPolygons(curved, P).filter((r) => areaOf([r]) < 0).length).toBeGreaterThanOrEqual(64);
    expect(areaOf(two)).toBeCloseTo(areaOf(one), 9);
    for (let x = 0.25; x < 100; x += 0.5) {
      for (let y = 0.25; y < 100; y += 0.5)
        expect([x, y, windingAt(two, x, y) !== 0]).toEqual([x, y, windingAt(one, x, y) !== 0]);
    }
  });

  it('hands on the holes no straight swath reaches without sweeping them again, and no others', () => {
    const { curved, straight } = swaths();
    const uc = unionPolygons(curved, P);
    const holes = new Set(uc.filter((r) => areaOf([r]) < 0));
    const two = unionSwaths(() => uc, straight, P);
    const handedOn = two.filter((r) => holes.has(r));
    // 81 gaps: the three the straight swaths reach and the one with the island are swept again
    expect(holes.size).toBe(81);
    expect(handedOn.length).toBe(77);
    const at = (x: number, y: number): boolean => handedOn.some((h) => windingAt([h], x, y) !== 0);
    for (const [x, y] of [
      [18.5, 18.5],
      [68, 38],
      [8.5, 88.5],
      [49.5, 49.5],
    ])
      expect(at(x, y)).toBe(false);
    expect(at(28.5, 28.5)).toBe(true);
  });
});

/**
 * A wobbly closed ring k widths in from a 100 m square's sides, 40 vertices, and the same ring driven from a point
 * inside its 6th edge, the other way round.
 */
function passRing(k: number): Float64Array {
  const out: number[] = [];
  for (let i = 0; i <= 40; i++) {
    const a = (2 * Math.PI * (i % 40)) / 40,
      r = 45 - 4 * k + (i % 2 === 0 ? 0.3 : -0.3);
    out.push(50 + r * Math.cos(a), 50 + r * Math.sin(a));
  }
  return Float64Array.from(out);
}
function drivenFromEdge(r: Float64Array): Float64Array {
  const n = r.length / 2 - 1;
  const jx = (r[10] + r[12]) / 2,
    jy = (r[11] + r[13]) / 2;
  const driven: number[] = [jx, jy];
  for (let k = 0; k < n; k++) {
    const i = (5 - k + n) % n;
    driven.push(r[2 * i], r[2 * i + 1]);
  }
  driven.push(jx, jy);
  return Float64Array.from(driven);
}
const workable: PathsD = [square(0, 0, 100)];
const tracks = [0, 1, 2, 3].map((i) => ({ xy: Float64Array.from([30, 36 + 4 * i, 70, 36 + 4 * i]), widthMeters: 4 }));

describe('sweepPasses', () => {
  it(
    'measures a ring declared the same as a pass (another start, the other way, a point on an edge) as ' + 'that pass',
    () => {
      const rings = [0, 1, 2].map(passRing);
      const first = sweepPasses(workable, [...rings.map((xy) => ({ xy, widthMeters: 4 })), ...tracks]);
      const driven = drivenFromEdge(rings[1]);
      sameRingAs(driven, rings[1]);
      const routed = [driven, rings[2], rings[0]].map((xy) => ({ xy, widthMeters: 4 }));
      const second = sweepPasses(workable, [...routed, ...tracks]);
      const undeclared = sweepPasses(workable, [
        { xy: Float64Array.from(driven), widthMeters: 4 },
        ...routed.slice(1),
        ...tracks,
      ]);
      const a = computeCoverage(workable, first),
        b = computeCoverage(workable, second),
        c = computeCoverage(workable, undeclared);
      expect(b.uncoveredSquareMeters).toBe(a.uncoveredSquareMeters);
      expect(b.overlapSquareMeters).toBe(a.overlapSquareMeters);
      // the ring measured afresh covers the same ground, within the grid's rounding of its own joins
      expect(c.uncoveredSquareMeters).toBeCloseTo(a.uncoveredSquareMeters, 2);
      expect(c.overlapSquareMeters).toBeCloseTo(a.overlapSquareMeters, 2);
    },
  );

  it('unites the curved swaths of one set of passes once, whatever their order', () => {
    const rings = [0, 1, 2].map(passRing);
    const driven = drivenFromEdge(rings[1]);
    sameRingAs(driven, rings[1]);
    let made = 0;
    const make = (): PathsD => {
      made++;
      return [];
    };
    const planned = rings.map((xy) => ({ xy, widthMeters: 4 }));
    curvedUnionOnce(turnedSwaths([...planned, ...tracks], workable), P, make);
    expect(made).toBe(1);
    curvedUnionOnce(
      turnedSwaths([...[driven, rings[2], rings[0]].map((xy) => ({ xy, widthMeters: 4 })), ...tracks], workable),
      P,
      make,
    );
    expect(made).toBe(1);
    // a ring not declared the same is a pass of its own; a pass left out makes another set
    curvedUnionOnce(
      turnedSwaths(
        [{ xy: Float64Array.from(driven), widthMeters: 4 }, ...planned.slice(0, 1), ...planned.slice(2), ...tracks],
        workable,
      ),
      P,
      make,
    );
    expect(made).toBe(2);
    curvedUnionOnce(turnedSwaths([...planned.slice(1), ...tracks], workable), P, make);
    expect(made).toBe(3);
  });
});
