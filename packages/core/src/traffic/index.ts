export {
  planTrafficSystem,
  planTrafficSystemAsync,
  headlandPassesFor,
  planIndependent,
  PHASE_TRY_UNWORKED_SHARE,
} from './planTrafficSystem.js';
export { nearestMultiples, MAX_OPERATIONS, DEFAULT_TYRE_MARGIN_METERS } from './validateTraffic.js';
export { tramRhythm } from './tramlines.js';
export type * from './types.js';
