export {
  planRefills,
  pointAlong,
  type RefillInput,
  type RefillResult,
  type RefillPointLocal,
  type RefillRoutePiece,
} from './refill.js';
export {
  stagingPointLocal,
  withStagingLegs,
  routeRefillPoints,
  nearestOnRings,
  withRefillDetours,
  straightLeg,
  type PlanRefillPoint,
  type RefillCapacity,
  type RefillOptions,
} from './routeExtras.js';
