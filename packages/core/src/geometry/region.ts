/**
 * The region a route may use: the field (inside the boundary, outside its holes), with its
 * edges in a flatbush index. Answers "is this polyline inside?" exactly (no sampling: any
 * crossing of a boundary edge is found) and measures how far a point lies outside.
 */
import Flatbush from 'flatbush';
import type { PathsD } from './clipper.js';
import { hypot } from './vec.js';
import { crossesRayLeft } from './pointInRing.js';

export class Region {
  /** Edge endpoints, stride 4: ax, ay, bx, by. */
  readonly edges: Float64Array;
  /** Ring of each edge (0 = a shell of its polygon... any ring; see `holeEdge`). */
  readonly holeEdge: Uint8Array;
  private readonly index: Flatbush;
  private readonly minX: number;
  /**
   * Elementary checks answered so far (a point located, a segment tested, each point of a
   * polyline): a deterministic count of the geometric work done in this region, which the route
   * stage's work budget reads (clock.ts `WORK_UNITS_PER_SECOND`).
   */
  work = 0;

  constructor(rings: PathsD) {
    let n = 0;
    for (const r of rings) n += r.length;
    this.edges = new Float64Array(4 * n);
    this.holeEdge = new Uint8Array(n);
    this.index = new Flatbush(Math.max(1, n));
    let k = 0;
    for (const r of rings) {
      // Clockwise rings are holes (shells are counter-clockwise).
      let a2 = 0;
      for (let i = 0, j = r.length - 1; i < r.length; j = i++) a2 += (r[j].x - r[i].x) * (r[j].y + r[i].y);
      const hole = a2 < 0 ? 1 : 0;
      for (let i = 0; i < r.length; i++) {
        const a = r[i], b = r[(i + 1) % r.length];
        this.edges[4 * k] = a.x; this.edges[4 * k + 1] = a.y; this.edges[4 * k + 2] = b.x; this.edges[4 * k + 3] = b.y;
        this.holeEdge[k] = hole;
        this.index.add(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y));
        k++;
      }
    }
    if (n === 0) this.index.add(0, 0, 0, 0);
    this.index.finish();
    this.minX = this.index.minX;
  }

  /** The rings the region was built from (each as given: shells counter-clockwise, holes clockwise). */
  rings(): PathsD {
    const e = this.edges;
    const out: PathsD = [];
    let ring: { x: number; y: number }[] = [];
    for (let k = 0; k < e.length; k += 4) {
      ring.push({ x: e[k], y: e[k + 1] });
      // A ring's last edge ends where its first began.
      if (e[k + 2] === ring[0].x && e[k + 3] === ring[0].y) {
        out.push(ring);
        ring = [];
      }
    }
    if (ring.length > 0) out.push(ring);
    return out;
  }

  /** Even-odd point in region (shells and holes together). */
  contains(x: number, y: number): boolean {
    this.work++;
    const e = this.edges;
    let inside = false;
    const ids = this.index.search(this.minX - 1, y, x, y);
    for (const k of ids) {
      const ax = e[4 * k], ay = e[4 * k + 1], bx = e[4 * k + 2], by = e[4 * k + 3];
      if (crossesRayLeft(x, y, ax, ay, bx, by)) inside = !inside;
    }
    return inside;
  }

  /** Distance from a point to the nearest boundary edge. */
  distanceToEdge(x: number, y: number): number {
    this.work++;
    const e = this.edges;
    let best = Infinity;
    const ids = this.index.neighbors(x, y, 1);
    for (const k of ids) {
      const d = segmentDistance(x, y, e[4 * k], e[4 * k + 1], e[4 * k + 2], e[4 * k + 3]);
      if (d < best) best = d;
    }
    // flatbush neighbours are by bbox distance: check the bbox ring around the first answer too.
    if (best < Infinity) {
      for (const k of this.index.search(x - best, y - best, x + best, y + best)) {
        const d = segmentDistance(x, y, e[4 * k], e[4 * k + 1], e[4 * k + 2], e[4 * k + 3]);
        if (d < best) best = d;
      }
    }
    return best;
  }

  /** True when the segment crosses or touches no boundary edge. */
  segmentClear(ax: number, ay: number, bx: number, by: number): boolean {
    this.work++;
    const e = this.edges;
    const hits = this.index.search(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
    for (const k of hits) {
      if (segmentsIntersect(ax, ay, bx, by, e[4 * k], e[4 * k + 1], e[4 * k + 2], e[4 * k + 3])) return false;
    }
    return true;
  }

  /**
   * True when the whole polyline (flat xy) lies inside the region. Dense polylines (turns,
   * connectors: points every 0.5 m) are tested in runs of points, one index query per run.
   */
  containsPolyline(xy: ArrayLike<number>): boolean {
    if (xy.length < 2) return true;
    if (!this.contains(xy[0], xy[1])) return false;
    const e = this.edges;
    const n = xy.length >> 1;
    this.work += n;
    for (let i0 = 0; i0 < n - 1; i0 += POLYLINE_RUN) {
      const i1 = Math.min(n - 1, i0 + POLYLINE_RUN);
      let minX = xy[2 * i0], minY = xy[2 * i0 + 1], maxX = minX, maxY = minY;
      for (let i = i0 + 1; i <= i1; i++) {
        const x = xy[2 * i], y = xy[2 * i + 1];
        if (x < minX) minX = x; else if (x > maxX) maxX = x;
        if (y < minY) minY = y; else if (y > maxY) maxY = y;
      }
      const ids = this.index.search(minX, minY, maxX, maxY);
      if (ids.length === 0) continue;
      for (let i = i0; i < i1; i++) {
        const ax = xy[2 * i], ay = xy[2 * i + 1], bx = xy[2 * i + 2], by = xy[2 * i + 3];
        const sx0 = ax < bx ? ax : bx, sx1 = ax < bx ? bx : ax, sy0 = ay < by ? ay : by, sy1 = ay < by ? by : ay;
        for (const k of ids) {
          const cx = e[4 * k], cy = e[4 * k + 1], dx = e[4 * k + 2], dy = e[4 * k + 3];
          // Cheapest rejection first: the boxes of the two segments do not meet.
          if ((cx < dx ? dx : cx) < sx0 || (cx < dx ? cx : dx) > sx1 || (cy < dy ? dy : cy) < sy0 || (cy < dy ? cy : dy) > sy1) continue;
          if (segmentsIntersect(ax, ay, bx, by, cx, cy, dx, dy)) return false;
        }
      }
    }
    return true;
  }
}

/** Points per index query in `containsPolyline`. */
const POLYLINE_RUN = 32;

export function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax, dy = by - ay;
  const l2 = dx * dx + dy * dy;
  let t = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  return hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Closed-segment intersection test (touching counts). */
export function segmentsIntersect(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
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
