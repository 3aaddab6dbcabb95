export { detectFormat, readAnyBoundary, readBoundaryFolder } from './detect.js';
export * from './layouts.js';
export type { BoundaryFormat, ParsedBoundary } from '@furrow/format-geojson';
