/**
 * Hard fields: per category of the corpus index (every category of index.csv by
 * default, and all fields together), the median uncovered and overlap ratios with and without
 * `extendTracks` (without it, plans still extend track ends by DEFAULTS.trackExtensionFraction of the
 * full extension), and the `checkPlan` violations of every plan (no route point may enter a
 * no-go zone).
 * Request: width 6 m, 2 headland passes, turn radius 6 m (as the corpus test).
 *
 * Run: `npx tsc --build packages/core && npx tsx bench/hard-fields.bench.ts [--categories=holes,concave] [--max-area-ha=N] [--out=FILE.jsonl]`
 * (`--from=A.jsonl,B.jsonl` prints the table of earlier runs only, e.g. of categories run in parallel).
 * Prints one line per field as it goes (also appended to --out as JSON lines) and a Markdown
 * table at the end. Times are wall-clock on whatever else runs on the machine: compare the
 * ratios, not the times.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkPlan, planRoute } from '@furrow/core';
import type { FieldGeometry, Plan } from '@furrow/core';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const allCategories = [
  ...new Set(
    readFileSync(`${root}test/fields/index.csv`, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(',')[8]),
  ),
].sort();
const categories = (arg('categories') ?? allCategories.join(',')).split(',');
const maxAreaHa = Number(arg('max-area-ha') ?? Infinity);
const out = arg('out');

interface Row {
  id: string;
  file: string;
  areaHa: number;
  category: string;
}
const rows: Row[] = readFileSync(`${root}test/fields/index.csv`, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => {
    const c = l.split(',');
    return { id: c[0], file: c[1], areaHa: Number(c[2]), category: c[8] };
  });

interface Result {
  id: string;
  category: string;
  areaHa: number;
  base?: { uncovered: number; overlap: number; violations: number; noGo: number; ms: number };
  ext?: { uncovered: number; overlap: number; violations: number; noGo: number; ms: number; gainSquareMeters: number };
  error?: string;
}

function run(field: FieldGeometry, options: string): { plan: Plan; ms: number; violations: number; noGo: number } {
  const t0 = performance.now();
  const plan = planRoute({
    field,
    machine: { widthMeters: 6, turnRadiusMeters: 6 },
    headland: { passes: 2 },
    ...(options ? { options } : {}),
  });
  const ms = performance.now() - t0;
  const check = checkPlan(field, plan);
  return {
    plan,
    ms,
    violations: check.violations.length,
    noGo: check.violations.filter((v) => v.code === 'inside-no-go').length,
  };
}

const median = (xs: number[]): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const results: Result[] = [];
// --from=a.jsonl,b.jsonl: only summarise results written earlier by --out (later lines win per field).
const from = arg('from');
if (from) {
  const byId = new Map<string, Result>();
  for (const f of from.split(','))
    for (const l of readFileSync(f, 'utf8').split('\n'))
      if (l.trim()) {
        const r = JSON.parse(l) as Result;
        byId.set(`${r.category}/${r.id}`, r);
      }
  results.push(...byId.values());
}
for (const category of from ? [] : categories) {
  for (const row of rows.filter((r) => r.category === category && r.areaHa <= maxAreaHa)) {
    const g = JSON.parse(readFileSync(`${root}test/fields/${row.file}`, 'utf8')) as { geometry: FieldGeometry };
    const r: Result = { id: row.id, category, areaHa: row.areaHa };
    try {
      const a = run(g.geometry, '');
      r.base = {
        uncovered: a.plan.metrics.uncoveredRatio,
        overlap: a.plan.metrics.overlapRatio,
        violations: a.violations,
        noGo: a.noGo,
        ms: Math.round(a.ms),
      };
      const b = run(g.geometry, 'extendTracks');
      r.ext = {
        uncovered: b.plan.metrics.uncoveredRatio,
        overlap: b.plan.metrics.overlapRatio,
        violations: b.violations,
        noGo: b.noGo,
        ms: Math.round(b.ms),
        gainSquareMeters: Number(b.plan.metrics.extendTracksCoverageGainSquareMeters ?? 0),
      };
    } catch (e) {
      r.error = (e as Error).message;
    }
    results.push(r);
    console.log(JSON.stringify(r));
    if (out) appendFileSync(out, `${JSON.stringify(r)}\n`);
  }
}

const pct = (v: number): string => (Number.isFinite(v) ? `${(100 * v).toFixed(2)} %` : '–');
console.log(
  '\n| category | fields | median uncovered | median uncovered, extendTracks | median overlap | median overlap, extendTracks | plans with violations (base / ext) | no-go violations |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const category of [...categories, 'all']) {
  const rs = results.filter((r) => (category === 'all' || r.category === category) && r.base && r.ext);
  const errors = results.filter((r) => (category === 'all' || r.category === category) && r.error).length;
  console.log(
    `| ${category} | ${rs.length}${errors ? ` (+${errors} failed)` : ''} | ${pct(median(rs.map((r) => r.base!.uncovered)))} | ${pct(median(rs.map((r) => r.ext!.uncovered)))} | ${pct(median(rs.map((r) => r.base!.overlap)))} | ${pct(median(rs.map((r) => r.ext!.overlap)))} | ${rs.filter((r) => r.base!.violations > 0).length} / ${rs.filter((r) => r.ext!.violations > 0).length} | ${rs.reduce((s, r) => s + r.base!.noGo + r.ext!.noGo, 0)} |`,
  );
}
