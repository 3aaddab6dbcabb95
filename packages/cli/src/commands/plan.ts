/**
 * `furrow plan <boundary-file>`: plans one field (CONTRACT.md "Command line").
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PlanError, planRoute } from '@furrow/core';
import type { PathPlanRequest, Plan, PlanWarning } from '@furrow/core';
import { planToSvg } from '../svg.js';
import { readBoundaryFile } from '../io/boundary.js';
import { renderPlan, type PlanOutputFormat, PLAN_OUTPUT_FORMATS } from '../io/render.js';

async function isDirectory(path: string): Promise<boolean> {
  if (path.endsWith('/')) return true;
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

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

/** Bad command-line input: exit code 2 with the message on stderr. */
export class UsageError extends Error {
  override name = 'UsageError';
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

export async function runPlan(file: string, flags: PlanCommandOptions): Promise<number> {
  const format = (flags.format ?? 'json') as PlanOutputFormat;
  if (!PLAN_OUTPUT_FORMATS.includes(format)) {
    throw new UsageError(`--format must be one of ${PLAN_OUTPUT_FORMATS.join(', ')}, got "${flags.format}"`);
  }
  let base: PathPlanRequest = {};
  if (flags.request) {
    let text: string;
    try {
      text = await readFile(flags.request, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read --request ${flags.request}: ${(err as Error).message}`);
    }
    try {
      base = JSON.parse(text) as PathPlanRequest;
    } catch (err) {
      throw new UsageError(`--request ${flags.request} is not valid JSON: ${(err as Error).message}`);
    }
    if (base === null || typeof base !== 'object' || Array.isArray(base)) {
      throw new UsageError(`--request ${flags.request} must hold a JSON object (a path-plan request)`);
    }
  }
  const boundaries = await readBoundaryFile(file);
  if (boundaries.length === 0) throw new UsageError(`${file}: no field boundary found`);
  if (boundaries.length > 1) {
    process.stderr.write(`${file}: ${boundaries.length} fields found; planning the first (use "furrow bulk" for all)\n`);
  }
  const [first] = boundaries;
  const obstacles = (first.obstacles ?? []).map((geometry) => ({ geometry }));
  const request = buildRequest(base, first.geometry, obstacles, flags);
  // The planner reads no clock itself: this one lets routeOptions.maxOptimizerTime bound the ordering, as the API does.
  const plan: Plan = planRoute(request, { now: () => performance.now() });
  // Every warning on stderr, the plan still made (exit 0).
  for (const w of plan.warnings) process.stderr.write(`${formatWarning(w)}\n`);

  const name = String(first.properties?.name ?? first.properties?.id ?? basename(file).replace(/\.[^.]+$/, ''));
  const { content: rendered, files } = await renderPlan(plan, format, name);
  if (flags.out && files && (await isDirectory(flags.out))) {
    // Multi-file layouts written as a folder (e.g. straight onto a display's USB stick).
    for (const [rel, data] of Object.entries(files)) {
      const target = join(flags.out, rel);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, data);
    }
  } else if (flags.out) {
    await writeFile(flags.out, rendered);
  } else if (typeof rendered === 'string') {
    process.stdout.write(rendered.endsWith('\n') ? rendered : `${rendered}\n`);
  } else {
    throw new UsageError(`--format ${format} is binary (a zip): give --out FILE`);
  }
  if (flags.svg) await writeFile(flags.svg, planToSvg(plan, { title: `furrow plan: ${name}` }));
  return 0;
}

export function isInputError(err: unknown): boolean {
  return err instanceof UsageError || err instanceof PlanError || (err instanceof Error && err.name === 'PlanError');
}

/** One warning as one line: `furrow: warning [code] message (where)`. */
export function formatWarning(w: PlanWarning): string {
  const places: string[] = [];
  if (w.sequence !== undefined) places.push(`route piece ${w.sequence}`);
  const g = w.geometry as { type?: string; coordinates?: unknown } | undefined;
  const first = (c: unknown): number[] | undefined => (Array.isArray(c) && typeof c[0] === 'number' ? (c as number[]) : Array.isArray(c) ? first(c[0]) : undefined);
  const p = g ? first(g.coordinates) : undefined;
  if (p) places.push(`${g!.type === 'Point' ? 'at' : `${g!.type} from`} ${p[0].toFixed(6)}, ${p[1].toFixed(6)}`);
  if (w.feature) places.push(w.feature);
  return `furrow: warning [${w.code}] ${w.message}${places.length ? ` (${places.join('; ')})` : ''}`;
}
