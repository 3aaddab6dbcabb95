export { readBoundary, readTaskData } from './read.js';
export * from './write.js';
