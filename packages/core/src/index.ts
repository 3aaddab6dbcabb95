export * from './types.js';
export * from './errors.js';
export * from './version.js';
export type { Pose, TurnOptions, TurnPath } from './turns/types.js';
