export type { ElevationGrid, TerrainModel } from './grid.js';
export {
  validateElevationGrid,
  localTerrainModel,
  hornGradient,
  sampleElevation,
  sampleGradient,
  slopeDegreesOf,
  aspectDegreesOf,
  slopeAspect,
} from './grid.js';
export type { TerrainFrame, LocalBox, LocalModelOptions } from './frame.js';
export { createTerrainModel, frameForPositions, proj4Definition } from './frame.js';
export type {
  LocalRings,
  TerrainHeadingObjective,
  TerrainSamples,
  HeadingSlopeCost,
  BestHeadingOptions,
  BestHeading,
} from './heading.js';
export { sampleTerrain, headingSlopeCost, bestTerrainHeading, bestContourHeading } from './heading.js';
export type { SlopeStatistics, FieldTerrainOptions, FieldTerrain, SegmentSlope, RouteSlope } from './stats.js';
export { lineSlopeStatistics, analyzeFieldTerrain, routeSlopeStatistics } from './stats.js';
export type { KeyContour } from './contours.js';
export { contourLines, clipLinesToRings, keyContourLine } from './contours.js';
export type { TerrainPlanningInput, PlanTerrain, TerrainPlan } from './planning.js';
export { terrainRequest, planWithTerrain, planWithTerrainAsync } from './planning.js';
export type { ContourTrack, ContourTracksResult, ContourTracksOptions } from './contourTracks.js';
export { contourTracks } from './contourTracks.js';
