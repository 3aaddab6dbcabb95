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

export interface BenchOptions {
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

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
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
      routeOptions: { algorithm: (opts.algorithm ?? 'snake') as NonNullable<PathPlanRequest['routeOptions']>['algorithm'] },
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
      `${row.id.padEnd(14)} ${median(times).toFixed(1).padStart(8)} ms  ${plan ? `uncovered ${(plan.metrics.uncoveredRatio * 100).toFixed(2)}%  overlap ${(plan.metrics.overlapRatio * 100).toFixed(2)}%  ${ok ? 'ok' : `${violations} violations`}` : `ERROR ${error}`}\n`,
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
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. Settings: width ${opts.width ?? 6} m, ${opts.headlandPasses ?? 2} headland passes, turn radius ${opts.turnRadius ?? 6} m, order \`${opts.algorithm ?? 'snake'}\`; time = median of ${opts.repeat ?? 3} runs per field.`,
  );
  lines.push('');
  lines.push('| fields | planned | checkPlan ok | time median | time p90 | time max | uncovered median | uncovered worst | overlap median | overlap worst | non-working ÷ working median |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
  lines.push(
    `| ${results.length} | ${planned.length} | ${results.filter((r) => r.ok).length} | ${quantile(times, 0.5).toFixed(1)} ms | ${quantile(times, 0.9).toFixed(1)} ms | ${times[times.length - 1]?.toFixed(1) ?? 'n/a'} ms | ${pct(median(unc))} | ${pct(unc[unc.length - 1])} | ${pct(median(ovl))} | ${pct(ovl[ovl.length - 1])} | ${pct(median(nw))} |`,
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
        `| ${c} | ${rs.length} | ${median(rs.map((r) => r.medianMs)).toFixed(1)} ms | ${pct(median(rs.map((r) => r.plan!.metrics.uncoveredRatio)))} | ${pct(median(rs.map((r) => r.plan!.metrics.overlapRatio)))} |`,
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
      `| ${r.id} | ${r.category} | ${Number.isFinite(r.areaHa) ? r.areaHa.toFixed(2) : ''} | ${r.medianMs.toFixed(1)} | ${m ? pct(m.uncoveredRatio) : ''} | ${m ? pct(m.overlapRatio) : ''} | ${m?.turns ?? ''} | ${m ? m.distanceMeters.toFixed(0) : ''} | ${r.ok ? 'ok' : r.error ? 'error' : `${r.violations} violations`} |`,
    );
  }
  lines.push('');
  lines.push('</details>');
  return lines.join('\n');
}

const START = '<!-- bench:corpus:start -->';
const END = '<!-- bench:corpus:end -->';

/** Replaces the corpus section of the benchmarks document, creating it when absent. */
export function spliceSection(doc: string, body: string): string {
  const section = `${START}\n${body}\n${END}`;
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a >= 0 && b > a) return doc.slice(0, a) + section + doc.slice(b + END.length);
  const heading = '## Corpus planning (`npm run bench`)';
  return `${doc.trimEnd()}\n\n${heading}\n\n${section}\n`;
}

export async function runBench(opts: BenchOptions): Promise<number> {
  const command = `npm run bench${process.argv.length > 3 ? ` -- ${process.argv.slice(3).join(' ')}` : ''}`;
  const results = await benchCorpus(opts);
  const body = summarise(results, opts, command);
  process.stdout.write(`${body.split('<details>')[0]}\n`);
  if (opts.write !== false) {
    const out = opts.out ?? 'docs/BENCHMARKS.md';
    const doc = existsSync(out) ? await readFile(out, 'utf8') : '# Benchmarks\n';
    await writeFile(out, spliceSection(doc, body));
    process.stderr.write(`wrote ${out}\n`);
  }
  return results.every((r) => r.ok) ? 0 : 1;
}
