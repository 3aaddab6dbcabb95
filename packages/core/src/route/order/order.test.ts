import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boustrophedonPattern, clusteredSpiralPattern, snakePattern, spiralPattern } from './patterns.js';
import { FIXED_ORDER_ALGORITHMS, firstTurnSide, fixedOrder } from './fixed.js';
import { entryEndOf, exitEndOf, orderCost, orderViolations } from './problem.js';
import { syntheticTrackProblem } from './synthetic.js';

const isPermutation = (seq: number[], m: number): boolean =>
  seq.length === m && new Set(seq).size === m && seq.every((i) => i >= 0 && i < m);

describe('patterns', () => {
  it('match the documented small cases', () => {
    expect(boustrophedonPattern(4)).toEqual([0, 1, 2, 3]);
    expect(snakePattern(6, 1)).toEqual([0, 2, 4, 5, 3, 1]);
    expect(snakePattern(7, 2)).toEqual([0, 3, 6, 4, 1, 2, 5]);
    expect(spiralPattern(5)).toEqual([0, 4, 1, 3, 2]);
    // skipCount 1: clusters of 5, circling 0,3,1,4,2
    expect(clusteredSpiralPattern(10, 1)).toEqual([0, 3, 1, 4, 2, 5, 8, 6, 9, 7]);
    // remainder (2 tracks) joins the last cluster: size 7, h = 4
    expect(clusteredSpiralPattern(7, 1)).toEqual([0, 4, 1, 5, 2, 6, 3]);
    expect(clusteredSpiralPattern(0, 1)).toEqual([]);
  });

  it('are permutations for every size and skip count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 6 }), (m, s) => {
        expect(isPermutation(boustrophedonPattern(m), m)).toBe(true);
        expect(isPermutation(snakePattern(m, s), m)).toBe(true);
        expect(isPermutation(spiralPattern(m), m)).toBe(true);
        expect(isPermutation(clusteredSpiralPattern(m, s), m)).toBe(true);
      }),
      { seed: 31, numRuns: 200 },
    );
  });

  it('clusteredSpiral skips at least skipCount tracks on every turn when there are enough tracks', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 60 }), (s, extra) => {
        const m = 2 * s + 3 + extra;
        const seq = clusteredSpiralPattern(m, s);
        for (let k = 1; k < seq.length; k++) expect(Math.abs(seq[k] - seq[k - 1])).toBeGreaterThanOrEqual(s + 1);
      }),
      { seed: 32, numRuns: 150 },
    );
  });

  it('snake turns inside a class span exactly skipCount + 1 tracks', () => {
    const seq = snakePattern(30, 2);
    let wide = 0;
    for (let k = 1; k < seq.length; k++) if (Math.abs(seq[k] - seq[k - 1]) === 3) wide++;
    // 3 classes of 10: 9 inner turns each; 2 class changes
    expect(wide).toBe(27);
  });
});

describe('fixedOrder', () => {
  it('visits every item once for every algorithm, on ragged fields', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 3 }),
        (n, seed, skip) => {
          const p = syntheticTrackProblem({ trackCount: n, spacingMeters: 6, turnRadiusMeters: 6, seed, slope: 0.2 });
          for (const alg of FIXED_ORDER_ALGORITHMS)
            expect(orderViolations(p, fixedOrder(p, alg, { skipCount: skip }))).toEqual([]);
        },
      ),
      { seed: 33, numRuns: 60 },
    );
  });

  it('alternates sides so that each transition stays on one headland', () => {
    const p = syntheticTrackProblem({ trackCount: 12, spacingMeters: 6, turnRadiusMeters: 6 });
    const order = fixedOrder(p, 'boustrophedon');
    for (let k = 1; k < 12; k++) {
      const prevExit = exitEndOf(order.sequence[k - 1], order.flipped[k - 1]);
      const entry = entryEndOf(order.sequence[k], order.flipped[k]);
      expect(prevExit & 1).toBe(entry & 1);
    }
  });

  it('starts next to a staging area: far east starts at the east-most track', () => {
    const east = syntheticTrackProblem({ trackCount: 20, spacingMeters: 6, turnRadiusMeters: 6, staging: [2000, 100] });
    const west = syntheticTrackProblem({
      trackCount: 20,
      spacingMeters: 6,
      turnRadiusMeters: 6,
      staging: [-2000, 100],
    });
    for (const alg of ['boustrophedon', 'snake'] as const) {
      expect(fixedOrder(east, alg).sequence[0]).toBe(19);
      expect(fixedOrder(west, alg).sequence[0]).toBe(0);
    }
  });

  it('forcedDirection picks the winding of spirals', () => {
    const p = syntheticTrackProblem({ trackCount: 15, spacingMeters: 6, turnRadiusMeters: 6 });
    for (const alg of ['spiral', 'clusteredSpiral'] as const) {
      expect(firstTurnSide(p, fixedOrder(p, alg, { forcedDirection: 'CW' }))).toBe(-1);
      expect(firstTurnSide(p, fixedOrder(p, alg, { forcedDirection: 'CCW' }))).toBe(1);
    }
  });

  it('honours a fixed start and finish end', () => {
    const p = syntheticTrackProblem({ trackCount: 10, spacingMeters: 6, turnRadiusMeters: 6 });
    p.startEnd = 9; // track 4, entered at its top
    p.finishEnd = 14; // track 7, left at its bottom
    for (const alg of FIXED_ORDER_ALGORITHMS) {
      const order = fixedOrder(p, alg);
      expect(orderViolations(p, order)).toEqual([]);
      expect(orderCost(p, order)).toBeLessThan(1e9);
    }
  });

  it('clusteredSpiral with a wide skip avoids bulb turns that boustrophedon needs (6 m tracks, R 6 m)', () => {
    const p = syntheticTrackProblem({ trackCount: 30, spacingMeters: 6, turnRadiusMeters: 6 });
    const transitions = (alg: 'boustrophedon' | 'clusteredSpiral'): number[] => {
      const o = fixedOrder(p, alg, { skipCount: 1 });
      const out: number[] = [];
      for (let k = 1; k < o.sequence.length; k++) out.push(Math.abs(o.sequence[k] - o.sequence[k - 1]) * 6);
      return out;
    };
    expect(Math.min(...transitions('clusteredSpiral'))).toBeGreaterThanOrEqual(12); // ≥ 2R: no loop
    expect(Math.max(...transitions('boustrophedon'))).toBe(6);
  });
});
