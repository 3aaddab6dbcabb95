export * from './boundary.js';
export { readBoundary, boundaryToFeature, writeBoundaries, collectBoundaries } from './read.js';
export * from './plan.js';
