/**
 * `npm run bench -- --section traffic`: controlled traffic (core `traffic/`), written to
 * docs/benchmarks/traffic.md.
 *
 * - The 400 × 300 m rectangle with a 12 m drill, a 36 m sprayer and a 12 m header (3 m gauge, 0.6 m
 *   tyres): the system's trafficked share against an analytic count made here from the machines alone
 *   (the wheel lanes a CTF layout puts on a rectangle, as axis-aligned bands, their union's area by
 *   coordinate compression), and the same machines planned each alone.
 * - Every corpus field with the same three operations: checkPlan faults per operation, the trafficked
 *   share (median, worst) on the lanes and planned alone, each operation's unworked share against its
 *   plan alone, and the CPU of the system (three plannings on the grid and the heading search) against
 *   one operation planned alone.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { checkPlan, planRoute, planTrafficSystem, type PathPlanRequest, type TrafficSystemRequest } from '@furrow/core';
import { readBoundary } from '@furrow/format-geojson';
import { median } from './bench-machines.js';

const GAUGE_METERS = 3,
  TYRE_METERS = 0.6;
const OPERATIONS: TrafficSystemRequest['operations'] = [
  { kind: 'drill', machine: { widthMeters: 12, turnRadiusMeters: 6 } },
  { kind: 'sprayer', machine: { widthMeters: 36, turnRadiusMeters: 9 } },
  { kind: 'harvester', machine: { widthMeters: 12, turnRadiusMeters: 8 } },
];

/** CPU milliseconds of `f` (user + system, this process). */
function cpu<T>(f: () => T): { value: T; ms: number } {
  const t = process.cpuUsage();
  const value = f();
  const d = process.cpuUsage(t);
  return { value, ms: (d.user + d.system) / 1000 };
}

type Rect = [number, number, number, number];

/** Area of the union of axis-aligned rectangles [x0, y0, x1, y1], exactly (coordinate compression). */
export function unionArea(rects: readonly Rect[]): number {
  const xs = [...new Set(rects.flatMap((r) => [r[0], r[2]]))].sort((a, b) => a - b);
  let area = 0;
  for (let i = 0; i + 1 < xs.length; i++) {
    const x0 = xs[i],
      x1 = xs[i + 1];
    const spans = rects
      .filter((r) => r[0] <= x0 && r[2] >= x1)
      .map((r) => [r[1], r[3]])
      .sort((a, b) => a[0] - b[0]);
    let covered = 0,
      lo = -Infinity,
      hi = -Infinity;
    for (const [a, b] of spans) {
      if (a > hi) {
        covered += hi - lo > 0 ? hi - lo : 0;
        lo = a;
        hi = b;
      } else hi = Math.max(hi, b);
    }
    covered += hi - lo > 0 ? hi - lo : 0;
    area += covered * (x1 - x0);
  }
  return area;
}

/**
 * The CTF layout on a W × H rectangle, tracks along W, lanes counted from the side y = 0: each machine
 * (width m·w) drives `passes` headland rings at depth (i − ½)·m·w and tracks across its mainland (the
 * rectangle inset by passes·m·w): the drill and header on the centres (j + ½)·w, the sprayer on
 * k·w/2 + j·k·w (plus the line beyond its mainland whose swath still reaches 0.1·k·w into it). Each
 * pass leaves two wheel bands (± gauge/2, a tyre wide). Returns the bands' union ÷ W·H.
 */
export function analyticShare(
  W: number,
  H: number,
  machines: { widthMeters: number; passes: number; sprayer: boolean }[],
  baseMeters: number,
  gauge: number,
  tyre: number,
): number {
  const rects: Rect[] = [];
  const band = (x0: number, x1: number, y: number): void => {
    rects.push([x0, y - tyre / 2, x1, y + tyre / 2]);
  };
  const bandY = (y0: number, y1: number, x: number): void => {
    rects.push([x - tyre / 2, y0, x + tyre / 2, y1]);
  };
  for (const m of machines) {
    const mw = m.widthMeters;
    for (let i = 1; i <= m.passes; i++)
      for (const s of [-1, 1]) {
        const d = (i - 0.5) * mw + (s * gauge) / 2;
        band(d, W - d, d);
        band(d, W - d, H - d);
        bandY(d, H - d, d);
        bandY(d, H - d, W - d);
      }
    const D = m.passes * mw;
    const first = m.sprayer ? mw / 2 : baseMeters / 2;
    for (let c = first; c < H; c += mw) {
      const reach = Math.min(c + mw / 2, H - D) - Math.max(c - mw / 2, D);
      const inside = c > D && c < H - D;
      if (!inside && !(reach >= 0.1 * mw && m.sprayer)) continue;
      for (const s of [-1, 1]) band(D, W - D, c + (s * gauge) / 2);
    }
  }
  return unionArea(rects) / (W * H);
}

/** A W × H rectangle at (lon, lat), sides along east and north. */
function rectangleField(W: number, H: number): TrafficSystemRequest['field'] {
  const lon = 11.2,
    lat = 48.1;
  const dx = W / (111_319.49 * Math.cos((lat * Math.PI) / 180)),
    dy = H / 111_132.954;
  return {
    type: 'Polygon',
    coordinates: [
      [
        [lon, lat],
        [lon + dx, lat],
        [lon + dx, lat + dy],
        [lon, lat + dy],
        [lon, lat],
      ],
    ],
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;

function rectangleBlock(): string[] {
  const request: TrafficSystemRequest = {
    field: rectangleField(400, 300),
    traffic: { gaugeMeters: GAUGE_METERS, tyreWidthMeters: TYRE_METERS, includeTurns: true },
    operations: OPERATIONS,
  };
  const r = planTrafficSystem(request);
  const analytic = analyticShare(
    400,
    300,
    r.operations.map((o) => ({ widthMeters: o.widthMeters, passes: o.headlandPasses, sprayer: o.kind === 'sprayer' })),
    12,
    GAUGE_METERS,
    TYRE_METERS,
  );
  const s = r.system.traffickedShare;
  const alone = r.independent!.shares;
  return [
    '## Rectangle 400 × 300 m: 12 m drill, 36 m sprayer, 12 m header; 3 m gauge, 0.6 m tyres',
    '',
    `Lanes at ${r.referenceLine.headingDegrees}° (${r.referenceLine.source}); headland passes ` +
      r.operations.map((o) => `${o.name} ${o.headlandPasses}`).join(', ') +
      '.',
    '',
    '| | trafficked share (working passes) | with turns |',
    '|---|---|---|',
    `| system on the lanes (planner) | ${pct(s)} | ${pct(r.system.traffickedShareWithTurns!)} |`,
    `| analytic count (this bench, from the machines) | ${pct(analytic)} | |`,
    `| difference | ${((s - analytic) * 100).toFixed(2)} points (target ±1.5, and ≤ 15 %) | |`,
    `| the same machines planned alone | ${pct(alone.traffickedShare)} | ${pct(alone.traffickedShareWithTurns!)} |`,
    '',
    'Per operation: ' +
      r.operations
        .map(
          (o, i) =>
            `${o.name} ${pct(o.traffickedShare)} on the lanes (uncovered ${pct(o.plan.metrics.uncoveredRatio)}), ` +
            `${pct(r.independent!.operations[i].traffickedShare)} alone at ` +
            `${r.independent!.operations[i].plan.heading.degrees}°`,
        )
        .join('; ') +
      '.',
    '',
  ];
}

interface FieldOutcome {
  id: string;
  areaHa: number;
  error?: string;
  faults?: number[];
  /** checkPlan faults of each operation planned alone, and whether any plan fired its time limit. */
  faultsAlone?: number[];
  timeLimit?: boolean;
  share?: number;
  shareAlone?: number;
  unworkedDelta?: number[];
  cpuRatio?: number;
  cpuRatioDrill?: number;
}

function benchField(id: string, areaHa: number, field: PathPlanRequest['field']): FieldOutcome {
  const request: TrafficSystemRequest = {
    field,
    traffic: { gaugeMeters: GAUGE_METERS, tyreWidthMeters: TYRE_METERS, compareIndependent: false },
    operations: OPERATIONS,
  };
  try {
    // Each planning timed on its own: those on the grid (their requests carry tracks.referenceLine) and those alone.
    const grid: number[] = [],
      alone: number[] = [];
    const total = cpu(() =>
      planTrafficSystem({ ...request, traffic: { ...request.traffic, compareIndependent: true } }, {}, (r) => {
        const t = cpu(() => planRoute(r));
        (r.tracks?.referenceLine ? grid : alone).push(t.ms);
        return t.value;
      }),
    );
    const both = total.value;
    const system = { ms: total.ms - alone.reduce((a, b) => a + b, 0) };
    const meanAlone = alone.reduce((a, b) => a + b, 0) / alone.length;
    return {
      id,
      areaHa,
      faults: both.operations.map((o) => checkPlan(o.request as PathPlanRequest, o.plan).violations.length),
      faultsAlone: both.independent!.operations.map(
        (o) => checkPlan(o.request as PathPlanRequest, o.plan).violations.length,
      ),
      timeLimit: [...both.operations, ...both.independent!.operations].some((o) =>
        o.plan.warnings.some((w) => w.code === 'time-limit'),
      ),
      share: both.system.traffickedShare,
      shareAlone: both.independent!.shares.traffickedShare,
      unworkedDelta: both.operations.map(
        (o, i) => o.plan.metrics.uncoveredRatio - both.independent!.operations[i].plan.metrics.uncoveredRatio,
      ),
      cpuRatio: system.ms / meanAlone,
      cpuRatioDrill: system.ms / alone[0],
    };
  } catch (err) {
    return { id, areaHa, error: (err as Error).message };
  }
}

async function corpusBlock(dir: string, filter?: string): Promise<string[]> {
  const lines = (await readFile(join(dir, 'index.csv'), 'utf8')).trim().split(/\r?\n/);
  const head = lines[0].split(',');
  const rows = lines
    .slice(1)
    .map((l) => l.split(','))
    .map((c) => ({
      id: c[head.indexOf('id')],
      file: c[head.indexOf('file')],
      areaHa: Number(c[head.indexOf('area_ha')]),
    }))
    .filter((r) => !filter || r.id.includes(filter));
  const out: FieldOutcome[] = [];
  for (const row of rows) {
    const [parsed] = readBoundary(await readFile(join(dir, row.file)), row.file);
    const o = benchField(row.id, row.areaHa, parsed.geometry);
    out.push(o);
    process.stderr.write(
      `${row.id}: ${
        o.error ??
        `share ${pct(o.share!)} / alone ${pct(o.shareAlone!)}, faults ${o.faults!.join('/')}, ` +
          `cpu ×${o.cpuRatio!.toFixed(2)}`
      }\n`,
    );
  }
  return summariseCorpus(out);
}

function summariseCorpus(out: FieldOutcome[]): string[] {
  const ok = out.filter((o) => !o.error);
  const names = OPERATIONS.map((o) => `${o.kind} ${o.machine.widthMeters} m`).map((n, i) => n || String(i));
  const worst = (xs: number[]): number => Math.max(...xs);
  const faultFields = names.map((_, i) => ok.filter((o) => o.faults![i] > 0).map((o) => o.id));
  const over2 = names.map((_, i) => ok.filter((o) => o.unworkedDelta![i] > 0.02).map((o) => o.id));
  const lines = [
    `## All corpus fields: ${OPERATIONS.map((o) => `${o.kind} ${o.machine.widthMeters} m`).join(', ')}`,
    '',
    `${ok.length} of ${out.length} fields planned` +
      (ok.length < out.length
        ? ` (refused: ${out
            .filter((o) => o.error)
            .map((o) => `${o.id}: ${o.error}`)
            .join('; ')})`
        : '') +
      '.',
    '',
    '| | on the lanes | planned alone |',
    '|---|---|---|',
    `| trafficked share, median | ${pct(median(ok.map((o) => o.share!)))} | ` +
      `${pct(median(ok.map((o) => o.shareAlone!)))} |`,
    `| trafficked share, worst | ${pct(worst(ok.map((o) => o.share!)))} | ` +
      `${pct(worst(ok.map((o) => o.shareAlone!)))} |`,
    '',
    '| operation | checkPlan faults (fields) | faults planned alone | unworked − alone: median | worst | ' +
      'fields over 2 points |',
    '|---|---|---|---|---|---|',
    ...names.map(
      (n, i) =>
        `| ${n} | ${ok.reduce((a, o) => a + o.faults![i], 0)} (${faultFields[i].join(', ') || 'none'}) | ` +
        `${ok.reduce((a, o) => a + o.faultsAlone![i], 0)} | ` +
        `${(100 * median(ok.map((o) => o.unworkedDelta![i]))).toFixed(2)} points | ` +
        `${(100 * worst(ok.map((o) => o.unworkedDelta![i]))).toFixed(2)} points | ` +
        `${over2[i].length} ${over2[i].length ? `(${over2[i].join(', ')})` : ''} |`,
    ),
    '',
    'CPU, the system (heading search, three plannings on the lanes, tramlines, footprints and shares, ' +
      'those of the plans alone included) ÷ one operation planned alone, corpus median: ' +
      `${median(ok.map((o) => o.cpuRatio!)).toFixed(2)}× the three operations' mean ` +
      `(${median(ok.map((o) => o.cpuRatioDrill!)).toFixed(2)}× the drill's; target ≤ 3.5×); ` +
      `worst field ${worst(ok.map((o) => o.cpuRatio!)).toFixed(2)}×.`,
    '',
    `Plans that fired their wall-clock cap (warning \`time-limit\`, maxOptimizerTime 10 s; such a plan may differ ` +
      `on a less loaded machine): ${
        ok
          .filter((o) => o.timeLimit)
          .map((o) => o.id)
          .join(', ') || 'none'
      }.`,
    '',
  ];
  return lines;
}

export interface TrafficBenchOptions {
  fields?: string;
  filter?: string;
  write?: boolean;
}

export async function runTrafficSection(opts: TrafficBenchOptions, command: string, out: string): Promise<number> {
  const dir = opts.fields ?? 'test/fields';
  const body = [
    '# Controlled traffic: lanes, tramlines and the trafficked share',
    '',
    `Written by \`${command}\` (packages/cli/src/commands/bench-traffic.ts). ` +
      `CPU per process on a shared machine (${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}); ` +
      'shares are deterministic unless a plan fires its time limit (listed below). ' +
      'The trafficked share is the union of the wheel footprints ' +
      '(two lanes ± gauge/2, a tyre wide) of every working pass (tracks and headland passes) ÷ field area; ' +
      '"with turns" adds the turns and connectors (option `traffic.includeTurns`).',
    '',
    ...rectangleBlock(),
    ...(await corpusBlock(dir, opts.filter)),
  ].join('\n');
  process.stdout.write(`${body}\n`);
  if (opts.write !== false && !opts.filter) {
    const page = join(out, '..', 'benchmarks', 'traffic.md');
    await writeFile(page, body);
    process.stderr.write(`wrote ${page}\n`);
  }
  return existsSync(dir) ? 0 : 1;
}
