/**
 * Connector rings: closed curves inside the headland band along which the machine travels
 * between far-apart tracks (headland traversal). Built as the field eroded by c + R and
 * dilated by R (c = distance from the boundary): every convex corner becomes an arc of
 * radius R and every concave one an arc of radius c ≥ R, so driving along a ring respects
 * the minimum turning radius. Rings are densified to a point at least every 0.5 m.
 */
import { grownByParts, offsetPolygons, ringToFlat } from '../geometry/clipper.js';
import type { PathsD } from '../geometry/clipper.js';
import Flatbush from 'flatbush';
import { densify, hypot, segmentParameter } from '../geometry/vec.js';
import type { Pose } from './types.js';
import { limitCurvatureRate } from './rateLimit.js';
import { checkKinematics } from './kinematics.js';

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
  for (let i = 1; i < n; i++) s[i] = s[i - 1] + hypot(xy[2 * i] - xy[2 * i - 2], xy[2 * i + 1] - xy[2 * i - 1]);
  return { xy, s, lengthMeters: s[n - 1] };
}

export function buildConnectorRings(field: PathsD, offsetMeters: number, turnRadiusMeters: number): LoopPath[] {
  const eroded = offsetPolygons(field, -(offsetMeters + turnRadiusMeters));
  if (eroded.length === 0) return [];
  const rings = grownByParts(eroded, turnRadiusMeters);
  return rings.filter((r) => r.length >= 3).map((r) => makeLoop(ringToFlat(r)));
}

const rateLimitedLoops = new WeakMap<LoopPath, Map<number, LoopPath>>();

/**
 * A connector ring for a machine with a curvature-rate limit σ: redrawn with clothoid transitions
 * where its straights meet its arcs (`limitCurvatureRate`: a jump of 1/r becomes a ramp of slope
 * ≤ σ; the ring moves by centimeters). Kinks where the field pinches the ring (curvature well above
 * 1/R) are left as they are, for `loopDefects` (traversals avoid them); a ring the redrawing would
 * move by more than 0.3 m is kept as it is. Cached per ring and σ.
 */
export function rateLimitedLoop(
  loop: LoopPath,
  turnRadiusMeters: number,
  maxCurvatureRatePerSquareMeter: number,
): LoopPath {
  let bySigma = rateLimitedLoops.get(loop);
  if (!bySigma) rateLimitedLoops.set(loop, (bySigma = new Map()));
  let out = bySigma.get(maxCurvatureRatePerSquareMeter);
  if (!out) {
    const opts = { maxCurvatureRatePerSquareMeter, maxCurvaturePerMeter: 1 / turnRadiusMeters };
    const defects = loopDefects(loop, turnRadiusMeters);
    if (defects.length === 0) {
      const smooth = limitCurvatureRate(loop.xy, { ...opts, closed: true });
      out = smooth ? makeLoop(smooth) : loop;
    } else {
      // Pinched: each stretch between two defects redrawn on its own (its ends, the kinks, stay).
      const xy: number[] = [];
      const S = loop.s,
        n = S.length;
      const at = (s: number): number => {
        let i = 0;
        while (i < n - 1 && S[i] < s - 1e-9) i++;
        return i;
      };
      const cuts = Array.from(defects, (d) => at(d)).sort((a, b) => a - b);
      for (let k = 0; k < cuts.length; k++) {
        const a = cuts[k],
          b = k + 1 < cuts.length ? cuts[k + 1] : cuts[0] + n - 1;
        const piece: number[] = [];
        for (let i = a; i <= b; i++) {
          const q = i % (n - 1);
          piece.push(loop.xy[2 * q], loop.xy[2 * q + 1]);
        }
        const smooth =
          piece.length >= 8
            ? limitCurvatureRate(piece, { ...opts, defectCurvaturePerMeter: 1.3 / turnRadiusMeters })
            : undefined;
        const part = smooth ?? piece;
        for (let i = xy.length === 0 ? 0 : 2; i < part.length; i++) xy.push(part[i]);
      }
      out = xy.length >= 8 ? makeLoop(xy) : loop;
    }
    bySigma.set(maxCurvatureRatePerSquareMeter, out);
  }
  return out;
}

/**
 * Rings for narrow parts (necks, strips): the field eroded by a small offset c (< R), then
 * closed and opened by R, so concave corners too get radius ≥ R. Parts narrower than 2R + 2c
 * survive (the plain rings need 2c + 2R with c ≥ R). A closing may bridge a narrow bay;
 * traversals are checked for containment, so such a bridge is never driven.
 */
export function buildNarrowConnectorRings(field: PathsD, offsetMeters: number, turnRadiusMeters: number): LoopPath[] {
  // Neither this erosion's arcs (concave, radius c < R: the growth by R below makes them sharp
  // corners again) nor the growth's (convex, radius R: the shrink by 2R takes them away) survive
  // into the rings: coarse arc tolerances for both change nothing that survives and are several
  // times faster (measured: same ring lengths, no more defects on it-tus-033 and bg-009).
  const eroded = offsetPolygons(field, -offsetMeters, 0.05);
  if (eroded.length === 0) return [];
  const grown = offsetPolygons(eroded, turnRadiusMeters, 0.05);
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
    const ax = xy[i - 2],
      ay = xy[i - 1],
      bx = xy[i],
      by = xy[i + 1];
    index.add(ax < bx ? ax : bx, ay < by ? ay : by, ax < bx ? bx : ax, ay < by ? by : ay);
  }
  index.finish();
  loopIndexes.set(loop, index);
  return index;
}

/**
 * A lower bound of the loop's distance from (x, y): the distance to its bounding box (less a
 * micrometre for rounding), so that a loop can be passed over without measuring it.
 */
export function loopDistanceAtLeast(loop: LoopPath, x: number, y: number): number {
  if (loop.xy.length < 4) return 0;
  const b = loopIndex(loop);
  const dx = Math.max(b.minX - x, 0, x - b.maxX),
    dy = Math.max(b.minY - y, 0, y - b.maxY);
  return Math.max(0, Math.sqrt(dx * dx + dy * dy) - 1e-6);
}

/**
 * Arc-length position of the point of the loop nearest to (x, y). With `maxDistanceMeters`,
 * a loop farther than that answers `{ s: 0, distance: Infinity }` without measuring.
 */
export function nearestOnLoop(
  loop: LoopPath,
  x: number,
  y: number,
  maxDistanceMeters = Infinity,
): { s: number; distance: number } {
  const xy = loop.xy;
  if (xy.length < 4) return { s: 0, distance: xy.length === 2 ? hypot(xy[0] - x, xy[1] - y) : Infinity };
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
  let best = Infinity,
    bestS = 0;
  for (const k of ids) {
    const i = 2 * k + 2;
    const ax = xy[i - 2],
      ay = xy[i - 1],
      dx = xy[i] - ax,
      dy = xy[i + 1] - ay;
    const l2 = dx * dx + dy * dy;
    const t = segmentParameter(x, y, ax, ay, dx, dy);
    const px = ax + t * dx - x,
      py = ay + t * dy - y;
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
  const ax = xy[i - 2],
    ay = xy[i - 1],
    dx = xy[i] - ax,
    dy = xy[i + 1] - ay;
  const t = segmentParameter(x, y, ax, ay, dx, dy);
  const px = ax + t * dx - x,
    py = ay + t * dy - y;
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
  let lo = 0,
    hi = S.length - 1;
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
  const ax = xy[2 * i],
    ay = xy[2 * i + 1],
    bx = xy[2 * i + 2],
    by = xy[2 * i + 3];
  const len = loop.s[i + 1] - loop.s[i];
  const t = len > 0 ? (s - loop.s[i]) / len : 0;
  const h = Math.atan2(by - ay, bx - ax);
  return { x: ax + t * (bx - ax), y: ay + t * (by - ay), headingRadians: dir === 1 ? h : h + Math.PI };
}

/** Edges at least this long are "long" (sparse loops: headland passes); a junction keeps this far from their ends. */
const JUNCTION_CLEARANCE_METERS = 1.2;

/**
 * Where a manoeuvre may join (`enter`: then drive on along dir) or leave (`leave`: after driving
 * along dir) the loop near arc length s, so that the junction has no kink the turning radius
 * does not allow: on a dense loop (a connector ring, points every ≤ 0.5 m) s moves to the
 * nearest vertex and the pose takes the heading of the chord driven from it (enter) or into it
 * (leave); on a long edge (a headland pass) it stays at least 1.2 m from the edge's ends, so
 * no corner lies within a meter of the junction (`onLongEdge`). Returns the snapped s and the pose.
 */
export function junctionOnLoop(
  loop: LoopPath,
  s: number,
  dir: 1 | -1,
  role: 'enter' | 'leave',
): { s: number; pose: Pose; onLongEdge: boolean } {
  s = wrapS(loop, s);
  const S = loop.s,
    xy = loop.xy;
  const n = S.length; // points; point n-1 repeats point 0
  let i = segmentAt(loop, s);
  if (i >= n - 1) i = n - 2;
  const len = S[i + 1] - S[i];
  if (len >= 2 * JUNCTION_CLEARANCE_METERS) {
    const c = Math.min(Math.max(s, S[i] + JUNCTION_CLEARANCE_METERS), S[i + 1] - JUNCTION_CLEARANCE_METERS);
    return { s: c, pose: poseOnLoop(loop, c, dir), onLongEdge: true };
  }
  // Nearest vertex v (0 ≤ v < n - 1), and the chords into and out of it in the driving direction.
  let v = s - S[i] <= S[i + 1] - s ? i : i + 1;
  if (v >= n - 1) v = 0;
  const prevV = v === 0 ? n - 2 : v - 1,
    nextV = v + 1; // v + 1 ≤ n - 1 (point n-1 = point 0)
  const x = xy[2 * v],
    y = xy[2 * v + 1];
  // Chord out of v along dir: to nextV (dir 1) or prevV (dir -1); into v: from prevV (dir 1) or nextV (dir -1).
  const other = (role === 'enter') === (dir === 1) ? nextV : prevV;
  const ox = xy[2 * other],
    oy = xy[2 * other + 1];
  const h = role === 'enter' ? Math.atan2(oy - y, ox - x) : Math.atan2(y - oy, x - ox);
  return { s: S[v], pose: { x, y, headingRadians: h }, onLongEdge: false };
}

/** The part of the loop from s0 travelling `distance` meters in direction dir, as flat xy. */
export function sliceLoop(loop: LoopPath, s0: number, distance: number, dir: 1 | -1): number[] {
  const out: number[] = [];
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
      // s0 on a vertex: do not repeat it.
      if (travelled > 0 || hypot(xy[2 * i] - p0.x, xy[2 * i + 1] - p0.y) > 1e-9) out.push(xy[2 * i], xy[2 * i + 1]);
      i--;
      if (i < 0) i = n - 2;
      travelled += loop.s[i + 1] - loop.s[i];
    }
  }
  const p1 = poseOnLoop(loop, s0 + dir * distance, dir);
  // Drop a last vertex that nearly repeats the end point.
  const m = out.length;
  if (m >= 2 && hypot(out[m - 2] - p1.x, out[m - 1] - p1.y) < 1e-6) out.length = m - 2;
  out.push(p1.x, p1.y);
  return out;
}

/**
 * True when no vertex of the polyline turns more than a curve of radius R allows: the heading
 * change between the chords to the nearest points at least 0.1 m back and forward, a and b, is at
 * most asin(a/2R) + asin(b/2R) (+ 0.002 rad, less what the output's rounding can add on short
 * chords) — exact for points on a circle of radius R, and the bound the route's kinematic check
 * applies (turns/kinematics.ts) to the rounded coordinates. Joined connectors (ring slices,
 * chains, searched paths) and junctions are measured with it as well as with the three-point
 * curvature.
 */
export function kinksWithinRadius(xy: ArrayLike<number>, radiusMeters: number): boolean {
  const twoR = 2 * radiusMeters;
  const n = xy.length >> 1;
  const minChord = 0.1;
  for (let v = 1; v < n - 1; v++) {
    const vx = xy[2 * v],
      vy = xy[2 * v + 1];
    let j = v - 1;
    while (j > 0 && hypot(vx - xy[2 * j], vy - xy[2 * j + 1]) < minChord) j--;
    let k = v + 1;
    while (k < n - 1 && hypot(xy[2 * k] - vx, xy[2 * k + 1] - vy) < minChord) k++;
    const ax = vx - xy[2 * j],
      ay = vy - xy[2 * j + 1],
      bx = xy[2 * k] - vx,
      by = xy[2 * k + 1] - vy;
    const a = hypot(ax, ay),
      b = hypot(bx, by);
    if (a < 0.01 || b < 0.01) continue;
    const turn = Math.abs(Math.atan2(ax * by - ay * bx, ax * bx + ay * by));
    // The plan's coordinates are rounded (1e-9°, about 0.1 mm): on short chords that moves the
    // measured turn by up to 2·0.1 mm / chord each side, so part of checkPlan's 0.002 rad is kept
    // back for it (at most 0.0015: points on an arc of radius exactly R still pass).
    const rounding = Math.min(0.0015, OUTPUT_ROUNDING_METERS * 2 * (1 / a + 1 / b));
    if (turn > Math.asin(Math.min(1, a / twoR)) + Math.asin(Math.min(1, b / twoR)) + 0.002 - rounding) return false;
  }
  return true;
}

/** How far the plan's rounding to 1e-9° may move a point, meters (as `checkPlan` allows for it). */
const OUTPUT_ROUNDING_METERS = 1e-4;

/**
 * Whether the loop side of a junction (1.2 m of the loop from it, with the manoeuvre's tangent
 * continued straight for a meter) has no kink beyond the turning radius: a headland pass's tight
 * corner arc (radius (i − ½)·w can be below R) is no place to join it.
 */
export function loopSideFits(
  loop: LoopPath,
  j: { s: number; pose: Pose },
  dir: 1 | -1,
  role: 'enter' | 'leave',
  radiusMeters: number,
  maxCurvatureRatePerSquareMeter?: number,
): boolean {
  const c = Math.cos(j.pose.headingRadians),
    sn = Math.sin(j.pose.headingRadians);
  // The loop side as the route's kinematic check reads a neighbouring piece: a metre of it,
  // short chords (≤ 1 m, maybe a polygonal arc) whole, longer (straight) ones every 0.25 m.
  const side = loopContext(loop, j.s, role === 'enter' ? dir : (-dir as 1 | -1), 1);
  const xy: number[] = [];
  if (role === 'enter') {
    xy.push(j.pose.x - c, j.pose.y - sn);
    for (let i = 0; i < side.length; i++) xy.push(side[i]);
  } else {
    for (let i = side.length - 2; i >= 0; i -= 2) xy.push(side[i], side[i + 1]);
    xy.push(j.pose.x + c, j.pose.y + sn);
  }
  if (!kinksWithinRadius(xy, radiusMeters)) return false;
  if (maxCurvatureRatePerSquareMeter === undefined) return true;
  // With a curvature-rate limit the manoeuvre (straight where it meets the loop: CC turns start
  // and end with curvature 0) must not meet the loop on a bend it cannot reach in time. The
  // straight is drawn every 0.25 m here, as the route's check reads a straight (one 1 m chord
  // would hide a jump at the junction from its 0.4 m triples).
  const fine: number[] = [];
  if (role === 'enter') {
    for (let k = 4; k >= 1; k--) fine.push(j.pose.x - 0.25 * k * c, j.pose.y - 0.25 * k * sn);
    for (let i = 0; i < side.length; i++) fine.push(side[i]);
  } else {
    for (let i = side.length - 2; i >= 0; i -= 2) fine.push(side[i], side[i + 1]);
    for (let k = 1; k <= 4; k++) fine.push(j.pose.x + 0.25 * k * c, j.pose.y + 0.25 * k * sn);
  }
  return rateFitsPolyline(fine, radiusMeters, maxCurvatureRatePerSquareMeter);
}

/**
 * Whether the curvature along a polyline changes no faster than σ (and stays within 1/R), as the
 * route's kinematic check measures it (`turns/kinematics.ts`, triples ≥ 0.4 m), with less margin
 * than `checkPlan` allows (3 % on the rate instead of 5 %, 4 % on the curvature instead of 5 %).
 */
export function rateFitsPolyline(
  xy: ArrayLike<number>,
  radiusMeters: number,
  maxCurvatureRatePerSquareMeter: number,
): boolean {
  if (xy.length < 6) return true;
  const v = checkKinematics(xy instanceof Float64Array ? xy : Float64Array.from(xy), {
    turnRadiusMeters: radiusMeters,
    maxCurvatureRatePerSquareMeter,
    curvatureTolerance: 0.04,
    rateTolerance: 0.03,
    minLegMeters: 0.4,
    reverseAllowed: true,
  });
  return !v.some((x) => x.kind === 'curvature-rate' || x.kind === 'curvature');
}

/** From arc length s along dir: the loop's points until at least `meters` are covered (see `loopSideFits`). */
function loopContext(loop: LoopPath, s: number, dir: 1 | -1, meters: number): number[] {
  const xy = loop.xy,
    S = loop.s;
  const n = S.length;
  s = wrapS(loop, s);
  const p0 = poseOnLoop(loop, s, dir);
  const out: number[] = [p0.x, p0.y];
  const i = segmentAt(loop, s);
  // Next vertex index in the driving direction.
  let v = dir === 1 ? i + 1 : s - S[i] > 1e-9 ? i : i - 1;
  if (v < 0) v = n - 2;
  if (v >= n) v = 1;
  let ax = p0.x,
    ay = p0.y,
    acc = 0,
    guard = n + 2;
  while (acc < meters && guard-- > 0) {
    const bx = xy[2 * v],
      by = xy[2 * v + 1];
    const l = hypot(bx - ax, by - ay);
    if (l > 1) {
      const steps = Math.ceil(Math.min(l, meters - acc) / 0.25);
      for (let k = 1; k <= steps; k++) {
        const t = Math.min(l, k * 0.25) / l;
        out.push(ax + (bx - ax) * t, ay + (by - ay) * t);
      }
      acc += Math.min(l, steps * 0.25);
    } else {
      if (l > 1e-9) out.push(bx, by);
      acc += l;
    }
    ax = bx;
    ay = by;
    v += dir;
    if (v >= n) v = 1;
    if (v < 0) v = n - 2;
  }
  return out;
}

const ringDefectCache = new WeakMap<LoopPath, { radius: number; s: Float64Array }>();

/**
 * Arc lengths of the loop's vertices where driving along it would bend tighter than R: a kink
 * beyond asin(a/2R) + asin(b/2R) between its chords, or a three-point bend (points ≥ 0.4 m
 * apart) tighter than 1/R. Rings are smooth by construction except where the field pinches
 * the offset (an opening rounds convex corners only); traversals avoid these spots.
 */
export function loopDefects(loop: LoopPath, radiusMeters: number): Float64Array {
  const c = ringDefectCache.get(loop);
  if (c && c.radius === radiusMeters) return c.s;
  const xy = loop.xy,
    S = loop.s;
  const n = S.length - 1; // distinct points (point n repeats point 0)
  const out: number[] = [];
  const twoR = 2 * radiusMeters;
  const at = (i: number): number => ((i % n) + n) % n;
  for (let v = 0; v < n && n >= 3; v++) {
    const p = at(v - 1),
      q = at(v + 1);
    const ax = xy[2 * p],
      ay = xy[2 * p + 1],
      bx = xy[2 * v],
      by = xy[2 * v + 1],
      cx = xy[2 * q],
      cy = xy[2 * q + 1];
    const l1 = hypot(bx - ax, by - ay),
      l2 = hypot(cx - bx, cy - by);
    let bad = false;
    if (l1 >= 0.01 && l2 >= 0.01) {
      const turn = Math.abs(
        Math.atan2((bx - ax) * (cy - by) - (by - ay) * (cx - bx), (bx - ax) * (cx - bx) + (by - ay) * (cy - by)),
      );
      bad = turn > Math.asin(Math.min(1, l1 / twoR)) + Math.asin(Math.min(1, l2 / twoR)) + 0.002;
    }
    if (!bad) {
      // Three-point bend with neighbours at least 0.4 m away.
      let i = v,
        j = v,
        acc = 0,
        k = 0;
      while (acc < 0.4 && k++ < n) {
        const ni = at(i - 1);
        acc = hypot(xy[2 * ni] - bx, xy[2 * ni + 1] - by);
        i = ni;
      }
      acc = 0;
      k = 0;
      while (acc < 0.4 && k++ < n) {
        const nj = at(j + 1);
        acc = hypot(xy[2 * nj] - bx, xy[2 * nj + 1] - by);
        j = nj;
      }
      const px = xy[2 * i],
        py = xy[2 * i + 1],
        rx = xy[2 * j],
        ry = xy[2 * j + 1];
      const prod = hypot(bx - px, by - py) * hypot(rx - bx, ry - by) * hypot(px - rx, py - ry);
      if (prod > 0) {
        const ratio = ((2 * Math.abs((bx - px) * (ry - py) - (by - py) * (rx - px))) / prod) * radiusMeters;
        bad = ratio > 1 + 1e-6;
      }
    }
    if (bad) out.push(S[v]);
  }
  const s = Float64Array.from(out);
  ringDefectCache.set(loop, { radius: radiusMeters, s });
  return s;
}

/** Whether driving `distance` along the loop from s0 in direction dir passes a defect (see `loopDefects`). */
export function sliceHasDefect(
  loop: LoopPath,
  defects: Float64Array,
  s0: number,
  distance: number,
  dir: 1 | -1,
): boolean {
  const L = loop.lengthMeters;
  for (let k = 0; k < defects.length; k++) {
    let d = (defects[k] - s0) * dir;
    d %= L;
    if (d < 0) d += L;
    if (d <= distance) return true;
  }
  return false;
}
