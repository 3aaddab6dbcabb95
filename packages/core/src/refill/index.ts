export { planRefills, pointAlong, type RefillInput, type RefillResult, type RefillPointLocal, type RefillRoutePiece } from './refill.js';
export { stagingPointLocal, withStagingLegs, refillCapacity, routeRefillPoints, nearestOnRings, applyRefills, withRefillDetours, straightLeg, type PlanRefillPoint, type RefillCapacity, type RefillMetrics } from './routeExtras.js';
