/**
 * Slope-aware planning: choose the track heading from the terrain (unless the request fixes
 * one), plan with it, and attach the plan's slope statistics. The planner is passed in (core's
 * `planRoute`, a worker pool, …) so this module stays independent of the pipeline.
 */
import { PlanError } from '../errors.js';
import type { PathPlanRequest, Plan } from '../types.js';
import type { ElevationGrid } from './grid.js';
import type { BestHeading, TerrainHeadingObjective } from './heading.js';
import { analyzeFieldTerrain, routeSlopeStatistics, type RouteSlope } from './stats.js';

export interface TerrainPlanningInput {
  grid: ElevationGrid;
  objective?: TerrainHeadingObjective;
  maxCrossSlopeDegrees?: number;
}

export interface PlanTerrain {
  objective: TerrainHeadingObjective;
  /** Where the heading came from: the terrain objective, or the request's preferred direction (kept). */
  headingSource: 'terrain' | 'preferred';
  /** The heading the terrain recommends, with its figures (also when the request fixed another). */
  recommended: BestHeading;
  minElevationMeters: number;
  maxElevationMeters: number;
  slope: RouteSlope;
}

export type TerrainPlan = Plan & { terrain: PlanTerrain };

/** The request with the terrain's heading as preferred direction, and what the terrain says. */
export function terrainRequest(
  request: PathPlanRequest,
  terrain: TerrainPlanningInput,
): {
  request: PathPlanRequest;
  analysis: ReturnType<typeof analyzeFieldTerrain>;
  headingSource: 'terrain' | 'preferred';
} {
  const field = request.field ?? request.boundary;
  if (!field)
    throw new PlanError('invalid-request', 'the request has no field (shape A `field` or shape B `boundary`)', [
      { path: 'field', message: 'required' },
    ]);
  if (!terrain || typeof terrain !== 'object' || !terrain.grid)
    throw new PlanError('invalid-request', 'terrain.grid is required', [{ path: 'terrain.grid', message: 'required' }]);
  const analysis = analyzeFieldTerrain(field, terrain.grid, {
    ...(terrain.objective ? { objective: terrain.objective } : {}),
    ...(terrain.maxCrossSlopeDegrees !== undefined ? { maxCrossSlopeDegrees: terrain.maxCrossSlopeDegrees } : {}),
  });
  const fixed = request.tracks?.preferredDirectionDegrees;
  if (typeof fixed === 'number') return { request, analysis, headingSource: 'preferred' };
  const rounded = Math.round(analysis.best.headingDegrees * 100) / 100;
  return {
    request: { ...request, tracks: { ...(request.tracks ?? {}), preferredDirectionDegrees: rounded } },
    analysis,
    headingSource: 'terrain',
  };
}

function attach(plan: Plan, terrain: TerrainPlanningInput, prepared: ReturnType<typeof terrainRequest>): TerrainPlan {
  return {
    ...plan,
    terrain: {
      objective: prepared.analysis.best.objective,
      headingSource: prepared.headingSource,
      recommended: prepared.analysis.best,
      minElevationMeters: prepared.analysis.minElevationMeters,
      maxElevationMeters: prepared.analysis.maxElevationMeters,
      slope: routeSlopeStatistics(plan, terrain.grid),
    },
  };
}

/** Plans `request` with the heading the terrain recommends (synchronous planner). */
export function planWithTerrain(
  request: PathPlanRequest,
  terrain: TerrainPlanningInput,
  planner: (r: PathPlanRequest) => Plan,
): TerrainPlan {
  const prepared = terrainRequest(request, terrain);
  return attach(planner(prepared.request), terrain, prepared);
}

/** The same with an asynchronous planner. */
export async function planWithTerrainAsync(
  request: PathPlanRequest,
  terrain: TerrainPlanningInput,
  planner: (r: PathPlanRequest) => Promise<Plan>,
): Promise<TerrainPlan> {
  const prepared = terrainRequest(request, terrain);
  return attach(await planner(prepared.request), terrain, prepared);
}
