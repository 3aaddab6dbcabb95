/**
 * `goalDistance` (route/connectSearch.ts), the searches' heuristic: its raster Dijkstra from the goal
 * runs only as far as the cells read need, yet every value read is the one the whole run gives —
 * whatever the order of the reads.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Region } from '../geometry/region.js';
import type { PathsD } from '../geometry/clipper.js';
import { fieldDistanceFrom, goalDistance } from './fieldRaster.js';

/** A 300 × 200 m field with a wall from the bottom edge up to y = 150 at x = 140..160 (a U). */
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

describe('the raster behind the distances: walls thinner than a cell', () => {
  // 300 × 200 m: cells of 1 m. A sliver of a hole 0.3 m thick across the field from x = 0 to 280 at
  // y = 100 (a ditch drawn as a no-go zone): the way from below it to above it goes round its end.
  const sliver = [
    { x: 0.5, y: 99.85 },
    { x: 0.5, y: 100.15 },
    { x: 280, y: 100.15 },
    { x: 280, y: 99.85 },
  ].reverse();
  const outer = [
    { x: 0, y: 0 },
    { x: 300, y: 0 },
    { x: 300, y: 200 },
    { x: 0, y: 200 },
  ];

  it('a hole thinner than a cell is a wall: round its end, not through it', () => {
    const d = fieldDistanceFrom(new Region([outer, sliver]), 20.3, 90.2);
    // straight across 20 m; round the end at x = 280 more than 2 × 260 m
    expect(d(20.3, 110.2)).toBeGreaterThan(500);
    expect(d(20.3, 110.2)).toBeLessThan(560);
    // on its own side, as in open ground
    expect(d(60.3, 90.2)).toBeCloseTo(40, 6);
  });

  it('a notch of the boundary thinner than a cell is a wall too', () => {
    // the same wall as a cut 0.3 m wide in from the left edge
    const notched = [
      { x: 0, y: 0 },
      { x: 300, y: 0 },
      { x: 300, y: 200 },
      { x: 0, y: 200 },
      { x: 0, y: 100.15 },
      { x: 280, y: 100.15 },
      { x: 280, y: 99.85 },
      { x: 0, y: 99.85 },
    ];
    const d = fieldDistanceFrom(new Region([notched]), 20.3, 90.2);
    expect(d(20.3, 110.2)).toBeGreaterThan(500);
  });

  it('a neck narrower than a cell still connects the two sides (the cells beside it)', () => {
    // two 100 × 100 m squares joined by a neck 0.8 m wide and 20 m long, turned 10°, 30° and 45° (cells of 1 m)
    for (const degrees of [10, 30, 45]) {
      const a = (degrees * Math.PI) / 180,
        c = Math.cos(a),
        sn = Math.sin(a);
      const at = (x: number, y: number): { x: number; y: number } => ({
        x: 300 + x * c - y * sn,
        y: 300 + x * sn + y * c,
      });
      const dumbbell = (
        [
          [0, 0],
          [100, 0],
          [100, 49.6],
          [120, 49.6],
          [120, 0],
          [220, 0],
          [220, 100],
          [120, 100],
          [120, 50.4],
          [100, 50.4],
          [100, 100],
          [0, 100],
        ] as const
      ).map(([x, y]) => at(x, y));
      const from = at(50, 50),
        to = at(170, 50);
      const d = fieldDistanceFrom(new Region([dumbbell]), from.x, from.y);
      expect(d(to.x, to.y)).toBeLessThan(135);
    }
  });
});

describe('goalDistance', () => {
  const region = new Region(field);
  const pose = ([x, y]: [number, number]) => ({ x, y, headingRadians: 0 });

  it('goes round the wall', () => {
    const h = goalDistance(region, pose([170, 20]), pose([130, 20]));
    // 40 m as the crow flies, about 270 m round the wall inside the field
    expect(h(130, 20)).toBeGreaterThan(250);
    expect(h(130, 20)).toBeLessThan(300);
  });

  it(
    'reads the same values in any order, those of the whole run within twice the start distance + 50 m ' + '(property)',
    () => {
      const pt = fc.tuple(
        fc.double({ min: -20, max: 320, noNaN: true }),
        fc.double({ min: -20, max: 220, noNaN: true }),
      );
      const inside = fc.tuple(
        fc.double({ min: 5, max: 295, noNaN: true }),
        fc.double({ min: 155, max: 195, noNaN: true }),
      );
      fc.assert(
        fc.property(inside, inside, fc.array(pt, { minLength: 1, maxLength: 40 }), (goal, from, pts) => {
          const forward = goalDistance(region, pose(goal), pose(from));
          const backward = goalDistance(region, pose(goal), pose(from));
          const a = pts.map(([x, y]) => forward(x, y));
          const b = pts
            .slice()
            .reverse()
            .map(([x, y]) => backward(x, y))
            .reverse();
          expect(b).toEqual(a);
          // Where the whole field's Dijkstra from the goal has settled the cell well within the bound, the same
          // distance.
          const whole = fieldDistanceFrom(region, goal[0], goal[1]);
          const bound = 2 * whole(from[0], from[1]) + 50;
          pts.forEach(([x, y], i) => {
            const d = whole(x, y);
            if (d < bound - 5) expect(a[i]).toBe(d);
          });
        }),
        { seed: 5, numRuns: 60 },
      );
    },
  );
});
