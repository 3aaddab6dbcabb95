/**
 * Distances inside the field on a raster (cells of extent/600, at least 1 m): the searches'
 * heuristic (`goalField`, `goalDistance`), ranking goals by how far a machine must really drive
 * (`fieldDistanceFrom`, `nearestByFieldDistance`). One raster per field, cached: cells whose centre
 * is inside, dilated by one cell (a neck narrower than a cell stays connected), with walls where a
 * hole or a notch thinner than a cell lies between two cells inside. 8-neighbour Dijkstras over it
 * in Dial's buckets.
 */
import { areaOf } from '../geometry/clipper.js';
import { segmentsIntersect } from '../geometry/region.js';
import type { Region } from '../geometry/region.js';
import type { Pose } from '../turns/types.js';
import { hypot } from '../geometry/vec.js';

/** A raster of the field: cells free to cross (one per field, cached; a window's made per search). */
export interface Raster {
  x0: number;
  y0: number;
  cell: number;
  nx: number;
  ny: number;
  /** 1 where the cell (or a neighbour) has its centre inside the field. */
  free: Uint8Array;
  /**
   * The field's raster only: per cell, bit d set where the step to its neighbour d (`relaxNeighbours`'
   * order: the row below left to right, left, right, the row above) crosses the boundary between two
   * cells inside the field — a hole or a notch thinner than a cell, which the machine cannot cross.
   */
  walls?: Uint8Array;
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
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < e.length; i += 2) {
    if (e[i] < minX) minX = e[i];
    if (e[i] > maxX) maxX = e[i];
    if (e[i + 1] < minY) minY = e[i + 1];
    if (e[i + 1] > maxY) maxY = e[i + 1];
  }
  if (window) {
    minX = Math.max(minX, window.minX);
    minY = Math.max(minY, window.minY);
    maxX = Math.min(maxX, window.maxX);
    maxY = Math.min(maxY, window.maxY);
  }
  const extent = Math.max(maxX - minX, maxY - minY, 1);
  const cell = window ? window.cellMeters : Math.max(1, extent / 600);
  const nx = Math.ceil((maxX - minX) / cell) + 3,
    ny = Math.ceil((maxY - minY) / cell) + 3;
  const x0 = minX - cell,
    y0 = minY - cell;
  const inside = cellsInside(e, x0, y0, cell, nx, ny);
  if (window) return { x0, y0, cell, nx, ny, free: inside };
  // Dilate by one cell: a neck narrower than a cell must stay connected (the heuristic only guides);
  // not into a hole, and no step between two cells inside across an edge: a hole or a notch thinner
  // than a cell (a ditch drawn as a sliver) stays a wall the heuristic does not lead through.
  const inHole = cellsInside(holeEdges(region), x0, y0, cell, nx, ny);
  const free = new Uint8Array(nx * ny);
  for (let j = 1; j < ny - 1; j++) {
    for (let i = 1; i < nx - 1; i++) {
      const k = j * nx + i;
      if (inside[k] || (!inHole[k] && (inside[k - 1] || inside[k + 1] || inside[k - nx] || inside[k + nx])))
        free[k] = 1;
    }
  }
  const r: Raster = { x0, y0, cell, nx, ny, free, walls: wallsOf(e, inside, x0, y0, cell, nx, ny) };
  rasters.set(region, r);
  return r;
}

/** Cells whose centre lies inside the rings of `edges` (flat ax, ay, bx, by; even-odd), by scanline. */
function cellsInside(
  edges: ArrayLike<number>,
  x0: number,
  y0: number,
  cell: number,
  nx: number,
  ny: number,
): Uint8Array {
  const out = new Uint8Array(nx * ny);
  const xs: number[] = [];
  for (let j = 0; j < ny; j++) {
    const y = y0 + (j + 0.5) * cell;
    xs.length = 0;
    for (let k = 0; k < edges.length; k += 4) {
      const ay = edges[k + 1],
        by = edges[k + 3];
      if (ay > y !== by > y) xs.push(edges[k] + ((edges[k + 2] - edges[k]) * (y - ay)) / (by - ay));
    }
    xs.sort((a, b) => a - b);
    for (let m = 0; m + 1 < xs.length; m += 2) {
      const i0 = Math.max(0, Math.ceil((xs[m] - x0) / cell - 0.5)),
        i1 = Math.min(nx - 1, Math.floor((xs[m + 1] - x0) / cell - 0.5));
      for (let i = i0; i <= i1; i++) out[j * nx + i] = 1;
    }
  }
  return out;
}

/** The edges (flat, as `Region.edges`) of the field's holes: its rings wound against the largest one. */
function holeEdges(region: Region): number[] {
  const rings = region.rings();
  const areas = rings.map((r) => areaOf([r]));
  let largest = 0;
  for (let i = 1; i < areas.length; i++) if (Math.abs(areas[i]) > Math.abs(areas[largest])) largest = i;
  const out: number[] = [];
  rings.forEach((h, i) => {
    if (Math.sign(areas[i]) !== -Math.sign(areas[largest])) return;
    for (let k = 0, m = h.length - 1; k < h.length; m = k++) out.push(h[m].x, h[m].y, h[k].x, h[k].y);
  });
  return out;
}

/** Neighbour offsets (di, dj) in `relaxNeighbours`' order; the opposite of step d is step 7 − d. */
const STEPS: readonly (readonly [number, number])[] = [
  [-1, -1],
  [0, -1],
  [1, -1],
  [-1, 0],
  [1, 0],
  [-1, 1],
  [0, 1],
  [1, 1],
];
/** Steps right, up-left, up, up-right: every step between two cells is one of these from one of them. */
const FORWARD_STEPS: readonly number[] = [4, 5, 6, 7];

/**
 * Per cell, the steps to a neighbour that cross an edge while both cells have their centre inside
 * the field (bit d: step d). Only cells within a cell and a half of an edge can have one: each edge
 * is walked row by row over the cells its band of rows reaches.
 */
function wallsOf(
  e: Float64Array,
  inside: Uint8Array,
  x0: number,
  y0: number,
  cell: number,
  nx: number,
  ny: number,
): Uint8Array {
  const walls = new Uint8Array(nx * ny);
  const cx = (i: number): number => x0 + (i + 0.5) * cell,
    cy = (j: number): number => y0 + (j + 0.5) * cell;
  for (let k = 0; k < e.length; k += 4) {
    const ax = e[k],
      ay = e[k + 1],
      bx = e[k + 2],
      by = e[k + 3];
    const j0 = Math.max(0, Math.floor((Math.min(ay, by) - y0) / cell) - 1),
      j1 = Math.min(ny - 1, Math.floor((Math.max(ay, by) - y0) / cell) + 1);
    for (let j = j0; j <= j1; j++) {
      // the edge's x over rows j - 1 … j + 1 (clamped to the edge): the cells a step from row j may cross it from
      const ylo = y0 + (j - 1) * cell,
        yhi = y0 + (j + 2) * cell;
      let xlo: number, xhi: number;
      if (ay === by) {
        xlo = Math.min(ax, bx);
        xhi = Math.max(ax, bx);
      } else {
        const t0 = Math.max(0, Math.min(1, (ylo - ay) / (by - ay))),
          t1 = Math.max(0, Math.min(1, (yhi - ay) / (by - ay)));
        xlo = Math.min(ax + t0 * (bx - ax), ax + t1 * (bx - ax));
        xhi = Math.max(ax + t0 * (bx - ax), ax + t1 * (bx - ax));
      }
      const i0 = Math.max(0, Math.floor((xlo - x0) / cell) - 1),
        i1 = Math.min(nx - 1, Math.floor((xhi - x0) / cell) + 1);
      for (let i = i0; i <= i1; i++) {
        const a = j * nx + i;
        if (!inside[a]) continue;
        for (const d of FORWARD_STEPS) {
          const ii = i + STEPS[d][0],
            jj = j + STEPS[d][1];
          if (ii < 0 || ii >= nx || jj >= ny) continue;
          const b = jj * nx + ii;
          if (!inside[b] || walls[a] & (1 << d)) continue;
          if (segmentsIntersect(cx(i), cy(j), cx(ii), cy(jj), ax, ay, bx, by)) {
            walls[a] |= 1 << d;
            walls[b] |= 1 << (7 - d);
          }
        }
      }
    }
  }
  return walls;
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
  /**
   * The next unsettled cell at no more than `maxDistance`, taken off the queue; -1 when there is none (nothing taken
   * then).
   */
  next(dist: Float64Array, done: Uint8Array, maxDistance: number): number {
    const buckets = this.buckets;
    for (;;) {
      while (this.lowest < buckets.length && buckets[this.lowest].length === 0) this.lowest++;
      if (this.lowest >= buckets.length) return -1;
      const bucket = buckets[this.lowest];
      if ((this.lowest + 1) * this.width <= maxDistance) {
        const c = bucket[bucket.length - 1];
        if (done[c]) {
          bucket.pop();
          continue;
        }
        if (dist[c] <= maxDistance) {
          bucket.pop();
          return c;
        }
        // (past the bound by a rounding at the bucket's edge: taken as below)
      }
      // The bound falls inside this bucket: its cells nearest first (no cell joins it meanwhile).
      if (this.sorted !== this.lowest) {
        bucket.sort((a, b) => dist[b] - dist[a]);
        this.sorted = this.lowest;
      }
      const c = bucket[bucket.length - 1];
      if (done[c]) {
        bucket.pop();
        continue;
      }
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

/**
 * A raster Dijkstra's start: every cell at Infinity but the one holding (x, y) (clamped to the raster), queued at 0.
 */
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
 * it, no step across a wall. Inside the raster's border (every cell but the outermost ring) and away
 * from walls without bounds checks.
 */
function relaxNeighbours(r: Raster, k: number, d: number, dist: Float64Array, queue: BucketQueue): void {
  const { nx, ny, cell, free } = r;
  const diag = cell * Math.SQRT2;
  const i = k % nx,
    j = (k - i) / nx;
  const walls = r.walls ? r.walls[k] : 0;
  if (walls === 0 && i > 0 && j > 0 && i < nx - 1 && j < ny - 1) {
    const straight = d + cell,
      diagonal = d + diag;
    let kk = k - nx - 1;
    if (free[kk] && diagonal < dist[kk]) {
      dist[kk] = diagonal;
      queue.push(diagonal, kk);
    }
    kk++;
    if (free[kk] && straight < dist[kk]) {
      dist[kk] = straight;
      queue.push(straight, kk);
    }
    kk++;
    if (free[kk] && diagonal < dist[kk]) {
      dist[kk] = diagonal;
      queue.push(diagonal, kk);
    }
    kk = k - 1;
    if (free[kk] && straight < dist[kk]) {
      dist[kk] = straight;
      queue.push(straight, kk);
    }
    kk = k + 1;
    if (free[kk] && straight < dist[kk]) {
      dist[kk] = straight;
      queue.push(straight, kk);
    }
    kk = k + nx - 1;
    if (free[kk] && diagonal < dist[kk]) {
      dist[kk] = diagonal;
      queue.push(diagonal, kk);
    }
    kk++;
    if (free[kk] && straight < dist[kk]) {
      dist[kk] = straight;
      queue.push(straight, kk);
    }
    kk++;
    if (free[kk] && diagonal < dist[kk]) {
      dist[kk] = diagonal;
      queue.push(diagonal, kk);
    }
    return;
  }
  // At the border, or where a wall stops a step: each neighbour in turn.
  for (let step = 0; step < 8; step++) {
    if (walls & (1 << step)) continue;
    const di = STEPS[step][0],
      dj = STEPS[step][1];
    const ii = i + di,
      jj = j + dj;
    if (ii < 0 || ii >= nx || jj < 0 || jj >= ny) continue;
    const kk = jj * nx + ii;
    if (!free[kk]) continue;
    const nd = d + (di !== 0 && dj !== 0 ? diag : cell);
    if (nd < dist[kk]) {
      dist[kk] = nd;
      queue.push(nd, kk);
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
  const fi = from ? Math.floor((from.x - r.x0) / cell) : -1,
    fj = from ? Math.floor((from.y - r.y0) / cell) : -1;
  const fk = fi >= 0 && fj >= 0 && fi < nx && fj < ny ? fj * nx + fi : -1;
  let stopBeyond = Infinity;
  const run = dijkstraFrom(r, gx, gy);
  const { dist, done } = run;
  let running = true;
  return (k: number): number => {
    while (running && !done[k]) {
      const c = settleNext(r, run, stopBeyond);
      if (c < 0) {
        running = false;
        break;
      }
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
 * The heuristic of `searchConnector` and of the reversing search (reverseSearch.ts):
 * the raster distance inside the field to `to` (settled out to about twice `from`'s), three times
 * the straight distance off the raster or where the field does not connect.
 */
export function goalDistance(
  region: Region,
  to: Pose,
  from: Pose,
  window?: RasterWindow,
): (x: number, y: number) => number {
  return goalField(region, to, from, window).distance;
}

/** `goalDistance` with the raster it reads (whose origin also anchors the search's node grid). */
export function goalField(
  region: Region,
  to: Pose,
  from: Pose,
  window?: RasterWindow,
): { raster: Raster; distance: (x: number, y: number) => number } {
  const raster = rasterOf(region, window);
  const field = lazyDistanceField(raster, to.x, to.y, from);
  const distance = (x: number, y: number): number => {
    const i = Math.floor((x - raster.x0) / raster.cell),
      j = Math.floor((y - raster.y0) / raster.cell);
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
    const i = Math.floor((px - raster.x0) / raster.cell),
      j = Math.floor((py - raster.y0) / raster.cell);
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
  if (!run || run.raster !== r || run.start !== start)
    sourceRuns.set(region, (run = { raster: r, start, ...dijkstraFrom(r, x, y) }));
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
    const pi = Math.floor((points[2 * i] - r.x0) / cell),
      pj = Math.floor((points[2 * i + 1] - r.y0) / cell);
    if (pi < 0 || pj < 0 || pi >= nx || pj >= ny) continue;
    const k = pj * nx + pi;
    if (!firstAt.has(k)) firstAt.set(k, i);
  }
  if (firstAt.size === 0) return -1;
  // `distanceField`'s Dijkstra from (x, y), settled as far as the nearest point's cell. The cells settle
  // by buckets of distance, so once every cell no farther than a settled point cell is settled, the
  // least distance of a settled point cell is the least of all (ties too); asked again, the cells
  // settled before are read as they are (not walked again in their order).
  const run = sourceRun(region, r, x, y);
  const { dist, done } = run;
  const leastSettled = (): number => {
    let least = Infinity;
    for (const k of firstAt.keys()) if (done[k] && dist[k] < least) least = dist[k];
    return least;
  };
  let least = leastSettled();
  while (least === Infinity) {
    const k = settleNext(r, run);
    if (k < 0) return -1; // no point's cell connects to (x, y)
    if (firstAt.has(k)) least = dist[k];
  }
  while (settleNext(r, run, least) >= 0);
  // Every cell at no more than `least` is settled now, the nearest point's among them (a cell settled
  // before it in its bucket may be farther: the least is read again).
  least = leastSettled();
  let found = -1;
  for (const [k, at] of firstAt) if (done[k] && dist[k] === least && (found < 0 || at < found)) found = at;
  return found;
}
