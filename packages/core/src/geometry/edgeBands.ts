/**
 * A region's edges in horizontal bands of equal height (`EdgeBands`), for its hot queries: where a
 * point lies and whether a segment or a polyline crosses an edge. Each band lists the edges whose
 * y-range meets it, sorted by their boxes' left side; a query reads the bands it spans and, in each,
 * only the edges whose boxes can meet it there — the same edges a box query of the whole index
 * would answer that can matter, without a tree walk or an array allocated per query.
 */
import { crossesRayLeft } from './pointInRing.js';

/** Edges per band, on average (a band also lists the long edges passing through it). */
const EDGES_PER_BAND = 4;
const MAX_BANDS = 1 << 14;
/**
 * Slack on a segment's part in a band: more than the rounding of the clip, far less than any edge (only more edges are
 * tested).
 */
const BAND_PAD_METERS = 1e-6;
/** Points of a polyline whose candidate edges are gathered at once. */
const POLYLINE_RUN = 32;

export class EdgeBands {
  /** Edge endpoints, stride 4: ax, ay, bx, by. */
  private readonly e: Float64Array;
  /** Edge boxes, stride 4: minX, minY, maxX, maxY. */
  private readonly box: Float64Array;
  private readonly minY: number;
  private readonly maxY: number;
  private readonly height: number;
  private readonly count: number;
  /** Band b's edges, by the left side of their boxes: ids[start[b] .. start[b + 1]). */
  private readonly start: Int32Array;
  private readonly ids: Int32Array;
  /** The widest box (maxX − minX) of each band's edges. */
  private readonly widest: Float64Array;
  /** Scratch for polylines: candidate edges of a run, and the run that last took each edge. */
  private readonly picked: Int32Array;
  private readonly stamp: Int32Array;
  private run = 0;

  constructor(edges: Float64Array) {
    const n = edges.length >> 2;
    this.e = edges;
    const box = (this.box = new Float64Array(4 * n));
    let minY = Infinity,
      maxY = -Infinity;
    for (let k = 0; k < n; k++) {
      const ax = edges[4 * k],
        ay = edges[4 * k + 1],
        bx = edges[4 * k + 2],
        by = edges[4 * k + 3];
      box[4 * k] = Math.min(ax, bx);
      box[4 * k + 1] = Math.min(ay, by);
      box[4 * k + 2] = Math.max(ax, bx);
      box[4 * k + 3] = Math.max(ay, by);
      if (box[4 * k + 1] < minY) minY = box[4 * k + 1];
      if (box[4 * k + 3] > maxY) maxY = box[4 * k + 3];
    }
    this.minY = minY;
    this.maxY = maxY;
    this.count = n > 0 && maxY > minY ? Math.min(MAX_BANDS, Math.max(1, Math.ceil(n / EDGES_PER_BAND))) : 1;
    this.height = this.count > 1 ? (maxY - minY) / this.count : Infinity;
    const counts = new Int32Array(this.count + 1);
    for (let k = 0; k < n; k++)
      for (let b = this.bandOf(box[4 * k + 1]), b1 = this.bandOf(box[4 * k + 3]); b <= b1; b++) counts[b + 1]++;
    for (let b = 0; b < this.count; b++) counts[b + 1] += counts[b];
    this.start = counts.slice();
    const ids = (this.ids = new Int32Array(counts[this.count]));
    this.widest = new Float64Array(this.count);
    for (let k = 0; k < n; k++) {
      for (let b = this.bandOf(box[4 * k + 1]), b1 = this.bandOf(box[4 * k + 3]); b <= b1; b++) {
        ids[counts[b]++] = k;
        this.widest[b] = Math.max(this.widest[b], box[4 * k + 2] - box[4 * k]);
      }
    }
    for (let b = 0; b < this.count; b++)
      ids.subarray(this.start[b], this.start[b + 1]).sort((p, q) => box[4 * p] - box[4 * q] || p - q);
    this.picked = new Int32Array(n);
    this.stamp = new Int32Array(n);
  }

  /** The band of height y (the same rounding for edges and queries: an edge spanning y lies in y's band). */
  private bandOf(y: number): number {
    const b = Math.floor((y - this.minY) / this.height);
    return b < 0 ? 0 : b >= this.count ? this.count - 1 : b;
  }

  /** The first of band b's edges whose box may reach right of x. */
  private firstFrom(b: number, x: number): number {
    const box = this.box,
      ids = this.ids;
    const from = x - this.widest[b];
    let lo = this.start[b],
      hi = this.start[b + 1];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (box[4 * ids[mid]] < from) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Even-odd: the edges whose boxes reach from the left of (x, y) across its line, crossing the ray to −x. */
  containsPoint(x: number, y: number): boolean {
    if (!(y >= this.minY && y <= this.maxY)) return false;
    const e = this.e,
      box = this.box,
      ids = this.ids;
    let inside = false;
    const b = this.bandOf(y);
    for (let i = this.start[b], end = this.start[b + 1]; i < end; i++) {
      const k = ids[i];
      if (box[4 * k] > x) break;
      if (box[4 * k + 1] > y || box[4 * k + 3] < y) continue;
      if (crossesRayLeft(x, y, e[4 * k], e[4 * k + 1], e[4 * k + 2], e[4 * k + 3])) inside = !inside;
    }
    return inside;
  }

  /**
   * True when the segment crosses or touches no edge (the edges whose box meets its part in each band it spans; an edge
   * may be tested twice).
   */
  segmentClear(ax: number, ay: number, bx: number, by: number): boolean {
    const sx0 = Math.min(ax, bx),
      sx1 = Math.max(ax, bx),
      sy0 = Math.min(ay, by),
      sy1 = Math.max(ay, by);
    // no edge's box reaches the segment's (a NaN coordinate meets none either)
    if (!(sy1 >= this.minY && sy0 <= this.maxY)) return true;
    const box = this.box,
      ids = this.ids,
      e = this.e;
    const b0 = this.bandOf(sy0),
      b1 = this.bandOf(sy1);
    // x along the segment per unit of y (a horizontal segment lies in one band)
    const slope = by !== ay ? (bx - ax) / (by - ay) : 0;
    for (let b = b0; b <= b1; b++) {
      let px0 = sx0,
        px1 = sx1;
      if (b0 !== b1) {
        const ya = Math.max(sy0, this.minY + b * this.height - BAND_PAD_METERS),
          yb = Math.min(sy1, this.minY + (b + 1) * this.height + BAND_PAD_METERS);
        const xa = ax + (ya - ay) * slope,
          xb = ax + (yb - ay) * slope;
        px0 = Math.max(sx0, Math.min(xa, xb) - BAND_PAD_METERS);
        px1 = Math.min(sx1, Math.max(xa, xb) + BAND_PAD_METERS);
      }
      for (let i = this.firstFrom(b, px0), end = this.start[b + 1]; i < end; i++) {
        const k = ids[i];
        if (box[4 * k] > px1) break;
        if (box[4 * k + 2] < px0 || box[4 * k + 1] > sy1 || box[4 * k + 3] < sy0) continue;
        if (segmentsIntersect(ax, ay, bx, by, e[4 * k], e[4 * k + 1], e[4 * k + 2], e[4 * k + 3])) return false;
      }
    }
    return true;
  }

  /**
   * True when no segment of the polyline (flat xy) crosses or touches an edge: the edges near each run of points
   * gathered once, by the run's box.
   */
  polylineClear(xy: ArrayLike<number>): boolean {
    const e = this.e,
      box = this.box,
      ids = this.ids,
      picked = this.picked,
      stamp = this.stamp;
    const n = xy.length >> 1;
    for (let i0 = 0; i0 < n - 1; i0 += POLYLINE_RUN) {
      const i1 = Math.min(n - 1, i0 + POLYLINE_RUN);
      let minX = Infinity,
        minY = Infinity,
        maxX = -Infinity,
        maxY = -Infinity;
      for (let i = i0; i <= i1; i++) {
        const x = xy[2 * i],
          y = xy[2 * i + 1];
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
      if (!(maxY >= this.minY && minY <= this.maxY)) continue;
      if (this.run === 0x7fffffff) {
        stamp.fill(0);
        this.run = 0;
      }
      const run = ++this.run;
      let m = 0;
      for (let b = this.bandOf(minY), b1 = this.bandOf(maxY); b <= b1; b++) {
        for (let i = this.firstFrom(b, minX), end = this.start[b + 1]; i < end; i++) {
          const k = ids[i];
          if (box[4 * k] > maxX) break;
          if (box[4 * k + 2] < minX || box[4 * k + 1] > maxY || box[4 * k + 3] < minY || stamp[k] === run) continue;
          stamp[k] = run;
          picked[m++] = k;
        }
      }
      if (m === 0) continue;
      for (let i = i0; i < i1; i++) {
        const ax = xy[2 * i],
          ay = xy[2 * i + 1],
          bx = xy[2 * i + 2],
          by = xy[2 * i + 3];
        const sx0 = ax < bx ? ax : bx,
          sx1 = ax < bx ? bx : ax,
          sy0 = ay < by ? ay : by,
          sy1 = ay < by ? by : ay;
        for (let j = 0; j < m; j++) {
          const k = picked[j];
          if (box[4 * k + 2] < sx0 || box[4 * k] > sx1 || box[4 * k + 3] < sy0 || box[4 * k + 1] > sy1) continue;
          if (segmentsIntersect(ax, ay, bx, by, e[4 * k], e[4 * k + 1], e[4 * k + 2], e[4 * k + 3])) return false;
        }
      }
    }
    return true;
  }
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Closed-segment intersection test (touching counts). */
export function segmentsIntersect(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  const d1 = orient(cx, cy, dx, dy, ax, ay);
  const d2 = orient(cx, cy, dx, dy, bx, by);
  const d3 = orient(ax, ay, bx, by, cx, cy);
  const d4 = orient(ax, ay, bx, by, dx, dy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  if (d1 === 0 && between(ax, ay, cx, cy, dx, dy)) return true;
  if (d2 === 0 && between(bx, by, cx, cy, dx, dy)) return true;
  if (d3 === 0 && between(cx, cy, ax, ay, bx, by)) return true;
  if (d4 === 0 && between(dx, dy, ax, ay, bx, by)) return true;
  return false;
}

function between(px: number, py: number, ax: number, ay: number, bx: number, by: number): boolean {
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
}
