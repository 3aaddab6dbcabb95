export * from './types.js';
export * from './errors.js';
export * from './version.js';
export type { Pose, TurnOptions, TurnPath } from './turns/types.js';
export * from './route/order/index.js';
export * from './route/optimize/index.js';
export { syntheticTrackProblem, parallelTurnLengthMeters, type SyntheticOptions } from './route/order/synthetic.js';
export * from './refill/index.js';
export * from './terrain/index.js';
