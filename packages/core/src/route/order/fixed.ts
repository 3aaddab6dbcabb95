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
export const FIXED_ORDER_ALGORITHMS: readonly FixedOrderAlgorithm[] = [
  'boustrophedon',
  'snake',
  'spiral',
  'clusteredSpiral',
];

export interface FixedOrderOptions {
  /** Tracks skipped per turn (snake, clusteredSpiral); default 1. */
  skipCount?: number;
  /** Winding of spiral patterns: CW = every turn to the right. */
  forcedDirection?: 'CW' | 'CCW';
}

/**
 * Whether the problem's loose items are placed apart (`insertLooseGroups`): where some items are
 * loose and some not (all loose, e.g. a field narrower than the machine has nothing but strip
 * passes, they are the order's own items).
 */
function looseApart(problem: OrderingProblem): boolean {
  const loose = problem.loose;
  return loose !== undefined && loose.includes(1) && loose.includes(0);
}

/**
 * Items of each group sorted by rank; groups in ascending group id. `loose`: of the loose items placed apart, else of
 * the others.
 */
function groupsByRank(problem: OrderingProblem, loose = false): number[][] {
  const n = problem.itemCount;
  const apart = looseApart(problem);
  const items = Array.from({ length: n }, (_, i) => i).filter((i) => (apart && problem.loose![i] === 1) === loose);
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
export function fixedSequence(
  problem: OrderingProblem,
  algorithm: FixedOrderAlgorithm,
  options: FixedOrderOptions = {},
  mirrored = false,
): number[] {
  const skipCount = options.skipCount ?? 1;
  const out: number[] = [];
  for (const items of groupsByRank(problem)) {
    const m = items.length;
    for (const k of patternFor(algorithm, m, skipCount)) out.push(items[mirrored ? m - 1 - k : k]);
  }
  return out;
}

/**
 * Places between two items a loose group is costed at (`insertLooseGroups`): those where the straight-line detour to it
 * is least.
 */
const LOOSE_PLACES = 24;

/**
 * The problem's loose items (strip passes) put into an order of the others: each group of them, in
 * group order, as a run worked along its rank (either way round, each item entered through the end
 * nearer the last exit) where it lengthens the route least — between two items of the order, or
 * after the last (on the way to what follows, the headland passes round the field whose leftovers
 * strips are); never before the first, where the order's pattern starts. The links into and out of
 * the run and the one it replaces are costed by `problem.looseLinkCost` (the field's: the shortest
 * turning path between the poses), else by the straight-line distance (a strip pass's own frame is
 * not the tracks', so `transitionCost` does not compare them), at the LOOSE_PLACES places where the
 * straight-line detour to the group is least and after the last item (on the corpus, snake at W 6 m:
 * the same orders as costing every place). The items already placed keep their ways round.
 */
export function insertLooseGroups(problem: OrderingProblem, order: ItemOrder): ItemOrder & { addedCost: number } {
  // (a fixed start or finish on a loose item has put it in already)
  const placed = new Set(order.sequence);
  const groups = looseApart(problem)
    ? groupsByRank(problem, true)
        .map((g) => g.filter((i) => !placed.has(i)))
        .filter((g) => g.length > 0)
    : [];
  if (groups.length === 0) return { ...order, addedCost: 0 };
  const xy = problem.endXY;
  const euclid = (a: number, b: number): number => Math.hypot(xy[2 * a] - xy[2 * b], xy[2 * a + 1] - xy[2 * b + 1]);
  const link = problem.looseLinkCost ?? euclid;
  const sequence = order.sequence.slice(),
    flipped = order.flipped.slice();
  let addedCost = 0;
  for (const items of groups) {
    let best: LooseRun | undefined;
    for (const at of loosePlaces(sequence, flipped, items, euclid)) {
      const prevExit = at > 0 ? exitEndOf(sequence[at - 1], flipped[at - 1]) : -1;
      const nextEntry = at < sequence.length ? entryEndOf(sequence[at], flipped[at]) : -1;
      for (const way of [items, items.slice().reverse()]) {
        const run = looseRun(problem, way, at, prevExit, nextEntry, link);
        if (!best || run.cost < best.cost - 1e-9 || (Math.abs(run.cost - best.cost) <= 1e-9 && at < best.at))
          best = run;
      }
    }
    sequence.splice(best!.at, 0, ...best!.items);
    flipped.splice(best!.at, 0, ...best!.flips);
    addedCost += best!.cost;
  }
  return { sequence, flipped, addedCost };
}

/**
 * A loose group's items as a run put in before `sequence[at]`: each way round, and what it adds to the order's cost.
 */
interface LooseRun {
  at: number;
  items: number[];
  flips: boolean[];
  cost: number;
}

/**
 * The places a loose group is costed at (the run goes before `sequence[at]`): the LOOSE_PLACES
 * between two items with the least straight-line detour to the group's ends, and after the last;
 * every place where the order has fewer than two items.
 */
function loosePlaces(
  sequence: number[],
  flipped: boolean[],
  items: number[],
  euclid: (a: number, b: number) => number,
): number[] {
  const n = sequence.length;
  if (n < 2) return Array.from({ length: n + 1 }, (_, at) => at);
  const near = (e: number): number => {
    let d = Infinity;
    for (const item of items) d = Math.min(d, euclid(e, 2 * item), euclid(e, 2 * item + 1));
    return d;
  };
  const byDetour: { at: number; d: number }[] = [];
  for (let at = 1; at < n; at++) {
    const a = exitEndOf(sequence[at - 1], flipped[at - 1]),
      b = entryEndOf(sequence[at], flipped[at]);
    byDetour.push({ at, d: near(a) + near(b) - euclid(a, b) });
  }
  byDetour.sort((a, b) => a.d - b.d || a.at - b.at);
  return [...byDetour.slice(0, LOOSE_PLACES).map((p) => p.at), n];
}

/**
 * `items` driven in turn from `prevExit` (−1: the route's start), each entered through the end nearer the last exit,
 * then on to `nextEntry` (−1: nothing after).
 */
function looseRun(
  problem: OrderingProblem,
  items: number[],
  at: number,
  prevExit: number,
  nextEntry: number,
  link: (a: number, b: number) => number,
): LooseRun {
  let cost = 0,
    exit = prevExit;
  const flips: boolean[] = [];
  for (const item of items) {
    const f =
      exit >= 0 &&
      !problem.fixedOrientation?.[item] &&
      link(exit, entryEndOf(item, true)) < link(exit, entryEndOf(item, false));
    if (exit >= 0) cost += link(exit, entryEndOf(item, f));
    flips.push(f);
    exit = exitEndOf(item, f);
  }
  if (nextEntry >= 0) cost += link(exit, nextEntry) - (prevExit >= 0 ? link(prevExit, nextEntry) : 0);
  return { at, items, flips, cost };
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
  const flipped = orientSequence(
    problem,
    seq,
    startEnd !== undefined ? (startEnd & 1) === 1 : order.flipped[0],
  ).flipped;
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
export function fixedOrder(
  problem: OrderingProblem,
  algorithm: FixedOrderAlgorithm,
  options: FixedOrderOptions = {},
): ItemOrder {
  if (problem.itemCount === 0) return { sequence: [], flipped: [] };
  const wantSide = options.forcedDirection === 'CW' ? -1 : options.forcedDirection === 'CCW' ? 1 : 0;
  let best: ItemOrder | undefined;
  let bestCost = Infinity;
  let bestMatches = false;
  let bestEntry = Infinity;
  for (const mirrored of [false, true]) {
    const seq = fixedSequence(problem, algorithm, options, mirrored);
    for (const firstFlipped of [false, true]) {
      // the loose items' links costed as they were put in (the problem's `transitionCost` does not compare them)
      const base = orientSequence(problem, seq, firstFlipped);
      const withLoose = insertLooseGroups(problem, base);
      const order = honourFixedEnds(problem, withLoose);
      const matches = wantSide === 0 || firstTurnSide(problem, order) === wantSide;
      const cost =
        withLoose.sequence.length === base.sequence.length
          ? orderCost(problem, order)
          : orderCost(problem, honourFixedEnds(problem, base)) + withLoose.addedCost;
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
