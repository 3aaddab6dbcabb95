import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIXED_ORDER_ALGORITHMS, fixedOrder } from '../order/fixed.js';
import type { ItemOrder, OrderingProblem } from '../order/problem.js';
import { orderCost, orderViolations } from '../order/problem.js';
import { syntheticTrackProblem } from '../order/synthetic.js';
import { buildNeighbourLists, memoTransition } from './transitions.js';
import { assignmentMinimum, routeLowerBound } from './lower-bound.js';
import { orderItems } from './optimize.js';

/** Exact optimum by enumeration (n ≤ 6). */
function bruteForce(p: OrderingProblem): number {
  const n = p.itemCount;
  let best = Infinity;
  const perm: number[] = [];
  const used = new Array<boolean>(n).fill(false);
  const rec = (): void => {
    if (perm.length === n) {
      for (let mask = 0; mask < 1 << n; mask++) {
        const order: ItemOrder = { sequence: perm.slice(), flipped: perm.map((_, k) => ((mask >> k) & 1) === 1) };
        if (orderViolations(p, order).length > 0) continue;
        best = Math.min(best, orderCost(p, order));
      }
      return;
    }
    for (let i = 0; i < n; i++) {
      if (used[i]) continue;
      used[i] = true;
      perm.push(i);
      rec();
      perm.pop();
      used[i] = false;
    }
  };
  rec();
  return best;
}

/** Random points as items, Euclidean costs with a detour factor: no parallel structure to exploit. */
function randomProblem(n: number, seed: number): OrderingProblem {
  let s = seed >>> 0;
  const rand = (): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  const endXY = new Float64Array(4 * n);
  const workCost = new Float64Array(n);
  const rank = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = rand() * 500;
    const y = rand() * 500;
    const a = rand() * Math.PI;
    const l = 20 + rand() * 100;
    endXY.set([x, y, x + l * Math.cos(a), y + l * Math.sin(a)], 4 * i);
    workCost[i] = l;
    rank[i] = x;
  }
  const transitionCost = (a: number, b: number): number =>
    1.2 * Math.hypot(endXY[2 * a] - endXY[2 * b], endXY[2 * a + 1] - endXY[2 * b + 1]) + 5;
  return { itemCount: n, endXY, workCost, rank, transitionCost, costPerMeterLowerBound: 1.2 };
}

describe('memoTransition', () => {
  // 40 items: the dense square; 800 items (1,600 ends): the hash table, grown several times.
  it.each([40, 800])(
    'answers the problem’s cost for either order of a pair and computes each pair once (%i items)',
    (n) => {
      const p = randomProblem(n, n);
      const computed = new Map<string, number>();
      const memo = memoTransition({
        ...p,
        transitionCost: (a, b) => {
          const key = `${Math.min(a, b)},${Math.max(a, b)}`;
          computed.set(key, (computed.get(key) ?? 0) + 1);
          return p.transitionCost(a, b);
        },
      });
      let s = 7;
      const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) % (2 * n);
      const pairs = Array.from({ length: 20_000 }, () => [next(), next()] as const);
      for (const [a, b] of pairs) expect(memo(a, b)).toBe(p.transitionCost(a, b));
      for (const [a, b] of pairs) expect(memo(b, a)).toBe(p.transitionCost(a, b));
      expect(Math.max(...computed.values())).toBe(1);
      expect(computed.size).toBe(new Set(pairs.map(([a, b]) => `${Math.min(a, b)},${Math.max(a, b)}`)).size);
    },
  );

  it('calls a cheap cost (cheapTransitions) every time instead of storing it, with the same answers', () => {
    const p = randomProblem(800, 800);
    let calls = 0;
    const memo = memoTransition({
      ...p,
      cheapTransitions: true,
      transitionCost: (a, b) => (calls++, p.transitionCost(a, b)),
    });
    for (let k = 0; k < 3; k++) for (let a = 0; a < 40; a++) expect(memo(a, a + 41)).toBe(p.transitionCost(a, a + 41));
    expect(calls).toBe(120);
  });
});

describe('assignmentMinimum', () => {
  it('solves a small matrix to the optimum found by enumeration', () => {
    const m = 4;
    const c = new Float64Array([9, 2, 7, 8, 6, 4, 3, 7, 5, 8, 1, 8, 7, 6, 9, 4]);
    // rows 0..3 → columns 1, 0, 2, 3: 2 + 6 + 1 + 4 = 13
    expect(assignmentMinimum(m, c)).toBe(13);
  });
});

describe('orderItems (optimized)', () => {
  it('is never worse than any fixed order and never below its lower bound (synthetic fields)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 60 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.constantFrom(3, 6, 9, 12),
        fc.boolean(),
        (n, seed, width, staging) => {
          const p = syntheticTrackProblem({
            trackCount: n,
            spacingMeters: width,
            turnRadiusMeters: 6,
            seed,
            slope: (seed % 7) / 10,
            staging: staging ? [seed % 400, -50] : undefined,
          });
          const { order, report } = orderItems(p, { maxStallKicks: 20 });
          expect(orderViolations(p, order)).toEqual([]);
          const cost = orderCost(p, order);
          expect(report.cost).toBeCloseTo(cost, 6);
          for (const alg of FIXED_ORDER_ALGORITHMS) {
            for (const skipCount of [1, 2])
              expect(cost).toBeLessThanOrEqual(orderCost(p, fixedOrder(p, alg, { skipCount })) + 1e-6);
          }
          expect(report.lowerBound!).toBeLessThanOrEqual(cost + 1e-6);
          expect(report.gapRatio!).toBeGreaterThanOrEqual(0);
        },
      ),
      { seed: 41, numRuns: 40 },
    );
  });

  it('lower bounds hold against the exact optimum, and the optimizer finds it on tiny instances', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.boolean(),
        (n, seed, fixEnds) => {
          const p = randomProblem(n, seed);
          if (fixEnds && n >= 2) {
            p.startEnd = 1;
            p.finishEnd = 2 * n - 2;
          }
          const opt = bruteForce(p);
          const t = memoTransition(p);
          expect(routeLowerBound(p, t).value).toBeLessThanOrEqual(opt + 1e-6);
          // the cheap bound too (neighbour lists of 3, no exact assignment)
          expect(routeLowerBound(p, t, buildNeighbourLists(p, t, 3), 0).value).toBeLessThanOrEqual(opt + 1e-6);
          const { order, report } = orderItems(p);
          expect(orderViolations(p, order)).toEqual([]);
          expect(report.cost).toBeGreaterThanOrEqual(opt - 1e-6);
          expect(report.cost).toBeLessThanOrEqual(opt * 1.05 + 1e-6);
        },
      ),
      { seed: 42, numRuns: 40 },
    );
  });

  it('the cheap bound for large instances is below the exact bound and below the cost', () => {
    const p = syntheticTrackProblem({ trackCount: 120, spacingMeters: 4, turnRadiusMeters: 6, seed: 5, slope: 0.3 });
    const exact = orderItems(p, { maxStallKicks: 10 });
    const cheap = orderItems(p, { maxStallKicks: 10, exactBoundLimit: 10 });
    expect(exact.report.lowerBoundMethod).toBe('assignment');
    expect(cheap.report.lowerBoundMethod).toBe('cheapest-link');
    expect(cheap.report.lowerBound!).toBeLessThanOrEqual(exact.report.lowerBound! + 1e-6);
    expect(exact.report.lowerBound!).toBeLessThanOrEqual(exact.report.cost);
    // the bound is not trivial: it counts more than the working length
    let work = 0;
    for (const w of p.workCost) work += w;
    expect(exact.report.lowerBound!).toBeGreaterThan(work * 1.02);
  });

  it('the cheap bound counts transitions when the route may start and end anywhere', () => {
    // no staging area: entry and exit are free, yet every end but two needs a transition
    const p = syntheticTrackProblem({ trackCount: 200, spacingMeters: 6, turnRadiusMeters: 6, seed: 3, slope: 0 });
    expect(p.entryCost).toBeUndefined();
    const r = orderItems(p, { maxStallKicks: 10 });
    expect(r.report.lowerBoundMethod).toBe('cheapest-link');
    let work = 0;
    for (const w of p.workCost) work += w;
    // 199 transitions of at least a U-turn's worth each are needed: the bound sees most of that
    expect(r.report.lowerBound! - work).toBeGreaterThan(0.5 * (r.report.cost - work));
    expect(r.report.lowerBound!).toBeLessThanOrEqual(r.report.cost);
  });

  it('is deterministic', () => {
    const p = randomProblem(80, 7);
    const a = orderItems(p);
    const b = orderItems(randomProblem(80, 7));
    expect(a.order).toEqual(b.order);
    expect(a.report).toEqual(b.report);
    expect(a.report.kicks).toBeGreaterThan(0);
  });

  it('improves clearly on random (unstructured) instances', () => {
    const p = randomProblem(150, 3);
    const { report } = orderItems(p);
    expect(report.cost).toBeLessThan(report.initialCost * 0.97);
  });

  it('respects the time limit of an injected clock and says so', () => {
    const p = randomProblem(300, 11);
    let t = 0;
    const now = (): number => (t += 0.05); // every clock read costs 0.05 ms of fake time
    const { order, report } = orderItems(p, {
      now,
      maxTimeMilliseconds: 20,
      maxStallKicks: 1_000_000,
      lowerBound: false,
    });
    expect(report.stoppedBy).toBe('time-limit');
    expect(report.timeSpentMilliseconds!).toBeLessThanOrEqual(20.5);
    expect(orderViolations(p, order)).toEqual([]);
    expect(report.cost).toBeLessThanOrEqual(report.initialCost);
  });

  it('stops at once with a zero time limit but still returns the constructed route', () => {
    const p = randomProblem(50, 2);
    let t = 0;
    const { order, report } = orderItems(p, { now: () => (t += 1), maxTimeMilliseconds: 0 });
    expect(report.stoppedBy).toBe('time-limit');
    expect(report.iterations).toBe(0);
    expect(orderViolations(p, order)).toEqual([]);
  });

  it('honours a fixed start end and finish end', () => {
    const p = syntheticTrackProblem({ trackCount: 25, spacingMeters: 6, turnRadiusMeters: 6, seed: 9 });
    p.startEnd = 21; // track 10, top
    p.finishEnd = 34; // track 17, bottom
    const { order, report } = orderItems(p);
    expect(orderViolations(p, order)).toEqual([]);
    expect(order.sequence[0]).toBe(10);
    expect(order.flipped[0]).toBe(true);
    expect(order.sequence.at(-1)).toBe(17);
    expect(report.cost).toBeLessThan(1e9);
  });

  it('keeps fixed orientations', () => {
    const p = randomProblem(40, 4);
    p.fixedOrientation = new Uint8Array(40).map((_, i) => (i % 3 === 0 ? 1 : 0));
    const { order } = orderItems(p);
    expect(orderViolations(p, order)).toEqual([]);
  });

  it('starts near the staging area', () => {
    const east = syntheticTrackProblem({ trackCount: 40, spacingMeters: 6, turnRadiusMeters: 6, staging: [3000, 0] });
    const west = syntheticTrackProblem({ trackCount: 40, spacingMeters: 6, turnRadiusMeters: 6, staging: [-3000, 0] });
    expect(orderItems(east).order.sequence[0]).toBeGreaterThanOrEqual(35);
    expect(orderItems(west).order.sequence[0]).toBeLessThanOrEqual(4);
  });

  it('runs a fixed algorithm when asked, with the same report shape', () => {
    const p = syntheticTrackProblem({ trackCount: 11, spacingMeters: 6, turnRadiusMeters: 6 });
    const { order, report } = orderItems(p, { algorithm: 'clusteredSpiral', skipCount: 1 });
    expect(report.algorithm).toBe('clusteredSpiral');
    expect(report.stoppedBy).toBe('fixed-order');
    expect(order.sequence.map((i) => Math.min(i, 10 - i))).toEqual(expect.any(Array));
    expect(order).toEqual(fixedOrder(p, 'clusteredSpiral', { skipCount: 1 }));
  });

  it('handles empty and single-item problems', () => {
    expect(
      orderItems(syntheticTrackProblem({ trackCount: 0, spacingMeters: 6, turnRadiusMeters: 6 })).order.sequence,
    ).toEqual([]);
    expect(
      orderItems(syntheticTrackProblem({ trackCount: 1, spacingMeters: 6, turnRadiusMeters: 6 })).order.sequence,
    ).toEqual([0]);
  });
});
