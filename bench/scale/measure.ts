/**
 * One scale measurement, run in a child process of the bench's scale section
 * (packages/cli/src/commands/bench-scale.ts) so that each gets its own peak RSS:
 * `node --import tsx bench/scale/measure.ts '<json spec>'` prints one JSON line.
 *
 * Spec: `{ "synthetic": { areaHa, vertices, seed, obstacles? } }` (bench/scale/fields.ts) or
 * `{ "file": "test/fields-scale/x.geojson" }`, with `widthMeters`, optional `turnRadiusMeters`,
 * `headlandPasses`, `algorithm`, `maxOptimizerTime`; or `{ "corpus": "test/fields", ... }` to plan
 * every corpus field in turn (one line per field). Plans with the built `@furrow/core`.
 * CPU time is this process's user + system time over `planRoute` only (process.cpuUsage), also per
 * stage (`stageSeconds`, read at each stage's start through `onProgress`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { planRoute } from '@furrow/core';
import type { FieldGeometry, PathPlanRequest } from '@furrow/core';
import { scaleField } from './fields.js';
import type { ScaleFieldSpec } from './fields.js';

interface Spec {
  synthetic?: ScaleFieldSpec;
  file?: string;
  corpus?: string;
  widthMeters: number;
  turnRadiusMeters?: number;
  headlandPasses?: number;
  algorithm?: string;
  maxOptimizerTime?: number;
}

function readField(path: string): FieldGeometry {
  const g = JSON.parse(readFileSync(path, 'utf8'));
  return g.type === 'FeatureCollection' ? g.features[0].geometry : g.type === 'Feature' ? g.geometry : g;
}

function measure(field: FieldGeometry, spec: Spec): Record<string, unknown> {
  const request: PathPlanRequest = {
    field,
    machine: {
      widthMeters: spec.widthMeters,
      ...(spec.turnRadiusMeters !== undefined ? { turnRadiusMeters: spec.turnRadiusMeters } : {}),
    },
    ...(spec.headlandPasses !== undefined ? { headland: { passes: spec.headlandPasses } } : {}),
    ...(spec.algorithm || spec.maxOptimizerTime !== undefined
      ? {
          routeOptions: {
            ...(spec.algorithm ? { algorithm: spec.algorithm as 'snake' } : {}),
            ...(spec.maxOptimizerTime !== undefined ? { maxOptimizerTime: spec.maxOptimizerTime } : {}),
          },
        }
      : {}),
  };
  const t0 = performance.now(),
    c0 = process.cpuUsage();
  // CPU per stage (`onProgress` at each stage's start; a stage's time summed over the call's plannings)
  const stageSeconds: Record<string, number> = {};
  let stage: string | undefined,
    stageAt = 0;
  const cpuSince = (): number => {
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1e6;
  };
  const plan = planRoute(request, {
    onProgress: (p) => {
      const t = cpuSince();
      if (stage !== undefined) stageSeconds[stage] = (stageSeconds[stage] ?? 0) + t - stageAt;
      stage = p.stage;
      stageAt = t;
    },
  });
  const c = process.cpuUsage(c0);
  if (stage !== undefined) stageSeconds[stage] = (stageSeconds[stage] ?? 0) + (c.user + c.system) / 1e6 - stageAt;
  return {
    cpuSeconds: (c.user + c.system) / 1e6,
    stageSeconds,
    turns: plan.route.filter((sg) => sg.type === 'Turn').length,
    wallSeconds: (performance.now() - t0) / 1000,
    tracks: plan.tracks.length,
    uncoveredRatio: plan.metrics.uncoveredRatio,
    nonWorkingRatio:
      plan.metrics.workingDistanceMeters > 0
        ? plan.metrics.nonWorkingDistanceMeters / plan.metrics.workingDistanceMeters
        : 0,
    warnings: plan.warnings.map((w) => w.code),
  };
}

const spec = JSON.parse(process.argv[2]) as Spec;
if (spec.corpus) {
  const rows = readFileSync(join(spec.corpus, 'index.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  for (const [id, file] of rows)
    console.log(JSON.stringify({ id, ...measure(readField(join(spec.corpus, file)), spec) }));
} else {
  const field = spec.synthetic ? scaleField(spec.synthetic) : readField(spec.file!);
  const r = measure(field, spec);
  console.log(JSON.stringify({ ...r, peakRssMegabytes: process.resourceUsage().maxRSS / 1024 }));
}
