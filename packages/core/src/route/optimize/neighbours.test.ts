import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OrderingProblem } from '../order/problem.js';
import { buildNeighbourLists } from './transitions.js';

describe('buildNeighbourLists', () => {
  it(
    'lists exactly the k nearest other-item ends (brute force), sorted by cost, with the k-th distance ' + 'as radius',
    () => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.integer({ min: -500, max: 500 }), fc.integer({ min: -50, max: 50 })), {
            minLength: 2,
            maxLength: 120,
          }),
          fc.integer({ min: 1, max: 12 }),
          (pts, k) => {
            if (pts.length % 2) pts.pop();
            const ends = pts.length;
            const endXY = new Float64Array(pts.flat());
            const dist = (a: number, b: number): number =>
              Math.hypot(endXY[2 * a] - endXY[2 * b], endXY[2 * a + 1] - endXY[2 * b + 1]);
            const p: OrderingProblem = {
              itemCount: ends / 2,
              endXY,
              workCost: new Float64Array(ends / 2),
              transitionCost: (a, b) => 2 * dist(a, b) + ((a + b) % 3),
            };
            const nb = buildNeighbourLists(p, p.transitionCost, k);
            for (let e = 0; e < ends; e++) {
              const others = [...Array(ends).keys()]
                .filter((f) => f !== e && f !== (e ^ 1))
                .sort((a, b) => dist(e, a) - dist(e, b));
              const want = Math.min(nb.k, others.length);
              expect(nb.count[e]).toBe(want);
              const listed = Array.from(nb.ends.subarray(e * nb.k, e * nb.k + nb.count[e]));
              // the listed distances are the k smallest (ties may pick either end)
              const listedD = listed.map((f) => dist(e, f)).sort((a, b) => a - b);
              const bestD = others.slice(0, want).map((f) => dist(e, f));
              for (let j = 0; j < want; j++) expect(listedD[j]).toBeCloseTo(bestD[j], 9);
              for (let j = 1; j < want; j++)
                expect(nb.costs[e * nb.k + j]).toBeGreaterThanOrEqual(nb.costs[e * nb.k + j - 1]);
              if (want > 0 && want === nb.k && others.length > want)
                expect(nb.radius[e]).toBeCloseTo(bestD[want - 1], 9);
            }
          },
        ),
        { seed: 61, numRuns: 60 },
      );
    },
  );
});
