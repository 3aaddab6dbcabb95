/**
 * Reading a fleet plan (`POST /api/path-plans/fleet/geojson`, docs/fleet.md): the machines with their
 * timed routes and waits, the fleet's summary, and where each machine is at a given moment. A machine
 * moves at an even pace along each route piece between the piece's `startSeconds` and `endSeconds`
 * (docs/fleet.md "Output"), stands still between pieces (its waits), is not yet on the field before its
 * first piece and stays where it finished after its last. Pure functions, no DOM: unit-tested in Node.
 */
import type { Feature, FeatureCollection, Position } from './geo.js';
import { distanceMeters, linesOf } from './route.js';

/** A wait the scheduler put in: the machine stands at `position` so that another one keeps its distance. */
export interface FleetWaitView {
  position: Position;
  startSeconds: number;
  durationSeconds: number;
  givesWayTo: string;
}

/** One machine of a fleet plan: its route pieces in driving order and its waits. */
export interface FleetMachineView {
  machineId: string;
  route: Feature[];
  waits: FleetWaitView[];
  /** When it drives onto the field and when it is done, seconds from the fleet's start. */
  startSeconds: number;
  finishSeconds: number;
}

/** The fleet's figures the view shows (the GeoJSON's foreign member `fleet`). */
export interface FleetFigures {
  makespanSeconds: number;
  lowerBoundSeconds?: number;
  gapRatio?: number;
  waitSeconds?: number;
  safetyDistanceMeters?: number;
  singleMachineTimeSeconds?: number;
}

export interface FleetView {
  machines: FleetMachineView[];
  figures: FleetFigures;
}

function num(x: unknown): number | undefined {
  return typeof x === 'number' && Number.isFinite(x) ? x : undefined;
}

function isPosition(x: unknown): x is Position {
  return Array.isArray(x) && typeof x[0] === 'number' && typeof x[1] === 'number';
}

/**
 * The machines of a fleet FeatureCollection, in the order they first appear, each with its timed route
 * pieces (sorted by `startSeconds`, then `sequence`) and its `Wait` points. A route piece without times or
 * without a machine is not the fleet's and is left out.
 */
export function readFleet(fc: FeatureCollection): FleetView {
  const byId = new Map<string, FleetMachineView>();
  const machine = (id: string): FleetMachineView => {
    let m = byId.get(id);
    if (!m) byId.set(id, (m = { machineId: id, route: [], waits: [], startSeconds: 0, finishSeconds: 0 }));
    return m;
  };
  for (const f of fc.features) {
    const p = f.properties ?? {};
    const id = p['machineId'];
    if (typeof id !== 'string') continue;
    if (p['type'] === 'Wait') {
      const position = (f.geometry?.coordinates as unknown) ?? undefined;
      const start = num(p['startSeconds']);
      const duration = num(p['durationSeconds']);
      if (!isPosition(position) || start === undefined || duration === undefined) continue;
      const givesWayTo = typeof p['givesWayTo'] === 'string' ? p['givesWayTo'] : '';
      machine(id).waits.push({ position, startSeconds: start, durationSeconds: duration, givesWayTo });
    } else if (num(p['startSeconds']) !== undefined && num(p['endSeconds']) !== undefined) {
      if (linesOf(f.geometry).some((l) => l.length > 0)) machine(id).route.push(f);
    }
  }
  const seq = (f: Feature): number => num(f.properties?.['sequence']) ?? 0;
  for (const m of byId.values()) {
    m.route.sort((a, b) => startOf(a) - startOf(b) || seq(a) - seq(b));
    m.waits.sort((a, b) => a.startSeconds - b.startSeconds);
    m.startSeconds = m.route.length > 0 ? startOf(m.route[0]) : 0;
    m.finishSeconds = m.route.reduce((t, f) => Math.max(t, endOf(f)), 0);
  }
  const machines = [...byId.values()];
  const raw = (fc['fleet'] ?? {}) as Record<string, unknown>;
  const figures: FleetFigures = {
    makespanSeconds: num(raw['makespanSeconds']) ?? Math.max(0, ...machines.map((m) => m.finishSeconds)),
  };
  for (const k of [
    'lowerBoundSeconds',
    'gapRatio',
    'waitSeconds',
    'safetyDistanceMeters',
    'singleMachineTimeSeconds',
  ]) {
    const v = num(raw[k]);
    if (v !== undefined) (figures as unknown as Record<string, number>)[k] = v;
  }
  return { machines, figures };
}

function startOf(f: Feature): number {
  return num(f.properties?.['startSeconds']) ?? 0;
}

function endOf(f: Feature): number {
  return num(f.properties?.['endSeconds']) ?? 0;
}

/** A machine's route as one timed polyline: vertices with their times (never decreasing) and their piece. */
export interface MachineTimeline {
  machineId: string;
  positions: Position[];
  timesSeconds: number[];
  /** Index into the machine's route of the piece each vertex belongs to. */
  pieceIndex: number[];
  startSeconds: number;
  finishSeconds: number;
}

/**
 * The timeline of one machine: every vertex of every piece, timed by the share of the piece's length
 * driven to it (an even pace between the piece's `startSeconds` and `endSeconds`).
 */
export function machineTimeline(m: FleetMachineView): MachineTimeline {
  const positions: Position[] = [];
  const times: number[] = [];
  const pieceIndex: number[] = [];
  m.route.forEach((f, index) => {
    const line = linesOf(f.geometry).flat();
    const start = startOf(f);
    const end = Math.max(start, endOf(f));
    let total = 0;
    for (let i = 1; i < line.length; i++) total += distanceMeters(line[i - 1], line[i]);
    let along = 0;
    for (let i = 0; i < line.length; i++) {
      if (i > 0) along += distanceMeters(line[i - 1], line[i]);
      const share = total > 0 ? along / total : i === line.length - 1 ? 1 : 0;
      // Never before the previous vertex (a piece starting before the last one ended is read as starting then).
      const t = Math.max(start + (end - start) * share, times.length > 0 ? times[times.length - 1] : -Infinity);
      positions.push(line[i]);
      times.push(t);
      pieceIndex.push(index);
    }
  });
  return {
    machineId: m.machineId,
    positions,
    timesSeconds: times,
    pieceIndex,
    startSeconds: m.startSeconds,
    finishSeconds: m.finishSeconds,
  };
}

/** What a machine is doing at a moment. */
export type MachineState = 'not-started' | 'driving' | 'waiting' | 'finished';

export interface MachineAt {
  position: Position;
  state: MachineState;
  /** The piece it drives, or the piece it waits before (undefined before its start and after its finish). */
  pieceIndex?: number;
}

/** Where the machine of `tl` is at `seconds` (undefined for a machine with no route). */
export function machineAt(tl: MachineTimeline, seconds: number): MachineAt | undefined {
  const n = tl.positions.length;
  if (n === 0) return undefined;
  const times = tl.timesSeconds;
  if (!(seconds >= times[0])) return { position: tl.positions[0], state: 'not-started' };
  if (seconds >= times[n - 1]) {
    return seconds > times[n - 1] || n === 1
      ? { position: tl.positions[n - 1], state: 'finished' }
      : { position: tl.positions[n - 1], state: 'driving', pieceIndex: tl.pieceIndex[n - 1] };
  }
  // The last vertex at or before `seconds` (times[0] <= seconds < times[n - 1]).
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= seconds) lo = mid;
    else hi = mid;
  }
  const a = tl.positions[lo];
  const b = tl.positions[hi];
  const u = times[hi] > times[lo] ? (seconds - times[lo]) / (times[hi] - times[lo]) : 1;
  const position: Position = [a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u];
  // Between two pieces (the one ended, the next not begun) the machine waits.
  const between = tl.pieceIndex[lo] !== tl.pieceIndex[hi];
  return between
    ? { position: a, state: 'waiting', pieceIndex: tl.pieceIndex[hi] }
    : { position, state: 'driving', pieceIndex: tl.pieceIndex[hi] };
}

/** "12 %" for a gap ratio (makespan ÷ lower bound − 1). */
export function gapText(gapRatio: number): string {
  return `${Math.round(gapRatio * 1000) / 10} %`;
}

/**
 * The machines' colours, in fleet order (the 5th machine takes the 1st colour again): dark enough for
 * 4.5:1 against the map's backgrounds and against white (the marker's number), and apart in hue for
 * colour-blind eyes (blue, rust, teal, purple); the markers and the legend also carry the machine's number.
 */
export const FLEET_COLORS = ['#0b5cad', '#a63a0a', '#006b5f', '#8e24aa'] as const;

export function fleetColor(index: number): string {
  return FLEET_COLORS[index % FLEET_COLORS.length];
}

/** The fleet request for `k` copies of the request's machine (ids m1…mk). */
export function fleetRequest(request: Record<string, unknown>, k: number): Record<string, unknown> {
  const { machine, ...rest } = request;
  const base = (typeof machine === 'object' && machine !== null ? machine : {}) as Record<string, unknown>;
  return { ...rest, fleet: Array.from({ length: k }, (_, i) => ({ ...base, id: `m${i + 1}` })) };
}
