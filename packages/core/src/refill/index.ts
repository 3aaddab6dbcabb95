export { planRefills, pointAlong, type RefillInput, type RefillResult, type RefillPointLocal, type RefillRoutePiece } from './refill.js';
export { stagingPointLocal, withStagingLegs, refillCapacity, routeRefillPoints, nearestOnRings, type PlanRefillPoint, type RefillCapacity } from './routeExtras.js';
