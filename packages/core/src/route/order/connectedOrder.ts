/**
 * Choosing and improving the route order on the real connectors.
 *
 * The optimizer works on an estimate of the connector costs (fieldOrder.ts). The connect stage
 * builds each connector from the two track ends it joins alone (a turn between neighbours, a
 * headland traversal or a manoeuvre otherwise; the ends a turn trims belong to that turn), so the
 * real cost of a route is a sum over its links: head (staging leg, headland passes driven first)
 * + Σ connector(exit end → entry end) + tail (headland passes driven last, leg back to staging).
 * `refineOrderOnConnectors` therefore evaluates routes link by link with a memo, which
 *   1. compares the optimizer's order and every fixed order on the real connectors while sharing
 *      the links they have in common, abandoning a route as soon as its partial cost exceeds the
 *      best complete one (costs are never negative);
 *   2. re-runs the optimizer on a hybrid cost (real where a link is known, the estimate elsewhere),
 *      seeded with the best real route, evaluates the new order, and repeats until the optimizer
 *      proposes only routes already evaluated or the time is up.
 * The result is the best evaluated route: never worse on the real connectors than any fixed order
 * that was evaluated completely (all of them, unless the clock ran out first). Routes compare by
 * defects first (connectors that did not fit, bend too tightly or leave the field), then cost.
 */
import { orderItems } from '../optimize/optimize.js';
import type { ItemOrder, OrderingProblem } from './problem.js';
import { entryEndOf, exitEndOf } from './problem.js';
import type { FieldOrderInput, FieldOrderResult, OrderVisit } from './fieldOrder.js';
import { trackOrderingProblem } from './fieldOrder.js';
import { turnSpanLines } from '../skipTurns.js';

/** Real cost of a piece of route (objective unit) and its defects. */
export interface ConnectorCost {
  cost: number;
  defects: number;
  /** The connection gave up at `abort` (its cost is not the real one): the route costing it stops there. */
  aborted?: boolean;
  /**
   * The connection would cost more than the `maxCost` it was given (it stopped there: `cost` is that bound, `defects`
   * those found by then), so the route costing it is worse than the best one: abandoned.
   */
  over?: boolean;
}

/**
 * The connect stage as a cost oracle over track ends (end 2i: (x0, y0) of track i, 2i + 1: (x1, y1)).
 * `abort`: the time this route may take is up; a connection still searching gives up and returns
 * `aborted` (not kept: it is built again, in full, if the chosen route needs it).
 */
export interface RealCostModel {
  /**
   * Connector leaving a track through `fromEnd` and entering the next through `toEnd`. `maxCost`: what the route
   * costing it can still spend on it and beat the best route (its searches are bounded by it), else `over`.
   */
  link(fromEnd: number, toEnd: number, abort?: () => boolean, maxCost?: number): ConnectorCost;
  /** Everything driven before entering the first track through `end` (staging leg, headlands first). */
  head(end: number, abort?: () => boolean): ConnectorCost;
  /** Everything driven after leaving the last track through `end` (headlands last, leg to staging). */
  tail(end: number, abort?: () => boolean): ConnectorCost;
}

export interface RefineOptions {
  /**
   * true when the time for ordering is up: checked before every connector, and passed to the model as its `abort` (a
   * connection cut short stops its route).
   */
  outOfTime?: () => boolean;
  /**
   * Milliseconds clock and the time each optimizer round may take (default 20% of what is left, read from
   * `remainingMilliseconds`).
   */
  now?: () => number;
  remainingMilliseconds?: () => number;
  /**
   * A counted work clock (milliseconds of counted work, route/routeTracks.ts) for the share of
   * what is left that one route may take, where there is no `now`; it does not time the optimizer
   * (its rounds make `maxKicksPerRound` kicks).
   */
  workClock?: () => number;
  /** Optimizer rounds on the hybrid cost (default 12 with a clock, 3 without). */
  maxRounds?: number;
  /** Kick budget of a round without a clock (default 1000). */
  maxKicksPerRound?: number;
}

export interface EvaluatedRoute {
  algorithm: string;
  /** Real non-working cost (objective unit); partial when `complete` is false. */
  nonWorkingCost: number;
  defects: number;
  /** false: abandoned once worse than the best (pruned) or when the time ran out. */
  complete: boolean;
}

export interface RefineResult {
  visits: OrderVisit[];
  /** Which route won: the optimizer's, a fixed order's name, or `optimized-refined` (found on the real connectors). */
  algorithm: string;
  nonWorkingCost: number;
  defects: number;
  /** Optimizer rounds run on the hybrid cost. */
  rounds: number;
  /** Distinct connectors (links, heads, tails) built to compare routes. */
  connectorsEvaluated: number;
  evaluated: EvaluatedRoute[];
  /** `work-limit`: the counted work budget ran out (planRoute, route/routeTracks.ts); `time-limit`: a clock did. */
  stoppedBy: 'converged' | 'time-limit' | 'work-limit' | 'round-limit' | 'single';
}

/** Scalar weight of one defect in the hybrid optimizer's cost: dominates any real route (objective units). */
export const DEFECT_COST = 1e6;

const EPS = 1e-9;

function better(a: ConnectorCost, b: ConnectorCost): boolean {
  return a.defects < b.defects || (a.defects === b.defects && a.cost < b.cost - EPS * Math.max(1, Math.abs(b.cost)));
}

export function visitsToOrder(visits: OrderVisit[]): ItemOrder {
  return { sequence: visits.map((v) => v.trackIndex), flipped: visits.map((v) => !v.forward) };
}

export function orderToVisits(o: ItemOrder): OrderVisit[] {
  return o.sequence.map((trackIndex, k) => ({ trackIndex, forward: !o.flipped[k] }));
}

function orderKey(o: ItemOrder): string {
  return o.sequence.map((i, k) => (o.flipped[k] ? -1 - i : i)).join(',');
}

type CostedRoute = { order: ItemOrder; algorithm: string; cost: ConnectorCost };

/**
 * The real costs of routes over one planning: connectors costed once (memos), every route
 * evaluated, the best complete one, and the routes the clock cut short.
 */
class RouteCosting {
  readonly linkMemo = new Map<number, ConnectorCost>();
  /**
   * Links found to cost more than their `cost` (`over`, with the defects found by then): not built again for a route
   * that may spend no more on them; the hybrid cost reads them as at least that.
   */
  readonly linkOver = new Map<number, ConnectorCost>();
  readonly headMemo = new Map<number, ConnectorCost>();
  readonly tailMemo = new Map<number, ConnectorCost>();
  readonly evaluated: EvaluatedRoute[] = [];
  /**
   * Set when the time ran out while the optimizer's own route was costed, after its head and tail:
   * its partial cost (a lower bound on its cost). `ownPartial`: the same, whatever was costed.
   */
  timedOut: ConnectorCost | undefined;
  ownPartial: ConnectorCost | undefined;
  best: CostedRoute | undefined;
  /**
   * Routes whose costing the clock cut short after their head and tail (the parts with most of a
   * field's inherent defects, e.g. headland passes no route can join), in the order costed, with
   * what they had cost by then: their defects so far compare with each other's.
   */
  readonly partial: CostedRoute[] = [];

  constructor(
    private readonly model: RealCostModel,
    readonly ends: number,
    private readonly options: RefineOptions,
    private readonly outOfTime: () => boolean,
  ) {}

  // Connections cut short by `abort` are not remembered: their cost is not the real one. One that went over its
  // `maxCost` is remembered as costing more than that.
  link(a: number, b: number, abort: () => boolean, maxCost = Infinity): ConnectorCost {
    const k = a * this.ends + b;
    const known = this.linkMemo.get(k);
    if (known) return known;
    const over = this.linkOver.get(k);
    // (a bound means the route has as many defects as the best: a defect more makes it worse, whatever it costs)
    if (over !== undefined && (over.cost >= maxCost || (over.defects > 0 && maxCost < Infinity))) return over;
    const c = this.model.link(a, b, abort, maxCost);
    if (c.over) this.linkOver.set(k, c);
    else if (!c.aborted) this.linkMemo.set(k, c);
    return c;
  }

  head(e: number, abort: () => boolean): ConnectorCost {
    let c = this.headMemo.get(e);
    if (!c && !(c = this.model.head(e, abort)).aborted) this.headMemo.set(e, c);
    return c;
  }

  tail(e: number, abort: () => boolean): ConnectorCost {
    let c = this.tailMemo.get(e);
    if (!c && !(c = this.model.tail(e, abort)).aborted) this.tailMemo.set(e, c);
    return c;
  }

  get connectorsEvaluated(): number {
    return this.linkMemo.size + this.headMemo.size + this.tailMemo.size;
  }

  /** Real cost of an order, abandoned (complete false) when worse than the best or out of time. */
  evaluate(order: ItemOrder, algorithm: string, budgetMilliseconds = Infinity): void {
    const { sequence, flipped } = order;
    const now = this.options.now ?? this.options.workClock;
    const startedAt = now ? now() : 0;
    // out of time overall, or this route has had its share of what was left
    const stop = (): boolean =>
      this.outOfTime() ||
      (now !== undefined && budgetMilliseconds !== Infinity && now() - startedAt > budgetMilliseconds);
    const acc: ConnectorCost = { cost: 0, defects: 0 };
    let cut = false;
    let over = false;
    // a connection cut short at `stop` ends the route's costing (its cost is not counted); one over what the route
    // could still spend, abandons it
    const add = (c: ConnectorCost): void => {
      if (c.over) {
        over = true;
        return;
      }
      if (c.aborted) {
        cut = true;
        return;
      }
      acc.cost += c.cost;
      acc.defects += c.defects;
    };
    // partial sums only grow: a route already worse than the best complete one is abandoned
    const worse = (): boolean => {
      const best = this.best;
      return (
        over ||
        (best !== undefined &&
          (acc.defects > best.cost.defects || (acc.defects === best.cost.defects && acc.cost > best.cost.cost + EPS)))
      );
    };
    // what a link may still cost, with as many defects as the best route: a link with a defect more, or more than
    // that, makes this route worse (fewer defects than the best: no bound)
    const linkMaxCost = (): number => {
      const best = this.best;
      return best !== undefined && acc.defects === best.cost.defects ? best.cost.cost - acc.cost + 1e-6 : Infinity;
    };
    let complete = true;
    let stopped = false;
    let endsCosted = false;
    const last = sequence.length - 1;
    if (sequence.length > 0) {
      // head and tail first: they may be the slowest parts (all headland passes), and the time
      // check before each later connector then allows for them
      add(this.head(entryEndOf(sequence[0], flipped[0]), stop));
      if (worse()) complete = false;
      else if (cut || stop()) complete = !(stopped = true);
      else {
        add(this.tail(exitEndOf(sequence[last], flipped[last]), stop));
        endsCosted = !cut;
      }
      for (let k = 1; k < sequence.length && complete; k++) {
        if (worse()) complete = false;
        else if (cut || stop()) complete = !(stopped = true);
        else {
          const a = exitEndOf(sequence[k - 1], flipped[k - 1]);
          add(this.link(a, entryEndOf(sequence[k], flipped[k]), stop, linkMaxCost()));
        }
      }
      if (complete && worse()) complete = false;
      else if (complete && cut) complete = !(stopped = true);
    }
    this.evaluated.push({ algorithm, nonWorkingCost: acc.cost, defects: acc.defects, complete });
    if (stopped && this.evaluated.length === 1) {
      this.ownPartial = { ...acc };
      // cut before its tail (all headland passes, the slow part), its cost so far says nothing
      if (endsCosted) this.timedOut = { ...acc };
    }
    if (stopped && endsCosted) this.partial.push({ order, algorithm, cost: { ...acc } });
    if (complete && (!this.best || better(acc, this.best.cost))) this.best = { order, algorithm, cost: { ...acc } };
  }

  /** Among the routes the clock cut short, the first with the fewest defects found, if below `than`. */
  fewerDefects(than: number): { visits: OrderVisit[]; algorithm: string } | undefined {
    let keep: CostedRoute | undefined;
    for (const p of this.partial) if (p.cost.defects < (keep ? keep.cost.defects : than)) keep = p;
    return keep && { visits: orderToVisits(keep.order), algorithm: keep.algorithm };
  }

  cutShort(keep: { visits: OrderVisit[]; algorithm: string }, rounds: number): RefineResult {
    return {
      visits: keep.visits,
      algorithm: keep.algorithm,
      nonWorkingCost: NaN,
      defects: NaN,
      rounds,
      connectorsEvaluated: this.connectorsEvaluated,
      evaluated: this.evaluated,
      stoppedBy: 'time-limit',
    };
  }
}

/**
 * Picks the route with the fewest defects, then the least real non-working cost, among the
 * optimizer's order, the fixed orders (`ordered.alternatives`) and the orders the optimizer finds on
 * the hybrid cost. See the file comment.
 */
export function refineOrderOnConnectors(
  input: FieldOrderInput,
  ordered: FieldOrderResult,
  model: RealCostModel,
  options: RefineOptions = {},
): RefineResult {
  const n = input.tracks.length;
  const outOfTime = options.outOfTime ?? (() => false);
  const costing = new RouteCosting(model, 2 * n, options, outOfTime);
  const alternatives = ordered.alternatives;
  const isOptimized = input.routeOptions.algorithm === 'optimized';
  if (alternatives.length === 1 && !isOptimized) {
    // a fixed order: nothing to compare, the planner connects it as it is
    return {
      visits: alternatives[0].visits,
      algorithm: alternatives[0].algorithm,
      nonWorkingCost: NaN,
      defects: NaN,
      rounds: 0,
      connectorsEvaluated: 0,
      evaluated: [],
      stoppedBy: 'single',
    };
  }
  const seen = new Set<string>();
  for (let i = 0; i < alternatives.length; i++) {
    const o = visitsToOrder(alternatives[i].visits);
    seen.add(orderKey(o));
    if (i > 0 && outOfTime()) break;
    // no route may take more than half of the time left: a route with slow (often unfittable)
    // connectors must not keep a plainer fixed order from being costed at all
    const remaining = options.remainingMilliseconds ? options.remainingMilliseconds() : Infinity;
    costing.evaluate(o, alternatives[i].algorithm, alternatives.length > 1 ? remaining / 2 : Infinity);
  }
  // The optimizer's own order could not be costed in time: a route costed in full replaces it
  // only if it is better than what the optimizer's already cost (a lower bound on its full cost).
  if (costing.best && costing.timedOut && !better(costing.best.cost, costing.timedOut)) costing.best = undefined;
  if (!costing.best) {
    // Out of time before any route was costed in full (or better than the optimizer's part):
    // keep the route with the fewest defects found so far, the optimizer's on a tie. A connector
    // found unfittable (often after seconds of searching, across a neck) is certain; the rest of a
    // fixed order, mostly turns between neighbours, rarely is.
    return costing.cutShort(
      costing.fewerDefects(costing.ownPartial ? costing.ownPartial.defects : Infinity) ?? {
        visits: alternatives[0].visits,
        algorithm: alternatives[0].algorithm,
      },
      0,
    );
  }
  let rounds = 0;
  let stoppedBy: RefineResult['stoppedBy'] = alternatives.length <= 1 ? 'single' : 'round-limit';
  if (isOptimized && n > 1) ({ rounds, stoppedBy } = refineRounds(input, ordered, costing, options, outOfTime, seen));
  const winner = costing.best!;
  // Defects rank first: a route costed in full with defects gives way, for the same reason, to a
  // route the clock cut short with fewer defects found by then (connected in full by the caller).
  const fewer = winner.cost.defects > 0 ? costing.fewerDefects(winner.cost.defects) : undefined;
  if (fewer) return costing.cutShort(fewer, rounds);
  return {
    visits: orderToVisits(winner.order),
    algorithm: winner.algorithm,
    nonWorkingCost: winner.cost.cost,
    defects: winner.cost.defects,
    rounds,
    connectorsEvaluated: costing.connectorsEvaluated,
    evaluated: costing.evaluated,
    stoppedBy,
  };
}

/** Optimizer rounds on the hybrid cost (real where costed, calibrated estimate elsewhere), each new order costed. */
function refineRounds(
  input: FieldOrderInput,
  ordered: FieldOrderResult,
  costing: RouteCosting,
  options: RefineOptions,
  outOfTime: () => boolean,
  seen: Set<string>,
): { rounds: number; stoppedBy: RefineResult['stoppedBy'] } {
  const estimate = trackOrderingProblem(input);
  const classify = transitionClassifier(input);
  const maxRounds = options.maxRounds ?? (options.now ? 12 : 3);
  let rounds = 0;
  let stoppedBy: RefineResult['stoppedBy'] = 'round-limit';
  while (rounds < maxRounds) {
    if (outOfTime()) {
      stoppedBy = 'time-limit';
      break;
    }
    const hybrid = hybridProblem(
      estimate,
      costing.linkMemo,
      costing.linkOver,
      costing.headMemo,
      costing.tailMemo,
      costing.ends,
      classify,
    );
    const remaining = options.remainingMilliseconds ? options.remainingMilliseconds() : Infinity;
    const r = orderItems(hybrid, {
      algorithm: 'optimized',
      skipCount: ordered.skipCount,
      ...(input.routeOptions.forcedDirection ? { forcedDirection: input.routeOptions.forcedDirection } : {}),
      initialOrders: [costing.best!.order],
      lowerBound: false,
      seed: 0x51ed + rounds,
      stop: outOfTime,
      ...(options.now && Number.isFinite(remaining)
        ? { now: options.now, maxTimeMilliseconds: Math.max(0, 0.3 * remaining) }
        : { maxKicks: options.maxKicksPerRound ?? 1000 }),
    });
    rounds++;
    const k = orderKey(r.order);
    if (seen.has(k)) {
      stoppedBy = 'converged';
      break;
    }
    seen.add(k);
    costing.evaluate(r.order, 'optimized-refined');
  }
  return { rounds, stoppedBy };
}

/** Number of transition classes of `transitionClassifier`. */
const CLASS_COUNT = 7;

/**
 * Class of a transition for calibrating the estimate: 0-3 = a turn between tracks of one cell that
 * many lines apart, 6 = a skip turn farther apart (up to `turnSpanLines`), 4 = other ends on the
 * same headland side, 5 = ends on opposite sides.
 */
export function transitionClassifier(input: FieldOrderInput): (fromEnd: number, toEnd: number) => number {
  const { tracks, cellOf } = input;
  const span = turnSpanLines(input.widthMeters, input.turnRadiusMeters);
  return (a, b) => {
    const ia = a >> 1,
      ib = b >> 1;
    if ((a & 1) !== (b & 1)) return 5;
    const dl = Math.abs(tracks[ia].line - tracks[ib].line);
    if (cellOf[ia] !== cellOf[ib] || dl > span) return 4;
    return dl <= 3 ? dl : 6;
  };
}

/**
 * The estimate with every known real connector substituted (defects weighted by DEFECT_COST) and
 * the unknown ones scaled by how far the estimate was off on the known connectors of the same class
 * (Σ real ÷ Σ estimate; the overall ratio for a class with none known yet). Unknown heads and tails
 * get the estimate plus the smallest correction seen on known ones. Symmetric as the optimizer
 * needs: a link known in one direction stands for both. A link known only to cost more than a bound (`over`) costs
 * at least that, its defects found included.
 */
function hybridProblem(
  estimate: OrderingProblem,
  links: Map<number, ConnectorCost>,
  over: Map<number, ConnectorCost>,
  heads: Map<number, ConnectorCost>,
  tails: Map<number, ConnectorCost>,
  ends: number,
  classify: (a: number, b: number) => number,
): OrderingProblem {
  const scalar = (c: ConnectorCost): number => c.cost + c.defects * DEFECT_COST;
  const residual = (m: Map<number, ConnectorCost>, est: ((e: number) => number) | undefined): number => {
    let r = Infinity;
    for (const [e, c] of m) r = Math.min(r, c.cost - (est ? est(e) : 0));
    return Number.isFinite(r) ? r : 0;
  };
  const realSum = new Float64Array(CLASS_COUNT);
  const estSum = new Float64Array(CLASS_COUNT);
  let realAll = 0;
  let estAll = 0;
  for (const [k, c] of links) {
    const a = Math.floor(k / ends),
      b = k % ends;
    const e = estimate.transitionCost(a, b);
    const cls = classify(a, b);
    realSum[cls] += c.cost;
    estSum[cls] += e;
    realAll += c.cost;
    estAll += e;
  }
  const overall = estAll > 0 ? realAll / estAll : 1;
  const ratio = Array.from(realSum, (r, i) => (estSum[i] > 0 ? r / estSum[i] : overall));
  const headFix = residual(heads, estimate.entryCost);
  const tailFix = residual(tails, estimate.exitCost);
  const estEntry = estimate.entryCost;
  const estExit = estimate.exitCost;
  const out: OrderingProblem = {
    ...estimate,
    transitionCost: (a, b) => {
      const c = links.get(a * ends + b) ?? links.get(b * ends + a);
      if (c) return scalar(c);
      const guess = estimate.transitionCost(a, b) * ratio[classify(a, b)];
      const o = over.get(a * ends + b) ?? over.get(b * ends + a);
      return o ? Math.max(guess, o.cost) + o.defects * DEFECT_COST : guess;
    },
    entryCost: (e) => {
      const c = heads.get(e);
      return c ? scalar(c) : Math.max(0, (estEntry ? estEntry(e) : 0) + headFix);
    },
    exitCost: (e) => {
      const c = tails.get(e);
      return c ? scalar(c) : Math.max(0, (estExit ? estExit(e) : 0) + tailFix);
    },
  };
  // the large-instance bound's per-meter factor no longer holds once real costs replace estimates
  delete out.costPerMeterLowerBound;
  return out;
}

export { assembleRoute, skipUnjoinable } from './assembleRoute.js';
export type { PartSegment, RouteParts, RoutePartsSource, SkippedVisit } from './assembleRoute.js';
