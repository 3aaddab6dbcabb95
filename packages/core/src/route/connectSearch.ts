/**
 * Last-resort connector search (hybrid A*, Dolgov et al. 2008): when no single manoeuvre,
 * headland traversal or waypoint chain fits (narrow necks, sharp corners between two arms of
 * a field), search forward motions of bounded curvature through the field itself.
 *
 * States are continuous poses; the closed set is a grid of cells × heading bins. Each
 * expansion drives one short primitive (straight, or an arc of radius R or 2R either way)
 * that must lie inside the field. The heuristic is the obstacle-aware distance to the goal
 * over a raster of the field (a 2-D Dijkstra from the goal), so the search is drawn through
 * necks rather than into dead ends. Whenever the goal is near (and now and then otherwise) a
 * direct manoeuvre to the goal is tried (analytic expansion); the path found is then
 * shortened by replacing runs of primitives with direct manoeuvres where those fit.
 *
 * Forward only and curvature ≤ 1/R everywhere (primitives are tangent arcs and lines, as
 * Dubins paths are): the result passes the same curvature measure as any turn.
 */
import type { Region } from '../geometry/region.js';
import type { Pose } from '../turns/types.js';
import { TWO_PI, mod2pi, wrapPi } from '../turns/angles.js';
import { hypot } from '../geometry/vec.js';

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
}

/** Heading classes of the searches' closed sets (5° each). */
export const HEADING_BINS = 72;

/** The heading class of a heading, radians (0 … HEADING_BINS − 1). */
export function headingBin(h: number): number {
  return Math.round(mod2pi(h) / (TWO_PI / HEADING_BINS)) % HEADING_BINS;
}

/** Raster of the field and the distance-to-goal field over it (one per search). */
interface Raster {
  x0: number;
  y0: number;
  cell: number;
  nx: number;
  ny: number;
  /** 1 where the cell (or a neighbour) has its centre inside the field. */
  free: Uint8Array;
}

const rasters = new WeakMap<Region, Raster>();

/** A window of the plane to rasterise finely (thin no-go zones must stay visible), with its cell size. */
export interface RasterWindow {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  cellMeters: number;
}

/**
 * Cells whose centre is inside the field, by scanline over the field's edges; dilated by one cell
 * (so that a neck narrower than a cell stays connected). The whole field at extent/600 (cached),
 * or a window at a given cell size, undilated.
 */
function rasterOf(region: Region, window?: RasterWindow): Raster {
  const cached = window ? undefined : rasters.get(region);
  if (cached) return cached;
  const e = region.edges;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < e.length; i += 2) {
    if (e[i] < minX) minX = e[i];
    if (e[i] > maxX) maxX = e[i];
    if (e[i + 1] < minY) minY = e[i + 1];
    if (e[i + 1] > maxY) maxY = e[i + 1];
  }
  if (window) {
    minX = Math.max(minX, window.minX); minY = Math.max(minY, window.minY);
    maxX = Math.min(maxX, window.maxX); maxY = Math.min(maxY, window.maxY);
  }
  const extent = Math.max(maxX - minX, maxY - minY, 1);
  const cell = window ? window.cellMeters : Math.max(1, extent / 600);
  const nx = Math.ceil((maxX - minX) / cell) + 3, ny = Math.ceil((maxY - minY) / cell) + 3;
  const x0 = minX - cell, y0 = minY - cell;
  const inside = new Uint8Array(nx * ny);
  const xs: number[] = [];
  for (let j = 0; j < ny; j++) {
    const y = y0 + (j + 0.5) * cell;
    xs.length = 0;
    for (let k = 0; k < e.length; k += 4) {
      const ay = e[k + 1], by = e[k + 3];
      if (ay > y !== by > y) xs.push(e[k] + ((e[k + 2] - e[k]) * (y - ay)) / (by - ay));
    }
    xs.sort((a, b) => a - b);
    for (let m = 0; m + 1 < xs.length; m += 2) {
      const i0 = Math.max(0, Math.ceil((xs[m] - x0) / cell - 0.5)), i1 = Math.min(nx - 1, Math.floor((xs[m + 1] - x0) / cell - 0.5));
      for (let i = i0; i <= i1; i++) inside[j * nx + i] = 1;
    }
  }
  // Dilate by one cell: a neck narrower than a cell must stay connected (the heuristic only guides).
  let free = inside;
  if (!window) {
    free = new Uint8Array(nx * ny);
    for (let j = 1; j < ny - 1; j++) {
      for (let i = 1; i < nx - 1; i++) {
        const k = j * nx + i;
        if (inside[k] || inside[k - 1] || inside[k + 1] || inside[k - nx] || inside[k + nx]) free[k] = 1;
      }
    }
  }
  const r = { x0, y0, cell, nx, ny, free };
  if (!window) rasters.set(region, r);
  return r;
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
    const keys = this.keys, vals = this.vals;
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
    const keys = this.keys, vals = this.vals;
    const top = vals[0];
    const n = --this.n;
    const lastK = keys[n], lastV = vals[n];
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
    const keys = new Float64Array(2 * this.keys.length), vals = new Int32Array(2 * this.vals.length);
    keys.set(this.keys);
    vals.set(this.vals);
    this.keys = keys;
    this.vals = vals;
  }
}

/**
 * The queue of a raster Dijkstra: cells in buckets of distance a little narrower than the raster's
 * cell (the shortest step between cells), so that no cell of the nearest bucket can reach another
 * shorter: each is final when taken, in whatever order within its bucket (Dial's buckets). A cell
 * reached shorter is queued again; its older entry is skipped once it is settled. The distances come
 * out as a binary heap's would: each is the least sum over the cells settled before it, which order
 * within a bucket does not change.
 */
class BucketQueue {
  private readonly buckets: number[][] = [];
  /** No entry lies in a bucket below this one. */
  private lowest = 0;
  /** The bucket sorted by distance, nearest last (it straddles the bound of a `next`). */
  private sorted = -1;
  constructor(private readonly width: number) {}
  push(distance: number, cell: number): void {
    const b = Math.floor(distance / this.width);
    while (this.buckets.length <= b) this.buckets.push([]);
    this.buckets[b].push(cell);
    if (b < this.lowest) this.lowest = b;
  }
  /** The next unsettled cell at no more than `maxDistance`, taken off the queue; -1 when there is none (nothing taken then). */
  next(dist: Float64Array, done: Uint8Array, maxDistance: number): number {
    const buckets = this.buckets;
    for (;;) {
      while (this.lowest < buckets.length && buckets[this.lowest].length === 0) this.lowest++;
      if (this.lowest >= buckets.length) return -1;
      const bucket = buckets[this.lowest];
      if ((this.lowest + 1) * this.width <= maxDistance) {
        const c = bucket[bucket.length - 1];
        if (done[c]) { bucket.pop(); continue; }
        if (dist[c] <= maxDistance) { bucket.pop(); return c; }
        // (past the bound by a rounding at the bucket's edge: taken as below)
      }
      // The bound falls inside this bucket: its cells nearest first (no cell joins it meanwhile).
      if (this.sorted !== this.lowest) {
        bucket.sort((a, b) => dist[b] - dist[a]);
        this.sorted = this.lowest;
      }
      const c = bucket[bucket.length - 1];
      if (done[c]) { bucket.pop(); continue; }
      if (dist[c] > maxDistance) return -1;
      bucket.pop();
      return c;
    }
  }
}

/** A raster Dijkstra under way: distances (Infinity where not reached), settled cells, the queue. */
interface RasterRun {
  dist: Float64Array;
  /** 1 where the cell is settled (its distance final). */
  done: Uint8Array;
  queue: BucketQueue;
}

/** The cell holding (x, y), clamped to the raster (where a Dijkstra from (x, y) starts). */
function clampedCell(r: Raster, x: number, y: number): number {
  const i = Math.min(r.nx - 1, Math.max(0, Math.floor((x - r.x0) / r.cell)));
  const j = Math.min(r.ny - 1, Math.max(0, Math.floor((y - r.y0) / r.cell)));
  return j * r.nx + i;
}

/** A raster Dijkstra's start: every cell at Infinity but the one holding (x, y) (clamped to the raster), queued at 0. */
function dijkstraFrom(r: Raster, x: number, y: number): RasterRun {
  const { nx, ny, cell } = r;
  const dist = new Float64Array(nx * ny).fill(Infinity);
  const start = clampedCell(r, x, y);
  // a hundredth of a cell narrower than a step: far above the rounding of the sums
  const queue = new BucketQueue(0.99 * cell);
  dist[start] = 0;
  queue.push(0, start);
  return { dist, done: new Uint8Array(nx * ny), queue };
}

/**
 * Dijkstra step on the raster: the free 8-neighbours of cell k (at distance d) reached shorter through
 * it. Inside the raster's border (every cell but the outermost ring) without bounds checks.
 */
function relaxNeighbours(r: Raster, k: number, d: number, dist: Float64Array, queue: BucketQueue): void {
  const { nx, ny, cell, free } = r;
  const diag = cell * Math.SQRT2;
  const i = k % nx, j = (k - i) / nx;
  if (i > 0 && j > 0 && i < nx - 1 && j < ny - 1) {
    const straight = d + cell, diagonal = d + diag;
    let kk = k - nx - 1;
    if (free[kk] && diagonal < dist[kk]) { dist[kk] = diagonal; queue.push(diagonal, kk); }
    kk++;
    if (free[kk] && straight < dist[kk]) { dist[kk] = straight; queue.push(straight, kk); }
    kk++;
    if (free[kk] && diagonal < dist[kk]) { dist[kk] = diagonal; queue.push(diagonal, kk); }
    kk = k - 1;
    if (free[kk] && straight < dist[kk]) { dist[kk] = straight; queue.push(straight, kk); }
    kk = k + 1;
    if (free[kk] && straight < dist[kk]) { dist[kk] = straight; queue.push(straight, kk); }
    kk = k + nx - 1;
    if (free[kk] && diagonal < dist[kk]) { dist[kk] = diagonal; queue.push(diagonal, kk); }
    kk++;
    if (free[kk] && straight < dist[kk]) { dist[kk] = straight; queue.push(straight, kk); }
    kk++;
    if (free[kk] && diagonal < dist[kk]) { dist[kk] = diagonal; queue.push(diagonal, kk); }
    return;
  }
  for (let dj = -1; dj <= 1; dj++) {
    const jj = j + dj;
    if (jj < 0 || jj >= ny) continue;
    for (let di = -1; di <= 1; di++) {
      if (di === 0 && dj === 0) continue;
      const ii = i + di;
      if (ii < 0 || ii >= nx) continue;
      const kk = jj * nx + ii;
      if (!free[kk]) continue;
      const nd = d + (di !== 0 && dj !== 0 ? diag : cell);
      if (nd < dist[kk]) {
        dist[kk] = nd;
        queue.push(nd, kk);
      }
    }
  }
}

/**
 * The goal's distance field, settled as far as it is read: `at(k)` runs the Dijkstra from the goal
 * (the one `distanceField` runs) until cell k is settled, or to where that run stops (every cell up
 * to twice `from`'s distance + 50 m settled; the cells reached but not settled then keep their
 * tentative distance, the rest Infinity). Cells settle in the same order whenever the run is asked
 * to go on, so every value read is the one the whole run leaves; a search that stays near its start
 * reads a small part of it (a searched way onto a headland pass from a pocket reads a few hundred
 * cells of a field's hundreds of thousands).
 */
function lazyDistanceField(r: Raster, gx: number, gy: number, from?: { x: number; y: number }): (k: number) => number {
  const { nx, ny, cell } = r;
  const fi = from ? Math.floor((from.x - r.x0) / cell) : -1, fj = from ? Math.floor((from.y - r.y0) / cell) : -1;
  const fk = fi >= 0 && fj >= 0 && fi < nx && fj < ny ? fj * nx + fi : -1;
  let stopBeyond = Infinity;
  const run = dijkstraFrom(r, gx, gy);
  const { dist, done } = run;
  let running = true;
  return (k: number): number => {
    while (running && !done[k]) {
      const c = settleNext(r, run, stopBeyond);
      if (c < 0) { running = false; break; }
      if (c === fk) stopBeyond = 2 * dist[c] + 50;
    }
    return dist[k];
  };
}

/**
 * One step of a raster Dijkstra: takes the next cell off the queue (older entries skipped), settles
 * it, relaxes its neighbours and returns it; -1 when the queue is empty or its nearest cell lies
 * beyond `maxDistance` (then nothing is taken: the run can go on later with a larger bound).
 */
function settleNext(r: Raster, run: RasterRun, maxDistance = Infinity): number {
  const c = run.queue.next(run.dist, run.done, maxDistance);
  if (c < 0) return -1;
  run.done[c] = 1;
  relaxNeighbours(r, c, run.dist[c], run.dist, run.queue);
  return c;
}

/** The whole field of distances from (gx, gy) (8-neighbour Dijkstra on the raster). */
function distanceField(r: Raster, gx: number, gy: number): Float64Array {
  const run = dijkstraFrom(r, gx, gy);
  while (settleNext(r, run) >= 0);
  return run.dist;
}

/**
 * Samples a primitive from pose (x, y, h), `ch` = cos h and `sh` = sin h (shared by the primitives
 * of one pose): length L, curvature k; points after the start, every ≤ step.
 */
function drive(x: number, y: number, h: number, ch: number, sh: number, L: number, k: number, step: number, out: number[]): void {
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
export function searchConnector(from: Pose, to: Pose, region: Region, shot: Shot, limits: SearchLimits): Float64Array | undefined {
  const R = limits.turnRadiusMeters;
  const step = limits.sampleStepMeters ?? 0.5;
  const abort = limits.abort;
  const { raster, distance: heuristic } = goalField(region, to, from, limits.window);
  // Primitives: 15° of an R arc long; straight, R and 2R arcs either way.
  const L = Math.max(0.5, (R * Math.PI) / 12);
  const maxExpansions = limits.maxExpansions ?? defaultExpansions(heuristic(from.x, from.y), L);
  const curvatures = [0, 1 / R, -1 / R, 1 / (2 * R), -1 / (2 * R)];
  const cell = Math.max(0.25, L * 0.7);
  // Closed-set keys: node cell and heading class. Over the raster's extent the cells are numbered
  // compactly (keys below 2^30: small integers, cheap in a Set or a Map); a node off it (a window's
  // search) or a field too large for that gets the wide numbering, outside [0, 2^30).
  const gx = Math.ceil((raster.nx * raster.cell) / cell) + 1, gy = Math.ceil((raster.ny * raster.cell) / cell) + 1;
  const compact = gx * gy * HEADING_BINS < COMPACT_KEYS;
  const keyOf = (x: number, y: number, h: number): number => {
    const i = Math.floor((x - raster.x0) / cell), j = Math.floor((y - raster.y0) / cell);
    if (compact && i >= 0 && j >= 0 && i < gx && j < gy) return (j * gx + i) * HEADING_BINS + headingBin(h);
    const wide = (j * 1e6 + i) * HEADING_BINS + headingBin(h);
    return wide >= 0 ? wide + COMPACT_KEYS : wide;
  };
  // Node store.
  const X: number[] = [], Y: number[] = [], H: number[] = [], G: number[] = [], D: number[] = [], parent: number[] = [];
  const closed = new Set<number>();
  const bestG = new Map<number, number>();
  const heap = new Heap();
  const add = (x: number, y: number, h: number, g: number, p: number): void => {
    const id = X.length;
    const d = heuristic(x, y);
    X.push(x); Y.push(y); H.push(h); G.push(g); D.push(d); parent.push(p);
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
  while (heap.size > 0 && expansions < maxExpansions) {
    if (abort && (pops++ & 63) === 0 && abort()) return undefined;
    const id = heap.pop();
    const k = keyOf(X[id], Y[id], H[id]);
    if (closed.has(k)) continue;
    closed.add(k);
    expansions++;
    const pose = { x: X[id], y: Y[id], headingRadians: H[id] };
    if (D[id] < near || expansions % shotEvery === 1 % shotEvery) {
      const s = shot(pose, to);
      if (s) { goalNode = id; goalShot = s; break; }
    }
    const ch = Math.cos(pose.headingRadians), sh = Math.sin(pose.headingRadians);
    for (const kappa of curvatures) {
      buf.length = 0;
      buf.push(pose.x, pose.y);
      drive(pose.x, pose.y, pose.headingRadians, ch, sh, L, kappa, step, buf);
      if (!region.containsPolyline(buf)) continue;
      const n = buf.length;
      const x = buf[n - 2], y = buf[n - 1], h = pose.headingRadians + kappa * L;
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
  if (goalNode < 0 || !goalShot) return undefined;
  // Poses along the path, start to goal node.
  const chain: number[] = [];
  for (let v = goalNode; v >= 0; v = parent[v]) chain.push(v);
  chain.reverse();
  const poses: Pose[] = chain.map((v) => ({ x: X[v], y: Y[v], headingRadians: H[v] }));
  // Shorten: from each pose, the farthest later pose (or the goal) a direct manoeuvre reaches.
  const out: number[] = [from.x, from.y];
  const append = (part: ArrayLike<number>): void => {
    for (let i = 2; i < part.length; i++) out.push(part[i]);
  };
  let i = 0;
  let attempts = 0;
  while (i < poses.length - 1) {
    const direct = attempts++ < 400 ? shot(poses[i], to) : undefined;
    if (direct) { append(direct); return Float64Array.from(out); }
    let j = poses.length - 1;
    let joined = false;
    for (; j > i + 1 && attempts < 400; j = Math.max(i + 1, Math.floor((i + j) / 2))) {
      attempts++;
      const s = shot(poses[i], poses[j]);
      if (s) { append(s); joined = true; break; }
      if (j === i + 2) { j = i + 1; break; }
    }
    if (!joined) {
      // One primitive, exactly as the search drove it.
      j = i + 1;
      const p = poses[i], q = poses[j];
      const kappa = wrapPi(q.headingRadians - p.headingRadians) / L;
      buf.length = 0;
      drive(p.x, p.y, p.headingRadians, Math.cos(p.headingRadians), Math.sin(p.headingRadians), L, Math.abs(kappa) < 1e-9 ? 0 : kappa, step, buf);
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
  return Math.min(MAX_DEFAULT_EXPANSIONS, Math.max(8000, Math.ceil((EXPANSIONS_PER_PRIMITIVE * fieldDistanceMeters) / primitiveMeters)));
}

/**
 * The heuristic of `searchConnector` and of the reversing search (reverseSearch.ts):
 * the raster distance inside the field to `to` (settled out to about twice `from`'s), three times
 * the straight distance off the raster or where the field does not connect.
 */
export function goalDistance(region: Region, to: Pose, from: Pose, window?: RasterWindow): (x: number, y: number) => number {
  return goalField(region, to, from, window).distance;
}

/** `goalDistance` with the raster it reads (whose origin also anchors the search's node grid). */
function goalField(region: Region, to: Pose, from: Pose, window?: RasterWindow): { raster: Raster; distance: (x: number, y: number) => number } {
  const raster = rasterOf(region, window);
  const field = lazyDistanceField(raster, to.x, to.y, from);
  const distance = (x: number, y: number): number => {
    const i = Math.floor((x - raster.x0) / raster.cell), j = Math.floor((y - raster.y0) / raster.cell);
    const d = i >= 0 && j >= 0 && i < raster.nx && j < raster.ny ? field(j * raster.nx + i) : Infinity;
    return d === Infinity ? 3 * hypot(x - to.x, y - to.y) : d;
  };
  return { raster, distance };
}

/**
 * Distance inside the field from (x, y) to any point, on the raster of `searchConnector`
 * (cells of extent/600, at least 1 m): Infinity where the field does not connect. For ranking
 * candidate goals by how far a machine must really drive, not as the crow flies.
 */
export function fieldDistanceFrom(region: Region, x: number, y: number): (px: number, py: number) => number {
  const raster = rasterOf(region);
  const field = distanceField(raster, x, y);
  return (px, py) => {
    const i = Math.floor((px - raster.x0) / raster.cell), j = Math.floor((py - raster.y0) / raster.cell);
    return i >= 0 && j >= 0 && i < raster.nx && j < raster.ny ? field[j * raster.nx + i] : Infinity;
  };
}

/**
 * A raster Dijkstra from one start cell (`dijkstraFrom`), run as far as it has been asked to, with
 * the cells it has settled: `nearestByFieldDistance` asks again from the same point (every headland
 * pass a track end cannot join reached for along the pass) and goes on from there.
 */
interface SourceRun extends RasterRun {
  raster: Raster;
  start: number;
}
const sourceRuns = new WeakMap<Region, SourceRun>();

function sourceRun(region: Region, r: Raster, x: number, y: number): SourceRun {
  const start = clampedCell(r, x, y);
  let run = sourceRuns.get(region);
  if (!run || run.raster !== r || run.start !== start) sourceRuns.set(region, (run = { raster: r, start, ...dijkstraFrom(r, x, y) }));
  return run;
}

/**
 * Of `points` (flat xy), the index of the one nearest to (x, y) by distance inside the field (as
 * `fieldDistanceFrom` measures it), the lowest index among equals; -1 when none is reachable.
 * The answer of ranking them all by `fieldDistanceFrom`, but the Dijkstra stops once the nearest
 * (and any at the same distance) is settled instead of covering the whole field; asked again from
 * the same cell, it reads the cells settled before and goes on where it stopped.
 */
export function nearestByFieldDistance(region: Region, x: number, y: number, points: ArrayLike<number>): number {
  const r = rasterOf(region);
  const { nx, ny, cell } = r;
  // Points by raster cell (a point off the raster is unreachable, as in `fieldDistanceFrom`).
  const firstAt = new Map<number, number>();
  for (let i = 0, n = points.length >> 1; i < n; i++) {
    const pi = Math.floor((points[2 * i] - r.x0) / cell), pj = Math.floor((points[2 * i + 1] - r.y0) / cell);
    if (pi < 0 || pj < 0 || pi >= nx || pj >= ny) continue;
    const k = pj * nx + pi;
    if (!firstAt.has(k)) firstAt.set(k, i);
  }
  if (firstAt.size === 0) return -1;
  // `distanceField`'s Dijkstra from (x, y), settled as far as the nearest point's cell. The cells settle
  // in order of distance, so the least distance of a settled point cell is the least of all once the
  // cells at that distance (ties) are settled too; asked again, the cells settled before are read as
  // they are (not walked again in their order).
  const run = sourceRun(region, r, x, y);
  const { dist, done } = run;
  let least = Infinity;
  for (const k of firstAt.keys()) if (done[k] && dist[k] < least) least = dist[k];
  while (least === Infinity) {
    const k = settleNext(r, run);
    if (k < 0) return -1; // no point's cell connects to (x, y)
    if (firstAt.has(k)) least = dist[k];
  }
  while (settleNext(r, run, least) >= 0);
  // Every cell at no more than `least` is settled now, the nearest point's among them (a cell settled
  // before it in its bucket may be farther: the least is read again).
  for (const k of firstAt.keys()) if (done[k] && dist[k] < least) least = dist[k];
  let found = -1;
  for (const [k, at] of firstAt) if (done[k] && dist[k] === least && (found < 0 || at < found)) found = at;
  return found;
}

/**
 * Whether a machine at `pose` can drive forward (arcs of radius ≥ R and straights, inside the
 * field) to somewhere at least `distanceMeters` away (or, with `untilOpen`, to open ground where
 * it can turn round): false in a pocket (the end of a thin strip, a sharp corner) that no forward
 * path leaves. A small search, greedy outwards; with `backwards`, whether the pose can be reached
 * (driving the time-reversed path).
 */
export function canLeave(pose: Pose, region: Region, turnRadiusMeters: number, backwards = false, distanceMeters = 4 * turnRadiusMeters, maxExpansions = 400, untilOpen = false): boolean {
  const R = turnRadiusMeters;
  const L = Math.max(0.5, (R * Math.PI) / 12);
  const curvatures = [0, 1 / R, -1 / R];
  const h0 = backwards ? pose.headingRadians + Math.PI : pose.headingRadians;
  const X: number[] = [pose.x], Y: number[] = [pose.y], H: number[] = [h0];
  const heap = new Heap();
  heap.push(0, 0);
  const seen = new Set<number>();
  const cell = Math.max(0.25, L * 0.7);
  const buf: number[] = [];
  let expansions = 0;
  while (heap.size > 0 && expansions < maxExpansions) {
    const id = heap.pop();
    const x = X[id], y = Y[id], h = H[id];
    // the node's cell from the start and its heading class; compact (a small integer) within 1,000 cells, as in searchConnector
    const i = Math.floor((x - pose.x) / cell), j = Math.floor((y - pose.y) / cell);
    const wide = (j * 100003 + i) * HEADING_BINS + headingBin(h);
    const key = i > -1000 && i < 1000 && j > -1000 && j < 1000 ? ((j + 1000) * 2001 + i + 1000) * HEADING_BINS + headingBin(h) : wide >= 0 ? wide + COMPACT_KEYS : wide;
    if (seen.has(key)) continue;
    seen.add(key);
    expansions++;
    if (hypot(x - pose.x, y - pose.y) >= distanceMeters) return true;
    // Open ground: a full circle of radius R (left or right of the machine) fits here, so the
    // machine can turn round and go anywhere the field connects to.
    if (untilOpen && expansions % 4 === 1) {
      const sx = -Math.sin(h) * R * 1.02, sy = Math.cos(h) * R * 1.02;
      for (const sgn of [1, -1]) {
        const cx = x + sgn * sx, cy = y + sgn * sy;
        if (region.contains(cx, cy) && region.distanceToEdge(cx, cy) >= R * 1.02) return true;
      }
    }
    const ch = Math.cos(h), sh = Math.sin(h);
    for (const kappa of curvatures) {
      buf.length = 0;
      buf.push(x, y);
      drive(x, y, h, ch, sh, L, kappa, 0.5, buf);
      if (!region.containsPolyline(buf)) continue;
      const n = buf.length;
      const id2 = X.length;
      X.push(buf[n - 2]); Y.push(buf[n - 1]); H.push(h + kappa * L);
      heap.push(-hypot(buf[n - 2] - pose.x, buf[n - 1] - pose.y), id2);
    }
  }
  return false;
}
