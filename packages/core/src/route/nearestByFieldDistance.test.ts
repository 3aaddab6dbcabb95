/** `nearestByFieldDistance` (route/connectSearch.ts): the same answer as ranking every point by `fieldDistanceFrom`. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Region } from '../geometry/region.js';
import type { PathsD } from '../geometry/clipper.js';
import { fieldDistanceFrom, nearestByFieldDistance } from './fieldRaster.js';

/**
 * A 300 × 200 m field with a wall from the bottom edge up to y = 150 at x = 140..160 (a U): near as the crow flies is
 * far inside.
 */
const field: PathsD = [
  [
    { x: 0, y: 0 },
    { x: 140, y: 0 },
    { x: 140, y: 150 },
    { x: 160, y: 150 },
    { x: 160, y: 0 },
    { x: 300, y: 0 },
    { x: 300, y: 200 },
    { x: 0, y: 200 },
  ],
];

/** Lowest index of the least `fieldDistanceFrom` distance, -1 if none is finite: the ranking the function replaces. */
function byRanking(region: Region, x: number, y: number, xy: number[]): number {
  const d = fieldDistanceFrom(region, x, y);
  let best = -1,
    bestD = Infinity;
  for (let i = 0; i < xy.length / 2; i++) {
    const v = d(xy[2 * i], xy[2 * i + 1]);
    if (v < bestD) {
      bestD = v;
      best = i;
    }
  }
  return best;
}

describe('fieldDistanceFrom', () => {
  it('in open ground, the 8-neighbour (octile) distance between raster cells (property)', () => {
    // 300 × 200 m, no wall: cells of 1 m (extent / 600, at least 1 m), the raster one cell outside.
    const open = new Region([
      [
        { x: 0, y: 0 },
        { x: 300, y: 0 },
        { x: 300, y: 200 },
        { x: 0, y: 200 },
      ],
    ]);
    const cellOf = (v: number): number => Math.floor(v + 1);
    const pt = fc.tuple(
      fc.double({ min: 0.5, max: 299.5, noNaN: true }),
      fc.double({ min: 0.5, max: 199.5, noNaN: true }),
    );
    fc.assert(
      fc.property(pt, fc.array(pt, { minLength: 1, maxLength: 20 }), ([x, y], pts) => {
        const d = fieldDistanceFrom(open, x, y);
        for (const [px, py] of pts) {
          const di = Math.abs(cellOf(px) - cellOf(x)),
            dj = Math.abs(cellOf(py) - cellOf(y));
          expect(d(px, py)).toBeCloseTo(Math.min(di, dj) * Math.SQRT2 + Math.abs(di - dj), 6);
        }
      }),
      { seed: 5, numRuns: 25 },
    );
  });
});

describe('nearestByFieldDistance', () => {
  const region = new Region(field);
  it('goes round the wall: the point across it is farther than one on this side', () => {
    // From (130, 20): (170, 20) is 40 m away straight, ~270 m round the wall; (100, 100) ~90 m.
    const xy = [170, 20, 100, 100];
    expect(nearestByFieldDistance(region, 130, 20, xy)).toBe(1);
    expect(nearestByFieldDistance(region, 130, 20, [170, 20])).toBe(0);
    expect(nearestByFieldDistance(region, 130, 20, [-50, -50])).toBe(-1);
  });

  it('agrees with ranking every point by fieldDistanceFrom (property)', () => {
    const pt = fc.tuple(fc.double({ min: -20, max: 320, noNaN: true }), fc.double({ min: -20, max: 220, noNaN: true }));
    fc.assert(
      fc.property(pt, fc.array(pt, { minLength: 1, maxLength: 30 }), ([x, y], pts) => {
        const xy = pts.flat();
        // Repeat a point: ties go to the lower index.
        xy.push(xy[0], xy[1]);
        expect(nearestByFieldDistance(region, x, y, xy)).toBe(byRanking(region, x, y, xy));
      }),
      { seed: 3, numRuns: 60 },
    );
  });

  it(
    'asked again and again from one point (its Dijkstra goes on where it stopped), the same answers as ranking ' +
      '(property)',
    () => {
      const pt = fc.tuple(
        fc.double({ min: -20, max: 320, noNaN: true }),
        fc.double({ min: -20, max: 220, noNaN: true }),
      );
      fc.assert(
        fc.property(
          pt,
          fc.array(fc.array(pt, { minLength: 1, maxLength: 12 }), { minLength: 2, maxLength: 6 }),
          ([x, y], sets) => {
            // A fresh region: the run from (x, y) starts with the first set (near points first, then far ones, or the
            // reverse).
            const own = new Region(field);
            for (const pts of sets) {
              const xy = pts.flat();
              expect(nearestByFieldDistance(own, x, y, xy)).toBe(byRanking(own, x, y, xy));
            }
          },
        ),
        { seed: 4, numRuns: 40 },
      );
    },
  );
});
