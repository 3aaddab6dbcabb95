/**
 * The abstract ordering problem: working items (tracks, headland passes) with two ends each,
 * a transition cost between item ends, optional depots (staging area) and fixed start / end.
 *
 * End ids: item `i` has ends `2i` and `2i + 1`. An item driven "forward" (flip 0) is entered
 * through end `2i` and left through end `2i + 1`; flipped (flip 1) the other way round.
 *
 * Costs are in the objective's unit (meters, seconds or liters): the caller builds them from the
 * real connector (turn if direct, headland traversal otherwise) and the machine's speeds.
 */

export interface OrderingProblem {
  /** Number of working items. */
  itemCount: number;
  /**
   * End coordinates in the local metric frame, stride 2: end `e` is at (endXY[2e], endXY[2e+1]); length 4·itemCount.
   */
  endXY: Float64Array;
  /** Cost of working each item, length itemCount (constant for every order). */
  workCost: Float64Array;
  /**
   * Cost of the connector leaving through end `fromEnd` and entering through end `toEnd`.
   * Must be symmetric (cost(a, b) = cost(b, a)): a forward path driven the other way is a path
   * between the mirrored poses, of the same length and time. Never called with fromEnd's own item.
   */
  transitionCost(fromEnd: number, toEnd: number): number;
  /**
   * Whether `transitionCost` is a formula cheaper to evaluate than to look up in a memo (the
   * estimate of `trackOrderingProblem`): the local search then calls it directly.
   */
  cheapTransitions?: boolean;
  /** Cost from the route's start (staging area) to entering through `end`; absent = 0 (start anywhere). */
  entryCost?(end: number): number;
  /** Cost from leaving through `end` to the route's finish (staging area); absent = 0 (finish anywhere). */
  exitCost?(end: number): number;
  /** The route must enter its first item through this end. */
  startEnd?: number;
  /** The route must leave its last item through this end. */
  finishEnd?: number;
  /** Items that must be driven forward (entered through end 2i), e.g. headland loops with a forced winding. */
  fixedOrientation?: Uint8Array;
  /**
   * Position of each item across the field (e.g. signed offset of a track from the first one,
   * meters): the key fixed orders sort by. Absent = fixed orders use item index order.
   */
  rank?: Float64Array;
  /** Group of each item (e.g. the cell of a decomposed field); fixed orders work groups one after another. */
  group?: Int32Array;
  /**
   * Items a fixed order does not work in group order but each group of them where it adds least
   * (`insertLooseGroups`, fixed.ts): strip passes (tracks/strips.ts), driven where the route passes them.
   */
  loose?: Uint8Array;
  /**
   * Cost estimate of a link into or out of a loose item, leaving through `fromEnd` and entering through `toEnd`
   * (absent: the straight-line distance).
   */
  looseLinkCost?(fromEnd: number, toEnd: number): number;
  /**
   * A constant f with cost(a, b) ≥ f · |a − b| (Euclidean, meters) for every pair, entry and exit legs
   * included (1 for distance, 1 / fastest speed for time). Tightens the lower bound on large instances.
   */
  costPerMeterLowerBound?: number;
}

/**
 * An order of the items: `sequence[k]` is the k-th item driven, `flipped[k]` whether it is entered through its end 1.
 */
export interface ItemOrder {
  sequence: number[];
  flipped: boolean[];
}

/** Penalty added to a link that violates a fixed start or finish; dominates any real cost. */
export const VIOLATION_PENALTY = 1e12;

/** Entry end of an item driven with the given flip. */
export function entryEndOf(item: number, flipped: boolean): number {
  return 2 * item + (flipped ? 1 : 0);
}

/** Exit end of an item driven with the given flip. */
export function exitEndOf(item: number, flipped: boolean): number {
  return 2 * item + (flipped ? 0 : 1);
}

/**
 * Cost of the link between two consecutive positions of a route: `fromExitEnd` = −1 is the start
 * depot, `toEntryEnd` = −1 the finish depot. Violations of startEnd / finishEnd carry VIOLATION_PENALTY.
 */
export function linkCost(problem: OrderingProblem, fromExitEnd: number, toEntryEnd: number): number {
  if (fromExitEnd < 0) {
    if (toEntryEnd < 0) return 0;
    let c = problem.entryCost ? problem.entryCost(toEntryEnd) : 0;
    if (problem.startEnd !== undefined && problem.startEnd !== toEntryEnd) c += VIOLATION_PENALTY;
    return c;
  }
  if (toEntryEnd < 0) {
    let c = problem.exitCost ? problem.exitCost(fromExitEnd) : 0;
    if (problem.finishEnd !== undefined && problem.finishEnd !== fromExitEnd) c += VIOLATION_PENALTY;
    return c;
  }
  return problem.transitionCost(fromExitEnd, toEntryEnd);
}

/** Whole route cost of an order: working costs + entry + transitions + exit (penalties included). */
export function orderCost(problem: OrderingProblem, order: ItemOrder): number {
  const { sequence, flipped } = order;
  let total = 0;
  for (let k = 0; k < problem.itemCount; k++) total += problem.workCost[k];
  let prevExit = -1;
  for (let k = 0; k < sequence.length; k++) {
    const item = sequence[k];
    total += linkCost(problem, prevExit, entryEndOf(item, flipped[k]));
    prevExit = exitEndOf(item, flipped[k]);
  }
  total += linkCost(problem, prevExit, -1);
  return total;
}

/** Non-working part of an order's cost (entry + transitions + exit). */
export function transitionTotal(problem: OrderingProblem, order: ItemOrder): number {
  let work = 0;
  for (let k = 0; k < problem.itemCount; k++) work += problem.workCost[k];
  return orderCost(problem, order) - work;
}

/**
 * Checks an order against its problem: every item exactly once, fixed orientations and fixed
 * start / finish respected. Returns the list of violations (empty = valid); tests assert on it.
 */
export function orderViolations(problem: OrderingProblem, order: ItemOrder): string[] {
  const out: string[] = [];
  const n = problem.itemCount;
  if (order.sequence.length !== n) out.push(`sequence has ${order.sequence.length} items, expected ${n}`);
  if (order.flipped.length !== order.sequence.length) out.push('flipped and sequence differ in length');
  const seen = new Uint8Array(n);
  for (let k = 0; k < order.sequence.length; k++) {
    const item = order.sequence[k];
    if (!Number.isInteger(item) || item < 0 || item >= n) {
      out.push(`position ${k}: item ${item} out of range`);
      continue;
    }
    if (seen[item]) out.push(`item ${item} visited twice`);
    seen[item] = 1;
    if (problem.fixedOrientation?.[item] && order.flipped[k])
      out.push(`item ${item} has a fixed orientation but is flipped`);
  }
  if (n > 0 && order.sequence.length === n) {
    if (problem.startEnd !== undefined && entryEndOf(order.sequence[0], order.flipped[0]) !== problem.startEnd) {
      out.push(`route does not start at end ${problem.startEnd}`);
    }
    if (
      problem.finishEnd !== undefined &&
      exitEndOf(order.sequence[n - 1], order.flipped[n - 1]) !== problem.finishEnd
    ) {
      out.push(`route does not finish at end ${problem.finishEnd}`);
    }
  }
  return out;
}
