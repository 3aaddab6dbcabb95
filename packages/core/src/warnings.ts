/**
 * Every warning of a plan says where it applies: a geometry (a Point, or the line or polygon it is
 * about), the route piece (`sequence`), or the feature it concerns. A warning about the whole
 * field gets `feature: "field"`.
 */
import type { Plan } from './types.js';

export function placeWarnings(plan: Plan): Plan {
  for (const w of plan.warnings)
    if (w.geometry === undefined && w.sequence === undefined && w.feature === undefined) w.feature = 'field';
  return plan;
}
