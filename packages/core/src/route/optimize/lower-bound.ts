/**
 * Lower bounds on the cost of any route through an OrderingProblem.
 *
 * A route's non-working links form a perfect matching on the 2n item ends plus a start node S and a
 * finish node F: every end touches exactly one link (entry, transition or exit), S and F one each,
 * never an item's two own ends together and never S with F. Hence
 *   route cost ≥ Σ work + min perfect matching ≥ Σ work + ½ · min assignment (no self, no partner)
 * because a matching of weight M is an assignment (each node paired with its partner) of weight 2M.
 * The assignment is solved exactly (Hungarian, O(m³)) up to `exactLimit` items; above that a
 * dual-feasible bound is used: each end's cheapest transition, halved (every transition is at least
 * the mean of its ends' cheapest ones), except for the two ends linked to the start and the finish,
 * which pay their depot link instead (the cheapest such pair); neighbour lists and
 * `costPerMeterLowerBound` bound the transitions not listed.
 */
import type { OrderingProblem } from '../order/problem.js';
import { VIOLATION_PENALTY } from '../order/problem.js';
import type { NeighbourLists } from './transitions.js';

export interface LowerBound {
  value: number;
  method: 'assignment' | 'cheapest-link';
}

const FORBIDDEN = 1e15;

function depotCost(problem: OrderingProblem, depot: 'start' | 'finish', end: number): number {
  if (depot === 'start') {
    let c = problem.entryCost ? problem.entryCost(end) : 0;
    if (problem.startEnd !== undefined && problem.startEnd !== end) c += VIOLATION_PENALTY;
    return c;
  }
  let c = problem.exitCost ? problem.exitCost(end) : 0;
  if (problem.finishEnd !== undefined && problem.finishEnd !== end) c += VIOLATION_PENALTY;
  return c;
}

/** Minimum-cost assignment on a dense m×m matrix (row-major); returns the optimum value. */
export function assignmentMinimum(m: number, cost: Float64Array): number {
  // Hungarian algorithm with potentials (1-based, e-maxx formulation), O(m³).
  const u = new Float64Array(m + 1);
  const v = new Float64Array(m + 1);
  const p = new Int32Array(m + 1);
  const way = new Int32Array(m + 1);
  const minv = new Float64Array(m + 1);
  const used = new Uint8Array(m + 1);
  for (let i = 1; i <= m; i++) {
    p[0] = i;
    let j0 = 0;
    minv.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = p[j0];
      let delta = Infinity;
      let j1 = 0;
      const row = (i0 - 1) * m;
      const ui0 = u[i0];
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = cost[row + j - 1] - ui0 - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else minv[j] -= delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0 !== 0);
  }
  let total = 0;
  for (let j = 1; j <= m; j++) total += cost[(p[j] - 1) * m + j - 1];
  return total;
}

/**
 * A lower bound on the cost of every valid route of `problem` (working costs included).
 * `transition` should be the same (memoised) cost the optimizer uses.
 */
export function routeLowerBound(
  problem: OrderingProblem,
  transition: (a: number, b: number) => number,
  neighbours?: NeighbourLists,
  exactLimit = 150,
): LowerBound {
  const n = problem.itemCount;
  let work = 0;
  for (let i = 0; i < n; i++) work += problem.workCost[i];
  if (n === 0) return { value: 0, method: 'assignment' };
  const ends = 2 * n;
  const S = ends;
  const F = ends + 1;
  if (n <= exactLimit || !neighbours) {
    const m = ends + 2;
    const c = new Float64Array(m * m).fill(FORBIDDEN);
    for (let a = 0; a < ends; a++) {
      for (let b = a + 1; b < ends; b++) {
        if ((a ^ 1) === b) continue;
        const t = transition(a, b);
        c[a * m + b] = t;
        c[b * m + a] = t;
      }
      const s = depotCost(problem, 'start', a);
      const f = depotCost(problem, 'finish', a);
      c[a * m + S] = s;
      c[S * m + a] = s;
      c[a * m + F] = f;
      c[F * m + a] = f;
    }
    const total = assignmentMinimum(m, c);
    return { value: work + total / 2, method: 'assignment' };
  }
  // Cheapest transition per end, halved; the two ends linked to the start and finish pay their
  // depot link instead: M ≥ Σ c/2 + min over a ≠ b of [s(a) − c_a/2] + [f(b) − c_b/2].
  const f = problem.costPerMeterLowerBound ?? 0;
  let sum = 0;
  let s1 = Infinity,
    s1End = -1,
    s2 = Infinity;
  let f1 = Infinity,
    f1End = -1,
    f2 = Infinity;
  for (let a = 0; a < ends; a++) {
    let c = Infinity;
    if (neighbours.count[a] > 0) c = neighbours.costs[a * neighbours.k];
    // ends not in the list are at least `radius` away
    const unlisted = neighbours.radius[a] === Infinity ? Infinity : f * neighbours.radius[a];
    c = Math.min(c, unlisted);
    if (!Number.isFinite(c)) c = 0;
    sum += c;
    const ds = depotCost(problem, 'start', a) - c / 2;
    const df = depotCost(problem, 'finish', a) - c / 2;
    if (ds < s1) {
      s2 = s1;
      s1 = ds;
      s1End = a;
    } else if (ds < s2) s2 = ds;
    if (df < f1) {
      f2 = f1;
      f1 = df;
      f1End = a;
    } else if (df < f2) f2 = df;
  }
  const depots = s1End !== f1End || ends < 2 ? s1 + f1 : Math.min(s1 + f2, s2 + f1);
  return { value: work + Math.max(0, sum / 2 + (Number.isFinite(depots) ? depots : 0)), method: 'cheapest-link' };
}
