/**
 * Plans corpus fields by id with the corpus bench's default request (`furrow bench`: width 6 m,
 * 2 headland passes, turn radius 6 m, order snake, no clock) and prints the median wall time and
 * CPU time (user + system, less sensitive to other jobs on a shared machine) of the runs, the
 * plan's metrics and its checkPlan violation count. Imports the core from its sources,
 * so it measures the working tree without a build.
 *
 * Run: `npx tsx bench/profile-field.ts it-tus-033 bg-009 sk-083 [--repeat=N] [--out=FILE.jsonl]`
 * (`--all` plans every field of test/fields/index.csv). For where the time goes:
 * `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-field.ts it-tus-033`
 * and open the .cpuprofile in Chrome DevTools (or summarise it with any profile reader).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { checkPlan, planRoute } from '../packages/core/src/index.js';
import type { FieldGeometry, PathPlanRequest } from '../packages/core/src/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const repeat = Math.max(1, Number(arg('repeat') ?? 1));
const out = arg('out');
const rows = readFileSync(`${root}test/fields/index.csv`, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => {
    const c = l.split(',');
    return { id: c[0], file: c[1], areaHa: Number(c[2]) };
  });
const ids = process.argv.includes('--all')
  ? rows.map((r) => r.id)
  : process.argv.slice(2).filter((a) => !a.startsWith('--'));

let checksum = 0;
for (const id of ids) {
  const row = rows.find((r) => r.id === id);
  if (!row) throw new Error(`no field ${id} in test/fields/index.csv`);
  const gj = JSON.parse(readFileSync(`${root}test/fields/${row.file}`, 'utf8'));
  const field: FieldGeometry =
    gj.type === 'FeatureCollection' ? gj.features[0].geometry : gj.type === 'Feature' ? gj.geometry : gj;
  const request: PathPlanRequest = {
    field,
    machine: { widthMeters: 6, turnRadiusMeters: 6 },
    headland: { passes: 2 },
    routeOptions: { algorithm: 'snake' },
  };
  const times: number[] = [],
    cpu: number[] = [];
  let plan;
  for (let i = 0; i < repeat; i++) {
    const t0 = performance.now(),
      c0 = process.cpuUsage();
    plan = planRoute(request);
    const c = process.cpuUsage(c0);
    times.push(performance.now() - t0);
    cpu.push((c.user + c.system) / 1000);
  }
  const m = plan!.metrics;
  checksum += m.distanceMeters;
  const violations = checkPlan(request, plan!).violations.length;
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const ms = times[(times.length - 1) >> 1];
  const line = {
    id,
    areaHa: row.areaHa,
    ms: Math.round(ms),
    cpuMs: Math.round(cpu[(cpu.length - 1) >> 1]),
    uncoveredRatio: m.uncoveredRatio,
    overlapRatio: m.overlapRatio,
    nonWorkingDistanceMeters: m.nonWorkingDistanceMeters,
    distanceMeters: m.distanceMeters,
    violations,
  };
  console.log(JSON.stringify(line));
  if (out) appendFileSync(out, JSON.stringify(line) + '\n');
}
console.error(`checksum ${checksum.toFixed(2)}`);
