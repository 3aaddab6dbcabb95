/**
 * `furrow terrain <boundary-file> --dem <file>`: slope and the contour heading of a field from
 * a DEM (GeoTIFF or JSON elevation grid); with --plan, the plan made with that heading and its
 * slope statistics (docs/terrain.md).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  analyzeFieldTerrain,
  contourTracks,
  keyContourLine,
  planRoute,
  planWithTerrain,
  type PathPlanRequest,
  type TerrainHeadingObjective,
} from '@furrow/core';
import { readDem } from '@furrow/format-dem';
import { readBoundaryFile } from '../io/boundary.js';
import { UsageError } from '../errors.js';
import { buildRequest, type PlanCommandOptions } from './plan.js';

export interface TerrainCommandOptions extends PlanCommandOptions {
  dem?: string;
  crs?: string;
  objective?: string;
  maxCrossSlope?: string;
  plan?: boolean;
  contourWidth?: string;
  inset?: string;
}

export async function runTerrain(file: string, flags: TerrainCommandOptions): Promise<number> {
  if (!flags.dem) throw new UsageError('--dem <file> is required (a GeoTIFF or a JSON elevation grid)');
  const objective = (flags.objective ?? 'contour') as TerrainHeadingObjective;
  if (objective !== 'contour' && objective !== 'minimizeCrossSlope')
    throw new UsageError(`--objective must be contour or minimizeCrossSlope, got "${flags.objective}"`);
  let maxCrossSlopeDegrees: number | undefined;
  if (flags.maxCrossSlope !== undefined) {
    maxCrossSlopeDegrees = Number(flags.maxCrossSlope);
    if (!(maxCrossSlopeDegrees >= 0 && maxCrossSlopeDegrees <= 90))
      throw new UsageError(`--max-cross-slope must be degrees in [0, 90], got "${flags.maxCrossSlope}"`);
  }
  let bytes: Uint8Array;
  try {
    bytes = await readFile(flags.dem);
  } catch (err) {
    throw new UsageError(
      `cannot read --dem ${flags.dem}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const grid = await readDem(bytes, { fileName: basename(flags.dem), ...(flags.crs ? { crs: flags.crs } : {}) });
  const boundaries = await readBoundaryFile(file);
  if (boundaries.length === 0) throw new UsageError(`${file}: no field boundary found`);
  const [first] = boundaries;
  const terrain = { grid, objective, ...(maxCrossSlopeDegrees !== undefined ? { maxCrossSlopeDegrees } : {}) };
  let out: unknown;
  if (flags.plan) {
    let base: PathPlanRequest = {};
    if (flags.request) {
      try {
        base = JSON.parse(await readFile(flags.request, 'utf8')) as PathPlanRequest;
      } catch (err) {
        throw new UsageError(`--request ${flags.request}: ${(err as Error).message}`);
      }
    }
    const request = buildRequest(
      base,
      first.geometry,
      (first.obstacles ?? []).map((geometry) => ({ geometry })),
      flags,
    );
    out = planWithTerrain(request, terrain, planRoute);
  } else {
    const analysis: Record<string, unknown> = {
      ...analyzeFieldTerrain(first.geometry, grid, terrain),
      keyContour: keyContourLine(first.geometry, grid),
    };
    if (flags.contourWidth !== undefined) {
      const widthMeters = Number(flags.contourWidth);
      const insetMeters = flags.inset === undefined ? 0 : Number(flags.inset);
      if (!(widthMeters > 0))
        throw new UsageError(`--contour-width must be a positive number of meters, got "${flags.contourWidth}"`);
      if (!(insetMeters >= 0)) throw new UsageError(`--inset must be meters ≥ 0, got "${flags.inset}"`);
      analysis.contourTracks = contourTracks(first.geometry, grid, { widthMeters, insetMeters }).tracks;
    }
    out = analysis;
  }
  const text = `${JSON.stringify(out)}\n`;
  if (flags.out) await writeFile(flags.out, text);
  else process.stdout.write(text);
  return 0;
}
