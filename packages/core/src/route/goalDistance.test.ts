/**
 * `goalDistance` (route/connectSearch.ts), the searches' heuristic: its raster Dijkstra from the goal
 * runs only as far as the cells read need, yet every value read is the one the whole run gives —
 * whatever the order of the reads.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Region } from '../geometry/region.js';
import type { PathsD } from '../geometry/clipper.js';
import { fieldDistanceFrom, goalDistance } from './connectSearch.js';

/** A 300 × 200 m field with a wall from the bottom edge up to y = 150 at x = 140..160 (a U). */
const field: PathsD = [[{ x: 0, y: 0 }, { x: 140, y: 0 }, { x: 140, y: 150 }, { x: 160, y: 150 }, { x: 160, y: 0 }, { x: 300, y: 0 }, { x: 300, y: 200 }, { x: 0, y: 200 }]];

describe('goalDistance', () => {
  const region = new Region(field);
  const pose = ([x, y]: [number, number]) => ({ x, y, headingRadians: 0 });

  it('goes round the wall', () => {
    const h = goalDistance(region, pose([170, 20]), pose([130, 20]));
    // 40 m as the crow flies, about 270 m round the wall inside the field
    expect(h(130, 20)).toBeGreaterThan(250);
    expect(h(130, 20)).toBeLessThan(300);
  });

  it('reads the same values in any order, those of the whole run within twice the start distance + 50 m (property)', () => {
    const pt = fc.tuple(fc.double({ min: -20, max: 320, noNaN: true }), fc.double({ min: -20, max: 220, noNaN: true }));
    const inside = fc.tuple(fc.double({ min: 5, max: 295, noNaN: true }), fc.double({ min: 155, max: 195, noNaN: true }));
    fc.assert(
      fc.property(inside, inside, fc.array(pt, { minLength: 1, maxLength: 40 }), (goal, from, pts) => {
        const forward = goalDistance(region, pose(goal), pose(from));
        const backward = goalDistance(region, pose(goal), pose(from));
        const a = pts.map(([x, y]) => forward(x, y));
        const b = pts.slice().reverse().map(([x, y]) => backward(x, y)).reverse();
        expect(b).toEqual(a);
        // Where the whole field's Dijkstra from the goal has settled the cell well within the bound, the same distance.
        const whole = fieldDistanceFrom(region, goal[0], goal[1]);
        const bound = 2 * whole(from[0], from[1]) + 50;
        pts.forEach(([x, y], i) => {
          const d = whole(x, y);
          if (d < bound - 5) expect(a[i]).toBe(d);
        });
      }),
      { seed: 5, numRuns: 60 },
    );
  });
});
