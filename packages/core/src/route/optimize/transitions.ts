/**
 * Transition costs for the local search: a memo of the symmetric transition cost (dense up to
 * a size, hashed above) and each end's nearest neighbours.
 */
import type { OrderingProblem } from '../order/problem.js';

/** Memoised symmetric transition cost. */
export function memoTransition(problem: OrderingProblem): (a: number, b: number) => number {
  return new TransitionMemo(problem).lookup;
}

/** Ends up to which the memo is a dense square of ends² costs (16 MB at most). */
const DENSE_MEMO_MAX_ENDS = 1448;

/**
 * The memo of `memoTransition`, keyed by the unordered pair of ends. Up to DENSE_MEMO_MAX_ENDS
 * ends (fields of up to ~700 tracks) a dense square of costs, NaN where not yet computed; above,
 * an open-addressing table over typed arrays. Either is a few times faster than a Map of numbers
 * in the local search's inner loop, without a boxed number per entry.
 */
export class TransitionMemo {
  private readonly dense: Float64Array | undefined;
  private keys: Float64Array;
  private values: Float64Array;
  private mask: number;
  private size = 0;
  private readonly ends: number;
  /** The problem's cost is a cheap formula: called, not stored (`cheapTransitions`). */
  private readonly direct: boolean;
  /** `cost` as a function, for the callers that take a transition cost function. */
  readonly lookup = (a: number, b: number): number => this.cost(a, b);

  constructor(private readonly problem: OrderingProblem) {
    this.ends = 2 * problem.itemCount;
    this.direct = problem.cheapTransitions === true;
    // (a cheap cost is not stored: neither the dense square, up to 16 MB filled, nor the table)
    this.dense =
      !this.direct && this.ends <= DENSE_MEMO_MAX_ENDS ? new Float64Array(this.ends * this.ends).fill(NaN) : undefined;
    const capacity = this.dense || this.direct ? 1 : 1 << 10;
    this.keys = new Float64Array(capacity).fill(-1);
    this.values = new Float64Array(capacity);
    this.mask = capacity - 1;
  }

  cost(a: number, b: number): number {
    if (this.direct) return this.problem.transitionCost(a, b);
    const dense = this.dense;
    if (dense === undefined) return this.hashed(a, b);
    const i = a < b ? a * this.ends + b : b * this.ends + a;
    const v = dense[i];
    if (v === v) return v;
    const c = this.problem.transitionCost(a, b);
    dense[i] = c;
    return c;
  }

  private hashed(a: number, b: number): number {
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    const key = lo * this.ends + hi;
    const keys = this.keys;
    let slot = this.home(lo, hi);
    for (;;) {
      const k = keys[slot];
      if (k === key) return this.values[slot];
      if (k === -1) break;
      slot = (slot + 1) & this.mask;
    }
    const c = this.problem.transitionCost(a, b);
    keys[slot] = key;
    this.values[slot] = c;
    if (++this.size * 2 > keys.length) this.grow();
    return c;
  }

  /** The pair's first slot to probe. */
  private home(lo: number, hi: number): number {
    return (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca77)) & this.mask;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    const capacity = oldKeys.length * 2;
    this.keys = new Float64Array(capacity).fill(-1);
    this.values = new Float64Array(capacity);
    this.mask = capacity - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      const key = oldKeys[i];
      if (key === -1) continue;
      const lo = Math.floor(key / this.ends);
      const hi = key - lo * this.ends;
      let slot = this.home(lo, hi);
      while (this.keys[slot] !== -1) slot = (slot + 1) & this.mask;
      this.keys[slot] = key;
      this.values[slot] = oldValues[i];
    }
  }
}

/** Neighbour lists: for each end, the K nearest other-item ends (Euclidean), sorted by transition cost. */
export interface NeighbourLists {
  k: number;
  ends: Int32Array;
  costs: Float64Array;
  count: Int32Array;
  /** Euclidean distance to the farthest listed neighbour (every unlisted end is at least this far). */
  radius: Float64Array;
}

/** A uniform grid over the ends, ~2 ends per cell: its frame, and the ends of each cell (members[start[c]..]). */
function endGrid(
  xy: ArrayLike<number>,
  ends: number,
): { minX: number; minY: number; cell: number; gx: number; gy: number; start: Int32Array; members: Int32Array } {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let e = 0; e < ends; e++) {
    const x = xy[2 * e],
      y = xy[2 * e + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const spanX = Math.max(maxX - minX, 1e-9);
  const spanY = Math.max(maxY - minY, 1e-9);
  const cell = Math.max(Math.sqrt((spanX * spanY * 2) / ends), Math.max(spanX, spanY) / 1024, 1e-6);
  const gx = Math.min(1024, Math.floor(spanX / cell) + 1);
  const gy = Math.min(1024, Math.floor(spanY / cell) + 1);
  const cellOf = (e: number): number => {
    const cx = Math.min(gx - 1, Math.floor((xy[2 * e] - minX) / cell));
    const cy = Math.min(gy - 1, Math.floor((xy[2 * e + 1] - minY) / cell));
    return cy * gx + cx;
  };
  const start = new Int32Array(gx * gy + 1);
  for (let e = 0; e < ends; e++) start[cellOf(e) + 1]++;
  for (let c = 0; c < gx * gy; c++) start[c + 1] += start[c];
  const fill = start.slice(0, gx * gy);
  const members = new Int32Array(ends);
  for (let e = 0; e < ends; e++) members[fill[cellOf(e)]++] = e;
  return { minX, minY, cell, gx, gy, start, members };
}

/** `stop` (checked every 64 ends) aborts the build: the result is then undefined. */
export function buildNeighbourLists(
  problem: OrderingProblem,
  cost: (a: number, b: number) => number,
  k: number,
): NeighbourLists;
export function buildNeighbourLists(
  problem: OrderingProblem,
  cost: (a: number, b: number) => number,
  k: number,
  stop: () => boolean,
): NeighbourLists | undefined;
export function buildNeighbourLists(
  problem: OrderingProblem,
  cost: (a: number, b: number) => number,
  k: number,
  stop?: () => boolean,
): NeighbourLists | undefined {
  const ends = 2 * problem.itemCount;
  const kk = Math.max(0, Math.min(k, ends - 2));
  const out: NeighbourLists = {
    k: kk,
    ends: new Int32Array(ends * kk),
    costs: new Float64Array(ends * kk),
    count: new Int32Array(ends),
    radius: new Float64Array(ends),
  };
  if (kk === 0) return out;
  const xy = problem.endXY;
  // uniform grid over the ends, ~2 ends per cell; rings of cells searched outwards
  const { minX, minY, cell, gx, gy, start, members } = endGrid(xy, ends);

  const bestE = new Int32Array(kk);
  const bestD = new Float64Array(kk);
  const tmpC = new Float64Array(kk);
  const perm: number[] = [];
  for (let e = 0; e < ends; e++) {
    if (stop && (e & 63) === 63 && stop()) return undefined;
    const x = xy[2 * e],
      y = xy[2 * e + 1];
    const cx = Math.min(gx - 1, Math.floor((x - minX) / cell));
    const cy = Math.min(gy - 1, Math.floor((y - minY) / cell));
    let found = 0;
    const maxRing = Math.max(gx, gy);
    for (let r = 0; r <= maxRing; r++) {
      // every end in ring r is at least (r − 1) · cell away; stop once the k-th is nearer
      if (found === kk && bestD[kk - 1] <= ((r - 1) * cell) ** 2) break;
      const x0 = cx - r,
        x1 = cx + r,
        y0 = cy - r,
        y1 = cy + r;
      for (let yy = y0; yy <= y1; yy++) {
        if (yy < 0 || yy >= gy) continue;
        const edgeRow = yy === y0 || yy === y1;
        for (let xx = x0; xx <= x1; xx += edgeRow ? 1 : x1 - x0 || 1) {
          if (xx >= 0 && xx < gx) {
            const c = yy * gx + xx;
            for (let t = start[c]; t < start[c + 1]; t++) {
              const f = members[t];
              if (f === e || f === (e ^ 1)) continue;
              const d = (xy[2 * f] - x) ** 2 + (xy[2 * f + 1] - y) ** 2;
              if (found === kk && d >= bestD[kk - 1]) continue;
              let j = found < kk ? found++ : kk - 1;
              while (j > 0 && (bestD[j - 1] > d || (bestD[j - 1] === d && bestE[j - 1] > f))) {
                bestD[j] = bestD[j - 1];
                bestE[j] = bestE[j - 1];
                j--;
              }
              bestD[j] = d;
              bestE[j] = f;
            }
          }
          if (x1 === x0) break;
        }
      }
    }
    perm.length = 0;
    for (let j = 0; j < found; j++) {
      tmpC[j] = cost(e, bestE[j]);
      perm.push(j);
    }
    perm.sort((p, q) => tmpC[p] - tmpC[q] || bestE[p] - bestE[q]);
    for (let j = 0; j < found; j++) {
      out.ends[e * kk + j] = bestE[perm[j]];
      out.costs[e * kk + j] = tmpC[perm[j]];
    }
    out.count[e] = found;
    out.radius[e] = found < kk ? Infinity : Math.sqrt(bestD[found - 1]);
  }
  return out;
}
