/**
 * `furrow plan <boundary-file>`: plans one field.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { planRoute } from '@furrow/core';
import type { PathPlanRequest, Plan, PlanWarning } from '@furrow/core';
import { UsageError } from '../errors.js';
import { planToSvg } from '../svg.js';
import { buildRequest, type PlanCommandOptions } from './request.js';
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

export { UsageError, buildRequest };
export type { PlanCommandOptions };
export { DEFAULT_CLI_WIDTH_METERS } from './request.js';

/** Writes to stdout and resolves once the bytes are handed over (a zip may be large). */
function writeStdout(data: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(data, (err) => (err ? reject(err) : resolve())));
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
    process.stderr.write(
      `${file}: ${boundaries.length} fields found; planning the first (use "furrow bulk" for all)\n`,
    );
  }
  const [first] = boundaries;
  const obstacles = [
    ...(first.obstacles ?? []).map((geometry) => ({ geometry })),
    // zones driven over but not worked (AgOpenGPS holes marked drive-through)
    ...(first.passableZones ?? []).map((geometry) => ({ geometry, passable: true })),
  ];
  const request = buildRequest(base, first.geometry, obstacles, flags);
  // The planner reads no clock itself: this one lets routeOptions.maxOptimizerTime bound the ordering, as the API does.
  const plan: Plan = planRoute(request, { now: () => performance.now() });
  // Every warning on stderr, the plan still made (exit 0).
  for (const w of plan.warnings) process.stderr.write(`${formatWarning(w)}\n`);

  const fallbackName = file === '-' ? 'field' : basename(file.replace(/[\\/]+$/, '')).replace(/\.[^.]+$/, '');
  const name = String(first.properties?.name ?? first.properties?.id ?? fallbackName);
  const { content: rendered, files } = await renderPlan(plan, format, name);
  if (flags.out && files && (await isDirectory(flags.out))) {
    // Multi-file layouts written as a folder (e.g. straight onto a display's USB stick).
    for (const [rel, data] of Object.entries(files)) {
      const target = join(flags.out, rel);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, data);
    }
  } else if (flags.out === '-') {
    await writeStdout(typeof rendered === 'string' && !rendered.endsWith('\n') ? `${rendered}\n` : rendered);
  } else if (flags.out) {
    await writeFile(flags.out, rendered);
  } else if (typeof rendered === 'string') {
    process.stdout.write(rendered.endsWith('\n') ? rendered : `${rendered}\n`);
  } else {
    throw new UsageError(`--format ${format} is binary (a zip): give -o FILE, -o DIR/ or -o - (stdout)`);
  }
  if (flags.svg) await writeFile(flags.svg, planToSvg(plan, { title: `furrow plan: ${name}` }));
  return 0;
}

/** One warning as one line: `furrow: warning [code] message (where)`. */
export function formatWarning(w: PlanWarning): string {
  const places: string[] = [];
  if (w.sequence !== undefined) places.push(`route piece ${w.sequence}`);
  const g = w.geometry as { type?: string; coordinates?: unknown } | undefined;
  const first = (c: unknown): number[] | undefined =>
    Array.isArray(c) && typeof c[0] === 'number' ? (c as number[]) : Array.isArray(c) ? first(c[0]) : undefined;
  const p = g ? first(g.coordinates) : undefined;
  if (p) places.push(`${g!.type === 'Point' ? 'at' : `${g!.type} from`} ${p[0].toFixed(6)}, ${p[1].toFixed(6)}`);
  if (w.feature) places.push(w.feature);
  return `furrow: warning [${w.code}] ${w.message}${places.length ? ` (${places.join('; ')})` : ''}`;
}
