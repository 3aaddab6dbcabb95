/**
 * `npm run bench -- --section scale`: how planning time and memory grow with the boundary's size.
 * Every measurement runs in a child process (bench/scale/measure.ts, planning with the built core)
 * that reports its own CPU time (process.cpuUsage over planRoute) and peak RSS, so runs do not share
 * a heap and a shared machine's load counts as little as it can. The child is plain Node: measure.ts
 * is bundled first (esbuild, the core left out: the built one is what is measured), so its peak RSS
 * is that of a process that imports the core and plans — not of a TypeScript loader (tsx's loader
 * thread added ~40 MB to every row). Rows:
 *
 * - 100 ha at W 6 m with 500 → 10,000 boundary vertices (bench/scale/fields.ts, seed 14): CPU,
 *   peak RSS, and the log-log exponent of CPU in the vertex count;
 * - the 5,000-vertex wobbly 100 ha field (test/fields-scale);
 * - the 1,000 ha field with 5,000 vertices and 50 obstacles at W 3 m (test/fields-scale): the
 *   default request, and with maxOptimizerTime 2 (wall time);
 * - the snake order at W 6 m / R 6 m over the corpus: per-field CPU, max and median, and the 10
 *   fields with the most CPU per track, with their CPU per stage (`slowestPerTrack`).
 *
 * The two rows whose targets sit nearest their figures — the 1,000 ha default request and the
 * corpus in snake order — are measured RUNS times, each in a fresh child: a field's CPU is the
 * median of its runs (the host's speed swings by a fifth from minute to minute), and the slowest
 * single run is reported beside it.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { median } from './bench-machines.js';

export interface ScaleOptions {
  /** Corpus folder for the snake row (default test/fields). */
  fields?: string;
}

interface Measured {
  cpuSeconds: number;
  /** CPU per planning stage (core PLAN_STAGES), summed over the call's plannings. */
  stageSeconds?: Record<string, number>;
  tracks?: number;
  turns?: number;
  wallSeconds: number;
  peakRssMegabytes?: number;
  warnings?: string[];
  id?: string;
}

const VERTEX_COUNTS = [500, 1000, 2000, 5000, 10000];
/** Runs of the 1,000 ha default request and of the corpus in snake order (a figure is the median of its runs). */
const RUNS = 3;
const SCALE_DIR = 'test/fields-scale';

/**
 * bench/scale/measure.ts bundled into plain JavaScript (its field generator included, `@furrow/core`
 * imported from node_modules: the built core), beside node_modules so that the core resolves.
 */
async function measureScript(): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = join('node_modules', '.cache', 'furrow-bench', 'measure.mjs');
  await build({
    entryPoints: [join('bench', 'scale', 'measure.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    external: ['@furrow/core'],
    logLevel: 'warning',
  });
  return outfile;
}

function child(script: string, spec: object): Promise<Measured[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [script, JSON.stringify(spec)],
      { maxBuffer: 1 << 24, timeout: 30 * 60_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`measurement ${JSON.stringify(spec)} failed: ${stderr.slice(-2000) || err.message}`));
        else
          resolve(
            stdout
              .trim()
              .split('\n')
              .filter(Boolean)
              .map((l) => JSON.parse(l) as Measured),
          );
      },
    );
  });
}

/** Least-squares slope of log y on log x. */
export function logLogExponent(xs: number[], ys: number[]): number {
  const lx = xs.map(Math.log),
    ly = ys.map(Math.log);
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length,
    my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let num = 0,
    den = 0;
  for (let i = 0; i < lx.length; i++) {
    num += (lx[i] - mx) * (ly[i] - my);
    den += (lx[i] - mx) ** 2;
  }
  return num / den;
}

const s = (v: number): string => v.toFixed(2);
/** Per run, one measurement each: the run whose CPU is the median (its other figures with it), and the CPU range. */
function medianRun(runs: Measured[]): Measured & { cpuMin: number; cpuMax: number } {
  const sorted = [...runs].sort((a, b) => a.cpuSeconds - b.cpuSeconds);
  const mid = sorted[(sorted.length - 1) >> 1];
  return {
    ...mid,
    cpuSeconds: median(sorted.map((r) => r.cpuSeconds)),
    cpuMin: sorted[0].cpuSeconds,
    cpuMax: sorted[sorted.length - 1].cpuSeconds,
  };
}
/** Warning codes with their counts: `track-shortened ×24, turn-not-fitted ×67`. */
const codes = (w: string[] | undefined): string => {
  const n = new Map<string, number>();
  for (const c of w ?? []) n.set(c, (n.get(c) ?? 0) + 1);
  return [...n].map(([c, k]) => (k > 1 ? `${c} ×${k}` : c)).join(', ');
};
const mb = (v: number | undefined): string => (v === undefined ? '–' : String(Math.round(v)));

export async function benchScale(opts: ScaleOptions, command: string): Promise<string> {
  const lines: string[] = [];
  const log = (m: string): void => void process.stderr.write(`${m}\n`);
  const vertexRows: { n: number; m: Measured }[] = [];
  const script = await measureScript();
  for (const n of VERTEX_COUNTS) {
    const [m] = await child(script, { synthetic: { areaHa: 100, vertices: n, seed: 14 }, widthMeters: 6 });
    log(`scale: 100 ha, ${n} vertices: ${s(m.cpuSeconds)} s CPU, ${mb(m.peakRssMegabytes)} MB`);
    vertexRows.push({ n, m });
  }
  const exponent = logLogExponent(
    vertexRows.map((r) => r.n),
    vertexRows.map((r) => r.m.cpuSeconds),
  );
  const [wobbly] = await child(script, { file: join(SCALE_DIR, 'wobbly-100ha-5000v.geojson'), widthMeters: 6 });
  log(`scale: wobbly 100 ha 5000 v: ${s(wobbly.cpuSeconds)} s CPU`);
  const big = join(SCALE_DIR, 'wobbly-1000ha-5000v-50obstacles.geojson');
  const largeRuns: Measured[] = [];
  for (let r = 0; r < RUNS; r++) largeRuns.push((await child(script, { file: big, widthMeters: 3 }))[0]);
  const large = medianRun(largeRuns);
  log(`scale: 1000 ha: ${s(large.cpuSeconds)} s CPU (median of ${RUNS} runs, ${s(large.cpuMin)}–${s(large.cpuMax)})`);
  const [limited] = await child(script, { file: big, widthMeters: 3, maxOptimizerTime: 2 });
  log(`scale: 1000 ha, maxOptimizerTime 2: ${s(limited.wallSeconds)} s wall`);
  // the corpus RUNS times, each run a child planning every field in index order (as a caller's process would)
  const byField = new Map<string, number[]>();
  const runsOf = new Map<string, Measured[]>();
  let slowestRun = { id: '', cpuSeconds: 0 };
  for (let r = 0; r < RUNS; r++) {
    for (const m of await child(script, {
      corpus: opts.fields ?? 'test/fields',
      widthMeters: 6,
      turnRadiusMeters: 6,
      headlandPasses: 2,
      algorithm: 'snake',
    })) {
      const id = m.id ?? '?';
      byField.set(id, [...(byField.get(id) ?? []), m.cpuSeconds]);
      runsOf.set(id, [...(runsOf.get(id) ?? []), m]);
      if (m.cpuSeconds > slowestRun.cpuSeconds) slowestRun = { id, cpuSeconds: m.cpuSeconds };
    }
  }
  const corpus = [...byField].map(([id, runs]) => ({ id, cpuSeconds: median(runs) }));
  const slowest = corpus.reduce((a, b) => (b.cpuSeconds > a.cpuSeconds ? b : a));
  const corpusMedian = median(corpus.map((r) => r.cpuSeconds));
  log(
    `scale: snake corpus: max ${s(slowest.cpuSeconds)} s (${slowest.id}), median ${s(corpusMedian)} s; slowest run ` +
      `${s(slowestRun.cpuSeconds)} s (${slowestRun.id})`,
  );

  lines.push(
    `Command: \`${command}\`. Each row is planned in a child process of its own; CPU is user + system time over ` +
      `\`planRoute\` (process.cpuUsage), peak RSS the child's: plain Node with the built core, ~60 MB before ` +
      `planning (bench/scale/measure.ts bundled; under tsx, as before 2026-11-27 08:30 UTC, its loader added ` +
      `~40 MB). The 1,000 ha default row and the corpus row are each the median of ${RUNS} runs, each run a ` +
      `fresh child. Measured on a shared machine: wall times are indicative only.`,
    '',
  );
  lines.push('| Field | Vertices | W, m | CPU, s | Peak RSS, MB | Warnings |', '|---|---:|---:|---:|---:|---|');
  for (const r of vertexRows)
    lines.push(
      `| synthetic 100 ha (seed 14) | ${r.n} | 6 | ${s(r.m.cpuSeconds)} | ${mb(r.m.peakRssMegabytes)} | ` +
        `${codes(r.m.warnings)} |`,
    );
  lines.push(
    `| wobbly-100ha-5000v | 5000 | 6 | ${s(wobbly.cpuSeconds)} | ${mb(wobbly.peakRssMegabytes)} | ` +
      `${codes(wobbly.warnings)} |`,
  );
  lines.push(
    `| wobbly-1000ha-5000v-50obstacles | 5000 + 50 × 16 | 3 | ${s(large.cpuSeconds)} (median of ${RUNS} runs: ` +
      `${s(large.cpuMin)}–${s(large.cpuMax)}) | ${mb(large.peakRssMegabytes)} | ${codes(large.warnings)} |`,
  );
  lines.push('');
  lines.push(
    `- Log-log exponent of CPU in the vertex count (500 → 10,000, least squares): **${exponent.toFixed(2)}**.`,
  );
  lines.push(
    `- 1,000 ha field with \`maxOptimizerTime: 2\`: ${s(limited.wallSeconds)} s wall, ${s(limited.cpuSeconds)} s ` +
      `CPU (warnings: ${codes(limited.warnings) || 'none'}).`,
  );
  lines.push(
    `- Snake order, W 6 m, R 6 m, 2 passes, over ${corpus.length} corpus fields, each field's CPU the median of ` +
      `${RUNS} runs (each run a child planning the corpus in index order): median ${s(corpusMedian)} s CPU, max ` +
      `${s(slowest.cpuSeconds)} s (${slowest.id}); the slowest single run ${s(slowestRun.cpuSeconds)} s ` +
      `(${slowestRun.id}).`,
  );
  lines.push('', ...slowestPerTrack(runsOf));
  return lines.join('\n');
}

/** Stages as the core reports them (core progress.ts PLAN_STAGES). */
const STAGES = ['field', 'headlands', 'tracks', 'order', 'connect', 'metrics', 'extras'];
/** Fields in the per-stage table. */
const SLOWEST_PER_TRACK = 10;

/**
 * The corpus fields that cost the most CPU for their track count (a field's cost should grow with
 * its tracks and its boundary, issue 39), each with its CPU per stage, ms: the run whose CPU is the
 * field's median.
 */
export function slowestPerTrack(runsOf: Map<string, Measured[]>): string[] {
  const rows = [...runsOf].map(([id, runs]) => ({ id, m: medianRun(runs) }));
  rows.sort((a, b) => b.m.cpuSeconds / Math.max(1, b.m.tracks ?? 1) - a.m.cpuSeconds / Math.max(1, a.m.tracks ?? 1));
  const ms = (v: number | undefined): string => (v === undefined ? '–' : (1000 * v).toFixed(0));
  return [
    `The ${SLOWEST_PER_TRACK} corpus fields (snake order above) with the most CPU per track, CPU per stage in ms ` +
      "(the run of the field's median CPU; a stage summed over the call's plannings):",
    '',
    `| Field | Tracks | Turns | CPU, ms | ms per track | ${STAGES.join(' | ')} |`,
    `|---|---:|---:|---:|---:|${STAGES.map(() => '---:').join('|')}|`,
    ...rows
      .slice(0, SLOWEST_PER_TRACK)
      .map(
        ({ id, m }) =>
          `| ${id} | ${m.tracks ?? '–'} | ${m.turns ?? '–'} | ${ms(m.cpuSeconds)} | ${(
            (1000 * m.cpuSeconds) /
            Math.max(1, m.tracks ?? 1)
          ).toFixed(1)} | ${STAGES.map((st) => ms(m.stageSeconds?.[st] ?? 0)).join(' | ')} |`,
      ),
  ];
}
