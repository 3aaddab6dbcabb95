/**
 * `npm run bench -- --section fleet`: several machines in one field (core's `planFleet`), over the
 * corpus at W 6 m / R 6 m, for k = 2 and 3 equal machines and one mixed fleet (12 m + 6 m), against
 * - the lower bound the plan reports (its route's time less the connectors a split leaves out, at the
 *   machines' combined pace) and the work-only bound (the passes alone at the fleet's combined rate);
 * - the contiguous split: the field cut across its tracks into k strips of equal area (for the mixed
 *   fleet, in proportion to width × speed), each planned alone for its machine at the single plan's
 *   heading (its own headland round it); its makespan is the slowest strip's time;
 * and judged by the independent checker (fleet-check.ts: conflicts within the safety distance, passes
 * worked twice, tracks shared at once, waits not listed), checkPlan on every machine's route, and the
 * coverage of the machines' passes together against the single-machine plan's (core's coverageDeviation
 * on the union). CPU is process CPU time around each call (single-threaded planning), the median of CPU_RUNS runs,
 * k = 3 against the single-machine plan (the process plans its first field once before measuring: no figure pays
 * for loading the code), on the corpus and on the 1,000 ha scale field. Fields are measured smallest first. Rows
 * are kept in a JSON-lines file so a run can be resumed or split in shards (`--shard 0/2`), and the page written
 * from the file.
 * Every planning runs with a frozen clock (no wall-clock cap), so the figures do not depend on the machine's load.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  checkPlan,
  contiguousSplitPlans,
  contiguousSplitSeconds,
  coverageDeviation,
  FLEET_COVERAGE_TOLERANCE as COVERAGE_TOLERANCE,
  planFleet,
  planRoute,
  validateFleet,
} from '@furrow/core';
import type { FleetMachineInput, FleetPlan, PathPlanRequest, Plan } from '@furrow/core';
import { readBoundary } from '@furrow/format-geojson';
import { checkFleet } from './fleet-check.js';
import { median } from './bench-machines.js';

export interface FleetBenchOptions {
  fields?: string;
  filter?: string;
  results?: string;
  resume?: boolean;
  summariseOnly?: boolean;
  shard?: string;
}

const W = 6,
  R = 6;
const SCALE_FIELD = 'test/fields-scale/wobbly-1000ha-5000v-50obstacles.geojson';

export interface FleetResult {
  name: string;
  machines: number;
  makespanSeconds: number;
  lowerBoundSeconds: number;
  workLowerBoundSeconds: number;
  baselineSeconds: number;
  /** The candidate planFleet kept (`shared-route`, `contiguous-split`, `narrow-route` or `pair-route`). */
  chosen?: string;
  /** The split timed together with waits (planFleet's candidate), seconds. */
  splitScheduledSeconds?: number;
  /** The fleet objective of the plan, and of the split timed with its waits (planFleet's candidate), seconds. */
  objectiveSeconds?: number;
  splitObjectiveSeconds?: number;
  /** The split keeps the single plan's coverage (within 0.2 point). */
  splitKeepsCoverage?: boolean;
  /** The plan loses to the split by the measure planFleet chooses by (againstSplit). */
  worseThanSplit?: boolean;
  /** The planner stopped planning the split early (a strip alone was slower than the shared route). */
  splitPruned?: boolean;
  /** Machines given nothing to work (not checked by checkPlan). */
  idleMachines?: number;
  cpuSeconds: number;
  conflicts: number;
  otherFaults: number;
  checkPlanFaults: number;
  coverageDelta: number;
  waits: number;
  waitSeconds: number;
  error?: string;
}

export interface FleetRow {
  id: string;
  areaHa: number;
  singleSeconds: number;
  singleCpuSeconds: number;
  fleets: FleetResult[];
  error?: string;
}

/** The fleets measured; CPU is compared for k = 3 only (FLEETS[1]). */
const FLEETS: { name: string; fleet: FleetMachineInput[] }[] = [
  { name: 'k=2', fleet: [0, 1].map((i) => ({ id: `m${i}`, widthMeters: W, turnRadiusMeters: R })) },
  { name: 'k=3', fleet: [0, 1, 2].map((i) => ({ id: `m${i}`, widthMeters: W, turnRadiusMeters: R })) },
  {
    name: '12 m + 6 m',
    fleet: [
      { id: 'w12', widthMeters: 12, turnRadiusMeters: R },
      { id: 'w6', widthMeters: 6, turnRadiusMeters: R },
    ],
  },
];

/** A frozen clock: no wall-clock cap fires, so the plans are the same under any load (the work budgets bound them). */
const FROZEN = { now: (): number => 0 };

function cpu<T>(f: () => T): { value: T; seconds: number } {
  const c0 = process.cpuUsage();
  const value = f();
  const c = process.cpuUsage(c0);
  return { value, seconds: (c.user + c.system) / 1e6 };
}

/**
 * Runs of a timed call: the single plan and k = 3, whose CPU is compared, take the median of this many (the same
 * plan each time: planning is deterministic), so that the ratio is not one run's noise on a loaded machine (one
 * small field's single plan took 13-56 ms in eight runs in one process, a garbage collection landing in one run or
 * another). The median, not the least: the least favours the shorter call, whose runs spread further.
 */
const CPU_RUNS = 3;

/** The call's value (of its first run) and the median CPU time of `runs` runs. */
function medianCpu<T>(f: () => T, runs: number): { value: T; seconds: number } {
  const first = cpu(f);
  const seconds = [first.seconds];
  for (let i = 1; i < runs; i++) seconds.push(cpu(f).seconds);
  return { value: first.value, seconds: median(seconds) };
}

/**
 * The contiguous split (core's contiguousSplitPlans: strips of equal work, area ∝ width × speed, each planned alone
 * at the single plan's heading); the slowest strip's time. planFleet reports it (`fleet.contiguousSplitSeconds`,
 * the same code, the same plans): this is for a plan that does not.
 */
export function contiguousSplit(request: PathPlanRequest, headingDegrees: number, fleet: FleetMachineInput[]): number {
  const { machine: _m, ...rest } = request;
  const fleetRequest = { ...rest, fleet };
  const plans = contiguousSplitPlans(fleetRequest, validateFleet(fleetRequest), headingDegrees, (r) =>
    planRoute(r, FROZEN),
  );
  return contiguousSplitSeconds(plans);
}

/** The share of the workable area a route's passes cover, as checkPlan measures it (core's coverageDeviation). */
function coveredShare(request: PathPlanRequest, plan: Plan): number {
  // Against a reported coverage of nothing, the deviation is the covered share itself.
  return coverageDeviation(request, { ...plan, metrics: { ...plan.metrics, uncoveredRatio: 1 } });
}

function judge(request: PathPlanRequest, single: Plan, plan: FleetPlan, fleet: FleetMachineInput[]) {
  const check = checkFleet(plan.machines, plan.fleet.safetyDistanceMeters);
  let checkPlanFaults = 0,
    idle = 0;
  for (const m of plan.machines) {
    // A machine with nothing to work (warned `fleet-idle`) has no route to check.
    if (m.route.length === 0) {
      idle++;
      continue;
    }
    const spec = fleet.find((f) => f.id === m.machineId)!;
    checkPlanFaults += checkPlan({ ...request, machine: { widthMeters: spec.widthMeters, turnRadiusMeters: R } }, m)
      .violations.length;
  }
  // The machines' passes together, measured against the single plan's passes, both as checkPlan measures them.
  const union = {
    ...single,
    route: plan.machines.flatMap((m) =>
      m.route
        .filter((s) => s.type !== 'Turn' && s.type !== 'Connector')
        .map((s) => ({ ...s, widthMeters: s.widthMeters ?? (m.machine as { widthMeters: number }).widthMeters })),
    ),
  };
  return {
    conflicts: check.conflicts,
    otherFaults: check.faults.length - check.conflicts,
    checkPlanFaults,
    idleMachines: idle,
    // > 0: the fleet leaves more unworked than the single plan.
    coverageDelta: coveredShare(request, single) - coveredShare(request, union),
  };
}

/**
 * The plan against the contiguous split by the measure planFleet chooses by: a plan that keeps the single plan's
 * coverage (the rule) beats one that does not, then the fleet objective (core's fleetObjectiveSeconds: makespan +
 * unworked ground priced at the fleet's rate) of plans whose machines keep the safety distance — the split timed
 * with the waits that keep its machines apart where the strips meet (planFleet's candidate; its strips alone, the
 * baseline, may bring two machines within the safety distance). Coverage is the bench's own measure for the plan,
 * the candidate's for the split (against the single plan's). A split the planner stopped early is at least the
 * strip that stopped it (a lower bound on its objective), taken as keeping the coverage.
 */
export function againstSplit(plan: FleetPlan, single: Plan, coverageDelta: number) {
  const candidates = plan.fleet.search.candidates;
  const chosen = candidates.find((c) => c.algorithm === plan.fleet.search.chosen && !c.pruned)!;
  const split = candidates.find((c) => c.algorithm === 'contiguous-split');
  const objectiveSeconds = chosen.objectiveSeconds ?? NaN;
  if (!split) return { objectiveSeconds };
  const splitObjectiveSeconds = split.pruned ? split.makespanSeconds : (split.objectiveSeconds ?? NaN);
  const splitKeeps = split.pruned || (split.uncoveredRatio ?? 1) <= single.metrics.uncoveredRatio + COVERAGE_TOLERANCE;
  const planKeeps = coverageDelta <= COVERAGE_TOLERANCE;
  const worseThanSplit = splitKeeps && (!planKeeps || objectiveSeconds > splitObjectiveSeconds + 0.01);
  return { objectiveSeconds, splitObjectiveSeconds, splitKeepsCoverage: splitKeeps, worseThanSplit };
}

let warm = false;

export function measureField(
  id: string,
  geometry: PathPlanRequest['field'],
  areaHa: number,
  names?: string[],
): FleetRow {
  // A fresh copy of the field per call: no call finds another's caches (they are keyed by the objects of a call).
  const fresh = (): PathPlanRequest['field'] => JSON.parse(JSON.stringify(geometry)) as PathPlanRequest['field'];
  const request: PathPlanRequest = { field: fresh(), machine: { widthMeters: W, turnRadiusMeters: R } };
  // The process's first planning pays for loading (the WebAssembly module, the JIT): once, not in a figure.
  if (!warm) planRoute({ ...request, field: fresh() }, FROZEN);
  warm = true;
  const single = medianCpu(() => planRoute({ ...request, field: fresh() }, FROZEN), CPU_RUNS);
  const row: FleetRow = {
    id,
    areaHa,
    singleSeconds: single.value.metrics.timeSeconds,
    singleCpuSeconds: single.seconds,
    fleets: [],
  };
  for (const { name, fleet } of FLEETS.filter((f) => !names || names.includes(f.name))) {
    try {
      const { machine: _m, ...rest } = request;
      const run = medianCpu(() => planFleet({ ...rest, field: fresh(), fleet }, FROZEN), name === 'k=3' ? CPU_RUNS : 1);
      const p = run.value;
      const baseline = p.fleet.contiguousSplitSeconds ?? contiguousSplit(request, single.value.heading.degrees, fleet);
      const judged = judge(request, single.value, p, fleet);
      row.fleets.push({
        name,
        machines: fleet.length,
        makespanSeconds: p.fleet.makespanSeconds,
        lowerBoundSeconds: p.fleet.lowerBoundSeconds,
        workLowerBoundSeconds: p.fleet.workLowerBoundSeconds,
        baselineSeconds: baseline,
        chosen: p.fleet.search.chosen,
        ...againstSplit(p, single.value, judged.coverageDelta),
        splitScheduledSeconds: p.fleet.search.candidates.find((c) => c.algorithm === 'contiguous-split' && !c.pruned)
          ?.makespanSeconds,
        splitPruned: p.fleet.search.candidates.some((c) => c.pruned === true),
        cpuSeconds: run.seconds,
        waits: p.machines.reduce((s, m) => s + m.waits.length, 0),
        waitSeconds: p.fleet.waitSeconds,
        ...judged,
      });
    } catch (e) {
      row.fleets.push({ name, machines: fleet.length, error: (e as Error).message } as FleetResult);
    }
  }
  return row;
}

async function corpusRows(dir: string): Promise<{ id: string; file: string; areaHa: number }[]> {
  const lines = (await readFile(join(dir, 'index.csv'), 'utf8')).trim().split(/\r?\n/);
  const head = lines[0].split(',');
  return lines.slice(1).map((l) => {
    const c = l.split(',');
    return { id: c[head.indexOf('id')], file: c[head.indexOf('file')], areaHa: Number(c[head.indexOf('area_ha')]) };
  });
}

async function readRows(file: string): Promise<FleetRow[]> {
  if (!existsSync(file)) return [];
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as FleetRow);
}

/** Measures the corpus (and the scale field) into the results file; returns the page's body. */
export async function benchFleet(opts: FleetBenchOptions, command: string): Promise<string> {
  const dir = opts.fields ?? 'test/fields';
  const results = opts.results ?? join('node_modules', '.cache', 'furrow-bench', 'fleet.jsonl');
  await mkdir(dirname(results), { recursive: true });
  if (!opts.resume && !opts.summariseOnly && !opts.shard) await writeFile(results, '');
  const done = new Set((await readRows(results)).map((r) => r.id));
  const [shard, shards] = (opts.shard ?? '0/1').split('/').map(Number);
  const todo = [
    ...(await corpusRows(dir))
      .sort((a, b) => a.areaHa - b.areaHa || a.id.localeCompare(b.id))
      .filter((r) => !opts.filter || (opts.filter !== 'scale' && r.id.includes(opts.filter)))
      .map((r) => ({ ...r, dir })),
    ...(opts.filter && opts.filter !== 'scale'
      ? []
      : [{ id: 'scale-1000ha', file: SCALE_FIELD, areaHa: 1000, dir: '.' }]),
  ].filter((r, i) => !done.has(r.id) && i % shards === shard);
  for (const r of opts.summariseOnly ? [] : todo) {
    const [parsed] = readBoundary(await readFile(join(r.dir, r.file)), r.file);
    let row: FleetRow;
    try {
      row = measureField(r.id, parsed.geometry, r.areaHa, r.id === 'scale-1000ha' ? ['k=3'] : undefined);
    } catch (e) {
      row = {
        id: r.id,
        areaHa: r.areaHa,
        singleSeconds: NaN,
        singleCpuSeconds: NaN,
        fleets: [],
        error: (e as Error).message,
      };
    }
    await appendFile(results, `${JSON.stringify(row)}\n`);
    const f = row.fleets.map(
      (x) => `${x.name} ${x.error ? 'error' : `${(x.makespanSeconds / x.lowerBoundSeconds - 1).toFixed(3)}`}`,
    );
    process.stderr.write(`fleet: ${r.id} ${f.join(', ')}\n`);
  }
  return summariseFleet(await readRows(results), command);
}

const pct = (v: number): string => `${(100 * v).toFixed(1)} %`;

const tableRow = (cells: (string | number)[]): string => `| ${cells.join(' | ')} |`;
const HEADER = [
  'fleet',
  'fields planned',
  'makespan ÷ lower bound − 1 (median, max)',
  '÷ work-only bound − 1 (median)',
  'makespan vs contiguous split alone (median; fields longer)',
  'conflicts',
  'other checker faults',
  'checkPlan faults',
  'coverage Δ vs single (max; + = fleet covers less)',
  'CPU ÷ single (median)',
  'fields > 0.2 pt less covered',
  'worse than the split timed without conflicts (coverage rule, then objective)',
  'kept: shared route / split / narrow route / pair route',
];

/** One fleet's line of the summary table. */
function fleetLine(name: string, corpus: FleetRow[]): string | undefined {
  const ok = corpus.flatMap((r) => r.fleets.filter((f) => f.name === name && !f.error).map((f) => ({ r, f })));
  const failed = corpus.filter((r) => r.fleets.some((f) => f.name === name && f.error)).map((r) => r.id);
  if (ok.length === 0) return undefined;
  const gaps = ok.map(({ f }) => f.makespanSeconds / f.lowerBoundSeconds - 1);
  const workGaps = ok.map(({ f }) => f.makespanSeconds / f.workLowerBoundSeconds - 1);
  const vs = ok.map(({ f }) => f.makespanSeconds / f.baselineSeconds - 1);
  const worse = ok.filter(({ f }) => f.makespanSeconds > f.baselineSeconds + 1e-6).map(({ r }) => r.id);
  const cpuRatio = name === 'k=3' ? median(ok.map(({ r, f }) => f.cpuSeconds / r.singleCpuSeconds)).toFixed(2) : '–';
  return tableRow([
    name,
    `${ok.length}${failed.length ? ` (failed: ${failed.join(', ')})` : ''}`,
    `${pct(median(gaps))}, ${pct(Math.max(...gaps))}`,
    pct(median(workGaps)),
    `${pct(median(vs))}; ${worse.length}${worse.length ? ` (${worse.join(', ')})` : ''}`,
    sum(ok.map(({ f }) => f.conflicts)),
    sum(ok.map(({ f }) => f.otherFaults)),
    sum(ok.map(({ f }) => f.checkPlanFaults)),
    `${(100 * Math.max(...ok.map(({ f }) => f.coverageDelta))).toFixed(3)} pt`,
    cpuRatio,
    listed(ok.filter(({ f }) => f.coverageDelta > COVERAGE_TOLERANCE).map(({ r }) => r.id)),
    listed(ok.filter(({ f }) => f.worseThanSplit === true).map(({ r }) => r.id)),
    ['shared-route', 'contiguous-split', 'narrow-route', 'pair-route']
      .map((c) => ok.filter(({ f }) => f.chosen === c).length)
      .join(' / '),
  ]);
}

function scaleLine(scale: FleetRow): string {
  const f = scale.fleets.find((x) => x.name === 'k=3');
  if (!f || f.error) return `1,000 ha scale field: ${f?.error ?? scale.error ?? 'not measured'}`;
  return (
    `1,000 ha scale field (${SCALE_FIELD}), k = 3: ${f.cpuSeconds.toFixed(2)} s CPU against ` +
    `${scale.singleCpuSeconds.toFixed(2)} s for the single-machine plan ` +
    `(${(f.cpuSeconds / scale.singleCpuSeconds).toFixed(2)}×); makespan ${f.makespanSeconds.toFixed(0)} s, ` +
    `lower bound ${f.lowerBoundSeconds.toFixed(0)} s (gap ${pct(f.makespanSeconds / f.lowerBoundSeconds - 1)}), ` +
    `contiguous split ${f.baselineSeconds.toFixed(0)} s, ${f.conflicts} conflicts, ` +
    `${f.checkPlanFaults} checkPlan faults, coverage Δ ${(100 * f.coverageDelta).toFixed(3)} pt.`
  );
}

/** The page's body from the rows. */
export function summariseFleet(rows: FleetRow[], command: string): string {
  const corpus = rows.filter((r) => r.id !== 'scale-1000ha');
  const scale = rows.find((r) => r.id === 'scale-1000ha');
  const lines: string[] = [`Command: \`${command}\` (W ${W} m, R ${R} m, ${corpus.length} corpus fields).`, ''];
  lines.push(tableRow(HEADER), tableRow(HEADER.map(() => '---')));
  for (const { name } of FLEETS) {
    const line = fleetLine(name, corpus);
    if (line) lines.push(line);
  }
  if (scale) lines.push('', scaleLine(scale));
  lines.push('', '<details><summary>Per field</summary>', '');
  const head = ['field', 'ha', 'single s', 'fleet', 'makespan s', 'lower bound s', 'split s', 'waits', 'conflicts'];
  const tail = ['checkPlan', 'coverage Δ pt', 'CPU ×', 'kept', 'split timed s'];
  lines.push(tableRow([...head, ...tail]));
  lines.push(tableRow([...head, ...tail].map(() => '---')));
  for (const r of rows)
    for (const f of r.fleets) {
      const start = [r.id, r.areaHa.toFixed(1), r.singleSeconds.toFixed(0), f.name];
      if (f.error) {
        lines.push(tableRow([...start, `error: ${f.error.slice(0, 80)}`, '', '', '', '', '', '', '', '', '']));
        continue;
      }
      const cpuRatio = f.name === 'k=3' ? (f.cpuSeconds / r.singleCpuSeconds).toFixed(2) : '–';
      lines.push(
        tableRow([
          ...start,
          f.makespanSeconds.toFixed(0),
          f.lowerBoundSeconds.toFixed(0),
          f.baselineSeconds.toFixed(0),
          f.waits,
          f.conflicts,
          f.checkPlanFaults,
          (100 * f.coverageDelta).toFixed(3),
          cpuRatio,
          f.chosen ?? '–',
          f.splitScheduledSeconds !== undefined ? f.splitScheduledSeconds.toFixed(0) : f.splitPruned ? 'pruned' : '–',
        ]),
      );
    }
  lines.push('', '</details>');
  return lines.join('\n');
}

function listed(ids: string[]): string {
  return `${ids.length}${ids.length ? ` (${ids.join(', ')})` : ''}`;
}

function sum(v: number[]): number {
  return v.reduce((a, b) => a + b, 0);
}
