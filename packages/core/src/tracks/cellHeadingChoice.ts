/**
 * Per-cell headings (tracks/cellHeadings.ts) are chosen on an estimate; when any cell got its own
 * heading, the field is planned a second time with the field heading in every cell, and the
 * per-cell plan is kept only if it is shorter on the real route (less non-working distance), has
 * no more `checkPlan` violations and covers as well (uncovered ratio at most 0.1 point higher).
 */
import type { Plan } from '../types.js';
import type { SafetyCap } from '../clock.js';

/** A plan with the route stage's report (`plan.optimizer`). */
export type PlanWithOptimizer = Plan & { optimizer?: { timeSpentMilliseconds?: number; [key: string]: unknown } };

/** One planning: the plan, whether cells got headings of their own, whether strip passes may be at fault. */
export interface Planning {
  plan: PlanWithOptimizer;
  ownCellHeadings: boolean;
  stripsFaulted: boolean;
}

/**
 * Plans with per-cell headings (`planOnce(true, 0)`) and, where a cell got its own heading, with
 * one heading (`planOnce(false, spent)`: the second planning gets what the first left of
 * maxOptimizerTime); keeps the better. `violations` counts a plan's `checkPlan` violations. Past
 * the wall-clock cap the first plan is kept as it is.
 */
export function planCellHeadingsOrNot(planOnce: (cellHeadingsAllowed: boolean, orderingSpentMilliseconds: number) => Planning, violations: (plan: Plan) => number, cap: SafetyCap | undefined): Planning {
  const first = planOnce(true, 0);
  if (!first.ownCellHeadings) return first;
  if (cap?.over()) {
    cap.secondSkipped = true;
    return first;
  }
  const spent = first.plan.optimizer?.timeSpentMilliseconds ?? 0;
  const plainOnce = planOnce(false, spent);
  const plain = plainOnce.plan;
  const a = first.plan.metrics, b = plain.metrics;
  // A per-cell plan with no violations has no more than the plain one, whatever that has: not checked then.
  const better = a.nonWorkingDistanceMeters < b.nonWorkingDistanceMeters && a.uncoveredRatio <= b.uncoveredRatio + 0.001 &&
    violationsAtMost(violations(first.plan), () => violations(plain));
  const chosen = better ? first : plainOnce;
  // the ordering time reported is that of the whole call (both plannings)
  const second = plain.optimizer?.timeSpentMilliseconds;
  if (chosen.plan.optimizer && second !== undefined) chosen.plan.optimizer.timeSpentMilliseconds = spent + second;
  return chosen;
}

/** count ≤ other(), without calling other when count is 0. */
function violationsAtMost(count: number, other: () => number): boolean {
  return count === 0 || count <= other();
}
