export * from './boundary.js';
export { readBoundary, boundaryToFeature, writeBoundaries, collectBoundaries } from './read.js';
export * from './plan.js';
export { checkPlanFeatureCollection, distanceMeters } from './check.js';
export type { PlanCheckOptions } from './check.js';
export * from './archive.js';
export * from './fleet.js';
export * from './traffic.js';
