/**
 * Last-resort connector search (hybrid A*, Dolgov et al. 2008): when no single manoeuvre,
 * headland traversal or waypoint chain fits (narrow necks, sharp corners between two arms of
 * a field), search forward motions of bounded curvature through the field itself.
 *
 * States are continuous poses; the closed set is a grid of cells × heading bins. Each
 * expansion drives one short primitive (straight, or an arc of radius R or 2R either way)
 * that must lie inside the field. The heuristic is the obstacle-aware distance to the goal
 * over a raster of the field (a 2-D Dijkstra from the goal, route/fieldRaster.ts), so the search is drawn through
 * necks rather than into dead ends. Whenever the goal is near (and now and then otherwise) a
 * direct manoeuvre to the goal is tried (analytic expansion); the path found is then
 * shortened by replacing runs of primitives with direct manoeuvres where those fit.
 *
 * Forward only and curvature ≤ 1/R everywhere (primitives are tangent arcs and lines, as
 * Dubins paths are): the result passes the same curvature measure as any turn.
 */
import type { Region } from '../geometry/region.js';
import { goalField } from './fieldRaster.js';
import type { RasterWindow } from './fieldRaster.js';
import type { Pose } from '../turns/types.js';
import { TWO_PI, mod2pi, wrapPi } from '../turns/angles.js';
import { hypot } from '../geometry/vec.js';
import { TraceRecorder, type SearchTrace } from './searchTrace.js';

export type { SearchTrace } from './searchTrace.js';

/** A manoeuvre between two poses inside the field, or undefined (e.g. `tryDirect`). */
export type Shot = (from: Pose, to: Pose) => ArrayLike<number> | undefined;

export interface SearchLimits {
  /** Minimum turning radius, meters. */
  turnRadiusMeters: number;
  /**
   * Expansions before giving up. Default: 8000, more for a far goal (`defaultExpansions`: a
   * connection across a large field needs hundreds of primitives on its shortest way alone).
   */
  maxExpansions?: number;
  /** Distance between output points, meters (≤ 0.5 for checkPlan). */
  sampleStepMeters?: number;
  /** Rasterise only this window, at this cell size, for the heuristic (default: the whole field, extent/600). */
  window?: RasterWindow;
  /** The caller's deadline: once true, the search gives up (returns undefined) within a few dozen expansions. */
  abort?: () => boolean;
  /**
   * Far from the goal (more than 6R by the heuristic), a direct manoeuvre to it is tried at one
   * expansion in this many (default 16). 1: at every expansion — slower, but finds ways whose
   * last manoeuvre is a full turn in a small bay (the expanded primitives alone often miss it).
   */
  shotEveryExpansions?: number;
  /**
   * The caller has no use for a way longer than this (a length budget: `RouteContext.lengthBudget`): the search stops
   * once the least key of its open nodes is over `PATH_BOUND_SLACK` times it (every way through them is longer, with
   * room for the heuristic's raster and the weighting), and calls `onPathTooLong`.
   */
  maxPathMeters?: number;
  onPathTooLong?: () => void;
}

/**
 * The factor between a length budget and the search key (g + 1.2 × heuristic) that stops the search: the weighting
 * (1.2), the raster heuristic's overestimate (8-neighbour steps, up to 8 %), and as much again for the way's
 * shortening after the search (`shortenedPath`). A margin, not a proof (that shortening has no bound): over the
 * corpus the passes-between budget left every plan as it was.
 */
export const PATH_BOUND_SLACK = 2;

/** Heading classes of the searches' closed sets (5° each). */
export const HEADING_BINS = 72;

/** The heading class of a heading, radians (0 … HEADING_BINS − 1). */
export function headingBin(h: number): number {
  return Math.round(mod2pi(h) / (TWO_PI / HEADING_BINS)) % HEADING_BINS;
}

/**
 * Minimal binary heap of (key, value) pairs, smallest key first; values are integers (node ids,
 * raster cells). Keys and values in typed arrays, grown by doubling.
 */
export class Heap {
  private keys = new Float64Array(64);
  private vals = new Int32Array(64);
  private n = 0;
  get size(): number {
    return this.n;
  }
  /** The smallest key (the heap must not be empty). */
  peekKey(): number {
    return this.keys[0];
  }
  push(key: number, val: number): void {
    if (this.n === this.keys.length) this.grow();
    const keys = this.keys,
      vals = this.vals;
    let i = this.n++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (keys[p] <= key) break;
      keys[i] = keys[p];
      vals[i] = vals[p];
      i = p;
    }
    keys[i] = key;
    vals[i] = val;
  }
  /** Removes the smallest; returns its value. */
  pop(): number {
    const keys = this.keys,
      vals = this.vals;
    const top = vals[0];
    const n = --this.n;
    const lastK = keys[n],
      lastV = vals[n];
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && keys[r] < keys[l] ? r : l;
        if (keys[c] >= lastK) break;
        keys[i] = keys[c];
        vals[i] = vals[c];
        i = c;
      }
      keys[i] = lastK;
      vals[i] = lastV;
    }
    return top;
  }
  private grow(): void {
    const keys = new Float64Array(2 * this.keys.length),
      vals = new Int32Array(2 * this.vals.length);
    keys.set(this.keys);
    vals.set(this.vals);
    this.keys = keys;
    this.vals = vals;
  }
}

/**
 * Samples a primitive from pose (x, y, h), `ch` = cos h and `sh` = sin h (shared by the primitives
 * of one pose): length L, curvature k; points after the start, every ≤ step.
 */
function drive(
  x: number,
  y: number,
  h: number,
  ch: number,
  sh: number,
  L: number,
  k: number,
  step: number,
  out: number[],
): void {
  const n = Math.max(1, Math.ceil(L / step));
  if (k === 0) {
    for (let i = 1; i <= n; i++) {
      const s = (L * i) / n;
      out.push(x + s * ch, y + s * sh);
    }
    return;
  }
  const r = 1 / k;
  for (let i = 1; i <= n; i++) {
    const s = (L * i) / n;
    out.push(x + r * (Math.sin(h + k * s) - sh), y - r * (Math.cos(h + k * s) - ch));
  }
}

/** Keys below this are small integers (V8's Smi range): the searches' compact closed-set keys. */
const COMPACT_KEYS = 2 ** 30;

/**
 * Searches a forward path of bounded curvature from `from` to `to` inside `region`. `shot` joins
 * two poses directly (and checks the field). Returns the dense polyline, or undefined.
 */
export function searchConnector(
  from: Pose,
  to: Pose,
  region: Region,
  shot: Shot,
  limits: SearchLimits,
  record?: (trace: SearchTrace) => void,
): Float64Array | undefined {
  const R = limits.turnRadiusMeters;
  const step = limits.sampleStepMeters ?? 0.5;
  const abort = limits.abort;
  const { raster, distance: heuristic } = goalField(region, to, from, limits.window);
  // Primitives: 15° of an R arc long; straight, R and 2R arcs either way.
  const L = Math.max(0.5, (R * Math.PI) / 12);
  const maxExpansions = limits.maxExpansions ?? defaultExpansions(heuristic(from.x, from.y), L);
  const curvatures = [0, 1 / R, -1 / R, 1 / (2 * R), -1 / (2 * R)];
  const cell = Math.max(0.25, L * 0.7);
  const keyOf = closedSetKeys(raster, cell);
  // Node store.
  const X: number[] = [],
    Y: number[] = [],
    H: number[] = [],
    G: number[] = [],
    D: number[] = [],
    parent: number[] = [];
  const closed = new Set<number>();
  const bestG = new Map<number, number>();
  const heap = new Heap();
  const add = (x: number, y: number, h: number, g: number, p: number): void => {
    const id = X.length;
    const d = heuristic(x, y);
    X.push(x);
    Y.push(y);
    H.push(h);
    G.push(g);
    D.push(d);
    parent.push(p);
    heap.push(g + 1.2 * d, id);
  };
  add(from.x, from.y, from.headingRadians, 0, -1);
  const buf: number[] = [];
  let expansions = 0;
  let goalNode = -1;
  let goalShot: ArrayLike<number> | undefined;
  const near = 6 * R;
  const shotEvery = Math.max(1, Math.floor(limits.shotEveryExpansions ?? 16));
  let pops = 0;
  const rec = record ? new TraceRecorder(region) : undefined;
  const keyBound =
    limits.maxPathMeters !== undefined ? PATH_BOUND_SLACK * (limits.maxPathMeters + 4 * raster.cell) : Infinity;
  while (heap.size > 0 && expansions < maxExpansions) {
    if (abort && (pops & 63) === 0 && abort()) return undefined;
    pops++;
    const id = heap.pop();
    if (G[id] + 1.2 * D[id] > keyBound) {
      limits.onPathTooLong?.();
      return undefined;
    }
    const k = keyOf(X[id], Y[id], H[id]);
    if (closed.has(k)) continue;
    closed.add(k);
    expansions++;
    rec?.expanding(id, pops - 1);
    const pose = { x: X[id], y: Y[id], headingRadians: H[id] };
    if (D[id] < near || expansions % shotEvery === 1 % shotEvery) {
      const s = shot(pose, to);
      rec?.shotTried();
      if (s) {
        goalNode = id;
        goalShot = s;
        break;
      }
    }
    const ch = Math.cos(pose.headingRadians),
      sh = Math.sin(pose.headingRadians);
    for (const kappa of curvatures) {
      buf.length = 0;
      buf.push(pose.x, pose.y);
      drive(pose.x, pose.y, pose.headingRadians, ch, sh, L, kappa, step, buf);
      if (!region.containsPolyline(buf)) continue;
      const n = buf.length;
      const x = buf[n - 2],
        y = buf[n - 1],
        h = pose.headingRadians + kappa * L;
      const nk = keyOf(x, y, h);
      if (closed.has(nk)) continue;
      // Curving costs a little more than driving straight: straighter paths first.
      const g = G[id] + L * (kappa === 0 ? 1 : 1.05);
      const b = bestG.get(nk);
      if (b !== undefined && b <= g) continue;
      bestG.set(nk, g);
      add(x, y, h, g, id);
    }
  }
  if (goalNode < 0 || !goalShot) {
    if (rec && record) record(rec.trace({ X, Y, H, D, parent }, pops, near));
    return undefined;
  }
  return shortenedPath(from, to, posesTo(goalNode, parent, X, Y, H), goalShot, shot, L, step);
}

/** The poses along a search's path, start to `node` (`parent`: each node's, -1 at the start). */
function posesTo(
  node: number,
  parent: ArrayLike<number>,
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  h: ArrayLike<number>,
): Pose[] {
  const poses: Pose[] = [];
  for (let v = node; v >= 0; v = parent[v]) poses.push({ x: x[v], y: y[v], headingRadians: h[v] });
  return poses.reverse();
}

/**
 * What `searchConnector` from `from` to `to` with these limits returns, given the trace of a failed search
 * between the same poses in the same region with the same limits but its shots (`trace`): the expansions are
 * not driven again, only the shots the traced search did not try, and the work of the rest is counted as it
 * was recorded, with the caller's deadline asked at the same pops, so the work clock sees what the search
 * itself would have counted.
 */
export function replaySearch(
  trace: SearchTrace,
  from: Pose,
  to: Pose,
  region: Region,
  shot: Shot,
  limits: SearchLimits,
): Float64Array | undefined {
  const R = limits.turnRadiusMeters;
  const L = Math.max(0.5, (R * Math.PI) / 12);
  const shotEvery = Math.max(1, Math.floor(limits.shotEveryExpansions ?? 16));
  const abort = limits.abort;
  let asked = 0;
  // the deadline asked at every 64th pop up to `pop`, as the search asks it (once is enough: no work between)
  const deadline = (pop: number): boolean => {
    const due = Math.floor(pop / 64) * 64 >= asked;
    asked = Math.floor(pop / 64) * 64 + 64;
    return due && abort !== undefined && abort();
  };
  const n = trace.pops.length;
  for (let e = 0; e < n; e++) {
    if (deadline(trace.pops[e])) return undefined;
    if (trace.d[e] < trace.near || (e + 1) % shotEvery === 1 % shotEvery) {
      if (!Number.isNaN(trace.shotWork[e])) region.work += trace.shotWork[e];
      else {
        const pose = { x: trace.x[e], y: trace.y[e], headingRadians: trace.h[e] };
        const s = shot(pose, to);
        if (s) {
          const poses = posesTo(e, trace.parent, trace.x, trace.y, trace.h);
          return shortenedPath(from, to, poses, s, shot, L, limits.sampleStepMeters ?? 0.5);
        }
      }
    }
    region.work += trace.expandWork[e];
  }
  if (trace.endPops > 0) deadline(trace.endPops - 1);
  return undefined;
}

/**
 * Closed-set keys: node cell and heading class. Over the raster's extent the cells are numbered
 * compactly (keys below 2^30: small integers, cheap in a Set or a Map); a node off it (a window's
 * search) or a field too large for that gets the wide numbering, outside [0, 2^30).
 */
function closedSetKeys(
  raster: { nx: number; ny: number; cell: number; x0: number; y0: number },
  cell: number,
): (x: number, y: number, h: number) => number {
  const gx = Math.ceil((raster.nx * raster.cell) / cell) + 1,
    gy = Math.ceil((raster.ny * raster.cell) / cell) + 1;
  const compact = gx * gy * HEADING_BINS < COMPACT_KEYS;
  return (x: number, y: number, h: number): number => {
    const i = Math.floor((x - raster.x0) / cell),
      j = Math.floor((y - raster.y0) / cell);
    if (compact && i >= 0 && j >= 0 && i < gx && j < gy) return (j * gx + i) * HEADING_BINS + headingBin(h);
    const wide = (j * 1e6 + i) * HEADING_BINS + headingBin(h);
    return wide >= 0 ? wide + COMPACT_KEYS : wide;
  };
}

/**
 * The searched path shortened: from each pose, the farthest later pose (or the goal) a direct manoeuvre
 * reaches; where none does, one primitive (length L) exactly as the search drove it. Ends with `goalShot`.
 */
function shortenedPath(
  from: Pose,
  to: Pose,
  poses: Pose[],
  goalShot: ArrayLike<number>,
  shot: Shot,
  L: number,
  step: number,
): Float64Array {
  const buf: number[] = [];
  const out: number[] = [from.x, from.y];
  const append = (part: ArrayLike<number>): void => {
    for (let i = 2; i < part.length; i++) out.push(part[i]);
  };
  let i = 0;
  let attempts = 0;
  while (i < poses.length - 1) {
    const direct = attempts++ < 400 ? shot(poses[i], to) : undefined;
    if (direct) {
      append(direct);
      return Float64Array.from(out);
    }
    let j = poses.length - 1;
    let joined = false;
    for (; j > i + 1 && attempts < 400; j = Math.max(i + 1, Math.floor((i + j) / 2))) {
      attempts++;
      const s = shot(poses[i], poses[j]);
      if (s) {
        append(s);
        joined = true;
        break;
      }
      if (j === i + 2) {
        j = i + 1;
        break;
      }
    }
    if (!joined) {
      // One primitive, exactly as the search drove it.
      j = i + 1;
      const p = poses[i],
        q = poses[j];
      const kappa = wrapPi(q.headingRadians - p.headingRadians) / L;
      buf.length = 0;
      drive(
        p.x,
        p.y,
        p.headingRadians,
        Math.cos(p.headingRadians),
        Math.sin(p.headingRadians),
        L,
        Math.abs(kappa) < 1e-9 ? 0 : kappa,
        step,
        buf,
      );
      for (let m = 0; m < buf.length; m++) out.push(buf[m]);
      // Land exactly on the stored pose.
      out[out.length - 2] = q.x;
      out[out.length - 1] = q.y;
    }
    i = j;
  }
  append(goalShot);
  return Float64Array.from(out);
}

/**
 * The default expansion budget: 8000, or for a far goal `EXPANSIONS_PER_PRIMITIVE` per primitive
 * of the way inside the field (its raster distance / the primitive length), at most
 * `MAX_DEFAULT_EXPANSIONS`. A fixed 8000 ran out on a 1 km connection in a 58 ha field with
 * 21 holes (it-tus-033) though a path exists (found with 10 000).
 */
const EXPANSIONS_PER_PRIMITIVE = 30;
const MAX_DEFAULT_EXPANSIONS = 40000;
export function defaultExpansions(fieldDistanceMeters: number, primitiveMeters: number): number {
  if (!Number.isFinite(fieldDistanceMeters)) return 8000;
  return Math.min(
    MAX_DEFAULT_EXPANSIONS,
    Math.max(8000, Math.ceil((EXPANSIONS_PER_PRIMITIVE * fieldDistanceMeters) / primitiveMeters)),
  );
}

/**
 * Whether a machine at `pose` can drive forward (arcs of radius ≥ R and straights, inside the
 * field) to somewhere at least `distanceMeters` away (or, with `untilOpen`, to open ground where
 * it can turn round): false in a pocket (the end of a thin strip, a sharp corner) that no forward
 * path leaves. A small search, greedy outwards; with `backwards`, whether the pose can be reached
 * (driving the time-reversed path).
 */
export function canLeave(
  pose: Pose,
  region: Region,
  turnRadiusMeters: number,
  backwards = false,
  distanceMeters = 4 * turnRadiusMeters,
  maxExpansions = 400,
  untilOpen = false,
): boolean {
  return leaveSearch(pose, region, turnRadiusMeters, backwards, distanceMeters, maxExpansions, untilOpen) === 'left';
}

/**
 * Whether the machine at `pose` is shut in: the search of `canLeave` (to open ground or `distanceMeters` away) ran
 * out of places to go within `maxExpansions`, not out of expansions. Everywhere a forward path inside the field takes
 * it is then within that distance and too narrow to turn round in.
 */
export function shutIn(
  pose: Pose,
  region: Region,
  turnRadiusMeters: number,
  distanceMeters: number,
  maxExpansions: number,
): boolean {
  return leaveSearch(pose, region, turnRadiusMeters, false, distanceMeters, maxExpansions, true) === 'shut-in';
}

/** How the search of `canLeave` ended: a way out found, every place reached searched, or expansions spent. */
type LeaveResult = 'left' | 'shut-in' | 'spent';

function leaveSearch(
  pose: Pose,
  region: Region,
  turnRadiusMeters: number,
  backwards: boolean,
  distanceMeters: number,
  maxExpansions: number,
  untilOpen: boolean,
): LeaveResult {
  const R = turnRadiusMeters;
  const L = Math.max(0.5, (R * Math.PI) / 12);
  const curvatures = [0, 1 / R, -1 / R];
  const h0 = backwards ? pose.headingRadians + Math.PI : pose.headingRadians;
  const X: number[] = [pose.x],
    Y: number[] = [pose.y],
    H: number[] = [h0];
  const heap = new Heap();
  heap.push(0, 0);
  const seen = new Set<number>();
  const cell = Math.max(0.25, L * 0.7);
  const buf: number[] = [];
  let expansions = 0;
  while (heap.size > 0 && expansions < maxExpansions) {
    const id = heap.pop();
    const x = X[id],
      y = Y[id],
      h = H[id];
    // the node's cell from the start and its heading class; compact (a small integer) within 1,000 cells, as in
    // searchConnector
    const i = Math.floor((x - pose.x) / cell),
      j = Math.floor((y - pose.y) / cell);
    const wide = (j * 100003 + i) * HEADING_BINS + headingBin(h);
    const key =
      i > -1000 && i < 1000 && j > -1000 && j < 1000
        ? ((j + 1000) * 2001 + i + 1000) * HEADING_BINS + headingBin(h)
        : wide >= 0
          ? wide + COMPACT_KEYS
          : wide;
    if (seen.has(key)) continue;
    seen.add(key);
    expansions++;
    if (hypot(x - pose.x, y - pose.y) >= distanceMeters) return 'left';
    // Open ground: a full circle of radius R (left or right of the machine) fits here, so the
    // machine can turn round and go anywhere the field connects to.
    if (untilOpen && expansions % 4 === 1) {
      const sx = -Math.sin(h) * R * 1.02,
        sy = Math.cos(h) * R * 1.02;
      for (const sgn of [1, -1]) {
        const cx = x + sgn * sx,
          cy = y + sgn * sy;
        if (region.contains(cx, cy) && region.distanceToEdge(cx, cy) >= R * 1.02) return 'left';
      }
    }
    const ch = Math.cos(h),
      sh = Math.sin(h);
    for (const kappa of curvatures) {
      buf.length = 0;
      buf.push(x, y);
      drive(x, y, h, ch, sh, L, kappa, 0.5, buf);
      if (!region.containsPolyline(buf)) continue;
      const n = buf.length;
      const id2 = X.length;
      X.push(buf[n - 2]);
      Y.push(buf[n - 1]);
      H.push(h + kappa * L);
      heap.push(-hypot(buf[n - 2] - pose.x, buf[n - 1] - pose.y), id2);
    }
  }
  return heap.size > 0 ? 'spent' : 'shut-in';
}
