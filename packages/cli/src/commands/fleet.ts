/**
 * `furrow fleet <boundary-file>`: several machines in one field (core's `planFleet`). The machines come from
 * `--machines id:width[:radius],…` or a fleet request (`--request`, with `fleet`); out as the fleet plan JSON, as
 * GeoJSON (every route feature with `machineId` and its times, waits as points) or as one ISO-XML TASKDATA
 * (a task per machine; `-o FILE.zip` zips it under TASKDATA/).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { planFleet } from '@furrow/core';
import type { FleetMachineInput, FleetRequest } from '@furrow/core';
import { fleetToFeatureCollection } from '@furrow/format-geojson';
import { fleetToTaskData, zipTaskData } from '@furrow/format-isoxml';
import { UsageError } from '../errors.js';
import { readBoundaryFile } from '../io/boundary.js';
import { formatWarning } from './plan.js';

export interface FleetCommandOptions {
  machines?: string;
  request?: string;
  safety?: string;
  headlandPasses?: string;
  heading?: string;
  format?: string;
  out?: string;
}

const FORMATS = ['json', 'geojson', 'isoxml'];

/** `a:6,b:6:8` → machines a (6 m, default radius) and b (6 m, radius 8 m). */
export function parseMachines(text: string): FleetMachineInput[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const [id, width, radius] = item.split(':');
      const widthMeters = Number(width);
      if (!id || !Number.isFinite(widthMeters))
        throw new UsageError(`--machines: "${item}" is not id:width[:turnRadius] (meters)`);
      const m: FleetMachineInput = { id, widthMeters };
      if (radius !== undefined) {
        if (!Number.isFinite(Number(radius)))
          throw new UsageError(`--machines: "${item}": the turn radius is not a number`);
        m.turnRadiusMeters = Number(radius);
      }
      return m;
    });
}

async function baseRequest(flags: FleetCommandOptions): Promise<Partial<FleetRequest>> {
  if (!flags.request) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(flags.request, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read --request ${flags.request}: ${(err as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`--request ${flags.request} must hold a JSON object (a fleet request)`);
  return parsed as Partial<FleetRequest>;
}

export async function runFleet(file: string, flags: FleetCommandOptions): Promise<number> {
  const format = flags.format ?? 'json';
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got "${format}"`);
  const base = await baseRequest(flags);
  const fleet = flags.machines ? parseMachines(flags.machines) : base.fleet;
  if (!fleet) throw new UsageError('give the machines: --machines id:width[:turnRadius],… or --request with a fleet');
  const [first] = await readBoundaryFile(file);
  if (!first) throw new UsageError(`${file}: no field boundary found`);
  const request: FleetRequest = {
    ...base,
    field: first.geometry,
    fleet,
    ...((first.obstacles ?? []).length > 0 ? { obstacles: first.obstacles!.map((geometry) => ({ geometry })) } : {}),
  };
  delete request.boundary;
  if (flags.safety !== undefined) request.safetyDistanceMeters = Number(flags.safety);
  if (flags.headlandPasses !== undefined)
    request.headland = { ...request.headland, passes: Number(flags.headlandPasses) };
  if (flags.heading !== undefined)
    request.tracks = { ...request.tracks, preferredDirectionDegrees: Number(flags.heading) };
  const plan = planFleet(request, { now: () => performance.now() });
  for (const w of plan.warnings) process.stderr.write(`${formatWarning(w)}\n`);
  const f = plan.fleet;
  const gap = (100 * f.gapRatio).toFixed(1);
  process.stderr.write(
    `furrow: ${f.machineCount} machines, makespan ${f.makespanSeconds.toFixed(0)} s, ` +
      `lower bound ${f.lowerBoundSeconds.toFixed(0)} s (gap ${gap} %), waits ${f.waitSeconds.toFixed(0)} s\n`,
  );
  let out: string | Uint8Array;
  if (format === 'geojson') out = JSON.stringify(fleetToFeatureCollection(plan));
  else if (format === 'isoxml') {
    const xml = fleetToTaskData(plan, { field: String(first.properties?.name ?? 'field') });
    out = flags.out?.endsWith('.zip') ? await zipTaskData(xml) : xml;
  } else out = JSON.stringify(plan);
  if (flags.out && flags.out !== '-') await writeFile(flags.out, out);
  else process.stdout.write(typeof out === 'string' ? `${out}\n` : out);
  return 0;
}
