export * from './types.js';
export * from './errors.js';
export * from './version.js';
export type { Pose, TurnOptions, TurnPath } from './turns/types.js';
export * from './route/order/index.js';
export * from './route/optimize/index.js';
export { syntheticTrackProblem, parallelTurnLengthMeters, type SyntheticOptions } from './route/order/synthetic.js';
export * from './refill/index.js';
export * from './terrain/index.js';
export * from './sequencing/index.js';
export * from './scenarios/index.js';
export * from './turns/index.js';
export { planRoute } from './plan.js';
export {
  objectiveOf,
  unworkedSeconds,
  beats,
  UNWORKED_RETURN_FACTOR,
  UNDRIVABLE_JOIN_SECONDS,
  OFF_FIELD_SECONDS_PER_METER,
  TIE_SECONDS,
} from './objective.js';
export type { Objective, ObjectiveFacts, PlanObjectiveMachine, ObjectiveParts } from './objective.js';
export { checkPlan, coverageDeviation, CHECK_TOLERANCES } from './check/checkPlan.js';
export type { PlanCheck, PlanViolation } from './check/checkPlan.js';
export { routeOffField } from './check/offField.js';
export type { OffFieldPiece } from './check/offField.js';
export * from './turns/kinematics.js';
export type { PlanRuntime } from './plan.js';
export type { TrackSubset } from './choice/trackSubset.js';
export { createFieldMemo, type FieldMemo } from './choice/fieldMemo.js';
export { PLAN_STAGES } from './progress.js';
export { KICKS_PER_SECOND, ROUNDS_PER_SECOND, SAFETY_CAP_FACTOR, WORK_UNITS_PER_SECOND, workBudget } from './clock.js';
export type { WorkBudget } from './clock.js';
export type { PlanProgress, PlanStage, ProgressCallback } from './progress.js';
export { validateFieldGeometry } from './geometry/validateFieldGeometry.js';
export {
  LIMITS,
  DEFAULTS,
  KNOWN_OPTIONS,
  maxOptimizerTimeSeconds,
  normalizeRequest,
  resolveRouteOptions,
} from './request/normalizeRequest.js';
export type {
  PlanSettings,
  ResolvedMachine,
  ResolvedRouteOptions,
  HeadlandStyle,
  PlanOptionName,
  LonLatPolygon,
} from './request/normalizeRequest.js';
export * from './fleet/index.js';
export * from './traffic/index.js';
export type { TrackReference } from './request/trackReference.js';
