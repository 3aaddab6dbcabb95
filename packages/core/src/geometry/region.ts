/**
 * The region a route may use: the field (inside the boundary, outside its holes), with its
 * edges in a flatbush index (nearest edges) and in horizontal bands (`EdgeBands`: point location
 * and segment tests, the hot queries). Answers "is this polyline inside?" exactly (no sampling:
 * any crossing of a boundary edge is found) and measures how far a point lies outside.
 */
import Flatbush from 'flatbush';
import type { PathsD } from './clipper.js';
import { hypot } from './vec.js';
import { EdgeBands } from './edgeBands.js';

export { segmentsIntersect } from './edgeBands.js';

export class Region {
  /** Edge endpoints, stride 4: ax, ay, bx, by. */
  readonly edges: Float64Array;
  /** Ring of each edge (0 = a shell of its polygon... any ring; see `holeEdge`). */
  readonly holeEdge: Uint8Array;
  private readonly index: Flatbush;
  private readonly bands: EdgeBands;
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
        const a = r[i],
          b = r[(i + 1) % r.length];
        this.edges[4 * k] = a.x;
        this.edges[4 * k + 1] = a.y;
        this.edges[4 * k + 2] = b.x;
        this.edges[4 * k + 3] = b.y;
        this.holeEdge[k] = hole;
        this.index.add(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y));
        k++;
      }
    }
    if (n === 0) this.index.add(0, 0, 0, 0);
    this.index.finish();
    this.bands = new EdgeBands(this.edges);
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
    return this.bands.containsPoint(x, y);
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
    return this.bands.segmentClear(ax, ay, bx, by);
  }

  /**
   * True when the whole polyline (flat xy) lies inside the region. Dense polylines (turns,
   * connectors: points every 0.5 m) are tested in runs of points, their edges gathered once per run.
   */
  containsPolyline(xy: ArrayLike<number>): boolean {
    if (xy.length < 2) return true;
    if (!this.contains(xy[0], xy[1])) return false;
    const n = xy.length >> 1;
    this.work += n;
    return this.bands.polylineClear(xy);
  }

  /**
   * `containsPolyline` in pieces, for a polyline tested while it is drawn: whether its first point
   * (x, y) lies inside, the work of all its `pointCount` points counted as `containsPolyline` counts
   * it; then `polylineRunClear` on consecutive runs of it (each run starting at the last point of the
   * run before). All runs clear ⇔ `containsPolyline` of the whole is true.
   */
  beginPolyline(x: number, y: number, pointCount: number): boolean {
    if (!this.contains(x, y)) return false;
    this.work += pointCount;
    return true;
  }

  /** No segment of the run (flat xy) crosses or touches the region's edges (no work counted: `beginPolyline` did). */
  polylineRunClear(xy: ArrayLike<number>): boolean {
    return this.bands.polylineClear(xy);
  }
}

export function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax,
    dy = by - ay;
  const l2 = dx * dx + dy * dy;
  let t = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  return hypot(px - (ax + t * dx), py - (ay + t * dy));
}
