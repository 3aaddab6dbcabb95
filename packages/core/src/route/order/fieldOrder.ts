/**
 * The seam between the planner and the route orders: builds the OrderingProblem of a field's
 * tracks (ends, working cost, estimated connector cost in the objective's unit) and returns the
 * visits `connectTracks` drives.
 *
 * Connector cost estimate (the connect stage's rules, the field-turn formulas of turns/fieldTurns.ts): between ends on
 * the same headland side of tracks of one cell at most 3 lines apart, a turn — flat U
 * d + (π − 2)R for d ≥ 2R, bulb R[π + 4·arccos((d + 2R)/4R)] below — plus the along-track offset;
 * other same-side pairs a headland traversal, estimated with the same formula on the straight
 * distance; ends on opposite sides drive round: along + across + πR. All ≥ the straight
 * distance, so the optimizer's large-instance bound holds.
 */
import { circleCurvature } from '../../geometry/curvature.js';
import { workBudget } from '../../clock.js';
import { PlanError } from '../../errors.js';
import type { ResolvedRouteOptions } from '../../request/normalizeRequest.js';
import type { ObjectiveRates } from '../optimize/objective.js';
import { orderItems, type OptimizerReport } from '../optimize/optimize.js';
import { FIXED_ORDER_ALGORITHMS, fixedOrder } from './fixed.js';
import type { ItemOrder, OrderingProblem } from './problem.js';
import { entryEndOf, exitEndOf, orderCost } from './problem.js';
import { parallelTurnLengthMeters } from './synthetic.js';
import { hypot } from '../../geometry/vec.js';
import { dubinsLengthMeters } from '../../turns/index.js';
import type { Pose } from '../../turns/types.js';
import { turnSpanLines } from '../skipTurns.js';

/** A track as the track stage makes it (structurally the same as tracks/generateTracks' Track). */
export interface OrderTrack {
  /** Scanline number across the heading. */
  line: number;
  /** Along-track coordinates of the ends (u0 < u1) and the across-track coordinate. */
  u0: number;
  u1: number;
  v: number;
  /** Ends in the local frame: (x0, y0) at u0 = node 2i, (x1, y1) at u1 = node 2i + 1. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** A strip pass's working width (tracks/strips.ts): fixed orders drive it where the route passes it. */
  widthMeters?: number;
}

/** One track of the route in driving order (structurally the connect stage's TrackVisit). */
export interface OrderVisit {
  trackIndex: number;
  /** true = drive from (x0, y0) to (x1, y1). */
  forward: boolean;
}

/** The track end a visit enters by (problem.ts numbering: 2·track, +1 for the (x1, y1) end). */
export function visitEntry(v: OrderVisit): number {
  return entryEndOf(v.trackIndex, !v.forward);
}

/** The track end a visit leaves by. */
export function visitExit(v: OrderVisit): number {
  return exitEndOf(v.trackIndex, !v.forward);
}

export interface FieldOrderInput {
  tracks: OrderTrack[];
  /** Cell of each track (tracks of one cell are neighbours across the field). */
  cellOf: Int32Array;
  directionRadians: number;
  widthMeters: number;
  turnRadiusMeters: number;
  rates: ObjectiveRates;
  routeOptions: ResolvedRouteOptions;
  /** Where the machine comes from before the first track (staging area, or the end of the headland passes). */
  startPoint?: { x: number; y: number };
  /** Whether `startPoint` is reached by transport (staging area) or in-field driving. */
  startIsStaging?: boolean;
  /** Where the machine goes after the last track (staging area when the tracks are last). */
  endPoint?: { x: number; y: number };
  endIsStaging?: boolean;
  /** Milliseconds clock; without it the optimizer stops by its iteration rules only. */
  now?: () => number;
  /**
   * Seconds of work budget (clock.ts) without a clock: the whole call's maxOptimizerTime (default
   * routeOptions.maxOptimizerTime).
   */
  workBudgetSeconds?: number;
  /** The call's wall-clock cap (clock.ts): true once it has passed; the optimizer stops where it is. */
  outOfTime?: () => boolean;
}

/** A complete order the planner may connect and compare on the real route. */
export interface OrderAlternative {
  algorithm: string;
  visits: OrderVisit[];
  /** Cost under the estimate the optimizer used. */
  estimatedCost: number;
}

export interface FieldOrderResult {
  visits: OrderVisit[];
  report: OptimizerReport;
  /**
   * For `optimized`: the optimizer's order first, then every fixed order that differs from it,
   * cheapest estimate first.
   * The planner costs them on the real connectors and improves on the best
   * (`refineOrderOnConnectors`, connectedOrder.ts), so `optimized` is never worse than a fixed order on the real route.
   */
  alternatives: OrderAlternative[];
  /** Skip count the fixed orders used. */
  skipCount: number;
}

export { defaultSkipCount } from '../../request/normalizeRequest.js';

export function trackOrderingProblem(input: FieldOrderInput): OrderingProblem {
  const { tracks, cellOf, widthMeters: w, turnRadiusMeters: R, rates } = input;
  const n = tracks.length;
  const endXY = new Float64Array(4 * n);
  const endU = new Float64Array(2 * n);
  const v = new Float64Array(n);
  const workCost = new Float64Array(n);
  const rank = new Float64Array(n);
  const line = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const t = tracks[i];
    endXY[4 * i] = t.x0;
    endXY[4 * i + 1] = t.y0;
    endXY[4 * i + 2] = t.x1;
    endXY[4 * i + 3] = t.y1;
    endU[2 * i] = t.u0;
    endU[2 * i + 1] = t.u1;
    v[i] = t.v;
    line[i] = t.line;
    rank[i] = t.v;
    workCost[i] = hypot(t.x1 - t.x0, t.y1 - t.y0) * rates.workingPerMeter;
  }
  const turning = rates.turningPerMeter;
  const span = turnSpanLines(w, R);
  const transitionCost = (a: number, b: number): number => {
    const ia = a >> 1;
    const ib = b >> 1;
    const across = Math.abs(v[ia] - v[ib]);
    const along = Math.abs(endU[a] - endU[b]);
    if ((a & 1) === (b & 1)) {
      if (cellOf[ia] === cellOf[ib] && Math.abs(line[ia] - line[ib]) <= span)
        return (parallelTurnLengthMeters(across, R) + along) * turning;
      return parallelTurnLengthMeters(hypot(across, along), R) * turning;
    }
    return (along + across + Math.PI * R) * turning;
  };
  const problem: OrderingProblem = {
    itemCount: n,
    endXY,
    workCost,
    rank,
    group: cellOf,
    transitionCost,
    cheapTransitions: true,
  };
  // Strip passes: a fixed route order drives each strip's passes where the route passes it (fixed.ts
  // insertLooseGroups). `optimized`'s fixed-order starts and alternatives keep them after the tracks:
  // put in there, they moved which alternatives the work budget connects first (sk-083 at W 3 m:
  // 17,657 → 28,261 m non-working), though over the corpus at W 12 m and W 36 m they drove less.
  if (input.routeOptions.algorithm !== 'optimized' && tracks.some((t) => t.widthMeters !== undefined)) {
    problem.loose = Uint8Array.from(tracks, (t) => (t.widthMeters !== undefined ? 1 : 0));
    // the shortest turning path from leaving through one end to entering through the other (the ends' chords as
    // headings)
    const pose = (e: number, leaving: boolean): Pose => {
      const o = e ^ 1;
      const h = Math.atan2(endXY[2 * e + 1] - endXY[2 * o + 1], endXY[2 * e] - endXY[2 * o]);
      return { x: endXY[2 * e], y: endXY[2 * e + 1], headingRadians: leaving ? h : h + Math.PI };
    };
    problem.looseLinkCost = (a, b) => dubinsLengthMeters(pose(a, true), pose(b, false), R) * turning;
  }
  const { startPoint, endPoint } = input;
  const entryRate = input.startIsStaging ? rates.transportPerMeter : turning;
  const exitRate = input.endIsStaging ? rates.transportPerMeter : turning;
  if (startPoint)
    problem.entryCost = (e) => hypot(endXY[2 * e] - startPoint.x, endXY[2 * e + 1] - startPoint.y) * entryRate;
  if (endPoint) problem.exitCost = (e) => hypot(endXY[2 * e] - endPoint.x, endXY[2 * e + 1] - endPoint.y) * exitRate;
  const ro = input.routeOptions;
  const nodes = 2 * n;
  if (ro.startPointNodeIndex !== undefined) {
    if (ro.startPointNodeIndex >= nodes)
      throw new PlanError(
        'invalid-option',
        `routeOptions.startPointNodeIndex: ${ro.startPointNodeIndex} is not a node of this plan (it has ${nodes} ` +
          `nodes, 0 to ${nodes - 1}; see plan.nodes)`,
        [{ path: 'routeOptions.startPointNodeIndex', message: `must be below ${nodes}` }],
      );
    problem.startEnd = ro.startPointNodeIndex;
  }
  if (ro.endPointNodeIndex !== undefined) {
    if (ro.endPointNodeIndex >= nodes)
      throw new PlanError(
        'invalid-option',
        `routeOptions.endPointNodeIndex: ${ro.endPointNodeIndex} is not a node of this plan (it has ${nodes} ` +
          `nodes, 0 to ${nodes - 1}; see plan.nodes)`,
        [{ path: 'routeOptions.endPointNodeIndex', message: `must be below ${nodes}` }],
      );
    if (n > 1 && problem.startEnd !== undefined && ro.endPointNodeIndex >> 1 === problem.startEnd >> 1)
      throw new PlanError(
        'invalid-option',
        'routeOptions.endPointNodeIndex: the end node lies on the same track as the start node; pick an end node ' +
          'of another track',
        [{ path: 'routeOptions.endPointNodeIndex', message: 'same track as the start node' }],
      );
    problem.finishEnd = ro.endPointNodeIndex;
  }
  problem.costPerMeterLowerBound = Math.min(turning, entryRate, exitRate);
  return problem;
}

/** Orders a field's tracks by `routeOptions.algorithm`. */
export function orderFieldTracks(input: FieldOrderInput): FieldOrderResult {
  const ro = input.routeOptions;
  const problem = trackOrderingProblem(input);
  const skipCount = ro.skipCount;
  const maxSeconds = ro.maxOptimizerTimeSeconds;
  const { order, report } = orderItems(problem, {
    algorithm: ro.algorithm,
    skipCount,
    ...(ro.forcedDirection ? { forcedDirection: ro.forcedDirection } : {}),
    // optimized: the estimate gets part of the budget, the rest goes to the real connectors (connectedOrder.ts)
    ...(input.now
      ? { now: input.now, maxTimeMilliseconds: maxSeconds * 1000 * (ro.algorithm === 'optimized' ? ESTIMATE_SHARE : 1) }
      : {}),
    // without a clock, the work budget (clock.ts): the stall rule plus a cap on kicks from maxOptimizerTime
    ...(input.now ? {} : { maxKicks: workBudget(input.workBudgetSeconds ?? maxSeconds).kicks }),
    ...(input.outOfTime ? { stop: input.outOfTime } : {}),
  });
  const toVisits = (o: ItemOrder): OrderVisit[] =>
    o.sequence.map((trackIndex, k) => ({ trackIndex, forward: !o.flipped[k] }));
  const visits = toVisits(order);
  const alternatives: OrderAlternative[] = [{ algorithm: report.algorithm, visits, estimatedCost: report.cost }];
  if (ro.algorithm === 'optimized') {
    const seen = new Set<string>([key(order)]);
    for (const algorithm of FIXED_ORDER_ALGORITHMS) {
      const o = fixedOrder(problem, algorithm, {
        skipCount,
        ...(ro.forcedDirection ? { forcedDirection: ro.forcedDirection } : {}),
      });
      const k = key(o);
      if (seen.has(k)) continue;
      seen.add(k);
      alternatives.push({ algorithm, visits: toVisits(o), estimatedCost: orderCost(problem, o) });
    }
  }
  // Connected in this order while time lasts: the optimizer's own first, then by estimate.
  const fixedAlternatives = alternatives.slice(1).sort((a, b) => a.estimatedCost - b.estimatedCost);
  alternatives.length = 1;
  alternatives.push(...fixedAlternatives);
  // Without a clock nothing bounds the connections: on large fields keep the optimizer's order and
  // the fixed order with the cheapest estimate only.
  if (!input.now && input.tracks.length > LARGE_FIELD_TRACKS && alternatives.length > 2) {
    const rest = alternatives.slice(1).sort((a, b) => a.estimatedCost - b.estimatedCost);
    alternatives.length = 1;
    alternatives.push(rest[0]);
  }
  return { visits, report, skipCount, alternatives };
}

/** Share of maxOptimizerTime the optimizer spends on the estimated costs before it turns to the real connectors. */
export const ESTIMATE_SHARE = 0.4;

/** Above this many tracks, planning without a clock connects only two alternatives. */
export const LARGE_FIELD_TRACKS = 400;

function key(o: ItemOrder): string {
  return o.sequence.map((i, k) => (o.flipped[k] ? -1 - i : i)).join(',');
}

/**
 * Worst bend of a polyline as a ratio to the minimum turning radius (> 1 = tighter than allowed),
 * measured like checkPlan: circumradius of point triples at least 0.4 m apart.
 */
export function tightestBendRatio(xy: ArrayLike<number>, radiusMeters: number): number {
  const kept: number[] = [0];
  for (let i = 1; i < xy.length / 2; i++) {
    const j = kept[kept.length - 1];
    if (hypot(xy[2 * i] - xy[2 * j], xy[2 * i + 1] - xy[2 * j + 1]) >= 0.4) kept.push(i);
  }
  let worst = 0;
  for (let k = 2; k < kept.length; k++) {
    const a = kept[k - 2],
      b = kept[k - 1],
      c = kept[k];
    const curvature = circleCurvature(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], xy[2 * c], xy[2 * c + 1]);
    if (curvature < 0) continue;
    const r = curvature * radiusMeters;
    if (r > worst) worst = r;
  }
  return worst;
}
