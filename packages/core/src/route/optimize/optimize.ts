/**
 * `orderItems`: one entry point for every route order. Fixed orders are built directly;
 * `optimized` constructs candidates (every fixed order and a greedy tour over ends), keeps the
 * cheapest as the first feasible route, improves it with the local search until the time limit,
 * and reports iterations, time, a lower bound and the gap to it.
 */
import type { RouteAlgorithm } from '../../types.js';
import { FIXED_ORDER_ALGORITHMS, fixedOrder, type FixedOrderOptions } from '../order/fixed.js';
import type { ItemOrder, OrderingProblem } from '../order/problem.js';
import { orderCost } from '../order/problem.js';
import { greedyOrder } from './construct.js';
import { improveOrder, type LocalSearchOptions, type StopReason } from './local-search.js';
import { buildNeighbourLists, TransitionMemo } from './transitions.js';
import { routeLowerBound } from './lower-bound.js';

export interface OrderItemsOptions extends FixedOrderOptions, Omit<LocalSearchOptions, 'startedAtMilliseconds'> {
  /** Default `optimized`. */
  algorithm?: RouteAlgorithm;
  /** Compute the lower bound and gap (default true). */
  lowerBound?: boolean;
  /** Largest instance (items) whose bound is the exact assignment (default 150). */
  exactBoundLimit?: number;
  /**
   * Further complete orders to start from (`optimized` only), e.g. the best route found so far:
   * the result costs no more than the cheapest of them. Construction name `seed`.
   */
  initialOrders?: ItemOrder[];
}

/** What the optimizer did; goes into the plan as `optimizer`. Times only when a clock was given. */
export interface OptimizerReport {
  algorithm: RouteAlgorithm;
  /** Construction the improvement started from (`greedy` or a fixed order's name). */
  construction: string;
  /** Improving moves applied, kicks included. */
  iterations: number;
  kicks: number;
  stoppedBy: StopReason | 'fixed-order';
  /** Cost of the first feasible route and of the result, in the objective's unit (working costs included). */
  initialCost: number;
  cost: number;
  lowerBound?: number;
  lowerBoundMethod?: 'assignment' | 'cheapest-link';
  /** (cost − lowerBound) / cost: at most this share of the cost could still be saved. */
  gapRatio?: number;
  /** (cost − lowerBound) / (cost − working cost): the same gap measured on the non-working part alone. */
  nonWorkingGapRatio?: number;
  timeSpentMilliseconds?: number;
  firstFeasibleMilliseconds?: number;
}

export interface OrderItemsResult {
  order: ItemOrder;
  report: OptimizerReport;
}

export function orderItems(problem: OrderingProblem, options: OrderItemsOptions = {}): OrderItemsResult {
  const algorithm = options.algorithm ?? 'optimized';
  const now = options.now;
  const t0 = now ? now() : 0;
  const memo = new TransitionMemo(problem);
  const transition = memo.lookup;
  const memoProblem: OrderingProblem = { ...problem, transitionCost: transition };

  let order: ItemOrder;
  let construction: string;
  let initialCost: number;
  let firstFeasibleMilliseconds: number | undefined;
  let iterations = 0;
  let kicks = 0;
  let stoppedBy: OptimizerReport['stoppedBy'] = 'fixed-order';
  let neighbours: ReturnType<typeof buildNeighbourLists> | undefined;

  if (algorithm !== 'optimized') {
    order = fixedOrder(memoProblem, algorithm, options);
    construction = algorithm;
    initialCost = orderCost(memoProblem, order);
    if (now) firstFeasibleMilliseconds = now() - t0;
  } else {
    let best: ItemOrder | undefined;
    let bestCost = Infinity;
    construction = '';
    const limit = now && options.maxTimeMilliseconds !== undefined ? options.maxTimeMilliseconds : Infinity;
    const timeLeft = (): boolean => !options.stop?.() && (limit === Infinity || now!() - t0 < limit);
    for (const name of FIXED_ORDER_ALGORITHMS) {
      if (best && !timeLeft()) break;
      const candidate = fixedOrder(memoProblem, name, options);
      const c = orderCost(memoProblem, candidate);
      if (firstFeasibleMilliseconds === undefined && now) firstFeasibleMilliseconds = now() - t0;
      if (c < bestCost) {
        best = candidate;
        bestCost = c;
        construction = name;
      }
    }
    for (const seed of options.initialOrders ?? []) {
      if (seed.sequence.length !== problem.itemCount) continue;
      const c = orderCost(memoProblem, seed);
      if (firstFeasibleMilliseconds === undefined && now) firstFeasibleMilliseconds = now() - t0;
      if (c < bestCost) {
        best = seed;
        bestCost = c;
        construction = 'seed';
      }
    }
    if (timeLeft()) {
      neighbours = buildNeighbourLists(memoProblem, transition, options.neighbourCount ?? 10, () => !timeLeft());
    }
    if (neighbours && timeLeft()) {
      const greedy = greedyOrder(memoProblem, transition, neighbours);
      const greedyCost = orderCost(memoProblem, greedy);
      if (greedyCost < bestCost) {
        best = greedy;
        bestCost = greedyCost;
        construction = 'greedy';
      }
    }
    initialCost = bestCost;
    if (neighbours && timeLeft()) {
      const result = improveOrder(memoProblem, best!, { ...options, startedAtMilliseconds: t0 }, { memo, neighbours });
      order = result.order;
      iterations = result.iterations;
      kicks = result.kicks;
      stoppedBy = result.stoppedBy;
    } else {
      order = best!;
      stoppedBy = 'time-limit';
    }
  }

  const cost = orderCost(memoProblem, order);
  const report: OptimizerReport = { algorithm, construction, iterations, kicks, stoppedBy, initialCost, cost };
  if (now) {
    report.timeSpentMilliseconds = now() - t0;
    report.firstFeasibleMilliseconds = firstFeasibleMilliseconds;
  }
  if (options.lowerBound !== false) {
    const exactLimit = options.exactBoundLimit ?? 150;
    if (!neighbours && problem.itemCount > exactLimit)
      neighbours = buildNeighbourLists(memoProblem, transition, options.neighbourCount ?? 10);
    const lb = routeLowerBound(memoProblem, transition, neighbours, exactLimit);
    report.lowerBound = lb.value;
    report.lowerBoundMethod = lb.method;
    report.gapRatio = cost > 0 ? Math.max(0, (cost - lb.value) / cost) : 0;
    let work = 0;
    for (let i = 0; i < problem.itemCount; i++) work += problem.workCost[i];
    report.nonWorkingGapRatio = cost - work > 0 ? Math.max(0, (cost - lb.value) / (cost - work)) : 0;
  }
  return { order, report };
}
