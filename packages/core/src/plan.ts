/**
 * `planRoute(request) → Plan`: the pipeline. The request is normalized (request/), its variants are
 * listed and each planned through the same stages — field (geometry/) → headlands (headland/) →
 * tracks (tracks/) → order and connect (route/, turns/) → refill (refill/) → zones → metrics
 * (metrics/) → plan (output/) — and the one with the least objective (objective.ts) is kept
 * (choice/). Every checkPlan violation left has a warning (output/violationWarnings.ts); clock.ts caps
 * the call; every warning gets a place (warnings.ts).
 */
import type { Plan, PathPlanRequest } from './types.js';
import { normalizeRequest } from './request/normalizeRequest.js';
import { planVariants } from './choice/planVariants.js';
import { variantReports } from './choice/choose.js';
import { addViolationWarnings } from './output/violationWarnings.js';
import { placeWarnings } from './warnings.js';
import type { ProgressCallback } from './progress.js';
import type { FieldMemo } from './choice/fieldMemo.js';
import type { TrackSubset } from './choice/trackSubset.js';
import { addTimeLimitWarning, capCall, trackKilometres } from './clock.js';

/**
 * What the caller may inject. `now`: the wall clock, milliseconds, that caps the call at
 * SAFETY_CAP_FACTOR × maxOptimizerTime (default `performance.now()`; clock.ts; a frozen clock, no
 * cap) — the ordering itself is bounded by a deterministic work budget, whatever the clock.
 */
export interface PlanRuntime {
  now?: () => number;
  /** Called as each stage starts (progress.ts): a plain callback, no I/O. */
  onProgress?: ProgressCallback;
  /** Field-only work shared with other calls on one field (choice/fieldMemo.ts): the same plan with or without. */
  fieldMemo?: FieldMemo;
  /** Part of the field's tracks only (choice/trackSubset.ts: planFleet's pair route). */
  trackSubset?: TrackSubset;
}

/** What the wall-clock cap cuts here (the `time-limit` warning). */
const CUT_FINAL_CHECK = 'the plan was not checked for violations its warnings do not name';

/** Plans a coverage route for one field. Synchronous; throws `PlanError` on bad input. */
export function planRoute(request: PathPlanRequest, runtime: PlanRuntime = {}): Plan {
  const settings = normalizeRequest(request);
  const kilometres = trackKilometres(settings.polygons, settings.machine.widthMeters);
  const cap = capCall(runtime.now, settings.routeOptions.maxOptimizerTimeSeconds, kilometres);
  const { onProgress, fieldMemo, trackSubset } = runtime;
  const chosen = planVariants({
    request,
    settings,
    cap,
    ...(onProgress ? { onProgress } : {}),
    ...(fieldMemo ? { fieldMemo } : {}),
    ...(trackSubset ? { trackSubset } : {}),
  });
  const plan = chosen.kept.plan(chosen.orderingMilliseconds);
  plan.choice = { variants: variantReports(chosen.tried, chosen.kept) };
  // past the call's cap the final check is cut (said in `time-limit`): the call keeps its limit
  if (!cap?.hurry(CUT_FINAL_CHECK)) addViolationWarnings(request, plan);
  placeWarnings(plan);
  addTimeLimitWarning(plan, cap);
  return plan;
}
