/**
 * Legs to and from the staging area (entry, exit, refill detours) routed inside the field.
 *
 * A leg between two points inside the field is straight when that line stays inside it, otherwise
 * the shortest path through waypoints kept away from the boundary (turns/waypointPath.ts). A point
 * outside the field (a staging area by the road) is joined through the nearest point of the field's
 * boundary: that short stretch is the only part outside, so a leg never cuts through a hole or
 * across a bay of a concave field. The straight line from an outside point is kept when it crosses
 * the boundary once (it enters the field and stays in).
 * Without a router (or when no inside path exists) the leg is the straight line, as before.
 */
import { shortestWaypointPath } from '../turns/waypointPath.js';
import type { Waypoints } from '../turns/waypointPath.js';
import type { Region } from '../geometry/region.js';
import type { XY } from './refill.js';
import { hypot } from '../geometry/vec.js';

export interface LegRouter {
  region: Pick<Region, 'contains' | 'segmentClear'>;
  /** Field rings (shells and holes), flat local xy, closed or not. */
  rings: ArrayLike<number>[];
  /** Waypoints for paths round holes and bays (built on first use). */
  waypoints?: () => Waypoints;
  /** Corners of a routed leg are rounded with arcs of this radius (tighter only where the legs are too short). */
  turnRadiusMeters?: number;
}

/** Meters a point outside the field is moved past the nearest boundary point to be safely inside. */
const INSET_METERS = 0.5;

/** Nearest point on the rings (closing edge included). */
function nearestOnBoundary(rings: ArrayLike<number>[], x: number, y: number): XY {
  let best: XY = [x, y];
  let bestD = Infinity;
  for (const r of rings) {
    const m = r.length >> 1;
    for (let i = 0; i < m; i++) {
      const j = i + 1 === m ? 0 : i + 1;
      const ax = r[2 * i],
        ay = r[2 * i + 1],
        bx = r[2 * j],
        by = r[2 * j + 1];
      const dx = bx - ax,
        dy = by - ay;
      const l2 = dx * dx + dy * dy;
      const t = l2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / l2)) : 0;
      const px = ax + t * dx,
        py = ay + t * dy;
      const d = (px - x) ** 2 + (py - y) ** 2;
      if (d < bestD) {
        bestD = d;
        best = [px, py];
      }
    }
  }
  return best;
}

/** Ring edges the segment a→b crosses, and the smallest parameter t ∈ [0, 1] along a→b of a crossing. */
function boundaryCrossings(
  rings: ArrayLike<number>[],
  ax: number,
  ay: number,
  bx: number,
  by: number,
): { count: number; firstT: number } {
  let count = 0;
  let firstT = Infinity;
  const ex = bx - ax,
    ey = by - ay;
  for (const r of rings) {
    const m = r.length >> 1;
    for (let i = 0; i < m; i++) {
      const j = i + 1 === m ? 0 : i + 1;
      const cx = r[2 * i],
        cy = r[2 * i + 1],
        dx = r[2 * j],
        dy = r[2 * j + 1];
      if (cx === dx && cy === dy) continue;
      const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
      const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
      if ((d1 > 0 && d2 > 0) || (d1 < 0 && d2 < 0)) continue;
      const d3 = ex * (cy - ay) - ey * (cx - ax);
      const d4 = ex * (dy - ay) - ey * (dx - ax);
      if ((d3 > 0 && d4 > 0) || (d3 < 0 && d4 < 0)) continue;
      count++;
      const t = d1 === d2 ? 0 : d1 / (d1 - d2);
      if (t < firstT) firstT = t;
    }
  }
  return { count, firstT };
}

/** An inside point near `p` (outside the field): the nearest boundary point and a point just past it. */
function entryFor(router: LegRouter, p: XY): { boundary: XY; inside: XY } | undefined {
  const b = nearestOnBoundary(router.rings, p[0], p[1]);
  const dx = b[0] - p[0],
    dy = b[1] - p[1];
  const d = hypot(dx, dy);
  if (d === 0) return undefined;
  // a turn radius inside (room to round the corner there), else just inside
  for (const inset of [Math.max(INSET_METERS, router.turnRadiusMeters ?? 0), INSET_METERS, INSET_METERS / 10]) {
    const q: XY = [b[0] + (dx / d) * inset, b[1] + (dy / d) * inset];
    if (router.region.contains(q[0], q[1])) return { boundary: b, inside: q };
  }
  return undefined;
}

/** Inside path a → b (both inside): the straight line if clear, else through waypoints; points between a and b. */
function insidePath(router: LegRouter, a: XY, b: XY): XY[] | undefined {
  if (router.region.segmentClear(a[0], a[1], b[0], b[1])) return [];
  if (!router.waypoints) return undefined;
  const pts = shortestWaypointPath(router.waypoints(), router.region as Region, a[0], a[1], b[0], b[1]);
  if (!pts) return undefined;
  const out: XY[] = [];
  for (let i = 0; i + 1 < pts.length; i += 2) out.push([pts[i], pts[i + 1]]);
  return out;
}

/**
 * Rounds the corners of a polyline with circular arcs of `radius` (points ≤ 0.4 m apart on the
 * arcs); where the legs beside a corner are too short for that, the arc uses half of each leg.
 * With `inside`, an arc that would leave the field is retried at half the radius (twice), then the
 * corner is kept.
 */
export function filletCorners(points: XY[], radius: number, inside?: (x: number, y: number) => boolean): XY[] {
  if (points.length < 3 || !(radius > 0)) return points;
  const out: XY[] = [points[0]];
  // how much of each leg the previous corner's arc has used
  let usedFromStart = 0;
  for (let i = 1; i + 1 < points.length; i++) {
    const p = points[i],
      a = points[i - 1],
      b = points[i + 1];
    const l1 = hypot(p[0] - a[0], p[1] - a[1]);
    const l2 = hypot(b[0] - p[0], b[1] - p[1]);
    if (l1 === 0 || l2 === 0) {
      usedFromStart = 0;
      continue;
    }
    const ux = (p[0] - a[0]) / l1,
      uy = (p[1] - a[1]) / l1;
    const vx = (b[0] - p[0]) / l2,
      vy = (b[1] - p[1]) / l2;
    const cross = ux * vy - uy * vx;
    const phi = Math.atan2(Math.abs(cross), ux * vx + uy * vy);
    if (phi < 1e-6 || phi > Math.PI - 1e-3) {
      out.push(p);
      usedFromStart = 0;
      continue;
    }
    const tanHalf = Math.tan(phi / 2);
    const side = cross > 0 ? 1 : -1;
    let arc: XY[] | undefined;
    let t = 0;
    for (let attempt = 0, want = radius; attempt < 3 && !arc; attempt++, want /= 2) {
      t = Math.min(want * tanHalf, l1 - usedFromStart, l2 / 2);
      const r = t / tanHalf;
      const ax = p[0] - ux * t,
        ay = p[1] - uy * t;
      // centre to the left (CCW turn) or right of the incoming direction
      const cx = ax - side * uy * r,
        cy = ay + side * ux * r;
      const a0 = Math.atan2(ay - cy, ax - cx);
      const steps = Math.max(1, Math.ceil((r * phi) / 0.4));
      const pts: XY[] = [];
      for (let k = 0; k <= steps; k++) {
        const ang = a0 + (side * phi * k) / steps;
        pts.push([cx + r * Math.cos(ang), cy + r * Math.sin(ang)]);
      }
      if (!inside || pts.every((q) => inside(q[0], q[1]))) arc = pts;
    }
    if (!arc) {
      out.push(p);
      usedFromStart = 0;
      continue;
    }
    for (const q of arc) out.push(q);
    usedFromStart = t;
  }
  out.push(points[points.length - 1]);
  return out;
}

/** The leg from `from` to `to` as a polyline (both ends included), corners rounded when the router has a radius. */
export function routeLeg(router: LegRouter | undefined, from: XY, to: XY): XY[] {
  const pts = routeCorners(router, from, to);
  if (!router?.turnRadiusMeters || pts.length < 3) return pts;
  const region = router.region;
  // a corner outside the field (the boundary point an outside end joins at) may be rounded freely
  return filletCorners(pts, router.turnRadiusMeters, (x, y) => region.contains(x, y));
}

/** Corner points of the leg from `from` to `to` (both included). */
function routeCorners(router: LegRouter | undefined, from: XY, to: XY): XY[] {
  if (!router) return [from, to];
  const fromIn = router.region.contains(from[0], from[1]);
  const toIn = router.region.contains(to[0], to[1]);
  if (fromIn && toIn) {
    const mid = insidePath(router, from, to);
    return mid ? [from, ...mid, to] : [from, to];
  }
  if (!fromIn && !toIn) return [from, to];
  // one end outside: keep the straight line if it enters the field once and stays in
  const [outside, inside] = fromIn ? [to, from] : [from, to];
  if (boundaryCrossings(router.rings, outside[0], outside[1], inside[0], inside[1]).count <= 1) return [from, to];
  const entry = entryFor(router, outside);
  if (!entry) return [from, to];
  const mid = insidePath(router, entry.inside, inside);
  if (!mid) return [from, to];
  const path: XY[] = [outside, entry.boundary, entry.inside, ...mid, inside];
  return fromIn ? path.reverse() : path;
}

export function legLengthMeters(points: XY[]): number {
  let len = 0;
  for (let i = 1; i < points.length; i++)
    len += hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]);
  return len;
}
