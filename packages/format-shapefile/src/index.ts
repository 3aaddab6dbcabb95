export { readBoundary, isZip, encodingOfCpg } from './read.js';
export { WGS84_PRJ, layerFiles, zipFiles, planLayers, planToShapefileZip, writeBoundaries } from './write.js';
export type { ShapeType, ShapefileLayer, ShapefileOptions } from './write.js';
export { writeDbf } from './dbf.js';
