/**
 * The fleet's timetable: machines are scheduled one after the other in a priority order; each drives
 * its pieces as soon as it can, and before a piece that would bring it within the safety distance of a
 * machine already scheduled it waits where it stands (a listed wait) until the piece is clear. A
 * machine also waits before a pass another machine is on at that time (parts of one headland pass). A
 * machine is on the field from the start of its first piece to the end of its last (a wait before its
 * first piece is a later entry).
 *
 * Positions are compared at times as far apart as two machines closing at twice the top speed need to come
 * within the safety distance (conservative advancement), and at least CLOSE_STEP_SECONDS apart where they pass
 * near it: two samples that far apart, each at least the safety distance plus what two machines close in half
 * that step, keep the whole step clear. So a conflict is a place closer than the safety distance plus a few
 * centimetres, not plus the distance covered in a coarse step (a near pass at 6.3 m with a 6 m safety distance is
 * clear); and only where the pieces' boxes come within reach. The work (box tests and distance comparisons) is counted:
 * the caller's budget bounds it, whatever the clock.
 */
import { boxOf } from './baseRoute.js';
export interface TimedPath {
  /** Local xy of each piece, in driving order, and the pass it works (none for turns and connectors). */
  pieces: { xy: Float64Array; passKey?: string; box?: Box }[];
  /** Seconds over each piece. */
  seconds: number[];
  /** The machine cannot start its first piece before this (it comes from its start point), seconds. */
  readySeconds?: number;
}

export interface ScheduledWait {
  machine: number;
  beforePiece: number;
  startSeconds: number;
  durationSeconds: number;
  givesWayTo: number;
}

export interface Timetable {
  /** Start of each piece, per machine. */
  starts: number[][];
  finishSeconds: number[];
  waits: ScheduledWait[];
  /** Pieces no wait could clear (the scheduler drove them as planned). */
  unresolved: number;
  makespanSeconds: number;
  /** Box tests and distance comparisons made. */
  work: number;
  /**
   * Scheduling stopped once the timetable could no longer beat the caller's `cutoff` (the machines left were not
   * scheduled: `starts` is partial, the figures are those of the machines scheduled, each a bound on the whole's).
   */
  abandoned?: true;
}

/**
 * A timetable to beat: scheduling stops once the machines scheduled so far leave more unresolved pieces, or as
 * many and a later finish (later machines only add to both).
 */
export interface ScheduleCutoff {
  unresolved: number;
  makespanSeconds: number;
}

/** Whether the figures so far already lose to the cutoff (search.ts compares timetables the same way). */
function beyond(cutoff: ScheduleCutoff | undefined, unresolved: number, makespanSeconds: number): boolean {
  if (!cutoff) return false;
  if (unresolved !== cutoff.unresolved) return unresolved > cutoff.unresolved;
  return makespanSeconds > cutoff.makespanSeconds + 1e-6;
}

export interface ScheduleSettings {
  safetyMeters: number;
  /** The fastest any machine moves, m/s (bounds the closing speed between samples). */
  maxSpeedMetersPerSecond: number;
  /** Longest wait tried before one piece, seconds. */
  maxWaitSeconds?: number;
}

const MAX_STEP_SECONDS = 0.25;
/** The shortest step between two comparisons, where two machines pass near the safety distance, seconds. */
const CLOSE_STEP_SECONDS = 0.02;

export function timeStepSeconds(settings: ScheduleSettings): number {
  const v = Math.max(0.1, settings.maxSpeedMetersPerSecond);
  return Math.min(MAX_STEP_SECONDS, Math.max(0.02, settings.safetyMeters / (8 * v)));
}

type Box = [number, number, number, number];

/** A machine already scheduled: its pieces, their boxes and times. */
class Placed {
  readonly boxes: Box[];
  private readonly cursor = new PathCursor();
  private current = -1;

  constructor(
    readonly machine: number,
    readonly path: TimedPath,
    readonly starts: number[],
  ) {
    this.boxes = path.pieces.map((p) => p.box ?? boxOf(p.xy));
  }

  get first(): number {
    return this.starts.length > 0 ? this.starts[0] : Infinity;
  }
  get last(): number {
    const n = this.starts.length;
    return n > 0 ? this.starts[n - 1] + this.path.seconds[n - 1] : -Infinity;
  }

  /** The last piece started at or before t (-1 before the first). */
  pieceAt(t: number): number {
    let lo = 0,
      hi = this.starts.length - 1,
      found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid] <= t) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** Where the machine is at t (standing at a piece's end through a wait). */
  at(t: number, out: number[]): void {
    // Mostly asked in increasing t: the piece of the last call, if t is still in it, else searched.
    const c = this.current,
      s = this.starts;
    const j = c >= 0 && s[c] <= t && (c + 1 >= s.length || s[c + 1] > t) ? c : this.pieceAt(t);
    if (j !== this.current) {
      this.current = j;
      this.cursor.reset(this.path.pieces[j].xy, this.starts[j], this.path.seconds[j]);
    }
    this.cursor.at(t, out);
  }
}

interface Probe {
  box: Box;
  t0: number;
  t1: number;
  pos: (t: number, out: number[]) => void;
}

/** Backtracks (a longer wait at an earlier place) one machine may make before a piece is left unresolved. */
const MAX_BACKTRACKS = 256;
/** How far back (pieces) a machine may go to wait at an earlier place. */
const MAX_BACK_PIECES = 48;

interface Scheduling {
  settings: ScheduleSettings;
  dt: number;
  /** A conflict: closer than this (the safety distance plus what two machines close in half a close step). */
  reach: number;
  speed: number;
  maxWait: number;
  placed: Placed[];
  onPass: Map<string, { machine: number; from: number; to: number }[]>;
  counter: { work: number };
  cursor: PathCursor;
}

/** The next wait tried after `w` seconds. */
function nextWait(w: number, dt: number): number {
  return w + Math.max(1, 4 * dt, w / 10);
}

/** The next wait tried at an earlier place: half as long again (a few tries reach a long wait). */
function longerWait(w: number, dt: number): number {
  return w + Math.max(1, 4 * dt, w / 2);
}

/**
 * The shortest wait of at least `minWait` before piece j (from t) that clears it, the machine standing where piece
 * j starts meanwhile (that place must stay clear too, once on the field: j > 0); ok false if none does.
 */
function placePiece(
  x: Scheduling,
  path: TimedPath,
  j: number,
  t: number,
  minWait: number,
): { ok: boolean; w: number; blocker: number } {
  const { placed, dt, reach, speed, counter } = x;
  const safety = x.settings.safetyMeters;
  const d = path.seconds[j];
  const xy = path.pieces[j].xy;
  const box = path.pieces[j].box ?? boxOf(xy);
  counter.work++;
  const sx = j > 0 ? path.pieces[j - 1].xy.at(-2)! : xy[0],
    sy = j > 0 ? path.pieces[j - 1].xy.at(-1)! : xy[1];
  const standBox: Box = [sx, sy, sx, sy];
  const stand = (_t: number, out: number[]): void => {
    out[0] = sx;
    out[1] = sy;
  };
  const standClash = (t0: number, t1: number): number =>
    j > 0 ? clash(placed, { box: standBox, t0: t0 + 1e-9, t1, pos: stand }, safety, reach, speed, counter) : -1;
  if (minWait > 0) {
    const hit = standClash(t, t + minWait);
    if (hit >= 0) return { ok: false, w: 0, blocker: hit };
  }
  let w = minWait,
    blocker = -1;
  for (;;) {
    const t0 = t + w;
    const busy = passBusy(x.onPass, path.pieces[j].passKey, t0, t0 + d);
    x.cursor.reset(xy, t0, d);
    const drive: Probe = { box, t0, t1: t0 + d, pos: (tt, out) => x.cursor.at(tt, out) };
    const hit = busy ? busy.machine : clash(placed, drive, safety, reach, speed, counter);
    if (hit < 0) return { ok: true, w, blocker };
    blocker = hit;
    const next = busy ? Math.max(w + dt, busy.until - t) : nextWait(w, dt);
    // Waiting where it stands must itself keep clear.
    if (standClash(t0, t + next) >= 0 || next > x.maxWait) return { ok: false, w: 0, blocker };
    w = next;
  }
}

/**
 * One machine's timetable against the machines placed before it: each piece as soon as it is clear; where no wait
 * where the machine stands clears a piece (a head-on meeting: the other comes to where it would wait), it waits
 * longer at an earlier place — before the piece before, and so on back — and drives on from there.
 */
function scheduleMachine(
  x: Scheduling,
  m: number,
  path: TimedPath,
): { starts: number[]; waits: ScheduledWait[]; unresolved: number } {
  const n = path.pieces.length;
  const forced = new Float64Array(n),
    before = new Float64Array(n),
    waitAt = new Float64Array(n),
    blockerAt = new Int32Array(n).fill(-1),
    starts: number[] = new Array<number>(n).fill(0);
  let j = 0,
    t = path.readySeconds ?? 0,
    backtracks = 0,
    unresolved = 0;
  while (j < n) {
    const r = placePiece(x, path, j, t, forced[j]);
    if (!r.ok && j > 0 && backtracks < MAX_BACKTRACKS) {
      // Wait longer before the piece before (or further back once a wait there would pass the longest).
      // The delay tried here carries back: a stop earlier on needs at least as long.
      let k = j - 1;
      const from = (i: number): number => Math.max(forced[i], waitAt[i], i === j - 1 ? forced[j] : 0);
      while (k > 0 && j - k < MAX_BACK_PIECES && longerWait(from(k), x.dt) > x.maxWait) k--;
      const w = longerWait(from(k), x.dt);
      if (w <= x.maxWait) {
        backtracks++;
        forced[k] = w;
        for (let i = k + 1; i <= j; i++) forced[i] = 0;
        j = k;
        t = before[k];
        continue;
      }
    }
    const w = r.ok ? r.w : 0;
    if (!r.ok) unresolved++;
    before[j] = t;
    waitAt[j] = w;
    blockerAt[j] = r.blocker;
    t += w;
    starts[j] = t;
    t += path.seconds[j];
    j++;
  }
  const waits: ScheduledWait[] = [];
  for (let i = 0; i < n; i++)
    if (waitAt[i] > 0)
      waits.push({
        machine: m,
        beforePiece: i,
        startSeconds: before[i],
        durationSeconds: waitAt[i],
        givesWayTo: blockerAt[i],
      });
  return { starts, waits, unresolved };
}

/** Schedules the paths in the given priority order (stopping early once it cannot beat `cutoff`). */
export function scheduleFleet(
  paths: readonly TimedPath[],
  order: readonly number[],
  settings: ScheduleSettings,
  cutoff?: ScheduleCutoff,
): Timetable {
  const dt = timeStepSeconds(settings);
  const x: Scheduling = {
    settings,
    dt,
    reach: settings.safetyMeters + Math.max(0.1, settings.maxSpeedMetersPerSecond) * CLOSE_STEP_SECONDS,
    speed: Math.max(0.1, settings.maxSpeedMetersPerSecond),
    maxWait: settings.maxWaitSeconds ?? 3600,
    placed: [],
    onPass: new Map(),
    counter: { work: 0 },
    cursor: new PathCursor(),
  };
  const starts: number[][] = paths.map(() => []);
  const waits: ScheduledWait[] = [];
  let unresolved = 0,
    latest = 0;
  for (const m of order) {
    const path = paths[m];
    const done = scheduleMachine(x, m, path);
    starts[m] = done.starts;
    waits.push(...done.waits);
    unresolved += done.unresolved;
    if (path.pieces.length > 0) latest = Math.max(latest, done.starts.at(-1)! + path.seconds.at(-1)!);
    if (beyond(cutoff, unresolved, latest)) {
      const finishSeconds = paths.map((_, i) => (i === m ? latest : 0));
      return {
        starts,
        finishSeconds,
        waits,
        unresolved,
        makespanSeconds: latest,
        work: x.counter.work,
        abandoned: true,
      };
    }
    path.pieces.forEach((p, j) => {
      if (p.passKey)
        x.onPass.set(p.passKey, [
          ...(x.onPass.get(p.passKey) ?? []),
          { machine: m, from: done.starts[j], to: done.starts[j] + path.seconds[j] },
        ]);
    });
    x.placed.push(new Placed(m, path, starts[m]));
  }
  const finishSeconds = paths.map((p, m) => (p.pieces.length > 0 ? starts[m].at(-1)! + p.seconds.at(-1)! : 0));
  return {
    starts,
    finishSeconds,
    waits,
    unresolved,
    makespanSeconds: Math.max(0, ...finishSeconds),
    work: x.counter.work,
  };
}

/** Another machine on this pass during [t0, t1]: the one whose time there ends last, and when. */
function passBusy(
  onPass: Map<string, { machine: number; from: number; to: number }[]>,
  key: string | undefined,
  t0: number,
  t1: number,
): { until: number; machine: number } | undefined {
  let found: { until: number; machine: number } | undefined;
  for (const iv of (key && onPass.get(key)) || [])
    if (iv.from < t1 && iv.to > t0 && (!found || iv.to > found.until)) found = { until: iv.to, machine: iv.machine };
  return found;
}

/** The first placed machine within reach of the probe over its time span, or -1. */
function clash(
  placed: readonly Placed[],
  probe: Probe,
  safety: number,
  reach: number,
  speed: number,
  counter: { work: number },
): number {
  const reach2 = reach * reach;
  const p = [0, 0],
    q = [0, 0];
  for (const f of placed) {
    const from = Math.max(probe.t0, f.first),
      to = Math.min(probe.t1, f.last);
    if (from > to) continue;
    // Only where one of its pieces over the span comes within reach of the probe's box.
    let near = false;
    for (let k = Math.max(0, f.pieceAt(from)); k <= f.pieceAt(to); k++) {
      counter.work++;
      const b = f.boxes[k];
      if (
        b[0] - reach <= probe.box[2] &&
        b[2] + reach >= probe.box[0] &&
        b[1] - reach <= probe.box[3] &&
        b[3] + reach >= probe.box[1]
      ) {
        near = true;
        break;
      }
    }
    if (!near) continue;
    // Conservative advancement: two machines closing at most at 2 v cannot come within the safety distance sooner
    // than this; where that is under a close step, the next comparison (also outside reach) keeps the step clear.
    for (let t = from; t <= to;) {
      counter.work++;
      probe.pos(t, p);
      f.at(t, q);
      const dx = p[0] - q[0],
        dy = p[1] - q[1];
      const d2 = dx * dx + dy * dy;
      if (d2 < reach2) return f.machine;
      t += Math.max(CLOSE_STEP_SECONDS, (Math.sqrt(d2) - safety) / (2 * speed));
    }
  }
  return -1;
}

/** A polyline's edge lengths and their sum (in order), made once per polyline. */
interface Lengths {
  edges: Float64Array;
  total: number;
}

const LENGTHS = new WeakMap<Float64Array, Lengths>();

function lengthsOf(xy: Float64Array): Lengths {
  let out = LENGTHS.get(xy);
  if (!out) {
    const edges = new Float64Array(Math.max(0, xy.length / 2 - 1));
    let total = 0;
    for (let k = 2; k < xy.length; k += 2) {
      const l = Math.hypot(xy[k] - xy[k - 2], xy[k + 1] - xy[k - 1]);
      edges[k / 2 - 1] = l;
      total += l;
    }
    out = { edges, total };
    LENGTHS.set(xy, out);
  }
  return out;
}

/** Positions along one piece driven at an even pace from `t0` for `d` seconds (times asked in increasing order). */
class PathCursor {
  private xy: Float64Array = new Float64Array(0);
  private edges: Float64Array = new Float64Array(0);
  private t0 = 0;
  private d = 0;
  private total = 0;
  private i = 0;
  private done = 0;

  reset(xy: Float64Array, t0: number, d: number): void {
    const lengths = lengthsOf(xy);
    this.xy = xy;
    this.edges = lengths.edges;
    this.t0 = t0;
    this.d = d;
    this.total = lengths.total;
    this.i = 0;
    this.done = 0;
  }

  at(t: number, out: number[]): void {
    const xy = this.xy;
    const f = this.d > 0 ? Math.min(1, Math.max(0, (t - this.t0) / this.d)) : 1;
    const s = f * this.total;
    if (s < this.done) {
      this.i = 0;
      this.done = 0;
    }
    while (this.i + 3 < xy.length) {
      const l = this.edges[this.i >> 1];
      if (this.done + l >= s) {
        const u = l > 0 ? (s - this.done) / l : 0;
        out[0] = xy[this.i] + (xy[this.i + 2] - xy[this.i]) * u;
        out[1] = xy[this.i + 1] + (xy[this.i + 3] - xy[this.i + 1]) * u;
        return;
      }
      this.done += l;
      this.i += 2;
    }
    out[0] = xy[xy.length - 2];
    out[1] = xy[xy.length - 1];
  }
}
