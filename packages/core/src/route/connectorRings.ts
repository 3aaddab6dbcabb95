/**
 * Connector rings: closed curves inside the headland band along which the machine travels
 * between far-apart tracks (headland traversal). Built as the field eroded by c + R and
 * dilated by R (c = distance from the boundary): every convex corner becomes an arc of
 * radius R and every concave one an arc of radius c ≥ R, so driving along a ring respects
 * the minimum turning radius. Rings are densified to a point at least every 0.5 m.
 */
import { offsetPolygons, ringToFlat } from '../geometry/clipper.js';
import type { PathsD } from '../geometry/clipper.js';
import Flatbush from 'flatbush';
import { densify } from '../geometry/vec.js';
import type { Pose } from '../turns/types.js';

export interface LoopPath {
  /** Closed flat xy polyline (last point = first). */
  xy: Float64Array;
  /** Cumulative length at each point. */
  s: Float64Array;
  lengthMeters: number;
}

export function makeLoop(closedXy: ArrayLike<number>, stepMeters = 0.5): LoopPath {
  const xy = densify(closedXy, stepMeters);
  const n = xy.length / 2;
  const s = new Float64Array(n);
  for (let i = 1; i < n; i++) s[i] = s[i - 1] + Math.hypot(xy[2 * i] - xy[2 * i - 2], xy[2 * i + 1] - xy[2 * i - 1]);
  return { xy, s, lengthMeters: s[n - 1] };
}

export function buildConnectorRings(field: PathsD, offsetMeters: number, turnRadiusMeters: number): LoopPath[] {
  const eroded = offsetPolygons(field, -(offsetMeters + turnRadiusMeters));
  if (eroded.length === 0) return [];
  const rings = offsetPolygons(eroded, turnRadiusMeters);
  return rings.filter((r) => r.length >= 3).map((r) => makeLoop(ringToFlat(r)));
}

/**
 * Rings for narrow parts (necks, strips): the field eroded by a small offset c (< R), then
 * closed and opened by R, so concave corners too get radius ≥ R. Parts narrower than 2R + 2c
 * survive (the plain rings need 2c + 2R with c ≥ R). A closing may bridge a narrow bay;
 * traversals are checked for containment, so such a bridge is never driven.
 */
export function buildNarrowConnectorRings(field: PathsD, offsetMeters: number, turnRadiusMeters: number): LoopPath[] {
  const eroded = offsetPolygons(field, -offsetMeters);
  if (eroded.length === 0) return [];
  const grown = offsetPolygons(eroded, turnRadiusMeters);
  const shrunk = offsetPolygons(grown, -2 * turnRadiusMeters);
  if (shrunk.length === 0) return [];
  const rings = offsetPolygons(shrunk, turnRadiusMeters);
  return rings.filter((r) => r.length >= 3).map((r) => makeLoop(ringToFlat(r)));
}

/** Segment index of each loop (built on first query; loops are immutable once made). */
const loopIndexes = new WeakMap<LoopPath, Flatbush>();

function loopIndex(loop: LoopPath): Flatbush {
  let index = loopIndexes.get(loop);
  if (index) return index;
  const xy = loop.xy;
  const n = Math.max(1, xy.length / 2 - 1);
  index = new Flatbush(n);
  if (xy.length < 4) index.add(xy[0] ?? 0, xy[1] ?? 0, xy[0] ?? 0, xy[1] ?? 0);
  for (let i = 2; i < xy.length; i += 2) {
    const ax = xy[i - 2], ay = xy[i - 1], bx = xy[i], by = xy[i + 1];
    index.add(ax < bx ? ax : bx, ay < by ? ay : by, ax < bx ? bx : ax, ay < by ? by : ay);
  }
  index.finish();
  loopIndexes.set(loop, index);
  return index;
}

/**
 * Arc-length position of the point of the loop nearest to (x, y). With `maxDistanceMeters`,
 * a loop farther than that answers `{ s: 0, distance: Infinity }` without measuring.
 */
export function nearestOnLoop(loop: LoopPath, x: number, y: number, maxDistanceMeters = Infinity): { s: number; distance: number } {
  const xy = loop.xy;
  if (xy.length < 4) return { s: 0, distance: xy.length === 2 ? Math.hypot(xy[0] - x, xy[1] - y) : Infinity };
  const index = loopIndex(loop);
  let ids: number[];
  if (maxDistanceMeters < Infinity) {
    ids = index.search(x - maxDistanceMeters, y - maxDistanceMeters, x + maxDistanceMeters, y + maxDistanceMeters);
    if (ids.length === 0) return { s: 0, distance: Infinity };
  } else {
    // The nearest bounding box bounds the distance; every segment within it is a candidate.
    const first = index.neighbors(x, y, 1)[0];
    const r = segmentDistance2(x, y, xy, 2 * first + 2);
    const d = Math.sqrt(r) + 1e-9;
    ids = index.search(x - d, y - d, x + d, y + d);
  }
  let best = Infinity, bestS = 0;
  for (const k of ids) {
    const i = 2 * k + 2;
    const ax = xy[i - 2], ay = xy[i - 1], dx = xy[i] - ax, dy = xy[i + 1] - ay;
    const l2 = dx * dx + dy * dy;
    let t = l2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const px = ax + t * dx - x, py = ay + t * dy - y;
    const d = px * px + py * py;
    // Ties go to the lowest segment (the order a linear scan would give).
    if (d < best || (d === best && loop.s[k] + t * Math.sqrt(l2) < bestS)) {
      best = d;
      bestS = loop.s[k] + t * Math.sqrt(l2);
    }
  }
  const distance = Math.sqrt(best);
  return distance > maxDistanceMeters ? { s: 0, distance: Infinity } : { s: bestS, distance };
}

/** Squared distance from (x, y) to the loop segment ending at flat index i. */
function segmentDistance2(x: number, y: number, xy: Float64Array, i: number): number {
  const ax = xy[i - 2], ay = xy[i - 1], dx = xy[i] - ax, dy = xy[i + 1] - ay;
  const l2 = dx * dx + dy * dy;
  let t = l2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const px = ax + t * dx - x, py = ay + t * dy - y;
  return px * px + py * py;
}

function wrapS(loop: LoopPath, s: number): number {
  const L = loop.lengthMeters;
  s %= L;
  return s < 0 ? s + L : s;
}

function segmentAt(loop: LoopPath, s: number): number {
  // Binary search: the edge i (points i, i+1) with s[i] <= s < s[i+1].
  const S = loop.s;
  let lo = 0, hi = S.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (S[mid] <= s) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Pose on the loop at arc length s, heading along +s (dir = 1) or −s (dir = −1). */
export function poseOnLoop(loop: LoopPath, s: number, dir: 1 | -1): Pose {
  s = wrapS(loop, s);
  const i = segmentAt(loop, s);
  const xy = loop.xy;
  const ax = xy[2 * i], ay = xy[2 * i + 1], bx = xy[2 * i + 2], by = xy[2 * i + 3];
  const len = loop.s[i + 1] - loop.s[i];
  const t = len > 0 ? (s - loop.s[i]) / len : 0;
  const h = Math.atan2(by - ay, bx - ax);
  return { x: ax + t * (bx - ax), y: ay + t * (by - ay), headingRadians: dir === 1 ? h : h + Math.PI };
}

/** The part of the loop from s0 travelling `distance` meters in direction dir, as flat xy. */
export function sliceLoop(loop: LoopPath, s0: number, distance: number, dir: 1 | -1): number[] {
  const out: number[] = [];
  const L = loop.lengthMeters;
  const p0 = poseOnLoop(loop, s0, dir);
  out.push(p0.x, p0.y);
  const xy = loop.xy;
  const n = loop.s.length;
  s0 = wrapS(loop, s0);
  if (dir === 1) {
    let i = segmentAt(loop, s0) + 1;
    let travelled = loop.s[i] - s0;
    let guard = 2 * n + 4;
    while (travelled < distance && guard-- > 0) {
      out.push(xy[2 * i], xy[2 * i + 1]);
      i++;
      if (i >= n) i = 1; // point n-1 == point 0
      travelled += loop.s[i] - loop.s[i - 1];
    }
  } else {
    let i = segmentAt(loop, s0);
    let travelled = s0 - loop.s[i];
    let guard = 2 * n + 4;
    while (travelled < distance && guard-- > 0) {
      out.push(xy[2 * i], xy[2 * i + 1]);
      i--;
      if (i < 0) i = n - 2;
      travelled += loop.s[i + 1] - loop.s[i];
    }
  }
  const p1 = poseOnLoop(loop, s0 + dir * distance, dir);
  // Drop a last vertex that nearly repeats the end point.
  const m = out.length;
  if (m >= 2 && Math.hypot(out[m - 2] - p1.x, out[m - 1] - p1.y) < 1e-6) out.length = m - 2;
  out.push(p1.x, p1.y);
  void L;
  return out;
}
