/**
 * `furrow bench`: plans every field of a corpus folder, times it, checks it, and writes a
 * summary section into docs/BENCHMARKS.md (between markers, leaving other sections alone).
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { checkPlan, planRoute } from '@furrow/core';
import type { PathPlanRequest, Plan } from '@furrow/core';
import { readBoundary } from '@furrow/format-geojson';
import { benchScale } from './bench-scale.js';
import { median, runMachinesSection } from './bench-machines.js';
import type { MachinesOptions } from './bench-machines.js';

export interface BenchOptions extends MachinesOptions {
  fields?: string;
  out?: string;
  width?: string;
  headlandPasses?: string;
  turnRadius?: string;
  repeat?: string;
  filter?: string;
  write?: boolean;
  /** routeOptions.algorithm (default snake: the baseline order; `optimized` runs the anytime optimizer). */
  algorithm?: string;
  /**
   * Which sections to run and write: `corpus`, `route`, `all` (default: both), `machines` (docs/benchmarks/machines.md)
   * or `scale` (bench-scale.ts, docs/benchmarks/scale.md).
   */
  section?: string;
  /**
   * Route section: only corpus fields up to this many hectares (default 30, keeping `npm run bench` short; `all` =
   * every field).
   */
  routeMaxHa?: string;
  /** Route section: routeOptions.maxOptimizerTime in seconds (default 10, the API's default). */
  routeLimit?: string;
  /** Machines section: the block of the page to rewrite (default `current`; `before` keeps a baseline). */
  machinesAs?: string;
  /** Fleet section: measure every n-th field from i (`i/n`), appending to the results file; the page is left alone. */
  shard?: string;
}

export interface FieldResult {
  id: string;
  category: string;
  tags: string;
  areaHa: number;
  medianMs: number;
  ok: boolean;
  violations: number;
  error?: string;
  plan?: Pick<Plan, 'metrics'>;
}

export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

interface IndexRow {
  id: string;
  file: string;
  category: string;
  tags: string;
  areaHa: number;
}

async function readIndex(dir: string): Promise<IndexRow[]> {
  const indexPath = join(dir, 'index.csv');
  if (existsSync(indexPath)) {
    const lines = (await readFile(indexPath, 'utf8')).trim().split(/\r?\n/);
    const head = lines[0].split(',');
    const col = (name: string) => head.indexOf(name);
    return lines.slice(1).map((line) => {
      const c = line.split(',');
      return {
        id: c[col('id')],
        file: c[col('file')],
        category: c[col('category')] ?? '',
        tags: c[col('tags')] ?? '',
        areaHa: Number(c[col('area_ha')]),
      };
    });
  }
  const files = (await readdir(dir)).filter((f) => f.endsWith('.geojson')).sort();
  return files.map((f) => ({ id: f.replace(/\.geojson$/, ''), file: f, category: '', tags: '', areaHa: NaN }));
}

export async function benchCorpus(opts: BenchOptions): Promise<FieldResult[]> {
  const dir = opts.fields ?? 'test/fields';
  const repeat = Math.max(1, Number(opts.repeat ?? 3));
  const width = Number(opts.width ?? 6);
  const passes = Number(opts.headlandPasses ?? 2);
  const radius = Number(opts.turnRadius ?? 6);
  const rows = (await readIndex(dir)).filter((r) => !opts.filter || r.id.includes(opts.filter));
  const results: FieldResult[] = [];
  for (const row of rows) {
    const [parsed] = readBoundary(await readFile(join(dir, row.file)), row.file);
    const request: PathPlanRequest = {
      field: parsed.geometry,
      machine: { widthMeters: width, turnRadiusMeters: radius },
      headland: { passes },
      routeOptions: {
        algorithm: (opts.algorithm ?? 'snake') as NonNullable<PathPlanRequest['routeOptions']>['algorithm'],
      },
    };
    const times: number[] = [];
    let plan: Plan | undefined;
    let error: string | undefined;
    for (let i = 0; i < repeat; i++) {
      const t0 = performance.now();
      try {
        plan = planRoute(request);
      } catch (err) {
        error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      }
      times.push(performance.now() - t0);
      if (error) break;
    }
    let ok = false;
    let violations = 0;
    if (plan) {
      const check = checkPlan(request, plan);
      ok = check.ok;
      violations = check.violations.length;
    }
    results.push({
      id: row.id,
      category: row.category,
      tags: row.tags,
      areaHa: row.areaHa,
      medianMs: median(times),
      ok: ok && !error,
      violations,
      error,
      plan: plan ? { metrics: plan.metrics } : undefined,
    });
    process.stderr.write(
      `${row.id.padEnd(14)} ${median(times).toFixed(1).padStart(8)} ms  ` +
        (plan
          ? `uncovered ${(plan.metrics.uncoveredRatio * 100).toFixed(2)}%  ` +
            `overlap ${(plan.metrics.overlapRatio * 100).toFixed(2)}%  ${ok ? 'ok' : `${violations} violations`}`
          : `ERROR ${error}`) +
        '\n',
    );
  }
  return results;
}

function pct(x: number): string {
  return Number.isFinite(x) ? `${(x * 100).toFixed(2)}%` : 'n/a';
}

export function summarise(results: FieldResult[], opts: BenchOptions, command: string): string {
  const planned = results.filter((r) => r.plan);
  const times = planned.map((r) => r.medianMs).sort((a, b) => a - b);
  const unc = planned.map((r) => r.plan!.metrics.uncoveredRatio).sort((a, b) => a - b);
  const ovl = planned.map((r) => r.plan!.metrics.overlapRatio).sort((a, b) => a - b);
  const nw = planned
    .map((r) => r.plan!.metrics.nonWorkingDistanceMeters / Math.max(1e-9, r.plan!.metrics.workingDistanceMeters))
    .sort((a, b) => a - b);
  const failed = results.filter((r) => !r.ok);
  const lines: string[] = [];
  lines.push(`Command: \`${command}\``);
  lines.push('');
  lines.push(
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. Settings: width ` +
      `${opts.width ?? 6} m, ${opts.headlandPasses ?? 2} headland passes, turn radius ${opts.turnRadius ?? 6} ` +
      `m, order \`${opts.algorithm ?? 'snake'}\`; time = median of ${opts.repeat ?? 3} runs per field.`,
  );
  lines.push('');
  lines.push(
    '| fields | planned | checkPlan ok | time median | time p90 | time max | uncovered median | uncovered worst | ' +
      'overlap median | overlap worst | non-working ÷ working median |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
  lines.push(
    `| ${results.length} | ${planned.length} | ${results.filter((r) => r.ok).length} | ` +
      `${quantile(times, 0.5).toFixed(1)} ms | ${quantile(times, 0.9).toFixed(1)} ms | ` +
      `${times[times.length - 1]?.toFixed(1) ?? 'n/a'} ms | ${pct(median(unc))} | ${pct(unc[unc.length - 1])} | ` +
      `${pct(median(ovl))} | ${pct(ovl[ovl.length - 1])} | ${pct(median(nw))} |`,
  );
  lines.push('');
  const categories = [...new Set(results.map((r) => r.category))].filter(Boolean).sort();
  if (categories.length > 0) {
    lines.push('Per category of `index.csv`:');
    lines.push('');
    lines.push('| category | fields | time median | uncovered median | overlap median |');
    lines.push('|---|---|---|---|---|');
    for (const c of categories) {
      const rs = planned.filter((r) => r.category === c);
      lines.push(
        `| ${c} | ${rs.length} | ${median(rs.map((r) => r.medianMs)).toFixed(1)} ms | ` +
          `${pct(median(rs.map((r) => r.plan!.metrics.uncoveredRatio)))} | ` +
          `${pct(median(rs.map((r) => r.plan!.metrics.overlapRatio)))} |`,
      );
    }
    lines.push('');
  }
  if (failed.length > 0) {
    lines.push('Fields that failed (error or checkPlan violations):');
    lines.push('');
    for (const f of failed) lines.push(`- ${f.id}: ${f.error ?? `${f.violations} checkPlan violations`}`);
    lines.push('');
  }
  lines.push('<details><summary>Per field</summary>');
  lines.push('');
  lines.push('| field | category | ha | time ms | uncovered | overlap | turns | distance m | check |');
  lines.push('|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const m = r.plan?.metrics;
    lines.push(
      `| ${r.id} | ${r.category} | ${Number.isFinite(r.areaHa) ? r.areaHa.toFixed(2) : ''} | ` +
        `${r.medianMs.toFixed(1)} | ${m ? pct(m.uncoveredRatio) : ''} | ${m ? pct(m.overlapRatio) : ''} | ` +
        `${m?.turns ?? ''} | ${m ? m.distanceMeters.toFixed(0) : ''} | ` +
        `${r.ok ? 'ok' : r.error ? 'error' : `${r.violations} violations`} |`,
    );
  }
  lines.push('');
  lines.push('</details>');
  return lines.join('\n');
}

const START = '<!-- bench:corpus:start -->';
const END = '<!-- bench:corpus:end -->';

/** Replaces the corpus section of the benchmarks document, creating it when absent. */
export function spliceSection(
  doc: string,
  body: string,
  name = 'corpus',
  heading = '## Corpus planning (`npm run bench`)',
): string {
  const start = name === 'corpus' ? START : `<!-- bench:${name}:start -->`;
  const end = name === 'corpus' ? END : `<!-- bench:${name}:end -->`;
  const section = `${start}\n${body}\n${end}`;
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a >= 0 && b > a) return doc.slice(0, a) + section + doc.slice(b + end.length);
  return `${doc.trimEnd()}\n\n${heading}\n\n${section}\n`;
}

// ---------------------------------------------------------------------------------------------
// Route section: every order on the corpus, the optimizer's gap and time to the first
// feasible route, and a synthetic field with more than 1,000 tracks.

const ROUTE_ORDERS = ['boustrophedon', 'snake', 'spiral', 'clusteredSpiral', 'optimized'] as const;
type RouteOrder = (typeof ROUTE_ORDERS)[number];
const FIXED_ROUTE_ORDERS = ROUTE_ORDERS.filter((o) => o !== 'optimized');

interface OrderRun {
  distanceMeters: number;
  nonWorkingMeters: number;
  violations: number;
  /**
   * Route defects the plan warns about and checkPlan may not flag: straight connectors where no
   * manoeuvre fitted (`turn-not-fitted`), headland passes or tracks left out
   * (`headland-pass-skipped`, `track-skipped`), transit legs leaving the field (`transit-leg`), route pieces off the
   * field (`route-leaves-field`).
   */
  unfitted: number;
  ms: number;
  error?: string;
}

interface OptimizerFigures {
  /** (cost − bound) / cost on the optimizer's estimate, whole route and non-working part. */
  gapRatio?: number;
  nonWorkingGapRatio?: number;
  firstFeasibleMilliseconds?: number;
  /** Time from the start of ordering to the chosen order (estimate + real connectors). */
  orderMilliseconds?: number;
  chosen?: string;
  rounds?: number;
}

export interface RouteFieldResult {
  id: string;
  category: string;
  areaHa: number;
  tracks: number;
  runs: Partial<Record<RouteOrder, OrderRun>>;
  optimizer?: OptimizerFigures;
}

function optimizerFigures(plan: Plan): OptimizerFigures {
  const o = (plan as unknown as { optimizer?: Record<string, unknown> }).optimizer ?? {};
  const num = (k: string): number | undefined => (typeof o[k] === 'number' ? (o[k] as number) : undefined);
  const out: OptimizerFigures = {};
  const set = <K extends keyof OptimizerFigures>(k: K, v: OptimizerFigures[K] | undefined): void => {
    if (v !== undefined) out[k] = v;
  };
  set('gapRatio', num('gapRatio'));
  set('nonWorkingGapRatio', num('nonWorkingGapRatio'));
  set('firstFeasibleMilliseconds', num('firstFeasibleMilliseconds'));
  set('orderMilliseconds', num('timeSpentMilliseconds'));
  set('chosen', typeof o.chosen === 'string' ? o.chosen : undefined);
  set('rounds', num('realCostRounds'));
  return out;
}

const DEFECT_WARNINGS = new Set([
  'turn-not-fitted',
  'headland-pass-skipped',
  'track-skipped',
  'transit-leg',
  'route-leaves-field',
]);

function trackCount(plan: Plan): number {
  return plan.route.filter((r) => r.type === 'Track').length;
}

function runOrder(
  request: PathPlanRequest,
  algorithm: RouteOrder,
  limitSeconds: number,
): { run: OrderRun; plan?: Plan } {
  const req: PathPlanRequest = {
    ...request,
    routeOptions: { ...request.routeOptions, algorithm, maxOptimizerTime: limitSeconds },
  };
  const t0 = performance.now();
  try {
    const plan = planRoute(req, { now: () => performance.now() });
    const ms = performance.now() - t0;
    const check = checkPlan(req, plan);
    const unfitted = plan.warnings.filter((w) => DEFECT_WARNINGS.has(w.code)).length;
    return {
      run: {
        distanceMeters: plan.metrics.distanceMeters,
        nonWorkingMeters: plan.metrics.nonWorkingDistanceMeters,
        violations: check.violations.length,
        unfitted,
        ms,
      },
      plan,
    };
  } catch (err) {
    return {
      run: {
        distanceMeters: NaN,
        nonWorkingMeters: NaN,
        violations: NaN,
        unfitted: NaN,
        ms: performance.now() - t0,
        error: err instanceof Error ? err.message : String(err),
      },
    };
  }
}

export async function benchRoutes(opts: BenchOptions): Promise<RouteFieldResult[]> {
  const dir = opts.fields ?? 'test/fields';
  const maxHa = opts.routeMaxHa === 'all' ? Infinity : Number(opts.routeMaxHa ?? 30);
  const limit = Number(opts.routeLimit ?? 10);
  const rows = (await readIndex(dir))
    .filter((r) => (!opts.filter || r.id.includes(opts.filter)) && !(r.areaHa > maxHa))
    .sort((a, b) => a.areaHa - b.areaHa || a.id.localeCompare(b.id));
  const out: RouteFieldResult[] = [];
  for (const row of rows) {
    const [parsed] = readBoundary(await readFile(join(dir, row.file)), row.file);
    const request: PathPlanRequest = {
      field: parsed.geometry,
      machine: { widthMeters: Number(opts.width ?? 6), turnRadiusMeters: Number(opts.turnRadius ?? 6) },
      headland: { passes: Number(opts.headlandPasses ?? 2) },
    };
    const result: RouteFieldResult = { id: row.id, category: row.category, areaHa: row.areaHa, tracks: 0, runs: {} };
    for (const algorithm of ROUTE_ORDERS) {
      const { run, plan } = runOrder(request, algorithm, limit);
      result.runs[algorithm] = run;
      if (plan) result.tracks = trackCount(plan);
      if (plan && algorithm === 'optimized') result.optimizer = optimizerFigures(plan);
    }
    out.push(result);
    const o = result.runs.optimized;
    const best = Math.min(...FIXED_ROUTE_ORDERS.map((a) => result.runs[a]?.nonWorkingMeters ?? Infinity));
    process.stderr.write(
      `route ${row.id.padEnd(14)} ${String(result.tracks).padStart(4)} tracks  optimized ` +
        `${o?.nonWorkingMeters.toFixed(0) ?? 'ERR'} m (${o?.ms.toFixed(0)} ms, ` +
        `${result.optimizer?.chosen ?? ''})  best fixed ${best.toFixed(0)} m\n`,
    );
  }
  return out;
}

/** A rectangle `lengthMeters` east-west × `depthMeters` near 10° E, 50° N (GeoJSON Polygon). */
export function rectangleField(lengthMeters: number, depthMeters: number): PathPlanRequest['field'] {
  const lat0 = 50,
    lon0 = 10;
  const mLat = 111_200,
    mLon = 111_200 * Math.cos((lat0 * Math.PI) / 180);
  const at = (x: number, y: number): [number, number] => [lon0 + x / mLon, lat0 + y / mLat];
  return {
    type: 'Polygon',
    coordinates: [[at(0, 0), at(lengthMeters, 0), at(lengthMeters, depthMeters), at(0, depthMeters), at(0, 0)]],
  } as PathPlanRequest['field'];
}

export interface SyntheticRouteResult {
  tracks: number;
  limitSeconds: number;
  runs: { algorithm: RouteOrder; limitSeconds: number; run: OrderRun; optimizer?: OptimizerFigures }[];
}

/**
 * The 1,000+-track field: 3.3 km × 600 m at 3 m width, tracks north-south, five headland passes
 * (a 15 m band: room for the turns of a 6 m radius; one 3 m pass leaves none, and every order then
 * fails checkPlan at every turn).
 */
export function benchSyntheticRoute(limits: number[]): SyntheticRouteResult {
  const request: PathPlanRequest = {
    field: rectangleField(3300, 600),
    machine: { widthMeters: 3, turnRadiusMeters: 6 },
    headland: { passes: 5 },
    tracks: { preferredDirectionDegrees: 0 },
  };
  const runs: SyntheticRouteResult['runs'] = [];
  let tracks = 0;
  for (const limitSeconds of limits) {
    const { run, plan } = runOrder(request, 'optimized', limitSeconds);
    if (plan) tracks = trackCount(plan);
    runs.push({ algorithm: 'optimized', limitSeconds, run, ...(plan ? { optimizer: optimizerFigures(plan) } : {}) });
    process.stderr.write(`synthetic optimized limit ${limitSeconds} s: ${run.ms.toFixed(0)} ms\n`);
  }
  for (const algorithm of ['snake'] as const) {
    const { run } = runOrder(request, algorithm, limits[0]);
    runs.push({ algorithm, limitSeconds: limits[0], run });
    process.stderr.write(`synthetic ${algorithm}: ${run.ms.toFixed(0)} ms\n`);
  }
  return { tracks, limitSeconds: limits[0], runs };
}

function fmtMs(v: number | undefined): string {
  return v === undefined || !Number.isFinite(v) ? 'n/a' : v < 10 ? v.toFixed(2) : v.toFixed(0);
}

export function summariseRoutes(
  fields: RouteFieldResult[],
  synthetic: SyntheticRouteResult | undefined,
  opts: BenchOptions,
  command: string,
): string {
  const limit = Number(opts.routeLimit ?? 10);
  const lines: string[] = [];
  lines.push(`Command: \`${command}\``);
  lines.push('');
  lines.push(
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, shared with other jobs ` +
      `(times are single runs under load). Settings: width ${opts.width ?? 6} m, ${opts.headlandPasses ?? 2} ` +
      `headland passes, turn radius ${opts.turnRadius ?? 6} m, maxOptimizerTime ${limit} s, \`planRoute\` with ` +
      `a \`performance.now\` clock, \`checkPlan\` on every plan; fields up to ` +
      `${opts.routeMaxHa === 'all' ? 'any size' : `${opts.routeMaxHa ?? 30} ha`} (${fields.length} fields).`,
  );
  lines.push('');
  if (fields.length > 0) {
    lines.push(
      '| order | plans | checkPlan ok | route length km (sum) | non-working km (sum) | non-working ÷ working ' +
        '(median) | plan ms (median) | plan ms (max) |',
    );
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const a of ROUTE_ORDERS) {
      const runs = fields.map((f) => f.runs[a]).filter((r): r is OrderRun => r !== undefined && r.error === undefined);
      const len = runs.reduce((s, r) => s + r.distanceMeters, 0);
      const nw = runs.reduce((s, r) => s + r.nonWorkingMeters, 0);
      const ratio = runs.map((r) => r.nonWorkingMeters / Math.max(1e-9, r.distanceMeters - r.nonWorkingMeters));
      const ms = runs.map((r) => r.ms).sort((x, y) => x - y);
      lines.push(
        `| ${a} | ${runs.length} | ${runs.filter((r) => r.violations === 0).length} | ${(len / 1000).toFixed(1)} | ` +
          `${(nw / 1000).toFixed(1)} | ${pct(median(ratio))} | ${median(ms).toFixed(0)} | ` +
          `${ms[ms.length - 1]?.toFixed(0) ?? 'n/a'} |`,
      );
    }
    lines.push('');
    const compared = fields.filter((f) => ROUTE_ORDERS.every((a) => f.runs[a] && f.runs[a]!.error === undefined));
    const notBest: string[] = [];
    const notBestClean: string[] = [];
    for (const f of compared) {
      const o = f.runs.optimized!;
      const best = Math.min(...FIXED_ROUTE_ORDERS.map((a) => f.runs[a]!.nonWorkingMeters));
      if (o.nonWorkingMeters > best + 0.01)
        notBest.push(`${f.id} (${o.nonWorkingMeters.toFixed(1)} m vs ${best.toFixed(1)} m)`);
      const defects = (r: OrderRun): number => r.violations + r.unfitted;
      const clean = FIXED_ROUTE_ORDERS.filter((a) => defects(f.runs[a]!) <= defects(o)).map(
        (a) => f.runs[a]!.nonWorkingMeters,
      );
      if (clean.length > 0 && o.nonWorkingMeters > Math.min(...clean) + 0.01) notBestClean.push(f.id);
    }
    const saving = compared
      .map((f) => ({
        o: f.runs.optimized!.nonWorkingMeters,
        best: Math.min(...FIXED_ROUTE_ORDERS.map((a) => f.runs[a]!.nonWorkingMeters)),
      }))
      .filter((x) => x.best > 0)
      .map((x) => 1 - x.o / x.best);
    const gaps = fields
      .map((f) => f.optimizer?.nonWorkingGapRatio)
      .filter((v): v is number => v !== undefined)
      .sort((a, b) => a - b);
    const gapsAll = fields
      .map((f) => f.optimizer?.gapRatio)
      .filter((v): v is number => v !== undefined)
      .sort((a, b) => a - b);
    const first = fields
      .map((f) => f.optimizer?.firstFeasibleMilliseconds)
      .filter((v): v is number => v !== undefined)
      .sort((a, b) => a - b);
    const orderMs = fields
      .map((f) => f.optimizer?.orderMilliseconds)
      .filter((v): v is number => v !== undefined)
      .sort((a, b) => a - b);
    const chosen = new Map<string, number>();
    for (const f of fields)
      if (f.optimizer?.chosen) chosen.set(f.optimizer.chosen, (chosen.get(f.optimizer.chosen) ?? 0) + 1);
    lines.push(
      `- \`optimized\` non-working distance ≤ the best fixed order on **${compared.length - notBest.length} of ` +
        `${compared.length}** fields${notBest.length ? ` (not on: ${notBest.join(', ')})` : ''}; ≤ the best ` +
        `fixed order with no more defects (checkPlan violations + warnings of straight connectors where nothing ` +
        `fitted, headland passes left out, connectors leaving the field) on ` +
        `${compared.length - notBestClean.length} of ${compared.length}` +
        `${notBestClean.length ? ` (not on: ${notBestClean.join(', ')})` : ''}.`,
    );
    lines.push(
      `- Non-working distance saved against the best fixed order of each field (fields with any): median ` +
        `${pct(median(saving))}, max ${pct(Math.max(...saving))}, min ${pct(Math.min(...saving))}.`,
    );
    lines.push(
      `- Gap to the lower bound (on the optimizer's estimated connector costs: assignment bound up to 150 tracks, ` +
        `cheapest-link above): median ${pct(median(gaps))} of the non-working cost (p90 ` +
        `${pct(quantile(gaps, 0.9))}), median ${pct(median(gapsAll))} of the whole route.`,
    );
    lines.push(
      `- Time to the first feasible route: median ${fmtMs(median(first))} ms, max ` +
        `${fmtMs(first[first.length - 1])} ms. Ordering time (estimate + real connectors, bounded by ` +
        `maxOptimizerTime ${limit} s): median ${fmtMs(median(orderMs))} ms, max ` +
        `${fmtMs(orderMs[orderMs.length - 1])} ms.`,
    );
    lines.push(
      `- Route kept by \`optimized\`: ${[...chosen.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')} (\`optimized-refined\`: found by the optimizer re-run on the real connector costs).`,
    );
    lines.push('');
  }
  if (synthetic) {
    lines.push(
      `Synthetic field with ${synthetic.tracks} tracks (3.3 km × 600 m rectangle, width 3 m, R 6 m, 5 headland ` +
        `passes, tracks north-south):`,
    );
    lines.push('');
    lines.push(
      '| order | maxOptimizerTime s | first feasible ms | ordering ms | kept | plan ms | non-working km | ' +
        'checkPlan violations |',
    );
    lines.push('|---|---:|---:|---:|---|---:|---:|---:|');
    for (const r of synthetic.runs) {
      lines.push(
        `| ${r.algorithm} | ${r.algorithm === 'optimized' ? r.limitSeconds : '–'} | ` +
          `${fmtMs(r.optimizer?.firstFeasibleMilliseconds)} | ` +
          `${r.algorithm === 'optimized' ? fmtMs(r.optimizer?.orderMilliseconds) : '–'} | ` +
          `${r.optimizer?.chosen ?? ''} | ${fmtMs(r.run.ms)} | ${(r.run.nonWorkingMeters / 1000).toFixed(2)} | ` +
          `${r.run.error ? `error: ${r.run.error}` : r.run.violations} |`,
      );
    }
    lines.push('');
  }
  if (fields.length > 0) {
    lines.push(
      '<details><summary>Per field: non-working m (checkPlan violations, +Nw: N defect warnings — turn-not-fitted, ' +
        'headland-pass-skipped, transit-leg, route-leaves-field)</summary>',
    );
    lines.push('');
    lines.push(
      `| field | ha | tracks | ${ROUTE_ORDERS.join(' | ')} | optimized kept | gap (non-working) | first feasible ` +
        `ms | ordering ms |`,
    );
    lines.push(`|---|---:|---:|${ROUTE_ORDERS.map(() => '---:|').join('')}---|---:|---:|---:|`);
    for (const f of fields) {
      const cell = (a: RouteOrder): string => {
        const r = f.runs[a];
        return !r
          ? ''
          : r.error
            ? 'error'
            : `${r.nonWorkingMeters.toFixed(0)} (${r.violations}${r.unfitted ? ` +${r.unfitted}w` : ''})`;
      };
      lines.push(
        `| ${f.id} | ${Number.isFinite(f.areaHa) ? f.areaHa.toFixed(1) : ''} | ${f.tracks} | ` +
          `${ROUTE_ORDERS.map(cell).join(' | ')} | ${f.optimizer?.chosen ?? ''} | ` +
          `${f.optimizer?.nonWorkingGapRatio !== undefined ? pct(f.optimizer.nonWorkingGapRatio) : ''} | ` +
          `${fmtMs(f.optimizer?.firstFeasibleMilliseconds)} | ${fmtMs(f.optimizer?.orderMilliseconds)} |`,
      );
    }
    lines.push('');
    lines.push('</details>');
  }
  return lines.join('\n');
}

export async function runBench(opts: BenchOptions): Promise<number> {
  const command = `npm run bench${process.argv.length > 3 ? ` -- ${process.argv.slice(3).join(' ')}` : ''}`;
  const section = opts.section ?? 'all';
  if (!['all', 'corpus', 'route', 'machines', 'scale', 'fleet', 'traffic'].includes(section))
    throw new Error(`--section: one of all, corpus, route, machines, scale, fleet, traffic (got ${section})`);
  if (section === 'machines') {
    await runMachinesSection(opts, command);
    return 0;
  }
  const out = opts.out ?? 'docs/BENCHMARKS.md';
  if (section === 'scale') return runScaleSection(opts, command, out);
  if (section === 'fleet') return runFleetSection(opts, command, out);
  if (section === 'traffic') {
    const { runTrafficSection } = await import('./bench-traffic.js');
    return runTrafficSection(opts, command, out);
  }
  let ok = true;
  if (section !== 'route') {
    const results = await benchCorpus(opts);
    const body = summarise(results, opts, command);
    process.stdout.write(`${body.split('<details>')[0]}\n`);
    if (opts.write !== false) {
      const doc = existsSync(out) ? await readFile(out, 'utf8') : '# Benchmarks\n';
      await writeFile(out, spliceSection(doc, body));
      process.stderr.write(`wrote ${out}\n`);
    }
    ok = results.every((r) => r.ok);
  }
  if (section !== 'corpus') {
    const fields = await benchRoutes(opts);
    const synthetic = opts.filter ? undefined : benchSyntheticRoute([Number(opts.routeLimit ?? 10), 1]);
    const body = summariseRoutes(fields, synthetic, opts, command);
    process.stdout.write(`${body.split('<details>')[0]}\n`);
    if (opts.write !== false) {
      const doc = existsSync(out) ? await readFile(out, 'utf8') : '# Benchmarks\n';
      await writeFile(
        out,
        spliceSection(doc, body, 'route', '## Route orders and the optimizer (`npm run bench -- --section route`)'),
      );
      process.stderr.write(`wrote ${out} (route section)\n`);
    }
  }
  return ok ? 0 : 1;
}

/** The fleet section (bench-fleet.ts): its own page, docs/benchmarks/fleet.md, between markers there. */
async function runFleetSection(opts: BenchOptions, command: string, out: string): Promise<number> {
  const { benchFleet } = await import('./bench-fleet.js');
  const body = await benchFleet(
    {
      ...(opts.fields && opts.fields !== 'test/fields' ? { fields: opts.fields } : {}),
      ...(opts.filter ? { filter: opts.filter } : {}),
      ...(opts.results ? { results: opts.results } : {}),
      ...(opts.resume ? { resume: true } : {}),
      ...(opts.summariseOnly ? { summariseOnly: true } : {}),
      ...(opts.shard ? { shard: opts.shard } : {}),
    },
    command,
  );
  process.stdout.write(`${body.split('<details>')[0]}\n`);
  if (opts.write !== false && !opts.shard) {
    const page = join(out, '..', 'benchmarks', 'fleet.md');
    const doc = existsSync(page) ? await readFile(page, 'utf8') : '# Fleets: several machines in one field\n';
    await writeFile(page, spliceSection(doc, body, 'fleet', '## Measured'));
    process.stderr.write(`wrote ${page}\n`);
  }
  return 0;
}

/** The scale section (bench-scale.ts): its own page, docs/benchmarks/scale.md, between markers there. */
async function runScaleSection(opts: BenchOptions, command: string, out: string): Promise<number> {
  const body = await benchScale({ ...(opts.fields ? { fields: opts.fields } : {}) }, command);
  process.stdout.write(`${body}\n`);
  if (opts.write !== false) {
    const page = join(out, '..', 'benchmarks', 'scale.md');
    const doc = existsSync(page)
      ? await readFile(page, 'utf8')
      : '# Scale: planning time and memory against boundary size\n';
    await writeFile(page, spliceSection(doc, body, 'scale', '## Measured'));
    process.stderr.write(`wrote ${page}\n`);
  }
  return 0;
}
