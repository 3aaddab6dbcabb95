export { planRefills, pointAlong, type RefillInput, type RefillResult, type RefillPointLocal, type RefillRoutePiece } from './refill.js';
export { stagingPointLocal, withStagingLegs, refillCapacity, routeRefillPoints, nearestOnRings, withRefillDetours, straightLeg, type PlanRefillPoint, type RefillCapacity, type RefillOptions } from './routeExtras.js';
