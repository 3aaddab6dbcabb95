/**
 * `furrow scenarios <boundary-file> --scenarios <file.json>`: one field, several equipment sets,
 * KPIs side by side and the best by objective. `furrow sequence <boundary-file>... --depot
 * LON,LAT`: several fields planned and ordered from a staging area (docs/sequencing.md).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  compareScenarios,
  cornerStartNodes,
  planRoute,
  sequenceFields,
  visitsFromPlans,
  type EquipmentScenario,
  type FieldPlanVariant,
  type PathPlanRequest,
  type Position,
  type SequencingField,
} from '@furrow/core';
import { readBoundaryFile } from '../io/boundary.js';
import { UsageError } from '../errors.js';
import { buildRequest, type PlanCommandOptions } from './plan.js';

async function readJson(file: string, what: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read ${what} ${file}: ${(err as Error).message}`);
  }
}

async function baseRequest(flags: PlanCommandOptions): Promise<PathPlanRequest> {
  if (!flags.request) return {};
  const base = await readJson(flags.request, '--request');
  if (base === null || typeof base !== 'object' || Array.isArray(base))
    throw new UsageError(`--request ${flags.request} must hold a JSON object`);
  return base as PathPlanRequest;
}

async function emit(out: unknown, file: string | undefined): Promise<void> {
  const text = `${JSON.stringify(out)}\n`;
  if (file) await writeFile(file, text);
  else process.stdout.write(text);
}

function objectiveOf(value: string | undefined): 'time' | 'distance' | 'fuel' | undefined {
  if (value === undefined) return undefined;
  if (value !== 'time' && value !== 'distance' && value !== 'fuel')
    throw new UsageError(`--objective must be time, distance or fuel, got "${value}"`);
  return value;
}

export interface ScenariosCommandOptions extends PlanCommandOptions {
  scenarios?: string;
  objective?: string;
}

export async function runScenarios(file: string, flags: ScenariosCommandOptions): Promise<number> {
  if (!flags.scenarios)
    throw new UsageError(
      '--scenarios <file.json> is required: a list of { "name", "equipment": { "widthMeters", … } }',
    );
  const scenarios = await readJson(flags.scenarios, '--scenarios');
  if (!Array.isArray(scenarios)) throw new UsageError(`--scenarios ${flags.scenarios} must hold a JSON array`);
  const [first] = await readBoundaryFile(file);
  if (!first) throw new UsageError(`${file}: no field boundary found`);
  const request = buildRequest(
    await baseRequest(flags),
    first.geometry,
    (first.obstacles ?? []).map((geometry) => ({ geometry })),
    flags,
  );
  const objective = objectiveOf(flags.objective);
  await emit(
    compareScenarios(request, scenarios as EquipmentScenario[], planRoute, objective ? { objective } : {}),
    flags.out,
  );
  return 0;
}

export interface SequenceCommandOptions extends PlanCommandOptions {
  depot?: string;
  end?: string;
  objective?: string;
  speed?: string;
  corners?: boolean;
}

function position(flag: string, value: string): Position {
  const p = value.split(',').map(Number);
  if (p.length !== 2 || !p.every(Number.isFinite) || Math.abs(p[0]) > 180 || Math.abs(p[1]) > 90)
    throw new UsageError(`--${flag} must be LON,LAT, got "${value}"`);
  return [p[0], p[1]];
}

export async function runSequence(files: string[], flags: SequenceCommandOptions): Promise<number> {
  if (!flags.depot) throw new UsageError('--depot LON,LAT is required (the staging area)');
  const depot = position('depot', flags.depot);
  const base = await baseRequest(flags);
  const fields: SequencingField[] = [];
  const chosen: Record<string, FieldPlanVariant[]> = {};
  const ids = new Set<string>();
  for (const file of files) {
    const boundaries = await readBoundaryFile(file);
    for (const [k, b] of boundaries.entries()) {
      let id = String(b.properties?.id ?? b.properties?.name ?? basename(file).replace(/\.[^.]+$/, ''));
      if (boundaries.length > 1 && b.properties?.id === undefined && b.properties?.name === undefined)
        id = `${id}#${k + 1}`;
      while (ids.has(id)) id = `${id}'`;
      ids.add(id);
      const request = buildRequest(
        base,
        b.geometry,
        (b.obstacles ?? []).map((geometry) => ({ geometry })),
        flags,
      );
      const plan = planRoute(request);
      const variants: FieldPlanVariant[] = [{ plan }];
      if (flags.corners) {
        for (const node of cornerStartNodes(plan)) {
          try {
            variants.push({
              plan: planRoute({
                ...request,
                routeOptions: { ...(request.routeOptions ?? {}), startPointNodeIndex: node },
              }),
              startPointNodeIndex: node,
            });
          } catch {
            // a start node this field cannot use is not a candidate
          }
        }
      }
      chosen[id] = variants;
      fields.push({ id, visits: visitsFromPlans(variants), areaSquareMeters: plan.metrics.fieldAreaSquareMeters });
    }
  }
  if (fields.length === 0) throw new UsageError('no field boundary found in the files');
  const speed = flags.speed === undefined ? undefined : Number(flags.speed);
  if (speed !== undefined && !(speed > 0))
    throw new UsageError(`--speed must be a positive number of m/s, got "${flags.speed}"`);
  const objective = objectiveOf(flags.objective);
  const day = sequenceFields({
    depot,
    ...(flags.end ? { end: position('end', flags.end) } : {}),
    fields,
    ...(speed !== undefined ? { transportSpeedMetersPerSecond: speed } : {}),
    ...(objective ? { objective } : {}),
  });
  const fieldPlans = Object.fromEntries(
    day.stops.map((s) => {
      const v = chosen[s.fieldId][s.visit.planIndex ?? 0];
      return [
        s.fieldId,
        {
          startPointNodeIndex: v.startPointNodeIndex ?? null,
          reversed: s.visit.reversed ?? false,
          metrics: v.plan.metrics,
        },
      ];
    }),
  );
  await emit({ ...day, fieldPlans }, flags.out);
  return 0;
}
