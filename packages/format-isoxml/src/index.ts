export { readBoundary, readTaskData } from './read.js';
export * from './write.js';
export { headlandArea, headlandDepthMeters } from './headland.js';
export { fleetToTaskData } from './fleet.js';
export * from './traffic.js';
