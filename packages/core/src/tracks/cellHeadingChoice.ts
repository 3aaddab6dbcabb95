/**
 * Per-cell headings (tracks/cellHeadings.ts) are chosen on an estimate; when any cell got its own
 * heading, the field is planned a second time with the field heading in every cell, and the
 * per-cell plan is kept only if it is shorter on the real route (less non-working distance), has
 * no more `checkPlan` violations and covers as well (uncovered ratio at most 0.1 point higher).
 *
 * A planning's plan is made on first read (`lazyPlanning`): its route's non-working distance and
 * warnings are known as soon as it is routed, its coverage is measured only where a choice reads
 * it, and a planning another one beats on the route alone is never measured or assembled.
 */
import type { Plan } from '../types.js';
import type { SafetyCap } from '../clock.js';
import { routeFaults } from './routeFaults.js';

/** A plan with the route stage's report (`plan.optimizer`). */
export type PlanWithOptimizer = Plan & { optimizer?: { timeSpentMilliseconds?: number; [key: string]: unknown } };

/** What a planning knows once its route is joined, before it is measured. */
export interface RoutedPlanning {
  /** Whether cells got headings of their own. */
  ownCellHeadings: boolean;
  /** Whether strip passes may be at fault for the route's faults (tracks/stripFallback.ts). */
  stripsFaulted: boolean;
  /** The route's non-working distance, m, as its metrics give it. */
  nonWorkingDistanceMeters: number;
  /** The warnings of the route as joined (the plan's, less those its metrics and extras add). */
  routeWarnings: readonly { code: string }[];
  /** The route stage's `optimizer.timeSpentMilliseconds`. */
  orderingMilliseconds?: number;
}

/** One planning: what its route says, and its plan, measured and made on first ask. */
export interface Planning extends RoutedPlanning {
  /** The plan (made on first read, and once). */
  readonly plan: PlanWithOptimizer;
  /** The plan's `metrics.uncoveredRatio`: the route's coverage measured on first ask, without the rest of the plan. */
  uncoveredRatio(): number;
}

/**
 * A planning whose plan is made when read: `measure` sweeps the route's coverage (once), `make`
 * builds the plan from what it measured (once), `uncovered` reads the uncovered ratio off it.
 */
export function lazyPlanning<M>(
  routed: RoutedPlanning,
  measure: () => M,
  uncovered: (measured: M) => number,
  make: (measured: M) => PlanWithOptimizer,
): Planning {
  let measured: { m: M } | undefined;
  let plan: PlanWithOptimizer | undefined;
  const measuredOnce = (): M => (measured ??= { m: measure() }).m;
  return {
    ...routed,
    uncoveredRatio: () => uncovered(measuredOnce()),
    get plan(): PlanWithOptimizer {
      return (plan ??= make(measuredOnce()));
    },
  };
}

/**
 * Plans with per-cell headings (`planOnce(true, 0)`) and, where a cell got its own heading, with
 * one heading (`planOnce(false, spent)`: the second planning gets what the first left of
 * maxOptimizerTime); keeps the better. `violations` counts a plan's `checkPlan` violations. Past
 * the wall-clock cap the first plan is kept as it is.
 */
export function planCellHeadingsOrNot(
  planOnce: (cellHeadingsAllowed: boolean, orderingSpentMilliseconds: number) => Planning,
  violations: (plan: Plan) => number,
  cap: SafetyCap | undefined,
): Planning {
  const first = planOnce(true, 0);
  if (!first.ownCellHeadings) return first;
  if (cap?.over()) {
    cap.secondSkipped = true;
    return first;
  }
  const spent = first.orderingMilliseconds ?? 0;
  const plain = planOnce(false, spent);
  // The route decides first; coverage and violations are measured only where it does not — or where
  // the one-heading route leaves out or cannot join more: then the planning that leaves clearly less
  // unworked is kept (sk-083 at W 3 m: 11.6 % against 2.6 % unworked, 23 against 9 faults).
  const fewerFaults = (): boolean => routeFaults(first.routeWarnings).all < routeFaults(plain.routeWarnings).all;
  const better =
    ((first.nonWorkingDistanceMeters < plain.nonWorkingDistanceMeters &&
      first.uncoveredRatio() <= plain.uncoveredRatio() + 0.001) ||
      (fewerFaults() && first.uncoveredRatio() < plain.uncoveredRatio() - 0.001)) &&
    violationsAtMost(violations(first.plan), () => violations(plain.plan));
  const chosen = better ? first : plain;
  // the ordering time reported is that of the whole call (both plannings)
  const second = plain.orderingMilliseconds;
  if (second === undefined) return chosen;
  // (fields copied one by one: spreading a planning would read its plan, and so make it)
  const { ownCellHeadings, stripsFaulted, nonWorkingDistanceMeters, routeWarnings } = chosen;
  return {
    ownCellHeadings,
    stripsFaulted,
    nonWorkingDistanceMeters,
    routeWarnings,
    orderingMilliseconds: spent + second,
    uncoveredRatio: () => chosen.uncoveredRatio(),
    get plan(): PlanWithOptimizer {
      const p = chosen.plan;
      if (p.optimizer) p.optimizer.timeSpentMilliseconds = spent + second;
      return p;
    },
  };
}

/** count ≤ other(), without calling other when count is 0. */
function violationsAtMost(count: number, other: () => number): boolean {
  return count === 0 || count <= other();
}
