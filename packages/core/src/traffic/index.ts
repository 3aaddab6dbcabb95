export {
  planTrafficSystem,
  planTrafficSystemAsync,
  trafficSetup,
  trafficResult,
  headlandPassesFor,
  type TrafficSetup,
} from './planTrafficSystem.js';
export { validateTraffic, nearestMultiples, MAX_OPERATIONS, DEFAULT_TYRE_MARGIN_METERS } from './validateTraffic.js';
export { tramRhythm } from './tramlines.js';
export { wheelFootprint, traffickedArea } from './footprint.js';
export type * from './types.js';
