/**
 * Fixed orders on an OrderingProblem: sort the items of each group by rank, apply a pattern,
 * then choose each item's driving direction greedily (cheapest transition from the previous exit).
 * Of the four variants (pattern as is or mirrored across the field × first item either way round)
 * the cheapest one is kept; a forced winding keeps only variants that turn that way round.
 */
import type { ItemOrder, OrderingProblem } from './problem.js';
import { entryEndOf, exitEndOf, linkCost, orderCost } from './problem.js';
import { boustrophedonPattern, clusteredSpiralPattern, snakePattern, spiralPattern } from './patterns.js';

export type FixedOrderAlgorithm = 'boustrophedon' | 'snake' | 'spiral' | 'clusteredSpiral';
export const FIXED_ORDER_ALGORITHMS: readonly FixedOrderAlgorithm[] = ['boustrophedon', 'snake', 'spiral', 'clusteredSpiral'];

export interface FixedOrderOptions {
  /** Tracks skipped per turn (snake, clusteredSpiral); default 1. */
  skipCount?: number;
  /** Winding of spiral patterns: CW = every turn to the right. */
  forcedDirection?: 'CW' | 'CCW';
}

/** Items of each group sorted by rank; groups in ascending group id. */
function groupsByRank(problem: OrderingProblem): number[][] {
  const n = problem.itemCount;
  const items = Array.from({ length: n }, (_, i) => i);
  const rank = problem.rank;
  const group = problem.group;
  items.sort((a, b) => {
    const ga = group ? group[a] : 0;
    const gb = group ? group[b] : 0;
    if (ga !== gb) return ga - gb;
    const ra = rank ? rank[a] : a;
    const rb = rank ? rank[b] : b;
    return ra !== rb ? ra - rb : a - b;
  });
  const out: number[][] = [];
  let prevGroup = Number.NaN;
  for (const i of items) {
    const g = group ? group[i] : 0;
    if (g !== prevGroup) out.push([]);
    prevGroup = g;
    out[out.length - 1].push(i);
  }
  return out;
}

function patternFor(algorithm: FixedOrderAlgorithm, m: number, skipCount: number): number[] {
  switch (algorithm) {
    case 'boustrophedon':
      return boustrophedonPattern(m);
    case 'snake':
      return snakePattern(m, skipCount);
    case 'spiral':
      return spiralPattern(m);
    case 'clusteredSpiral':
      return clusteredSpiralPattern(m, skipCount);
  }
}

/** Item sequence of a fixed order (no directions yet). */
export function fixedSequence(problem: OrderingProblem, algorithm: FixedOrderAlgorithm, options: FixedOrderOptions = {}, mirrored = false): number[] {
  const skipCount = options.skipCount ?? 1;
  const out: number[] = [];
  for (const items of groupsByRank(problem)) {
    const m = items.length;
    for (const k of patternFor(algorithm, m, skipCount)) out.push(items[mirrored ? m - 1 - k : k]);
  }
  return out;
}

/**
 * Directions for a given item sequence: the first item as given (unless its orientation is fixed),
 * each next one entered through the end that is cheaper to reach from the previous exit.
 */
export function orientSequence(problem: OrderingProblem, sequence: number[], firstFlipped: boolean): ItemOrder {
  const fixed = problem.fixedOrientation;
  const flipped = new Array<boolean>(sequence.length);
  let prevExit = -1;
  for (let k = 0; k < sequence.length; k++) {
    const item = sequence[k];
    let f: boolean;
    if (fixed?.[item]) f = false;
    else if (k === 0) f = firstFlipped;
    else {
      const c0 = linkCost(problem, prevExit, entryEndOf(item, false));
      const c1 = linkCost(problem, prevExit, entryEndOf(item, true));
      f = c1 < c0;
    }
    flipped[k] = f;
    prevExit = exitEndOf(item, f);
  }
  return { sequence, flipped };
}

/** +1 when the first turn of the order goes left (counter-clockwise), −1 right, 0 unknown. */
export function firstTurnSide(problem: OrderingProblem, order: ItemOrder): number {
  if (order.sequence.length < 2) return 0;
  const xy = problem.endXY;
  const a = entryEndOf(order.sequence[0], order.flipped[0]);
  const b = exitEndOf(order.sequence[0], order.flipped[0]);
  const c = entryEndOf(order.sequence[1], order.flipped[1]);
  const dx = xy[2 * b] - xy[2 * a];
  const dy = xy[2 * b + 1] - xy[2 * a + 1];
  const ex = xy[2 * c] - xy[2 * b];
  const ey = xy[2 * c + 1] - xy[2 * b + 1];
  const cross = dx * ey - dy * ex;
  return cross > 0 ? 1 : cross < 0 ? -1 : 0;
}

/** Moves the item holding `end` to the front (entered there) or back (left there), keeping the rest in order. */
function honourFixedEnds(problem: OrderingProblem, order: ItemOrder): ItemOrder {
  const { startEnd, finishEnd } = problem;
  if (startEnd === undefined && finishEnd === undefined) return order;
  let seq = order.sequence.slice();
  if (startEnd !== undefined && entryEndOf(seq[0], order.flipped[0]) !== startEnd) {
    const item = startEnd >> 1;
    seq = [item, ...seq.filter((i) => i !== item)];
  }
  const n = seq.length;
  if (finishEnd !== undefined && n > 0) {
    const item = finishEnd >> 1;
    if (seq[n - 1] !== item && !(startEnd !== undefined && startEnd >> 1 === item)) {
      seq = [...seq.filter((i) => i !== item), item];
    }
  }
  const flipped = orientSequence(problem, seq, startEnd !== undefined ? (startEnd & 1) === 1 : order.flipped[0]).flipped;
  if (startEnd !== undefined) flipped[0] = (startEnd & 1) === 1 && !problem.fixedOrientation?.[seq[0]];
  if (finishEnd !== undefined && n > 1 && seq[n - 1] === finishEnd >> 1 && !problem.fixedOrientation?.[seq[n - 1]]) {
    flipped[n - 1] = (finishEnd & 1) === 0;
  }
  return { sequence: seq, flipped };
}

/**
 * The best variant of a fixed order for this problem (mirrored or not, first item either way round),
 * with a fixed start / finish honoured by moving those items to the ends.
 */
export function fixedOrder(problem: OrderingProblem, algorithm: FixedOrderAlgorithm, options: FixedOrderOptions = {}): ItemOrder {
  if (problem.itemCount === 0) return { sequence: [], flipped: [] };
  const wantSide = options.forcedDirection === 'CW' ? -1 : options.forcedDirection === 'CCW' ? 1 : 0;
  let best: ItemOrder | undefined;
  let bestCost = Infinity;
  let bestMatches = false;
  let bestEntry = Infinity;
  for (const mirrored of [false, true]) {
    const seq = fixedSequence(problem, algorithm, options, mirrored);
    for (const firstFlipped of [false, true]) {
      const order = honourFixedEnds(problem, orientSequence(problem, seq, firstFlipped));
      const matches = wantSide === 0 || firstTurnSide(problem, order) === wantSide;
      const cost = orderCost(problem, order);
      // ties (a round trip from a staging area costs the same both ways) go to the cheaper start
      const entry = linkCost(problem, -1, entryEndOf(order.sequence[0], order.flipped[0]));
      const tol = 1e-9 * Math.max(1, Math.abs(cost));
      const better = cost < bestCost - tol || (Math.abs(cost - bestCost) <= tol && entry < bestEntry);
      if ((matches && !bestMatches) || (matches === bestMatches && better)) {
        best = order;
        bestCost = cost;
        bestEntry = entry;
        bestMatches = matches;
      }
    }
  }
  return best!;
}
