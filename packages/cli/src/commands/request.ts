/**
 * The path-plan request of a command: the --request body with the file's boundary and the flags
 * on top. Imports no planner code (it is part of the CLI package's light library entry).
 */
import type { PathPlanRequest } from '@furrow/core';
import { UsageError } from '../errors.js';

/** The flags `plan` and the commands built on it take. */
export interface PlanCommandOptions {
  width?: string;
  headlandPasses?: string;
  turnRadius?: string;
  heading?: string;
  request?: string;
  format?: string;
  out?: string;
  svg?: string;
}

function numberFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got "${value}"`);
  return n;
}

/** Default working width when neither the request nor the flags give one. */
export const DEFAULT_CLI_WIDTH_METERS = 6;

/**
 * Builds the request: the --request body (shape A or B, possibly partial), its boundary
 * replaced by the file's, then the flags on top.
 */
export function buildRequest(
  base: PathPlanRequest,
  geometry: PathPlanRequest['field'],
  obstacles: NonNullable<PathPlanRequest['obstacles']>,
  flags: PlanCommandOptions,
): PathPlanRequest {
  const req: PathPlanRequest = structuredClone(base);
  const shapeB = req.boundary !== undefined || req.equipment !== undefined || req.exteriorHeadlandPasses !== undefined;
  if (shapeB) {
    req.boundary = geometry;
    delete req.field;
  } else {
    req.field = geometry;
  }
  if (obstacles.length > 0) req.obstacles = [...(req.obstacles ?? []), ...obstacles];

  const machineKey = shapeB ? 'equipment' : 'machine';
  const machine = { ...(req[machineKey] ?? {}) } as NonNullable<PathPlanRequest['machine']>;
  const width = numberFlag('width', flags.width);
  if (width !== undefined) machine.widthMeters = width;
  if (machine.widthMeters === undefined) machine.widthMeters = DEFAULT_CLI_WIDTH_METERS;
  const radius = numberFlag('turn-radius', flags.turnRadius);
  if (radius !== undefined) machine.turnRadiusMeters = radius;
  req[machineKey] = machine;

  const passes = numberFlag('headland-passes', flags.headlandPasses);
  if (passes !== undefined) {
    if (shapeB) req.exteriorHeadlandPasses = passes;
    else req.headland = { ...(req.headland ?? {}), passes };
  }
  const heading = numberFlag('heading', flags.heading);
  if (heading !== undefined) req.tracks = { ...(req.tracks ?? {}), preferredDirectionDegrees: heading };
  return req;
}
