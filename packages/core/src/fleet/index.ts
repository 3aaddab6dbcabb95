export { FLEET_COVERAGE_TOLERANCE, planFleet } from './planFleet.js';
export { MAX_FLEET_MACHINES, validateFleet } from './validateFleet.js';
export type {
  FleetApproach,
  FleetMachineInput,
  FleetMachinePlan,
  FleetPlan,
  FleetRequest,
  FleetSummary,
  FleetWait,
  TimedRouteSegment,
} from './types.js';
export { splitField } from './splitField.js';
export { contiguousSplitPlans, contiguousSplitSeconds } from './contiguousSplit.js';
