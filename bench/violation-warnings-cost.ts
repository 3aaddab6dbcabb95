/**
 * What the last step of planRoute (output/violationWarnings.ts: checkPlan on the finished plan, and
 * the headland passes asked read off the route) costs over the corpus: each field of
 * test/fields/index.csv planned once with a frozen clock, then the step run again alone on the plan
 * it returned (its warnings taken out first, so that it does the same work), CPU time of each.
 * Prints the sums, the ratio, the slowest fields and the warnings the step added.
 *
 * Run: `npx tsx bench/violation-warnings-cost.ts [--width=6] [--radius=6] [--passes=2] [--reverse]`
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { planRoute } from '../packages/core/src/plan.js';
import { addViolationWarnings } from '../packages/core/src/output/violationWarnings.js';
import type { FieldGeometry, PathPlanRequest, Plan } from '../packages/core/src/types.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, d: number): number =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? d);
const W = arg('width', 6),
  R = arg('radius', 6),
  N = arg('passes', 2),
  reverse = process.argv.includes('--reverse');

function cpuMilliseconds(f: () => void): number {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}

/** The step's own warnings: those it adds (a violation it names, a headland pass not driven). */
const isNet = (m: string): boolean => m.startsWith('checkPlan finds') || m.includes(' asked not driven');

const ids = readFileSync(`${root}test/fields/index.csv`, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split(',')[0]);
const rows: { id: string; planMs: number; netMs: number; added: string[] }[] = [];
for (const id of ids) {
  const g = JSON.parse(readFileSync(`${root}test/fields/${id}.geojson`, 'utf8')) as {
    type: string;
    geometry?: FieldGeometry;
  };
  const field = (g.type === 'Feature' ? g.geometry : g) as FieldGeometry;
  const request: PathPlanRequest = {
    field,
    machine: { widthMeters: W, turnRadiusMeters: R, reverseAllowed: reverse },
    headland: { passes: N },
  };
  let plan: Plan | undefined;
  const planMs = cpuMilliseconds(() => (plan = planRoute(request, { now: () => 0 })));
  const added = plan!.warnings.filter((w) => isNet(w.message)).map((w) => `${w.code}: ${w.message.slice(0, 160)}`);
  plan!.warnings = plan!.warnings.filter((w) => !isNet(w.message));
  const netMs = cpuMilliseconds(() => addViolationWarnings(request, plan!));
  rows.push({ id, planMs, netMs, added });
  process.stderr.write(`${id} plan ${planMs.toFixed(0)} ms, step ${netMs.toFixed(0)} ms, added ${added.length}\n`);
}
const sum = (f: (r: (typeof rows)[number]) => number): number => rows.reduce((a, r) => a + f(r), 0);
const planTotal = sum((r) => r.planMs),
  netTotal = sum((r) => r.netMs);
console.log(`W ${W} m, R ${R} m, ${N} passes${reverse ? ', reversing' : ''}: ${rows.length} fields`);
console.log(
  `planRoute CPU ${(planTotal / 1000).toFixed(2)} s in all; the step ${(netTotal / 1000).toFixed(2)} s ` +
    `(${((100 * netTotal) / planTotal).toFixed(1)} % of planRoute); median per field ` +
    `${median(rows.map((r) => r.netMs)).toFixed(0)} ms, ratio per field median ` +
    `${(100 * median(rows.map((r) => r.netMs / r.planMs))).toFixed(1)} %`,
);
for (const r of [...rows].sort((a, b) => b.netMs - a.netMs).slice(0, 5))
  console.log(`  slowest: ${r.id} step ${r.netMs.toFixed(0)} ms of ${r.planMs.toFixed(0)} ms`);
for (const r of rows) for (const a of r.added) console.log(`  added on ${r.id}: ${a}`);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
