/**
 * `furrow bench --section machines`: the corpus planned for real machines (a narrow drill with a
 * large turning circle, a sprayer, a 12 m and the default 6 m machine), each plan measured for
 * what a farmer sees — area left unworked, area worked twice, driving without working, joins
 * nothing fitted, route off the field, transit legs between zones and whether they are warned —
 * and checked by furrow's `checkPlan` and, when given (`--checkplan`), by an independent GEOS
 * check run with python3 (shapely + pyproj).
 *
 * Plans run in at most two child processes (`bench-machines-worker.ts`), one field × configuration
 * at a time; `--jobs 1` plans in this process.
 */
import { existsSync, statSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { execFile, fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { checkPlan, planRoute, routeOffField } from '@furrow/core';
import type { PathPlanRequest, Plan } from '@furrow/core';
import { planToFeatureCollection, readBoundary } from '@furrow/format-geojson';

const run = promisify(execFile);

export interface MachineConfig {
  id: string;
  label: string;
  machine: NonNullable<PathPlanRequest['machine']>;
  headland?: PathPlanRequest['headland'];
}

/** The four machines, in the page's order; every one plans with the default route order. */
export const MACHINE_CONFIGS: readonly MachineConfig[] = [
  {
    id: 'w3-r12',
    label: 'W 3 m, R 12 m, no reversing, 3 headland passes',
    machine: { widthMeters: 3, turnRadiusMeters: 12, reverseAllowed: false },
    headland: { passes: 3 },
  },
  {
    id: 'w36-r12',
    label: 'W 36 m, R 12 m, 1 headland pass',
    machine: { widthMeters: 36, turnRadiusMeters: 12 },
    headland: { passes: 1 },
  },
  { id: 'w12-r9', label: 'W 12 m, R 9 m', machine: { widthMeters: 12, turnRadiusMeters: 9 } },
  { id: 'w6-r6', label: 'W 6 m, R 6 m', machine: { widthMeters: 6, turnRadiusMeters: 6 } },
];

export function machineRequest(field: PathPlanRequest['field'], config: MachineConfig): PathPlanRequest {
  return { field, machine: { ...config.machine }, ...(config.headland ? { headland: { ...config.headland } } : {}) };
}

/** What the GEOS check (checkplan.py) said about one plan. */
export interface GeosFigures {
  ok: boolean;
  outsideMeters: number;
  transportOutsideMeters: number;
  curvatureFaults: number;
  uncoveredRatio?: number;
}

export interface TransitLeg {
  sequence: number;
  lengthMeters: number;
  offFieldMeters: number;
  warned: boolean;
}

/** One field planned with one configuration. */
export interface MachineRun {
  field: string;
  config: string;
  /** PlanError code and message when the planner refused the field. */
  refused?: string;
  cpuMilliseconds: number;
  uncoveredRatio?: number;
  overlapRatio?: number;
  nonWorkingRatio?: number;
  /** Connectors drawn where no manoeuvre fitted (`connectorKind: "unfitted"`). */
  joinsNotFitted?: number;
  /** Route meters off the field, declared transit legs excluded. */
  offFieldMeters?: number;
  /** The same by piece kind (`Turn`, `Connector/unfitted`, …), meters. */
  offFieldByKind?: Record<string, number>;
  transitLegs?: TransitLeg[];
  /** checkPlan: curvature violations, and every violation by code. */
  curvatureFaults?: number;
  violations?: Record<string, number>;
  warnings?: Record<string, number>;
  geos?: GeosFigures | { error: string };
}

const WARNING_REACH_METERS = 1;

/**
 * Whether a warning is placed on the leg: it names the leg's sequence, or one of its positions lies within 1 m of the
 * leg.
 */
export function legWarned(plan: Plan, sequence: number): boolean {
  const seg = plan.route.find((s) => s.sequence === sequence);
  if (!seg) return false;
  const lat0 = seg.coordinates[0]?.[1] ?? 0;
  const mx = 111_320 * Math.cos((lat0 * Math.PI) / 180),
    my = 110_574;
  const near = (p: unknown): boolean => {
    if (!Array.isArray(p) || typeof p[0] !== 'number' || typeof p[1] !== 'number') return false;
    for (let i = 1; i < seg.coordinates.length; i++) {
      const a = seg.coordinates[i - 1],
        b = seg.coordinates[i];
      const ax = (a[0] - p[0]) * mx,
        ay = (a[1] - p[1]) * my,
        bx = (b[0] - p[0]) * mx,
        by = (b[1] - p[1]) * my;
      const dx = bx - ax,
        dy = by - ay,
        l2 = dx * dx + dy * dy;
      const t = l2 > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / l2)) : 0;
      if (Math.hypot(ax + t * dx, ay + t * dy) <= WARNING_REACH_METERS) return true;
    }
    return false;
  };
  const positions = (c: unknown): unknown[] =>
    Array.isArray(c) && typeof c[0] === 'number' ? [c] : Array.isArray(c) ? c.flatMap(positions) : [];
  return plan.warnings.some((w) => {
    const ref = w as unknown as { sequence?: unknown; sequences?: unknown };
    if (ref.sequence === sequence || (Array.isArray(ref.sequences) && ref.sequences.includes(sequence))) return true;
    return w.geometry !== undefined && positions(w.geometry.coordinates).some(near);
  });
}

function countBy<T>(items: T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const it of items) out[key(it)] = (out[key(it)] ?? 0) + 1;
  return out;
}

/** The figures of one plan (furrow's own checks; the GEOS check is added by the caller). */
export function measurePlan(
  request: PathPlanRequest,
  plan: Plan,
): Omit<MachineRun, 'field' | 'config' | 'cpuMilliseconds'> {
  const m = plan.metrics;
  const check = checkPlan(request, plan);
  const off = routeOffField(request, plan);
  const offByKind: Record<string, number> = {};
  for (const p of off) {
    if (p.offFieldMeters <= 0 || (p.type === 'Connector' && p.connectorKind === 'transport')) continue;
    const k = p.connectorKind ? `${p.type}/${p.connectorKind}` : p.type;
    offByKind[k] = (offByKind[k] ?? 0) + p.offFieldMeters;
  }
  const transit = off.filter((p) => p.type === 'Connector' && p.connectorKind === 'transport');
  return {
    uncoveredRatio: m.uncoveredRatio,
    overlapRatio: m.overlapRatio,
    nonWorkingRatio: m.nonWorkingDistanceMeters / Math.max(1e-9, m.workingDistanceMeters),
    joinsNotFitted: plan.route.filter((s) => s.connectorKind === 'unfitted').length,
    offFieldMeters: off
      .filter((p) => !(p.type === 'Connector' && p.connectorKind === 'transport'))
      .reduce((s, p) => s + p.offFieldMeters, 0),
    offFieldByKind: offByKind,
    transitLegs: transit.map((p) => ({
      sequence: p.sequence,
      lengthMeters: p.lengthMeters,
      offFieldMeters: p.offFieldMeters,
      warned: legWarned(plan, p.sequence),
    })),
    curvatureFaults: check.violations.filter((v) => v.code === 'curvature').length,
    violations: countBy(check.violations, (v) => v.code),
    warnings: countBy(plan.warnings, (w) => w.code),
  };
}

export interface GeosCheck {
  python: string;
  script: string;
}

/** The GEOS check when its script exists and python3 has shapely and pyproj; else why not. */
export async function findGeosCheck(script: string | undefined): Promise<GeosCheck | string> {
  if (!script) return 'not run: no --checkplan script given';
  if (!existsSync(script)) return `not available: ${script} does not exist`;
  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  try {
    await run(python, ['-c', 'import shapely, pyproj']);
  } catch {
    return `not available: ${python} lacks shapely or pyproj (apt-get install python3-shapely python3-pyproj)`;
  }
  return { python, script };
}

async function geosCheck(
  geos: GeosCheck,
  fieldFile: string,
  plan: Plan,
  config: MachineConfig,
): Promise<GeosFigures | { error: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'furrow-machines-'));
  try {
    const planFile = join(dir, 'plan.geojson');
    await writeFile(planFile, JSON.stringify(planToFeatureCollection(plan)));
    const args = [
      geos.script,
      fieldFile,
      planFile,
      '--width',
      String(config.machine.widthMeters),
      '--radius',
      String(config.machine.turnRadiusMeters ?? 6),
    ];
    const { stdout } = await run(geos.python, args, { maxBuffer: 16 << 20, timeout: 600_000 });
    const r = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
    if (typeof r.error === 'string') return { error: r.error };
    const num = (k: string): number => (typeof r[k] === 'number' ? (r[k] as number) : NaN);
    return {
      ok: r.ok === true,
      outsideMeters: num('outside_boundary_m'),
      transportOutsideMeters: num('transport_outside_m'),
      curvatureFaults: num('curvature_violations'),
      ...(typeof r.uncovered_ratio === 'number' ? { uncoveredRatio: r.uncovered_ratio } : {}),
    };
  } catch (err) {
    return { error: (err as Error).message.split('\n')[0] };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Plans one field with one configuration and measures it (what a worker process does). */
export async function runMachine(
  fieldFile: string,
  fieldId: string,
  config: MachineConfig,
  geos: GeosCheck | undefined,
): Promise<MachineRun> {
  const [parsed] = readBoundary(await readFile(fieldFile), fieldFile);
  const request = machineRequest(parsed.geometry, config);
  const c0 = process.cpuUsage();
  let plan: Plan;
  try {
    // A frozen clock: the wall-clock cap never fires, the plan is the one its counted work budget makes, whatever the
    // load.
    plan = planRoute(request, { now: () => 0 });
  } catch (err) {
    const c = process.cpuUsage(c0);
    const code = (err as { code?: unknown }).code;
    return {
      field: fieldId,
      config: config.id,
      cpuMilliseconds: (c.user + c.system) / 1000,
      refused: `${typeof code === 'string' ? code : (err as Error).name}: ${(err as Error).message}`,
    };
  }
  const c = process.cpuUsage(c0);
  const result: MachineRun = {
    field: fieldId,
    config: config.id,
    cpuMilliseconds: (c.user + c.system) / 1000,
    ...measurePlan(request, plan),
  };
  if (geos) result.geos = await geosCheck(geos, fieldFile, plan, config);
  return result;
}

export interface MachineJob {
  fieldFile: string;
  fieldId: string;
  configId: string;
}

function configById(id: string): MachineConfig {
  const c = MACHINE_CONFIGS.find((k) => k.id === id);
  if (!c)
    throw new Error(`--config: unknown configuration ${id} (one of ${MACHINE_CONFIGS.map((k) => k.id).join(', ')})`);
  return c;
}

/** Runs the jobs in `jobs` child processes (1: in this process), reporting each result as it comes. */
async function runJobs(
  list: MachineJob[],
  jobs: number,
  geos: GeosCheck | undefined,
  onResult: (r: MachineRun) => void,
): Promise<MachineRun[]> {
  const results: MachineRun[] = [];
  let next = 0;
  if (jobs <= 1) {
    for (const j of list) {
      const r = await runMachine(j.fieldFile, j.fieldId, configById(j.configId), geos);
      results.push(r);
      onResult(r);
    }
    return results;
  }
  const workerFile = fileURLToPath(new URL('./bench-machines-worker.js', import.meta.url));
  const one = (child: ChildProcess): Promise<void> =>
    new Promise((resolve, reject) => {
      const give = (): void => {
        if (next >= list.length) {
          child.send({ done: true });
          resolve();
          return;
        }
        child.send({ job: list[next++], geos });
      };
      child.on('message', (r: MachineRun) => {
        results.push(r);
        onResult(r);
        give();
      });
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`machines worker exited with ${code}`))));
      give();
    });
  const children = Array.from({ length: Math.min(jobs, list.length) }, () =>
    fork(workerFile, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  await Promise.all(children.map(one));
  return results;
}

export interface MachinesOptions {
  /** Corpus folder (default test/fields), or a comma-separated list of field ids. */
  fields?: string;
  /** Comma-separated configuration ids. */
  config?: string;
  /** Path to the independent GEOS check (python3 script). */
  checkplan?: string;
  /** Child processes (default and at most 2). */
  jobs?: string;
  /** JSON-lines file every result is appended to as it comes (default: one per page block in the temp folder). */
  results?: string;
  /** Keep the results already in the results file and run only the rest. */
  resume?: boolean;
  /** With `resume`: make no plan, summarise the results file as it is (an interrupted run). */
  summariseOnly?: boolean;
  machinesAs?: string;
  /** The code the plans were made with, for the page (default: the checkout's commit). */
  at?: string;
}

interface IndexRow {
  id: string;
  file: string;
  areaHa: number;
}

async function corpusRows(dir: string): Promise<IndexRow[]> {
  const csv = join(dir, 'index.csv');
  if (!existsSync(csv)) return [];
  const lines = (await readFile(csv, 'utf8')).trim().split(/\r?\n/);
  const head = lines[0].split(',');
  return lines.slice(1).map((l) => {
    const c = l.split(',');
    return {
      id: c[head.indexOf('id')],
      file: join(dir, c[head.indexOf('file')]),
      areaHa: Number(c[head.indexOf('area_ha')]),
    };
  });
}

export interface MachinesSelection {
  dir: string;
  ids?: string[];
  configs: MachineConfig[];
}

/** `--fields` is a folder when it names one, else a comma-separated list of field ids of test/fields. */
export function machinesSelection(opts: MachinesOptions): MachinesSelection {
  const f = opts.fields ?? 'test/fields';
  const isDir = existsSync(f) && statSync(f).isDirectory();
  const configs = opts.config ? opts.config.split(',').map((s) => configById(s.trim())) : [...MACHINE_CONFIGS];
  return {
    dir: isDir ? f : 'test/fields',
    ...(isDir
      ? {}
      : {
          ids: f
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        }),
    configs,
  };
}

export interface MachinesOutcome {
  runs: MachineRun[];
  configs: MachineConfig[];
  fields: number;
  /** Plans the selection asks for (runs holds fewer when a run was interrupted). */
  expected: number;
  geos: string;
  /** True when every field and configuration was run (the page may be rewritten). */
  complete: boolean;
}

export async function benchMachines(opts: MachinesOptions): Promise<MachinesOutcome> {
  const sel = machinesSelection(opts);
  let rows = await corpusRows(sel.dir);
  if (sel.ids) {
    const unknown = sel.ids.filter((id) => !rows.some((r) => r.id === id));
    if (unknown.length > 0) throw new Error(`--fields: no corpus field ${unknown.join(', ')} in ${sel.dir}`);
    rows = rows.filter((r) => sel.ids!.includes(r.id));
  }
  const found = await findGeosCheck(opts.checkplan);
  const geos = typeof found === 'string' ? undefined : found;
  const jobs = Math.max(1, Math.min(2, cpus().length, Number(opts.jobs ?? 2) || 1));
  // Cheap configurations first, small fields first: an interrupted run has whole configurations.
  const cost = (c: MachineConfig): number => (c.machine.turnRadiusMeters ?? 6) / c.machine.widthMeters;
  const byCost = [...sel.configs].sort((a, b) => cost(a) - cost(b));
  const bySize = [...rows].sort((a, b) => (a.areaHa || 0) - (b.areaHa || 0) || a.id.localeCompare(b.id));
  const all: MachineJob[] = byCost.flatMap((c) =>
    bySize.map((r) => ({ fieldFile: r.file, fieldId: r.id, configId: c.id })),
  );
  const resultsFile = opts.results ?? join(tmpdir(), `furrow-machines-${opts.machinesAs ?? 'current'}.jsonl`);
  const kept: MachineRun[] = [];
  if (opts.resume && existsSync(resultsFile)) {
    for (const line of (await readFile(resultsFile, 'utf8')).split('\n'))
      if (line.trim()) kept.push(JSON.parse(line) as MachineRun);
  } else await writeFile(resultsFile, '');
  const have = new Set(kept.map((r) => `${r.config}/${r.field}`));
  const list = opts.summariseOnly ? [] : all.filter((j) => !have.has(`${j.configId}/${j.fieldId}`));
  process.stderr.write(
    `machines: ${list.length} plans to make (${kept.length} kept from ${resultsFile}), ${jobs} at a time; results ` +
      `appended to ${resultsFile}\n`,
  );
  let done = 0;
  const made = await runJobs(list, jobs, geos, (r) => {
    done++;
    void appendFile(resultsFile, `${JSON.stringify(r)}\n`);
    process.stderr.write(
      `machines ${String(done).padStart(3)}/${list.length} ${r.config.padEnd(8)} ${r.field.padEnd(14)} ` +
        `${r.refused ? `refused ${r.refused}` : describeRun(r)}\n`,
    );
  });
  const runs = [...kept, ...made].filter((r) => all.some((j) => j.configId === r.config && j.fieldId === r.field));
  const configOrder = sel.configs.map((c) => c.id);
  const fieldOrder = rows.map((r) => r.id);
  runs.sort(
    (a, b) =>
      configOrder.indexOf(a.config) - configOrder.indexOf(b.config) ||
      fieldOrder.indexOf(a.field) - fieldOrder.indexOf(b.field),
  );
  return {
    runs,
    configs: sel.configs,
    fields: rows.length,
    expected: all.length,
    geos: geos ? `run on every plan (${geos.python} ${geos.script})` : (found as string),
    complete: !sel.ids && sel.configs.length === MACHINE_CONFIGS.length && sel.dir === 'test/fields',
  };
}

function pct(x: number | undefined, digits = 2): string {
  return x !== undefined && Number.isFinite(x) ? `${(x * 100).toFixed(digits)} %` : 'n/a';
}

function describeRun(r: MachineRun): string {
  const legs = r.transitLegs ?? [];
  const geos = r.geos
    ? 'error' in r.geos
      ? ` geos error ${r.geos.error}`
      : ` geos ${r.geos.ok ? 'ok' : 'FAIL'} off ${r.geos.outsideMeters} m`
    : '';
  return (
    `unc ${pct(r.uncoveredRatio)} nw÷w ${r.nonWorkingRatio?.toFixed(3)} unfitted ${r.joinsNotFitted} off ` +
    `${r.offFieldMeters?.toFixed(1)} m transit ${legs.length}${legs.some((l) => !l.warned) ? ' (UNWARNED)' : ''} ` +
    `curv ${r.curvatureFaults}${geos}`
  );
}

export function median(values: number[]): number {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function worstOf(
  runs: MachineRun[],
  value: (r: MachineRun) => number | undefined,
): { value: number; field: string } | undefined {
  let best: { value: number; field: string } | undefined;
  for (const r of runs) {
    const v = value(r);
    if (v !== undefined && Number.isFinite(v) && (!best || v > best.value)) best = { value: v, field: r.field };
  }
  return best;
}

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

/** The results as Markdown: one summary table (a row per configuration), then the details. */
export function summariseMachines(out: MachinesOutcome, command: string, commit: string): string {
  const lines: string[] = [];
  lines.push(
    `Command: \`${command}\` at commit ${commit}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
  );
  lines.push('');
  if (out.runs.length < out.expected)
    lines.push(
      `**Incomplete: ${out.runs.length} of ${out.expected} plans made** (the run was stopped; small fields first, ` +
        `so a configuration's missing fields are its largest).`,
      '',
    );
  lines.push(
    `${out.fields} corpus fields × ${out.configs.length} configurations, default route order, \`planRoute\` ` +
      `without a clock (deterministic); CPU time per plan on a shared 2-core machine (` +
      `${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}). GEOS check (checkplan.py): ${out.geos}.`,
  );
  lines.push('');
  lines.push(
    '| configuration | planned / refused | uncovered median | uncovered worst | overlap median | non-working ÷ ' +
      'working median | joins not fitted (fields) | off the field, transit legs aside: m (fields) | transit legs ' +
      '(unwarned) | curvature faults (fields) | checkPlan ok | GEOS ok (off the field m) | CPU s median |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const c of out.configs) {
    const rs = out.runs.filter((r) => r.config === c.id);
    const planned = rs.filter((r) => !r.refused);
    const worstUnc = worstOf(planned, (r) => r.uncoveredRatio);
    const legs = planned.flatMap((r) => r.transitLegs ?? []);
    const unfitted = planned.filter((r) => (r.joinsNotFitted ?? 0) > 0);
    const offFields = planned.filter((r) => (r.offFieldMeters ?? 0) > 0);
    const curv = planned.filter((r) => (r.curvatureFaults ?? 0) > 0);
    const checkOk = planned.filter((r) => Object.keys(r.violations ?? {}).length === 0).length;
    const geosRuns = planned.map((r) => r.geos).filter((g): g is GeosFigures => g !== undefined && !('error' in g));
    const geosCell =
      geosRuns.length === 0
        ? 'not run'
        : `${geosRuns.filter((g) => g.ok).length} of ${planned.length} ` +
          `(${sum(geosRuns.map((g) => g.outsideMeters)).toFixed(1)})`;
    lines.push(
      `| ${c.label} | ${planned.length} / ${rs.length - planned.length} | ` +
        `${pct(median(planned.map((r) => r.uncoveredRatio!)))} | ` +
        `${worstUnc ? `${pct(worstUnc.value)} (${worstUnc.field})` : 'n/a'} | ` +
        `${pct(median(planned.map((r) => r.overlapRatio!)))} | ` +
        `${median(planned.map((r) => r.nonWorkingRatio!)).toFixed(3)} | ` +
        `${sum(planned.map((r) => r.joinsNotFitted ?? 0))} (${unfitted.length}) | ` +
        `${sum(planned.map((r) => r.offFieldMeters ?? 0)).toFixed(1)} (${offFields.length}) | ${legs.length} (` +
        `${legs.filter((l) => !l.warned).length}) | ${sum(planned.map((r) => r.curvatureFaults ?? 0))} (` +
        `${curv.length}) | ${checkOk} of ${planned.length} | ${geosCell} | ` +
        `${(median(rs.map((r) => r.cpuMilliseconds)) / 1000).toFixed(2)} |`,
    );
  }
  lines.push('');
  lines.push(
    'Uncovered and overlap are the plan\'s own metrics (ratios of the workable area); "joins not fitted" counts ' +
      'connectors drawn where no manoeuvre fitted (`connectorKind: "unfitted"`); "off the field" is the route ' +
      'length more than 0.10 m outside the boundary or inside a hole (`routeOffField`), declared transit legs ' +
      '(`connectorKind: "transport"`) aside; a transit leg is warned when a warning names its sequence or lies ' +
      "on it (within 1 m); curvature faults are checkPlan's `curvature` violations (tighter than 1/R + 5 %).",
  );
  lines.push('');
  for (const c of out.configs) {
    const rs = out.runs.filter((r) => r.config === c.id);
    const notable = rs.filter(
      (r) =>
        r.refused ||
        (r.joinsNotFitted ?? 0) > 0 ||
        (r.offFieldMeters ?? 0) > 0 ||
        (r.transitLegs ?? []).length > 0 ||
        (r.curvatureFaults ?? 0) > 0 ||
        Object.keys(r.violations ?? {}).length > 0 ||
        (r.geos && ('error' in r.geos || !r.geos.ok)) ||
        (r.uncoveredRatio ?? 0) > 0.05,
    );
    lines.push(
      `<details><summary>${c.label}: ${notable.length} fields refused, with a defect, or over 5 % uncovered</summary>`,
    );
    lines.push('');
    lines.push(
      '| field | uncovered | overlap | non-working ÷ working | joins not fitted | off the field m | transit legs ' +
        'm, off the field m (unwarned) | checkPlan violations | GEOS | warnings |',
    );
    lines.push('|---|---|---|---|---|---|---|---|---|---|');
    for (const r of notable) {
      if (r.refused) {
        lines.push(`| ${r.field} | refused: ${r.refused.replace(/\|/g, '\\|').slice(0, 160)} | | | | | | | | |`);
        continue;
      }
      const legs = r.transitLegs ?? [];
      const geos = !r.geos
        ? ''
        : 'error' in r.geos
          ? `error: ${r.geos.error.slice(0, 80)}`
          : `${r.geos.ok ? 'ok' : 'fails'}${r.geos.outsideMeters > 0 ? `, ${r.geos.outsideMeters} m off` : ''}` +
            `${r.geos.curvatureFaults > 0 ? `, ${r.geos.curvatureFaults} curvature` : ''}`;
      const kv = (o: Record<string, number> | undefined): string =>
        Object.entries(o ?? {})
          .map(([k, v]) => `${k} ${v}`)
          .join(', ');
      const offFieldByKind = r.offFieldMeters
        ? ` (${Object.entries(r.offFieldByKind ?? {})
            .map(([k, v]) => `${k} ${v.toFixed(1)}`)
            .join(', ')})`
        : '';
      const legCells = legs.map((l) => `${l.lengthMeters.toFixed(0)}, ${l.offFieldMeters.toFixed(0)}`).join('; ');
      const legsCell = legs.length ? `${legCells} (${legs.filter((l) => !l.warned).length})` : '';
      lines.push(
        `| ${r.field} | ${pct(r.uncoveredRatio)} | ${pct(r.overlapRatio)} | ${r.nonWorkingRatio?.toFixed(3)} | ` +
          `${r.joinsNotFitted} | ${r.offFieldMeters?.toFixed(1)}${offFieldByKind} | ${legsCell} | ` +
          `${kv(r.violations)} | ${geos} | ${kv(r.warnings)} |`,
      );
    }
    lines.push('');
    lines.push('</details>');
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}

/**
 * Replaces the named block of the machines page (between its markers), keeping the others (e.g. the "before" figures).
 */
export function spliceMachinesPage(doc: string, name: string, heading: string, body: string): string {
  const start = `<!-- machines:${name}:start -->`;
  const end = `<!-- machines:${name}:end -->`;
  const section = `${start}\n${body}\n${end}`;
  const a = doc.indexOf(start),
    b = doc.indexOf(end);
  if (a >= 0 && b > a) return doc.slice(0, a) + section + doc.slice(b + end.length);
  return `${doc.trimEnd()}\n\n## ${heading}\n\n${section}\n`;
}

/** One line of docs/BENCHMARKS.md's table: the headline figures of the run. */
export function machinesHeadline(out: MachinesOutcome): string {
  return out.configs
    .map((c) => {
      const planned = out.runs.filter((r) => r.config === c.id && !r.refused);
      const refused = out.runs.filter((r) => r.config === c.id && r.refused).length;
      const legs = planned.flatMap((r) => r.transitLegs ?? []);
      return (
        `${c.id}: ${refused} refused, uncovered median ${pct(median(planned.map((r) => r.uncoveredRatio!)))}, ` +
        `non-working ÷ working ${median(planned.map((r) => r.nonWorkingRatio!)).toFixed(2)}, ` +
        `${sum(planned.map((r) => r.joinsNotFitted ?? 0))} joins not fitted, ` +
        `${sum(planned.map((r) => r.offFieldMeters ?? 0)).toFixed(0)} m off the field, ${legs.length} transit ` +
        `legs (${legs.filter((l) => !l.warned).length} unwarned)`
      );
    })
    .join('; ');
}

export const MACHINES_PAGE = 'docs/benchmarks/machines.md';

/**
 * The section hook of `furrow bench`: runs, prints, and (for a whole run) rewrites the page block `--machines-as`
 * (default `current`).
 */
export async function runMachinesSection(opts: MachinesOptions & { write?: boolean }, command: string): Promise<void> {
  const out = await benchMachines(opts);
  let commit = opts.at ?? 'unknown';
  if (!opts.at) {
    try {
      commit = (await run('git', ['rev-parse', '--short', 'HEAD'])).stdout.trim();
    } catch {
      // not a git checkout
    }
  }
  const body = summariseMachines(out, command, commit);
  process.stdout.write(`${body.split('<details>')[0]}\n`);
  if (opts.write !== false && out.complete) {
    const name = opts.machinesAs ?? 'current';
    const doc = existsSync(MACHINES_PAGE)
      ? await readFile(MACHINES_PAGE, 'utf8')
      : '# Real machines on the corpus (`npm run bench -- --section machines`)\n';
    await writeFile(
      MACHINES_PAGE,
      spliceMachinesPage(doc, name, name === 'current' ? 'Current figures' : `Figures: ${name}`, body),
    );
    process.stderr.write(`wrote ${MACHINES_PAGE} (block ${name}); headline: ${machinesHeadline(out)}\n`);
  } else if (!out.complete) process.stderr.write(`a subset (--fields / --config): ${MACHINES_PAGE} left alone\n`);
}
