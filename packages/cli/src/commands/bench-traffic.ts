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
 *   plan alone, and the CPU of the system (one `planTrafficSystem` call without the comparison) against
 *   one operation planned alone. The two sides run in two child processes (bench-traffic-worker.ts), one
 *   job at a time, so neither is timed with what the other left in memory.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  checkPlan,
  headlandPassesFor,
  planIndependent,
  planRoute,
  planTrafficSystem,
  type PathPlanRequest,
  type Plan,
  type TrafficSystemRequest,
} from '@furrow/core';
import { readBoundary } from '@furrow/format-geojson';
import { median } from './bench-machines.js';

/** The request asks no headland: the drill's default passes (core DEFAULTS.headlandPasses). */
const DEFAULT_PASSES = 2;
const GAUGE_METERS = 3,
  TYRE_METERS = 0.6;
const OPERATIONS: TrafficSystemRequest['operations'] = [
  { kind: 'drill', machine: { widthMeters: 12, turnRadiusMeters: 6 } },
  { kind: 'sprayer', machine: { widthMeters: 36, turnRadiusMeters: 9 } },
  { kind: 'harvester', machine: { widthMeters: 12, turnRadiusMeters: 8 } },
];

/**
 * Every plan here with a frozen clock (no wall-clock cap, clock.ts): each is bounded by its counted work
 * budget alone, so the figures do not depend on the machine's load.
 */
const FROZEN = { now: (): number => 0 };

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

/**
 * The share if each operation's lanes fell at an independent random offset (no line shared): one minus
 * the product of the shares each leaves untrodden, from the operations' own shares.
 */
export function randomShare(shares: number[]): number {
  return 1 - shares.reduce((p, s) => p * (1 - s), 1);
}

function rectangleBlock(): string[] {
  const request: TrafficSystemRequest = {
    field: rectangleField(400, 300),
    traffic: { gaugeMeters: GAUGE_METERS, tyreWidthMeters: TYRE_METERS, includeTurns: true },
    operations: OPERATIONS,
  };
  const r = planTrafficSystem(request, FROZEN);
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
    `| the same, lanes at independent random offsets (1 − Π(1 − own share)) | ` +
      `${pct(randomShare(r.independent!.operations.map((o) => o.traffickedShare)))} | |`,
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
    'The comparison is each operation planned alone: its own heading search, its own best track offset and ' +
      "the request's headland as given (checked: no tracks.referenceLine, two passes of its own width). " +
      'Alone, the drill and the header (both 12 m, the same field) still choose the same heading and the ' +
      'same offset, so their wheel lanes coincide, and with one 3 m gauge and 0.6 m tyres on every machine ' +
      'each pass treads 1.2 m of its width: even at independent random offsets the three would tread the ' +
      'share in the last row, not the 40–70 % GRDC counts for random traffic (wider tyres, other gauges, ' +
      'chaser bins and trucks, tillage passes). The issue\'s "≥ 30 %" does not follow from these machines.',
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
  shareRandom?: number;
  /** Unworked share on the lanes − alone with its own headland, and − alone with the system's headland passes. */
  unworkedDelta?: number[];
  unworkedDeltaSameHeadland?: number[];
  /** The lanes' phases the system planned (1, or more where it tried the others). */
  phases?: number;
  cpuRatio?: number;
  cpuRatioDrill?: number;
}

/** One side of a field's comparison, planned in a child process of its own (bench-traffic-worker.ts). */
export interface TrafficJob {
  id: string;
  file: string;
  side: 'system' | 'alone';
}

export interface TrafficSide {
  id: string;
  side: TrafficJob['side'];
  error?: string;
  /** CPU ms: the system's call (system), or each operation's plan alone (alone). */
  cpuMs?: number[];
  faults?: number[];
  uncovered?: number[];
  /** 1 − Π(1 − each operation's own share alone): its lanes at independent random offsets (alone side). */
  shareRandom?: number;
  /** Alone with the system's headland passes (alone side). */
  uncoveredSameHeadland?: number[];
  share?: number;
  timeLimit?: boolean;
  phases?: number;
}

function trafficRequest(field: PathPlanRequest['field'], compareIndependent: boolean): TrafficSystemRequest {
  return {
    field,
    traffic: { gaugeMeters: GAUGE_METERS, tyreWidthMeters: TYRE_METERS, compareIndependent },
    operations: OPERATIONS,
  };
}

const faultsOf = (o: { request: Record<string, unknown>; plan: Plan }): number =>
  checkPlan(o.request as PathPlanRequest, o.plan).violations.length;
const timeLimited = (plans: Plan[]): boolean => plans.some((p) => p.warnings.some((w) => w.code === 'time-limit'));

/**
 * One side of a field: the system on the lanes as one `planTrafficSystem` call (its plannings share the
 * field's work, as a caller's would), timed whole; or each operation planned alone, each timed.
 */
export async function runTrafficSide(job: TrafficJob): Promise<TrafficSide> {
  try {
    const [parsed] = readBoundary(await readFile(job.file), job.file);
    if (job.side === 'system') {
      const t = cpu(() => planTrafficSystem(trafficRequest(parsed.geometry, false), FROZEN));
      const ops = t.value.operations;
      return {
        id: job.id,
        side: job.side,
        cpuMs: [t.ms],
        faults: ops.map(faultsOf),
        uncovered: ops.map((o) => o.plan.metrics.uncoveredRatio),
        share: t.value.system.traffickedShare,
        timeLimit: timeLimited(ops.map((o) => o.plan)),
        phases: t.value.phasesPlanned,
      };
    }
    const timesMs: number[] = [];
    const alone = planIndependent(trafficRequest(parsed.geometry, true), (r) => {
      const t = cpu(() => planRoute(r, FROZEN));
      timesMs.push(t.ms);
      return t.value;
    });
    // Alone with the system's headland passes where its own differ (the sprayer's): the lanes' cost alone.
    const sameHeadland = alone.operations.map((o) => {
      const passes = headlandPassesFor(DEFAULT_PASSES, o.multiple);
      const request = o.request as unknown as PathPlanRequest;
      return o.headlandPasses === passes
        ? o.plan
        : planRoute({ ...request, headland: { ...(request.headland ?? {}), passes } }, FROZEN);
    });
    return {
      id: job.id,
      side: job.side,
      cpuMs: timesMs,
      faults: alone.operations.map(faultsOf),
      uncovered: alone.operations.map((o) => o.plan.metrics.uncoveredRatio),
      uncoveredSameHeadland: sameHeadland.map((p) => p.metrics.uncoveredRatio),
      share: alone.shares.traffickedShare,
      shareRandom: randomShare(alone.operations.map((o) => o.traffickedShare)),
      timeLimit: timeLimited(alone.operations.map((o) => o.plan)),
    };
  } catch (err) {
    return { id: job.id, side: job.side, error: (err as Error).message };
  }
}

function outcome(id: string, areaHa: number, sys: TrafficSide, alone: TrafficSide): FieldOutcome {
  const error = sys.error ?? alone.error;
  if (error) return { id, areaHa, error };
  const meanAlone = alone.cpuMs!.reduce((a, b) => a + b, 0) / alone.cpuMs!.length;
  return {
    id,
    areaHa,
    faults: sys.faults!,
    faultsAlone: alone.faults!,
    timeLimit: sys.timeLimit! || alone.timeLimit!,
    share: sys.share!,
    shareAlone: alone.share!,
    shareRandom: alone.shareRandom!,
    unworkedDelta: sys.uncovered!.map((u, i) => u - alone.uncovered![i]),
    unworkedDeltaSameHeadland: sys.uncovered!.map((u, i) => u - alone.uncoveredSameHeadland![i]),
    phases: sys.phases!,
    cpuRatio: sys.cpuMs![0] / meanAlone,
    cpuRatioDrill: sys.cpuMs![0] / alone.cpuMs![0],
  };
}

/** Two long-lived children, one per side; one job at a time (the machine is shared). */
function sideRunner(): { run: (job: TrafficJob) => Promise<TrafficSide>; close: () => void } {
  const workerFile = fileURLToPath(new URL('./bench-traffic-worker.js', import.meta.url));
  const children = {
    system: fork(workerFile, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
    alone: fork(workerFile, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  };
  const run = (job: TrafficJob): Promise<TrafficSide> =>
    new Promise((resolve, reject) => {
      const child = children[job.side];
      const onExit = (code: number | null): void => reject(new Error(`traffic worker exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (r: TrafficSide) => {
        child.off('exit', onExit);
        resolve(r);
      });
      child.send({ job });
    });
  const close = (): void => {
    for (const c of Object.values(children)) c.send({ done: true });
  };
  return { run, close };
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
  const sides = sideRunner();
  try {
    for (const row of rows) {
      const file = join(dir, row.file);
      const sys = await sides.run({ id: row.id, file, side: 'system' });
      const alone = await sides.run({ id: row.id, file, side: 'alone' });
      const o = outcome(row.id, row.areaHa, sys, alone);
      out.push(o);
      process.stderr.write(
        `${row.id}: ${
          o.error ??
          `share ${pct(o.share!)} / alone ${pct(o.shareAlone!)}, faults ${o.faults!.join('/')}, ` +
            `unworked ${o.unworkedDelta!.map((d) => (100 * d).toFixed(2)).join('/')} ` +
            `(same headland ${o.unworkedDeltaSameHeadland!.map((d) => (100 * d).toFixed(2)).join('/')}), ` +
            `cpu ×${o.cpuRatio!.toFixed(2)} (${o.phases} phases)`
        }\n`,
      );
    }
  } finally {
    sides.close();
  }
  return summariseCorpus(out);
}

function summariseCorpus(out: FieldOutcome[]): string[] {
  const ok = out.filter((o) => !o.error);
  const names = OPERATIONS.map((o) => `${o.kind} ${o.machine.widthMeters} m`).map((n, i) => n || String(i));
  const worst = (xs: number[]): number => Math.max(...xs);
  const faultFields = names.map((_, i) => ok.filter((o) => o.faults![i] > 0).map((o) => o.id));
  const tried = ok.filter((o) => o.phases! > 1).map((o) => o.id);
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
    `| alone, lanes at independent random offsets (1 − Π(1 − own share)), median | | ` +
      `${pct(median(ok.map((o) => o.shareRandom!)))} |`,
    '',
    'Unworked: each operation\'s unworked share on the lanes minus its plan alone, in points; "own headland" ' +
      'is the plan alone as requested (the request\'s headland passes, as the comparison plans it), "same ' +
      'headland" the plan alone with the passes it has in the system (the sprayer: one 36 m pass where the ' +
      'request asks the drill for two 12 m passes), so that only the lanes (heading, offset) differ.',
    '',
    '| operation | checkPlan faults (fields) | faults planned alone | unworked − alone, same headland: median | ' +
      'worst | fields over 2 points | − alone, own headland: median | worst | fields over 2 points |',
    '|---|---|---|---|---|---|---|---|---|',
    ...names.map((n, i) => {
      const delta = (d: number[] | undefined): number => d![i];
      const cols = (pick: (o: FieldOutcome) => number[] | undefined): string => {
        const xs = ok.map((o) => delta(pick(o)));
        const over = ok.filter((o) => delta(pick(o)) > 0.02).map((o) => o.id);
        return (
          `${(100 * median(xs)).toFixed(2)} points | ${(100 * worst(xs)).toFixed(2)} points | ` +
          `${over.length}${over.length ? ` (${over.join(', ')})` : ''}`
        );
      };
      return (
        `| ${n} | ${ok.reduce((a, o) => a + o.faults![i], 0)} (${faultFields[i].join(', ') || 'none'}) | ` +
        `${ok.reduce((a, o) => a + o.faultsAlone![i], 0)} | ${cols((o) => o.unworkedDeltaSameHeadland)} | ` +
        `${cols((o) => o.unworkedDelta)} |`
      );
    }),
    '',
    'CPU: the system as one `planTrafficSystem` call without the comparison (the heading search, the ' +
      "three plannings on the lanes sharing the field's work, the lanes' other phases where tried, tramlines, " +
      'footprints and shares), timed in a child process of its own, ÷ one operation planned alone, timed in ' +
      'another (the comparison is planned and timed apart, not counted in the system), corpus median: ' +
      `${median(ok.map((o) => o.cpuRatio!)).toFixed(2)}× the three operations' mean ` +
      `(${median(ok.map((o) => o.cpuRatioDrill!)).toFixed(2)}× the drill's; target ≤ 3.5×); ` +
      `worst field ${worst(ok.map((o) => o.cpuRatio!)).toFixed(2)}×. ` +
      `The lanes' other phases were tried on ${tried.length} fields` +
      (tried.length ? ` (${tried.join(', ')})` : '') +
      '.',
    '',
    `Plans with a frozen clock (no wall-clock cap; each bounded by its counted work budget alone), so the ` +
      `plans and shares do not depend on the machine's load. Plans with a \`time-limit\` warning: ${
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
  const started = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const loadAtStart = loadavg()[0].toFixed(1);
  const blocks = [...rectangleBlock(), ...(await corpusBlock(dir, opts.filter))];
  const body = [
    '# Controlled traffic: lanes, tramlines and the trafficked share',
    '',
    `Written by \`${command}\` (packages/cli/src/commands/bench-traffic.ts). ` +
      `CPU per process on a shared machine (${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}); ` +
      'plans and shares are deterministic (frozen clock). ' +
      'The trafficked share is the union of the wheel footprints ' +
      '(two lanes ± gauge/2, a tyre wide) of every working pass (tracks and headland passes) ÷ field area; ' +
      '"with turns" adds the turns and connectors (option `traffic.includeTurns`).',
    '',
    `Run ${started} UTC; load average (1 min) ${loadAtStart} at the start, ${loadavg()[0].toFixed(1)} at the end ` +
      `(${cpus().length} cores shared with other work).`,
    '',
    ...blocks,
  ].join('\n');
  process.stdout.write(`${body}\n`);
  if (opts.write !== false && !opts.filter) {
    const page = join(out, '..', 'benchmarks', 'traffic.md');
    await writeFile(page, body);
    process.stderr.write(`wrote ${page}\n`);
  }
  return existsSync(dir) ? 0 : 1;
}
