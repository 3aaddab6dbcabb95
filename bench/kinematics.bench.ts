/**
 * Kinematics corpus benchmark: plans every field of test/fields at several turning
 * radii (width 6 m, 2 headland passes, curvature-rate limit σ 0.3 1/m²) and counts `checkPlan`
 * violations per radius — curvature, curvature rate, heading jumps at junctions, reversing,
 * outside-boundary, … — and where they are (Turn, or Connector by kind; `Turn:unfitted` is the route
 * stage's straight fallback labelled as a turn), the turns by type and
 * the plan warnings (`turn-not-fitted`: a turn that fits nowhere, reported with its place).
 *
 * Run: `npx tsc --build packages/core && npx tsx bench/kinematics.bench.ts`
 *   --configs=3,6,9,12r,12   radii; a trailing `r` allows reversing, `n` drops the rate limit
 *                            (default: the five listed; `6n` is the corpus test's machine)
 *   --limit=N                first N fields only
 *   --fields=a,b             only these fields (names without .geojson)
 *   --timeout=S              per-field limit in seconds (default 60): a field still planning is
 *                            stopped (its worker terminated) and counted as `timeout`
 *   --from=FILE              only print the table of an earlier run's --out file (also of an
 *                            interrupted one)
 *   --out=FILE               one JSON line per (config, field) with every violation, appended as
 *                            each field finishes
 *   --core=DIR               plan with the built core in DIR (default packages/core/dist), e.g. a
 *                            copy of a baseline build kept while dist is rebuilt
 *
 * Each plan runs in a worker thread (so a slow field can be stopped) on the built
 * `packages/core/dist`; timings are wall-clock planRoute only (checkPlan not included), on a
 * shared machine: quote medians and say what the load was.
 */
import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const arg = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const configs = (arg('configs') ?? '3,6,9,12r,12')
  .split(',')
  .map((c) => ({ R: Number(c.replace(/[rn]/g, '')), reverse: c.includes('r'), rateLimit: !c.includes('n') }));
const limit = Number(arg('limit') ?? Infinity);
const onlyFields = arg('fields') ? new Set(arg('fields')!.split(',')) : undefined;
const timeoutMs = Number(arg('timeout') ?? 60) * 1000;
const outFile = arg('out');
const sigma = 0.3;

const dir = new URL('../test/fields/', import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.geojson') && (!onlyFields || onlyFields.has(f.replace(/\.geojson$/, ''))))
  .sort()
  .slice(0, limit);
// --core=DIR: plan with a copy of the built package (e.g. a baseline kept while dist is rebuilt).
const coreArg = arg('core');
const coreUrl = coreArg
  ? pathToFileURL(resolve(coreArg, 'index.js')).href
  : new URL('../packages/core/dist/index.js', import.meta.url).href;

const workerCode = `
const { parentPort } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
let core;
parentPort.on('message', async (job) => {
  core ??= await import(${JSON.stringify(coreUrl)});
  const t0 = performance.now();
  let plan;
  try {
    plan = core.planRoute(job.request);
  } catch (e) {
    parentPort.postMessage({ error: String(e && (e.code || e.message)) });
    return;
  }
  const ms = performance.now() - t0;
  const check = core.checkPlan(job.request, plan);
  const bySeq = new Map(plan.route.map((s) => [s.sequence, s]));
  const turns = {};
  let reversing = 0;
  for (const s of plan.route) {
    if (s.type === 'Turn') turns[s.turnType || '?'] = (turns[s.turnType || '?'] || 0) + 1;
    if (s.reverse) reversing++;
  }
  const violations = check.violations.map((v) => {
    const s = v.sequence === undefined ? undefined : bySeq.get(v.sequence);
    const on = s ? (s.type === 'Connector' ? 'Connector:' + (s.connectorKind || '?') : s.type + (s.connectorKind ? ':' + s.connectorKind : '')) : '-';
    return { code: v.code, on, turnType: s && s.turnType, sequence: v.sequence, position: v.position, message: v.message };
  });
  parentPort.postMessage({ ms, turns, reversing, uncoveredRatio: plan.metrics && plan.metrics.uncoveredRatio, violations, warnings: plan.warnings.map((w) => ({ code: w.code, message: w.message, geometry: w.geometry })) });
});
`;

interface Result {
  error?: string;
  timeout?: boolean;
  ms?: number;
  turns?: Record<string, number>;
  reversing?: number;
  /** plan.metrics.uncoveredRatio (share of the workable area no swath covers). */
  uncoveredRatio?: number;
  violations?: { code: string; on: string; turnType?: string; sequence?: number; message: string }[];
  warnings?: { code: string; message: string }[];
}

let worker: Worker | undefined;
function run(request: unknown): Promise<Result> {
  worker ??= new Worker(workerCode, { eval: true });
  const w = worker;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      w.removeAllListeners('message');
      void w.terminate();
      worker = undefined;
      resolve({ timeout: true });
    }, timeoutMs);
    w.once('message', (m: Result) => {
      clearTimeout(timer);
      resolve(m);
    });
    w.postMessage({ request });
  });
}

function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
const fmt = (o: Record<string, number>): string =>
  Object.keys(o).length === 0
    ? '0'
    : Object.entries(o)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
const bump = (o: Record<string, number>, k: string, n = 1): void => {
  o[k] = (o[k] ?? 0) + n;
};

type Rec = Result & { R: number; reverse: boolean; rateLimit: boolean; field: string };

/** One table row from the per-field records of one configuration. */
function row(R: number, reverse: boolean, rateLimit: boolean, recs: Rec[]): string {
  let planned = 0,
    errors = 0,
    timeouts = 0,
    clean = 0,
    reversing = 0;
  const byCode: Record<string, number> = {},
    byWhere: Record<string, number> = {},
    turns: Record<string, number> = {},
    warnings: Record<string, number> = {},
    errorCodes: Record<string, number> = {};
  const ms: number[] = [];
  for (const r of recs) {
    if (r.timeout) {
      timeouts++;
      continue;
    }
    if (r.error) {
      errors++;
      bump(errorCodes, r.error);
      continue;
    }
    planned++;
    ms.push(r.ms!);
    reversing += r.reversing ?? 0;
    if (r.violations!.length === 0) clean++;
    for (const v of r.violations!) {
      bump(byCode, v.code);
      bump(byWhere, `${v.code} on ${v.on}`);
    }
    for (const [k, n] of Object.entries(r.turns!)) bump(turns, k, n);
    for (const w of r.warnings!) bump(warnings, w.code);
  }
  return `| ${R} | ${reverse ? 'yes' : 'no'} | ${rateLimit ? sigma : '–'} | ${recs.length} | ${planned} | ${errors}${errors ? ` (${fmt(errorCodes)})` : ''} | ${timeouts} | ${clean} | ${fmt(byCode)} | ${fmt(byWhere)} | ${fmt(turns)} | ${reversing} | ${fmt(warnings)} | ${median(ms).toFixed(0)} | ${ms.length ? Math.max(...ms).toFixed(0) : '–'} |`;
}

const table: string[] = [
  '| R m | reverse | σ 1/m² | fields run | planned | errors | timeouts | fields with 0 violations | checkPlan violations by code | … by where | turns by type | reversing pieces | warnings | median ms | max ms |',
  '|---:|---|---:|---:|---:|---:|---:|---:|---|---|---|---:|---|---:|---:|',
];
const from = arg('from');
if (from) {
  // Summarise an earlier (possibly interrupted) run's JSON lines.
  const recs: Rec[] = readFileSync(from, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const keys = [...new Set(recs.map((r) => `${r.R}|${r.reverse}|${r.rateLimit}`))];
  for (const k of keys) {
    const [R, rev, rl] = k.split('|');
    table.push(
      row(
        Number(R),
        rev === 'true',
        rl === 'true',
        recs.filter((r) => `${r.R}|${r.reverse}|${r.rateLimit}` === k),
      ),
    );
  }
  console.log(table.join('\n'));
  process.exit(0);
}

if (outFile) writeFileSync(outFile, '');
const t0 = Date.now();
console.log(
  `Corpus: ${files.length} fields, width 6 m, 2 headland passes, σ ${sigma} 1/m², timeout ${timeoutMs / 1000} s; load average at start ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ')}\n`,
);
for (const { R, reverse, rateLimit } of configs) {
  const tag = `${R}${reverse ? 'r' : ''}${rateLimit ? '' : 'n'}`;
  const recs: Rec[] = [];
  for (const f of files) {
    const feature = JSON.parse(readFileSync(new URL(f, dir), 'utf8'));
    const request = {
      field: feature.geometry,
      machine: {
        widthMeters: 6,
        turnRadiusMeters: R,
        reverseAllowed: reverse,
        ...(rateLimit ? { maxCurvatureRatePerSquareMeter: sigma } : {}),
      },
      headland: { passes: 2 },
    };
    const r: Rec = { R, reverse, rateLimit, field: f, ...(await run(request)) };
    recs.push(r);
    if (outFile) appendFileSync(outFile, JSON.stringify(r) + '\n');
    process.stderr.write(
      `R ${tag} ${f}: ${r.timeout ? 'timeout' : r.error ? `error ${r.error}` : `${r.ms!.toFixed(0)} ms, ${r.violations!.length} violations`}\n`,
    );
  }
  table.push(row(R, reverse, rateLimit, recs));
  console.log(table[table.length - 1]);
}
if (worker) await worker.terminate();
console.log(
  `\n${table.join('\n')}\n\ntotal ${((Date.now() - t0) / 60000).toFixed(1)} min; load average at end ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ')}`,
);
