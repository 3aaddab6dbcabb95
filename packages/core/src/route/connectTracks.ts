/**
 * Route assembly: working pieces (tracks in visit order, headland passes) joined by turns
 * and connectors that respect the minimum turning radius and stay inside the field.
 *
 * Between neighbouring tracks (same cell, ≤ 3 widths apart) the first turn candidate from
 * `turns/` that lies inside the field is taken; if none fits, both track ends are pulled
 * back a little (1, 2, 4 m) and the turn retried, then a headland traversal (onto a
 * connector ring, along it, off again) is used. Far transitions (other cells, headland
 * passes) use a traversal first and a direct manoeuvre inside the field second. What still
 * does not fit becomes a straight connector with a `turn-not-fitted` warning — `checkPlan`
 * reports it; nothing is hidden.
 */
import { turnSpanLines } from './skipTurns.js';
import { turnCandidates } from '../turns/index.js';
import type { Pose, TurnOptions } from '../turns/types.js';
import type { RouteSegmentType, TurnType } from '../types.js';
import { Region } from '../geometry/region.js';
import { areaOf, differencePolygons, groupPolygons, offsetPolygons } from '../geometry/clipper.js';
import { densify, polylineLength, hypot } from '../geometry/vec.js';
import { worstCurvatureRatio } from '../geometry/curvature.js';
import type { Track } from '../tracks/generateTracks.js';
import type { TrackVisit } from './baselineOrder.js';
import { junctionOnLoop, kinksWithinRadius, loopDefects, loopSideFits, nearestOnLoop, poseOnLoop, rateFitsPolyline, rateLimitedLoop, sliceHasDefect, sliceLoop } from './connectorRings.js';
import { limitCurvatureRate } from '../turns/rateLimit.js';
import { checkKinematics } from '../check/kinematics.js';
import type { LoopPath } from './connectorRings.js';
import { shortestWaypointPath, waypointPoses } from './waypointPath.js';
import { canLeave, nearestByFieldDistance, searchConnector } from './connectSearch.js';
import type { Waypoints } from './waypointPath.js';
import { drivableReversing, searchReversingConnector } from './reverseSearch.js';
import { objectKey, poseKey, remember } from './connectionMemo.js';
import type { ConnectionMemo } from './connectionMemo.js';

export interface LocalSegment {
  type: RouteSegmentType;
  /** Flat xy, local frame. */
  xy: Float64Array;
  turnType?: TurnType;
  trackIndex?: number;
  headlandIndex?: number;
  /** Connector kind: 'direct' | 'headlandTraversal' | 'unfitted'. */
  connector?: string;
  reverse?: boolean;
}

export interface LocalWarning {
  code: string;
  message: string;
  x?: number;
  y?: number;
}

export interface RouteContext {
  region: Region;
  /** Connector rings for headland traversal (built on first use: most fields need few). */
  loops: () => LoopPath[];
  /** How far from a connector ring a traversal may start or end, meters. */
  maxRingReachMeters: number;
  turnOptions: TurnOptions;
  widthMeters: number;
  warnings: LocalWarning[];
  /** routeOptions.forcedDirection: winding of headland passes (CW / CCW); absent = whichever joins better. */
  headlandWinding?: 'CW' | 'CCW';
  /** routeOptions.enableHeadlandDrivethrough: far connectors try a direct manoeuvre across the headland band before a headland traversal. */
  headlandDrivethrough?: boolean;
  /** Waypoints for the last-resort connector (built on first use). */
  waypoints?: () => Waypoints;
  /** Which separate part of a multi-part field a point is in (-1 = none); absent = one part. */
  partOf?: (x: number, y: number) => number;
  /**
   * Searched connectors (connectSearch.ts) that may still fail in this `connectTracks` call before
   * searching stops (set there; bounds the work on fields with many unreachable spots).
   */
  searchFailuresLeft?: number;
  /** The same for reversing searches (reverseSearch.ts), counted apart. */
  reverseSearchFailuresLeft?: number;
  /** Far connections and headland-pass entries made earlier in this plan, reused (connectionMemo.ts). */
  memo?: ConnectionMemo;
  /**
   * The caller's deadline (route ordering): once true, connector searches give up and what does
   * not fit otherwise is drawn straight; `aborted` is then set, so the caller knows the connector
   * was cut short and is not the real one.
   */
  abort?: () => boolean;
  aborted?: boolean;
  /**
   * A join nothing fits is retried with the tracks shortened at it (`connectShortened`, warning
   * `track-shortened`) while its budget lasts. Absent while ordering costs connectors (the order
   * is chosen on the joins as they are); given for the chosen route's joins that did not fit.
   */
  shortenUnfitted?: ShorteningBudget;
}

/** The budget of `connectShortened` over one planning. */
export interface ShorteningBudget {
  /** Whether one more join may be shortened (counts it). */
  start(): boolean;
  /** The deadline of the shortening under way: once true, its searches give up. */
  over(): boolean;
}

/** Whether the caller's deadline has passed (marks the connection `aborted`). */
function timeIsUp(ctx: RouteContext): boolean {
  if (!ctx.abort || !ctx.abort()) return false;
  ctx.aborted = true;
  return true;
}

/** Failed connector searches allowed per `connectTracks` call. */
const MAX_FAILED_SEARCHES = 12;

/** Whether a search may still run; a failure is counted by `searchFailed`. */
function searchAllowed(ctx: RouteContext): boolean {
  return (ctx.searchFailuresLeft ?? MAX_FAILED_SEARCHES) > 0;
}
function searchFailed(ctx: RouteContext): void {
  ctx.searchFailuresLeft = (ctx.searchFailuresLeft ?? MAX_FAILED_SEARCHES) - 1;
}

/** Directions (along the loop's own order = 1) allowed by a forced winding, preferred first. */
function loopDirections(loop: LoopPath, winding: 'CW' | 'CCW' | undefined): (1 | -1)[] {
  if (!winding) return [1, -1];
  let area2 = 0;
  const xy = loop.xy;
  for (let i = 2; i < xy.length; i += 2) area2 += xy[i - 2] * xy[i + 1] - xy[i] * xy[i - 1];
  const ccw = area2 > 0;
  return [(winding === 'CCW') === ccw ? 1 : -1];
}

/** A working piece to drive. Tracks carry their (mutable) ends; headland passes a loop. */
export type Piece =
  | { kind: 'track'; trackIndex: number; line: number; cell: number; sx: number; sy: number; ex: number; ey: number; xy?: Float64Array }
  | { kind: 'headland'; type: 'ExteriorHeadland' | 'InteriorHeadland'; headlandIndex: number; loop: LoopPath };

interface Conn {
  xy: ArrayLike<number>;
  turnType?: TurnType;
  kind: string;
  reverse?: boolean;
}

const MIN_TRACK_AFTER_TRIM_METERS = 1;

function trackHeading(p: Extract<Piece, { kind: 'track' }>): number {
  return Math.atan2(p.ey - p.sy, p.ex - p.sx);
}

/** Curved tracks (`Piece.xy`, in driving order): arc length of the curve's point nearest to (x, y). */
function curveParameter(xy: Float64Array, x: number, y: number): number {
  let best = Infinity, at = 0, acc = 0;
  for (let i = 2; i < xy.length; i += 2) {
    const ax = xy[i - 2], ay = xy[i - 1], dx = xy[i] - ax, dy = xy[i + 1] - ay;
    const l2 = dx * dx + dy * dy, l = Math.sqrt(l2);
    let t = l2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const d2 = (ax + t * dx - x) ** 2 + (ay + t * dy - y) ** 2;
    if (d2 < best) { best = d2; at = acc + t * l; }
    acc += l;
  }
  return at;
}

/** Curved tracks: the pose at arc length s along the curve (clamped to it), heading along the curve. */
function poseOnCurve(xy: Float64Array, s: number): Pose {
  let acc = 0;
  for (let i = 2; i < xy.length; i += 2) {
    const dx = xy[i] - xy[i - 2], dy = xy[i + 1] - xy[i - 1], l = hypot(dx, dy);
    if (l === 0) continue;
    if (acc + l >= s || i + 2 >= xy.length) {
      const t = Math.min(1, Math.max(0, (s - acc) / l));
      return { x: xy[i - 2] + t * dx, y: xy[i - 1] + t * dy, headingRadians: Math.atan2(dy, dx) };
    }
    acc += l;
  }
  return { x: xy[0], y: xy[1], headingRadians: 0 };
}

/** Curved tracks: the curve between its points nearest to (sx, sy) and (ex, ey), those points included. */
function curveBetween(xy: Float64Array, sx: number, sy: number, ex: number, ey: number): Float64Array {
  const s0 = curveParameter(xy, sx, sy), s1 = curveParameter(xy, ex, ey);
  const out: number[] = [sx, sy];
  let acc = 0;
  for (let i = 2; i < xy.length; i += 2) {
    acc += hypot(xy[i] - xy[i - 2], xy[i + 1] - xy[i - 1]);
    if (acc > s0 + 1e-9 && acc < s1 - 1e-9) out.push(xy[i], xy[i + 1]);
  }
  out.push(ex, ey);
  return Float64Array.from(out);
}

/**
 * First turn candidate (shortest first) that stays inside the field. `forwardOnly`: no reversing
 * candidate even where the machine may reverse — for the pieces of a joined connector (onto and
 * off a ring, waypoint legs), which are measured as one forward path (a reversing candidate,
 * often the shortest, would be rejected there and hide the forward one).
 */
export function tryDirect(from: Pose, to: Pose, ctx: RouteContext, maxCandidates = 8, forwardOnly = false): Conn | undefined {
  let cands;
  try {
    cands = turnCandidates(from, to, forwardOnly && ctx.turnOptions.reverseAllowed ? { ...ctx.turnOptions, reverseAllowed: false } : ctx.turnOptions);
  } catch {
    return undefined;
  }
  let tried = 0;
  for (const c of cands) {
    if (tried++ >= maxCandidates) break;
    if (ctx.region.containsPolyline(c.points)) {
      return { xy: c.points, turnType: c.turnType, kind: 'direct', reverse: c.cusps.length > 0 || c.startsReversed };
    }
  }
  return undefined;
}

/**
 * The junction of a manoeuvre with the loop, as the route's kinematic check sees it (about a
 * meter either side): no kink beyond the turning radius, no three-point bend tighter than R.
 */
function junctionFits(loop: LoopPath, s: number, dir: 1 | -1, role: 'enter' | 'leave', conn: ArrayLike<number>, R: number, sigma?: number): boolean {
  const reach = JUNCTION_CONTEXT_METERS;
  const xy: number[] = [];
  if (role === 'enter') {
    const tail = tailOf(conn, reach);
    for (let i = 0; i < tail.length; i++) xy.push(tail[i]);
    const side = sliceLoop(loop, s, reach, dir);
    for (let i = 2; i < side.length; i++) xy.push(side[i]);
  } else {
    const side = sliceLoop(loop, s - dir * reach, reach, dir);
    for (let i = 0; i < side.length; i++) xy.push(side[i]);
    const head = headOf(conn, reach);
    for (let i = 2; i < head.length; i++) xy.push(head[i]);
  }
  return kinksWithinRadius(xy, R) && worstCurvatureRatio(xy, R).ratio <= 1.04 && (sigma === undefined || rateFitsPolyline(xy, R, sigma));
}

/** The connector rings as driven: with a curvature-rate limit, with clothoid transitions (`rateLimitedLoop`). */
function ringsOf(ctx: RouteContext): LoopPath[] {
  const sigma = rateLimitOf(ctx);
  const loops = ctx.loops();
  return sigma === undefined ? loops : loops.map((l) => rateLimitedLoop(l, ctx.turnOptions.turnRadiusMeters, sigma));
}

/** Joined traversals examined per connection with a rate limit (shortest first). */
const MAX_RATE_LIMITED_CANDIDATES = 6;

/** The machine's curvature-rate limit σ, 1/m², when it has one (finite, > 0). */
function rateLimitOf(ctx: RouteContext): number | undefined {
  const sigma = ctx.turnOptions.maxCurvatureRatePerSquareMeter;
  return sigma !== undefined && sigma > 0 && Number.isFinite(sigma) ? sigma : undefined;
}

/**
 * A joined connector (a traversal, a waypoint chain, a searched path) made drivable under the
 * curvature-rate limit: as it is when it already is (measured with a meter of straight track
 * before and after, as `checkPlan` reads its junctions), else redrawn with clothoid transitions
 * (`limitCurvatureRate`) and checked again — inside the field, within the radius, under σ.
 * Undefined when neither fits. Without a rate limit: the polyline unchanged.
 */
function rateLimited(xy: ArrayLike<number>, ctx: RouteContext, redraw: boolean, from: Pose, to: Pose): ArrayLike<number> | undefined {
  const sigma = rateLimitOf(ctx);
  if (sigma === undefined) return xy;
  const R = ctx.turnOptions.turnRadiusMeters;
  // Measured with a meter of straight along the end poses (the pieces it joins continue so).
  if (rateFitsPolyline(withStraightEnds(xy, from, to), R, sigma) && kinksWithinRadius(withStraightEnds(xy, from, to), R)) return xy;
  if (!redraw) return undefined;
  // A redrawn connector may move further than a ring (1 m: a searched path of short arcs either
  // way becomes smoother); it is checked against the field below.
  const smooth = limitCurvatureRate(xy, { maxCurvatureRatePerSquareMeter: sigma, maxCurvaturePerMeter: 1 / R, startHeadingRadians: from.headingRadians, endHeadingRadians: to.headingRadians, maxDeviationMeters: 1 });
  if (!smooth || !kinksWithinRadius(smooth, R) || !drivableWithin(withStraightEnds(smooth, from, to), R, sigma) || !ctx.region.containsPolyline(smooth)) return undefined;
  return smooth;
}

/** No violation of any kind (curvature, rate, kink) with a little less margin than checkPlan. */
function drivableWithin(xy: Float64Array, R: number, sigma: number): boolean {
  return checkKinematics(xy, { turnRadiusMeters: R, maxCurvatureRatePerSquareMeter: sigma, curvatureTolerance: 0.04, rateTolerance: 0.03, minLegMeters: 0.4 }).length === 0;
}

/** The polyline with a meter of straight added before and after (every 0.25 m) along the end poses' headings. */
function withStraightEnds(xy: ArrayLike<number>, from: Pose, to: Pose): Float64Array {
  const n = xy.length;
  if (n < 4) return Float64Array.from(xy);
  const h0 = from.headingRadians, h1 = to.headingRadians;
  const out = new Float64Array(n + 16);
  for (let k = 0; k < 4; k++) {
    const d = 1 - 0.25 * k;
    out[2 * k] = xy[0] - d * Math.cos(h0);
    out[2 * k + 1] = xy[1] - d * Math.sin(h0);
  }
  out.set(xy as ArrayLike<number>, 8);
  for (let k = 1; k <= 4; k++) {
    out[n + 8 + 2 * (k - 1)] = xy[n - 2] + 0.25 * k * Math.cos(h1);
    out[n + 8 + 2 * (k - 1) + 1] = xy[n - 1] + 0.25 * k * Math.sin(h1);
  }
  return out;
}

/** Context each side of a junction that must be smooth, meters (the kinematic check reads 1 m). */
const JUNCTION_CONTEXT_METERS = 1.2;

/** Points of the polyline from where `meters` remain to its end (whole points, at least two). */
function tailOf(xy: ArrayLike<number>, meters: number): ArrayLike<number> {
  const n = xy.length >> 1;
  let acc = 0, i = n - 1;
  while (i > 0 && acc < meters) {
    acc += hypot(xy[2 * i] - xy[2 * i - 2], xy[2 * i + 1] - xy[2 * i - 1]);
    i--;
  }
  return Array.prototype.slice.call(xy, 2 * i) as number[];
}

/** Points of the polyline up to `meters` from its start (whole points, at least two). */
function headOf(xy: ArrayLike<number>, meters: number): ArrayLike<number> {
  const n = xy.length >> 1;
  let acc = 0, i = 0;
  while (i < n - 1 && acc < meters) {
    acc += hypot(xy[2 * i + 2] - xy[2 * i], xy[2 * i + 3] - xy[2 * i + 1]);
    i++;
  }
  return Array.prototype.slice.call(xy, 0, 2 * i + 2) as number[];
}

/** Shortest contained manoeuvre from `from` onto the loop near arc length s0, searching along dir. */
function ontoLoop(from: Pose, loop: LoopPath, s0: number, dir: 1 | -1, ctx: RouteContext, reverseSearch: boolean, longEdgesOnly = false, accept?: (j: { s: number; pose: Pose }) => boolean): { conn: Conn; s: number } | undefined {
  const step = 2;
  const R = ctx.turnOptions.turnRadiusMeters;
  let last = NaN;
  for (let k = 0; k <= 14; k++) {
    const role = reverseSearch ? 'leave' : 'enter';
    const j = junctionOnLoop(loop, s0 + (reverseSearch ? -dir : dir) * k * step, dir, role);
    if (j.s === last || (longEdgesOnly && !j.onLongEdge)) continue;
    last = j.s;
    if (!loopSideFits(loop, j, dir, role, R, rateLimitOf(ctx)) || (accept && !accept(j))) continue;
    const c = reverseSearch ? tryDirect(j.pose, from, ctx, 4, true) : tryDirect(from, j.pose, ctx, 4, true);
    if (c && junctionFits(loop, j.s, dir, role, c.xy, R, rateLimitOf(ctx))) return { conn: c, s: j.s };
  }
  return undefined;
}

function wrapDistance(loop: LoopPath, d: number): number {
  const L = loop.lengthMeters;
  d %= L;
  return d < 0 ? d + L : d;
}

/**
 * Curvature ratio a joined connector may reach (1 = exactly the minimum radius): the three-point
 * measure reads a Dubins arc of radius R at 1 + 1e-13 or so, which must not reject it.
 */
const JOINED_CURVATURE_RATIO = 1 + 1e-6;

/** Headland traversal: a manoeuvre onto a connector ring, along it, and off to `to`. */
export function tryTraversal(from: Pose, to: Pose, ctx: RouteContext): Conn | undefined {
  if (timeIsUp(ctx)) return undefined;
  const R = ctx.turnOptions.turnRadiusMeters;
  const reach = ctx.maxRingReachMeters;
  // Every ring and direction costed first (cheap); the joined geometry is built and checked only
  // for the shortest ones, in order, until one passes.
  const cands: { len: number; loop: LoopPath; dir: 1 | -1; along: number; on: { conn: Conn; s: number }; off: { conn: Conn; s: number } }[] = [];
  for (const loop of ringsOf(ctx)) {
    const a = nearestOnLoop(loop, from.x, from.y, reach);
    if (!(a.distance <= reach)) continue;
    const b = nearestOnLoop(loop, to.x, to.y, reach);
    if (!(b.distance <= reach)) continue;
    for (const dir of [1, -1] as const) {
      // a candidate on a long ring takes tens of ms: past the caller's deadline, stop (aborted)
      if (timeIsUp(ctx)) return undefined;
      const on = ontoLoop(from, loop, a.s, dir, ctx, false);
      if (!on) continue;
      const off = ontoLoop(to, loop, b.s, dir, ctx, true);
      if (!off) continue;
      const along = wrapDistance(loop, (off.s - on.s) * dir);
      if (sliceHasDefect(loop, loopDefects(loop, R), on.s, along, dir)) continue;
      cands.push({ len: polylineLength(on.conn.xy) + along + polylineLength(off.conn.xy), loop, dir, along, on, off });
    }
  }
  cands.sort((p, q) => p.len - q.len);
  // Redrawing a long joined path under the rate limit costs; only the two shortest get it.
  let redraws = 2, examined = 0;
  const sigma = rateLimitOf(ctx);
  for (const c of cands) {
    // With a rate limit many joined paths fail it; the few shortest are examined, not all.
    if (sigma !== undefined && ++examined > MAX_RATE_LIMITED_CANDIDATES) break;
    const mid = sliceLoop(c.loop, c.on.s, c.along, c.dir);
    const xy: number[] = Array.from(c.on.conn.xy);
    for (let i = 2; i < mid.length; i++) xy.push(mid[i]);
    const offXy = c.off.conn.xy;
    for (let i = 2; i < offXy.length; i++) xy.push(offXy[i]);
    // The ring is smooth by construction; measure anyway, as checkPlan will.
    if (worstCurvatureRatio(xy, R).ratio > JOINED_CURVATURE_RATIO || !kinksWithinRadius(xy, R) || !ctx.region.containsPolyline(xy)) continue;
    const drivable = rateLimited(xy, ctx, redraws-- > 0, from, to);
    if (!drivable) continue;
    return { xy: drivable, kind: 'headlandTraversal', turnType: 'HeadlandTraversal' };
  }
  return undefined;
}

interface RingPair {
  s1: number;
  s2: number;
  d: number;
}

/**
 * What two connector rings share, whatever the connector: their closest point pairs and the
 * crossings between them (a crossing depends only on the pair, the two directions and the lead).
 * Rings are made once per plan, so this is keyed on the ring objects.
 */
interface RingPairCache {
  pairs: RingPair[];
  crossings: Map<number, Conn | null>;
}
const ringPairCaches = new WeakMap<LoopPath, Map<LoopPath, RingPairCache>>();

function ringPairCache(l1: LoopPath, l2: LoopPath, region: Region): RingPairCache {
  let inner = ringPairCaches.get(l1);
  if (!inner) ringPairCaches.set(l1, (inner = new Map()));
  let c = inner.get(l2);
  if (!c) inner.set(l2, (c = { pairs: closestPairs(l1, l2, 3, region), crossings: new Map() }));
  return c;
}

/** Closest point pairs between two loops (samples every 5 m on the shorter one). */
function closestPairs(l1: LoopPath, l2: LoopPath, count: number, region: Region): RingPair[] {
  const swap = l2.lengthMeters < l1.lengthMeters;
  const small = swap ? l2 : l1, big = swap ? l1 : l2;
  const out: RingPair[] = [];
  const n = Math.max(4, Math.ceil(small.lengthMeters / 5));
  for (let i = 0; i < n; i++) {
    const ss = (small.lengthMeters * i) / n;
    const p = poseOnLoop(small, ss, 1);
    const q = nearestOnLoop(big, p.x, p.y);
    out.push(swap ? { s1: q.s, s2: ss, d: q.distance } : { s1: ss, s2: q.s, d: q.distance });
  }
  out.sort((a, b) => a.d - b.d);
  // Keep pairs in sight of each other (the straight line between them inside the field),
  // at least 10 m apart along the first loop.
  const kept: RingPair[] = [];
  for (const c of out) {
    const p = poseOnLoop(l1, c.s1, 1), q = poseOnLoop(l2, c.s2, 1);
    if (!region.segmentClear(p.x, p.y, q.x, q.y)) continue;
    if (kept.every((k) => Math.abs(k.s1 - c.s1) > 10)) kept.push(c);
    if (kept.length >= count) break;
  }
  return kept;
}

/**
 * Headland traversal over two connector rings (e.g. the outer ring and the ring around a
 * hole, or the two halves of a field pinched by a neck): onto ring 1, along it, across to
 * ring 2 by a direct manoeuvre inside the field, along ring 2, off to `to`.
 */
export function tryBridgedTraversal(from: Pose, to: Pose, ctx: RouteContext): Conn | undefined {
  if (timeIsUp(ctx)) return undefined;
  const R = ctx.turnOptions.turnRadiusMeters;
  const reach = ctx.maxRingReachMeters;
  const loops = ringsOf(ctx);
  const sigma = rateLimitOf(ctx);
  const starts = loops.map((l) => nearestOnLoop(l, from.x, from.y, reach));
  const ends = loops.map((l) => nearestOnLoop(l, to.x, to.y, reach));
  // Manoeuvres onto ring i (direction d) from `from`, and off ring j to `to`: computed once each.
  type Onto = { conn: Conn; s: number } | null;
  const onto = new Map<number, Onto>(), offOf = new Map<number, Onto>();
  const ontoFor = (i: number, d: 1 | -1): Onto => {
    const k = 2 * i + (d === 1 ? 0 : 1);
    let v = onto.get(k);
    if (v === undefined) onto.set(k, (v = ontoLoop(from, loops[i], starts[i].s, d, ctx, false) ?? null));
    return v;
  };
  const offFor = (j: number, d: 1 | -1): Onto => {
    const k = 2 * j + (d === 1 ? 0 : 1);
    let v = offOf.get(k);
    if (v === undefined) offOf.set(k, (v = ontoLoop(to, loops[j], ends[j].s, d, ctx, true) ?? null));
    return v;
  };
  // Every combination is costed first (cheap); the joined geometry is built and checked only
  // for the shortest ones, in order, until one passes.
  const cands: { len: number; i: number; j: number; d1: 1 | -1; d2: 1 | -1; s1: number; s2: number; cross: Conn; on: { conn: Conn; s: number }; off: { conn: Conn; s: number } }[] = [];
  for (let i = 0; i < loops.length; i++) {
    if (!(starts[i].distance <= reach)) continue;
    const l1 = loops[i];
    for (let j = 0; j < loops.length; j++) {
      if (j === i || !(ends[j].distance <= reach)) continue;
      const l2 = loops[j];
      const cache = ringPairCache(l1, l2, ctx.region);
      const pairs = cache.pairs;
      for (let pi = 0; pi < pairs.length; pi++) {
        const pair = pairs[pi];
        for (const d1 of [1, -1] as const) {
          const on = ontoFor(i, d1);
          if (!on) continue;
          for (const d2 of [1, -1] as const) {
            const off = offFor(j, d2);
            if (!off) continue;
            // Leave ring 1 a little before the closest point, join ring 2 a little after it.
            for (let li = 0; li < 2; li++) {
              const lead = (li + 1) * 2 * R;
              const j1 = junctionOnLoop(l1, pair.s1 - d1 * lead, d1, 'leave'), j2 = junctionOnLoop(l2, pair.s2 + d2 * lead, d2, 'enter');
              // With a rate limit, leave and join the rings where they run straight (CC turns start and end so).
              if (sigma !== undefined && (!loopSideFits(l1, j1, d1, 'leave', R, sigma) || !loopSideFits(l2, j2, d2, 'enter', R, sigma))) continue;
              const key = ((pi * 2 + (d1 === 1 ? 0 : 1)) * 2 + (d2 === 1 ? 0 : 1)) * 2 + li;
              let cross = cache.crossings.get(key);
              if (cross === undefined) cache.crossings.set(key, (cross = tryDirect(j1.pose, j2.pose, ctx, 6, true) ?? null));
              if (!cross) continue;
              const along1 = wrapDistance(l1, (j1.s - on.s) * d1);
              const along2 = wrapDistance(l2, (off.s - j2.s) * d2);
              if (sliceHasDefect(l1, loopDefects(l1, R), on.s, along1, d1) || sliceHasDefect(l2, loopDefects(l2, R), j2.s, along2, d2)) continue;
              const len = polylineLength(on.conn.xy) + along1 + polylineLength(cross.xy) + along2 + polylineLength(off.conn.xy);
              cands.push({ len, i, j, d1, d2, s1: j1.s, s2: j2.s, cross, on, off });
            }
          }
        }
      }
    }
  }
  cands.sort((a, b) => a.len - b.len);
  // Redrawing a long joined path under the rate limit costs; only the two shortest get it.
  let redraws = 2, examined = 0;
  for (const c of cands) {
    if (sigma !== undefined && ++examined > MAX_RATE_LIMITED_CANDIDATES) break;
    const l1 = loops[c.i], l2 = loops[c.j];
    const xy: number[] = Array.from(c.on.conn.xy);
    const append = (part: ArrayLike<number>): void => {
      for (let k = 2; k < part.length; k++) xy.push(part[k]);
    };
    append(sliceLoop(l1, c.on.s, wrapDistance(l1, (c.s1 - c.on.s) * c.d1), c.d1));
    append(c.cross.xy);
    append(sliceLoop(l2, c.s2, wrapDistance(l2, (c.off.s - c.s2) * c.d2), c.d2));
    append(c.off.conn.xy);
    if (worstCurvatureRatio(xy, R).ratio > JOINED_CURVATURE_RATIO || !kinksWithinRadius(xy, R) || !ctx.region.containsPolyline(xy)) continue;
    const drivable = rateLimited(xy, ctx, redraws-- > 0, from, to);
    if (!drivable) continue;
    return { xy: drivable, kind: 'headlandTraversal', turnType: 'HeadlandTraversal' };
  }
  return undefined;
}

/**
 * Parts of a one-polygon field joined only by necks narrower than the machine (a ditch that
 * nearly cuts the field in two): the field eroded by half the width (less 25 cm) falls apart
 * there. Between such parts no in-field path exists for the machine; as a last resort it leaves
 * the field (a `transport` connector, with a warning), within 2R of the boundary and never
 * through a hole. Built on first need, once per field.
 */
interface NeckParts {
  partOf: (x: number, y: number) => number;
  transportRegion: Region;
}
const neckPartsCache = new WeakMap<Region, NeckParts | null>();

function neckParts(ctx: RouteContext): NeckParts | undefined {
  let np = neckPartsCache.get(ctx.region);
  if (np === undefined) {
    np = null;
    const rings = ctx.region.rings();
    const eroded = offsetPolygons(rings, -Math.max(0.1, ctx.widthMeters / 2 - 0.25), 0.05);
    const parts = groupPolygons(eroded);
    if (parts.length >= 2) {
      // Parts too small to be worth leaving the field for (under 5 % of the field's core) are
      // not joined by transports: their passes are left out instead (with their warning).
      const areas = parts.map((p) => areaOf(p));
      const total = areas.reduce((a, b) => a + b, 0);
      const regions = parts.map((p) => new Region(p));
      const shells = rings.filter((r) => areaOf([r]) > 0);
      const holes = rings.filter((r) => areaOf([r]) < 0).map((r) => r.slice().reverse());
      const grown = offsetPolygons(shells, 2 * ctx.turnOptions.turnRadiusMeters, 0.05);
      np = {
        partOf: (x, y) => {
          const k = regions.findIndex((r) => r.contains(x, y));
          return k >= 0 && areas[k] >= 0.05 * total ? k : -1;
        },
        transportRegion: new Region(holes.length > 0 ? differencePolygons(grown, holes) : grown),
      };
    }
    neckPartsCache.set(ctx.region, np);
  }
  return np ?? undefined;
}

/** Last resort between parts joined by necks: a forward path that may leave the field by up to 2R, never through a hole. */
function tryNeckTransport(from: Pose, to: Pose, ctx: RouteContext): Conn | undefined {
  if (ctx.partOf) return undefined; // a multi-part field: `transport` handles it
  const np = neckParts(ctx);
  if (!np) return undefined;
  const pa = np.partOf(from.x, from.y), pb = np.partOf(to.x, to.y);
  if (pa < 0 || pb < 0 || pa === pb) return undefined;
  const rate = ctx.turnOptions.maxCurvatureRatePerSquareMeter;
  if (rate !== undefined && Number.isFinite(rate)) return undefined;
  const R = ctx.turnOptions.turnRadiusMeters;
  const region = np.transportRegion;
  const shot = (a: Pose, b: Pose): ArrayLike<number> | undefined => {
    let cands;
    try {
      cands = turnCandidates(a, b, ctx.turnOptions.reverseAllowed ? { ...ctx.turnOptions, reverseAllowed: false } : ctx.turnOptions);
    } catch {
      return undefined;
    }
    for (let i = 0; i < cands.length && i < 4; i++) if (cands[i].cusps.length === 0 && !cands[i].startsReversed && region.containsPolyline(cands[i].points)) return cands[i].points;
    return undefined;
  };
  // A fine heuristic raster around the two ends: a ditch a meter wide must not vanish in it.
  const m = 300;
  const window = { minX: Math.min(from.x, to.x) - m, minY: Math.min(from.y, to.y) - m, maxX: Math.max(from.x, to.x) + m, maxY: Math.max(from.y, to.y) + m, cellMeters: 0.5 };
  let xy = shot(from, to);
  if (!xy && !timeIsUp(ctx) && searchAllowed(ctx)) {
    xy = searchConnector(from, to, region, shot, { turnRadiusMeters: R, sampleStepMeters: ctx.turnOptions.sampleStepMeters ?? 0.5, maxExpansions: 20000, window, ...(ctx.abort ? { abort: ctx.abort } : {}) });
    if (!xy && !timeIsUp(ctx)) searchFailed(ctx);
  }
  if (!xy || worstCurvatureRatio(xy, R).ratio > JOINED_CURVATURE_RATIO || !kinksWithinRadius(xy, R)) return undefined;
  ctx.warnings.push({
    code: 'connector-leaves-field',
    message: 'parts of the field are joined only by necks narrower than the machine: the route leaves the field between them (a transport connector, within twice the turning radius of the boundary, never through a no-go zone)',
    x: from.x,
    y: from.y,
  });
  return { xy: Float64Array.from(xy), kind: 'transport', turnType: 'Dubins' };
}

/**
 * Transport between separate parts of a multi-part field: the shortest forward manoeuvre,
 * which necessarily leaves the field (connector kind `transport`; checkPlan allows it).
 */
function transport(from: Pose, to: Pose, ctx: RouteContext): Conn | undefined {
  let cands;
  try {
    cands = turnCandidates(from, to, ctx.turnOptions);
  } catch {
    return undefined;
  }
  const c = cands[0];
  return c ? { xy: c.points, kind: 'transport', turnType: c.turnType } : undefined;
}

/** Last resort: a chain of manoeuvres through waypoints along the shortest path inside the field. */
export function tryWaypointChain(from: Pose, to: Pose, ctx: RouteContext): Conn | undefined {
  if (timeIsUp(ctx)) return undefined;
  if (!ctx.waypoints) return undefined;
  const pts = shortestWaypointPath(ctx.waypoints(), ctx.region, from.x, from.y, to.x, to.y);
  if (!pts || pts.length === 0) return undefined;
  const poses = [from, ...waypointPoses(from, to, pts), to];
  const xy: number[] = [from.x, from.y];
  for (let i = 1; i < poses.length; i++) {
    const leg = tryDirect(poses[i - 1], poses[i], ctx, 8, true);
    if (!leg) return undefined;
    for (let k = 2; k < leg.xy.length; k++) xy.push(leg.xy[k]);
  }
  // Legs meet tangentially (shared poses); measure as checkPlan does, with a little margin.
  if (worstCurvatureRatio(xy, ctx.turnOptions.turnRadiusMeters).ratio > 1.04 || !kinksWithinRadius(xy, ctx.turnOptions.turnRadiusMeters) || !ctx.region.containsPolyline(xy)) return undefined;
  const drivable = rateLimited(xy, ctx, true, from, to);
  return drivable ? { xy: drivable, kind: 'waypoints', turnType: 'Dubins' } : undefined;
}

/** Forward-only direct manoeuvre inside the field, as a polyline (the search's analytic expansion). */
function forwardShot(from: Pose, to: Pose, ctx: RouteContext): ArrayLike<number> | undefined {
  let cands;
  try {
    cands = turnCandidates(from, to, ctx.turnOptions.reverseAllowed ? { ...ctx.turnOptions, reverseAllowed: false } : ctx.turnOptions);
  } catch {
    return undefined;
  }
  for (let i = 0; i < cands.length && i < 4; i++) {
    const c = cands[i];
    if (c.cusps.length === 0 && !c.startsReversed && ctx.region.containsPolyline(c.points)) return c.points;
  }
  return undefined;
}

/**
 * Last resort before reporting: a searched forward path of bounded curvature through the field
 * (`connectSearch.ts`). With a curvature-rate limit its arcs (no clothoids) are redrawn with
 * transitions (`rateLimited`) or the path is not used.
 */
export function trySearch(from: Pose, to: Pose, ctx: RouteContext, maxExpansions?: number, shotEveryExpansions?: number): Conn | undefined {
  const R = ctx.turnOptions.turnRadiusMeters;
  // A start no forward path leaves, or a goal none reaches (pockets): no search can succeed.
  if (timeIsUp(ctx) || !searchAllowed(ctx) || !canLeave(from, ctx.region, R) || !canLeave(to, ctx.region, R, true)) return undefined;
  // With a rate limit the search's shots are plain Dubins arcs (cheap to sample; the clothoids come
  // with the redrawing of the whole path below).
  const sigma = rateLimitOf(ctx);
  const shotCtx: RouteContext = sigma === undefined ? ctx : { ...ctx, turnOptions: { ...ctx.turnOptions, maxCurvatureRatePerSquareMeter: undefined, smoothing: 'Arcs' } };
  const xy = searchConnector(from, to, ctx.region, (a, b) => forwardShot(a, b, shotCtx), { turnRadiusMeters: R, sampleStepMeters: ctx.turnOptions.sampleStepMeters ?? 0.5, ...(maxExpansions ? { maxExpansions } : {}), ...(shotEveryExpansions ? { shotEveryExpansions } : {}), ...(ctx.abort ? { abort: ctx.abort } : {}) });
  if (!xy) { if (!timeIsUp(ctx)) searchFailed(ctx); return undefined; }
  if (worstCurvatureRatio(xy, R).ratio > JOINED_CURVATURE_RATIO || !kinksWithinRadius(xy, R) || !ctx.region.containsPolyline(xy)) return undefined;
  // With a rate limit: the search's arcs redrawn with clothoid transitions between them.
  const drivable = rateLimited(xy, ctx, true, from, to);
  return drivable ? { xy: drivable, kind: 'search', turnType: 'Dubins' } : undefined;
}

/**
 * Nothing drivable fits: the join is reported (`turn-not-fitted`, where and why) and drawn as the
 * shortest way inside the field — a straight line where it stays inside, else the shortest path
 * round the boundary's corners and the holes (`shortestWaypointPath`) — never through the boundary
 * when a way inside exists. checkPlan reads it as not drivable (kinks), which is what it is.
 */
function straightFallback(from: Pose, to: Pose, ctx: RouteContext, what: string): Conn {
  const straight = densify([from.x, from.y, to.x, to.y], 0.5);
  let xy: Float64Array = straight;
  let drawn = 'a straight connector was drawn instead';
  if (!ctx.region.containsPolyline(straight)) {
    const pts = ctx.waypoints ? shortestWaypointPath(ctx.waypoints(), ctx.region, from.x, from.y, to.x, to.y) : undefined;
    const inside = pts ? densify([from.x, from.y, ...pts, to.x, to.y], 0.5) : undefined;
    if (inside && ctx.region.containsPolyline(inside)) {
      xy = inside;
      drawn = 'the shortest way inside the field (not drivable at this radius) was drawn instead';
    } else drawn = 'a straight connector, which leaves the field (no way inside it was found), was drawn instead';
  }
  const o = ctx.turnOptions;
  const sigma = rateLimitOf(ctx);
  const deg = (r: number): string => ((((r * 180) / Math.PI) % 360 + 360) % 360).toFixed(0);
  ctx.warnings.push({
    code: 'turn-not-fitted',
    message: `no manoeuvre within the turning radius (${o.turnRadiusMeters} m${sigma !== undefined ? `, curvature rate ${sigma} 1/m²` : ''}${o.reverseAllowed ? ', reversing allowed' : ', no reversing'}) fits inside the field for ${what}, from (${from.x.toFixed(1)}, ${from.y.toFixed(1)}) heading ${deg(from.headingRadians)}° to (${to.x.toFixed(1)}, ${to.y.toFixed(1)}) heading ${deg(to.headingRadians)}° (local meters): no turn, headland traversal, waypoint chain or searched path fits; ${drawn}`,
    x: from.x,
    y: from.y,
  });
  return { xy, kind: 'unfitted' };
}

function trackStart(p: Extract<Piece, { kind: 'track' }>): Pose {
  if (p.xy) return { ...poseOnCurve(p.xy, curveParameter(p.xy, p.sx, p.sy)), x: p.sx, y: p.sy };
  return { x: p.sx, y: p.sy, headingRadians: trackHeading(p) };
}
function trackEnd(p: Extract<Piece, { kind: 'track' }>): Pose {
  if (p.xy) return { ...poseOnCurve(p.xy, curveParameter(p.xy, p.ex, p.ey) - 1e-9), x: p.ex, y: p.ey };
  return { x: p.ex, y: p.ey, headingRadians: trackHeading(p) };
}

/** Length of a track piece as it now is (between its current ends), meters. */
function pieceLength(p: Extract<Piece, { kind: 'track' }>): number {
  return p.xy ? curveParameter(p.xy, p.ex, p.ey) - curveParameter(p.xy, p.sx, p.sy) : hypot(p.ex - p.sx, p.ey - p.sy);
}

/** The pose `d` meters before the track's end, along it. */
function pulledBackEnd(a: Extract<Piece, { kind: 'track' }>, d: number): Pose {
  if (d === 0) return trackEnd(a);
  const h = trackHeading(a);
  return a.xy ? poseOnCurve(a.xy, curveParameter(a.xy, a.ex, a.ey) - d) : { x: a.ex - d * Math.cos(h), y: a.ey - d * Math.sin(h), headingRadians: h };
}

/** The pose `d` meters after the track's start, along it. */
function pushedInStart(b: Extract<Piece, { kind: 'track' }>, d: number): Pose {
  if (d === 0) return trackStart(b);
  const h = trackHeading(b);
  return b.xy ? poseOnCurve(b.xy, curveParameter(b.xy, b.sx, b.sy) + d) : { x: b.sx + d * Math.cos(h), y: b.sy + d * Math.sin(h), headingRadians: h };
}

/**
 * Share of a track's length one shortening may take off one end: the other end may lose as much
 * to its own join, and something of the track is still driven.
 */
const MAX_SHORTENING_SHARE = 0.45;

/** Shortenings tried (meters, each end), up to `MAX_SHORTENING_RADII` turning radii. */
const SHORTENING_STEPS_METERS = [1, 2, 4, 8, 12, 16, 24, 32, 48, 64];
const MAX_SHORTENING_RADII = 6;

/**
 * A join nothing fits (a track end in a pocket: a narrow bay, a corner, next to a hole): the end
 * of track `a` (the piece driven before, when it is a track) and / or the start of track `b` are
 * pulled back progressively, the shorter pull first, and a turn, a headland traversal or a
 * waypoint chain retried from the new ends. On success the tracks are shortened (their ends
 * moved) and a `track-shortened` warning names them and the meters left out (the strip counts as
 * uncovered in the metrics). Where no shortening within the limits lets anything fit, a more
 * thorough search of the unshortened join (`shotEveryExpansions` 1); undefined when that fails too.
 */
function connectShortened(a: Extract<Piece, { kind: 'track' }> | undefined, from: Pose, b: Extract<Piece, { kind: 'track' }>, ctx: RouteContext): Conn | undefined {
  const R = ctx.turnOptions.turnRadiusMeters;
  const maxA = a ? MAX_SHORTENING_SHARE * pieceLength(a) : 0;
  const maxB = MAX_SHORTENING_SHARE * pieceLength(b);
  const cap = Math.max(8, MAX_SHORTENING_RADII * R);
  for (const d of SHORTENING_STEPS_METERS) {
    if (d > cap || (d > maxA && d > maxB)) break;
    for (const [da, db] of [[d, 0], [0, d], [d, d]]) {
      if (da > maxA || db > maxB) continue;
      if (timeIsUp(ctx)) return undefined;
      const f = a && da > 0 ? pulledBackEnd(a, da) : from;
      const t = pushedInStart(b, db);
      const c = tryDirect(f, t, ctx, 16) ?? tryTraversal(f, t, ctx) ?? tryWaypointChain(f, t, ctx);
      if (!c) continue;
      const parts: string[] = [];
      if (a && da > 0) {
        a.ex = f.x; a.ey = f.y;
        parts.push(`track ${a.trackIndex} by ${da} m at its end`);
      }
      if (db > 0) {
        b.sx = t.x; b.sy = t.y;
        parts.push(`track ${b.trackIndex} by ${db} m at its start`);
      }
      ctx.warnings.push({
        code: 'track-shortened',
        message: `no manoeuvre within the turning radius (${R} m) fits inside the field between the end of ${a ? `track ${a.trackIndex}` : 'the previous piece'} and the start of track ${b.trackIndex}: ${parts.join(' and ')} ${parts.length > 1 ? 'are' : 'is'} left out so that one does; the strip left out (machine width × meters) counts as uncovered`,
        x: f.x,
        y: f.y,
      });
      return c;
    }
  }
  // No shortening helps: a searched path with a direct manoeuvre to the goal tried at every step
  // (the way out of a pocket may need a full turn where the bay widens, far from the goal).
  return trySearch(from, trackStart(b), ctx, undefined, 1);
}

/**
 * Runs `fn` on a context whose deadline is also the end of the shortening budget: a search cut
 * short by the budget gives up (its join stays unfitted) without marking the route connection
 * itself `aborted`. The search-failure budgets spent inside are kept.
 */
function withShorteningBudget<T>(ctx: RouteContext, fn: (budgeted: RouteContext) => T): T {
  const budget = ctx.shortenUnfitted!;
  const outer = ctx.abort;
  const budgeted: RouteContext = { ...ctx, abort: () => budget.over() || (outer?.() ?? false), aborted: false };
  try {
    return fn(budgeted);
  } finally {
    ctx.searchFailuresLeft = budgeted.searchFailuresLeft;
    ctx.reverseSearchFailuresLeft = budgeted.reverseSearchFailuresLeft;
    if (outer?.()) ctx.aborted = true;
  }
}

/** Connects two consecutive tracks of one cell, pulling their ends back if a turn needs room. */
function connectNeighbours(a: Extract<Piece, { kind: 'track' }>, b: Extract<Piece, { kind: 'track' }>, ctx: RouteContext): Conn {
  const direct = tryDirect(trackEnd(a), trackStart(b), ctx);
  if (direct) return direct;
  const la = hypot(a.ex - a.sx, a.ey - a.sy), lb = hypot(b.ex - b.sx, b.ey - b.sy);
  const ha = trackHeading(a), hb = trackHeading(b);
  const tryTrim = (d: number): Conn | undefined => {
    if (la - d < MIN_TRACK_AFTER_TRIM_METERS || lb - d < MIN_TRACK_AFTER_TRIM_METERS) return undefined;
    const from: Pose = a.xy ? poseOnCurve(a.xy, curveParameter(a.xy, a.ex, a.ey) - d) : { x: a.ex - d * Math.cos(ha), y: a.ey - d * Math.sin(ha), headingRadians: ha };
    const to: Pose = b.xy ? poseOnCurve(b.xy, curveParameter(b.xy, b.sx, b.sy) + d) : { x: b.sx + d * Math.cos(hb), y: b.sy + d * Math.sin(hb), headingRadians: hb };
    const c = tryDirect(from, to, ctx);
    if (c) {
      a.ex = from.x; a.ey = from.y;
      b.sx = to.x; b.sy = to.y;
    }
    return c;
  };
  for (const d of [1, 2, 4]) {
    const c = tryTrim(d);
    if (c) return c;
  }
  // A traversal, unless it is a long detour: then pull the ends back further first.
  const t = tryTraversal(trackEnd(a), trackStart(b), ctx);
  if (t && lengthOf(t) <= detourLimitMeters(trackEnd(a), trackStart(b), undefined, ctx)) return t;
  for (const d of [8, 16, 32]) {
    const c = tryTrim(d);
    if (c) return c;
  }
  if (t) return t;
  const found = trySearch(trackEnd(a), trackStart(b), ctx) ?? reverseLastResort(trackEnd(a), trackStart(b), ctx);
  if (found) return found;
  return straightFallback(trackEnd(a), trackStart(b), ctx, `the turn from track ${a.trackIndex} to track ${b.trackIndex}`);
}

/**
 * How long a headland traversal may be before a manoeuvre inside the field is preferred to it:
 * `TRAVERSAL_DETOUR_RATIO` times the straight distance (or the direct manoeuvre, if longer), plus
 * the way onto and off the ring (two half turns). A traversal round the whole field to reach a
 * track 70 m away across a neck is not what a driver does.
 */
const TRAVERSAL_DETOUR_RATIO = 3;

function detourLimitMeters(from: Pose, to: Pose, direct: Conn | undefined, ctx: RouteContext): number {
  const d = hypot(to.x - from.x, to.y - from.y);
  const base = direct ? Math.max(d, polylineLength(direct.xy)) : d;
  return TRAVERSAL_DETOUR_RATIO * base + 2 * Math.PI * ctx.turnOptions.turnRadiusMeters;
}

function lengthOf(c: Conn | undefined): number {
  return c ? polylineLength(c.xy) : Infinity;
}

/**
 * Connects two poses far apart (other cell, headland pass, more than 3 widths). A headland
 * traversal (one ring, or two rings bridged) is preferred to a direct manoeuvre across the
 * field unless it is a long detour (`detourLimitMeters`); with `headlandDrivethrough` the
 * shorter of the two is taken. Then a waypoint chain; what still does not fit is reported.
 */
function connectFar(from: Pose, to: Pose, ctx: RouteContext, what: string): Conn {
  const d = hypot(to.x - from.x, to.y - from.y);
  if (d <= 3 * ctx.widthMeters) {
    const c = tryDirect(from, to, ctx);
    if (c) return c;
  }
  if (ctx.partOf) {
    const pa = ctx.partOf(from.x, from.y), pb = ctx.partOf(to.x, to.y);
    if (pa !== pb) {
      const tr = transport(from, to, ctx);
      if (tr) return tr;
    }
  }
  const direct = tryDirect(from, to, ctx, 16);
  const limit = detourLimitMeters(from, to, direct, ctx);
  let t = tryTraversal(from, to, ctx);
  if (lengthOf(t) > limit) {
    const b = tryBridgedTraversal(from, to, ctx);
    if (lengthOf(b) < lengthOf(t)) t = b;
  }
  if (direct && (ctx.headlandDrivethrough ? lengthOf(direct) < lengthOf(t) : lengthOf(t) > limit)) return direct;
  if (t && lengthOf(t) <= limit) return t;
  const w = tryWaypointChain(from, to, ctx);
  if (w && lengthOf(w) < lengthOf(t)) return w;
  if (t) return t;
  const found = trySearch(from, to, ctx) ?? tryNeckTransport(from, to, ctx) ?? reverseLastResort(from, to, ctx);
  if (found) return found;
  return straightFallback(from, to, ctx, what);
}

/**
 * Where the machine may reverse: every Reeds-Shepp / fishtail candidate (not only the shortest
 * few) before the join is reported as not fitted.
 */
function reverseLastResort(from: Pose, to: Pose, ctx: RouteContext): Conn | undefined {
  return ctx.turnOptions.reverseAllowed ? tryDirect(from, to, ctx, 64) ?? tryReversingSearch(from, to, ctx) : undefined;
}

/**
 * Where the machine may reverse and nothing else fits: a searched path driven forward and
 * backward (K-turns, reverseSearch.ts), drivable piece by piece between its cusps under the
 * machine's limits, inside the field. Failed searches have their own budget per `connectTracks`
 * call (`reverseSearchFailuresLeft`), so that forward searches failing first do not use it up.
 */
function tryReversingSearch(from: Pose, to: Pose, ctx: RouteContext, maxExpansions?: number): Conn | undefined {
  if (timeIsUp(ctx) || (ctx.reverseSearchFailuresLeft ?? MAX_FAILED_SEARCHES) <= 0) return undefined;
  const R = ctx.turnOptions.turnRadiusMeters;
  const found = searchReversingConnector(from, to, ctx.region, { turnRadiusMeters: R, sampleStepMeters: ctx.turnOptions.sampleStepMeters ?? 0.5, ...(maxExpansions ? { maxExpansions } : {}), ...(ctx.abort ? { abort: ctx.abort } : {}) });
  if (!found) {
    if (!timeIsUp(ctx)) ctx.reverseSearchFailuresLeft = (ctx.reverseSearchFailuresLeft ?? MAX_FAILED_SEARCHES) - 1;
    return undefined;
  }
  const xy = drivableReversing(found, from, to, ctx.region, R, rateLimitOf(ctx));
  const reverse = found.cusps.length > 0 || found.startsReversed;
  return xy ? { xy, kind: 'search', turnType: reverse ? 'ReedsShepp' : 'Dubins', ...(reverse ? { reverse } : {}) } : undefined;
}

/**
 * Where to join a headland pass near s: the nearest straight stretch within 30 m (see `ontoLoop`),
 * else the nearest junction smooth on both sides; undefined where none is (a pass round a small
 * obstacle can bend tighter than R all the way round).
 */
function headlandJunction(loop: LoopPath, s: number, dir: 1 | -1, R: number, sigma?: number): { s: number; pose: Pose } | undefined {
  for (const longEdgesOnly of [true, false]) {
    for (let k = 0; k <= 30; k++) {
      for (const sign of k === 0 ? [1] : [1, -1]) {
        const j = junctionOnLoop(loop, s + sign * k, dir, 'enter');
        if ((j.onLongEdge || !longEdgesOnly) && loopSideFits(loop, j, dir, 'enter', R, sigma) && loopSideFits(loop, j, dir, 'leave', R, sigma)) return j;
      }
    }
  }
  return undefined;
}

/** Enters a headland pass from `from`: picks start point and direction, returns connector + pass. */
function enterHeadland(from: Pose | undefined, p: Extract<Piece, { kind: 'headland' }>, ctx: RouteContext): { conn?: Conn; ring: number[] } | undefined {
  // A pass with no junction smooth on both sides that a forward path could leave at all (round
  // a pole) is not worth any search.
  if (from && !passHasJunction(p.loop, loopDirections(p.loop, ctx.headlandWinding), ctx, false)) return undefined;
  return enterHeadlandRound(from, p, ctx, true) ?? (from ? enterHeadlandRound(from, p, ctx, false) : undefined);
}

function enterHeadlandRound(from: Pose | undefined, p: Extract<Piece, { kind: 'headland' }>, ctx: RouteContext, strictExit: boolean): { conn?: Conn; ring: number[] } | undefined {
  const loop = p.loop;
  const dirs = loopDirections(loop, ctx.headlandWinding);
  if (!from) {
    // Start of the route: the middle of the longest edge, in the ring's own direction.
    let bestI = 0, bestL = -1;
    for (let i = 1; i < loop.s.length; i++) {
      const l = loop.s[i] - loop.s[i - 1];
      if (l > bestL) { bestL = l; bestI = i - 1; }
    }
    const s = loop.s[bestI] + bestL / 2;
    return { ring: sliceLoop(loop, s, loop.lengthMeters, dirs[0]) };
  }
  const near = nearestOnLoop(loop, from.x, from.y);
  let best: { conn: Conn; s: number; dir: 1 | -1 } | undefined;
  let bestLen = Infinity;
  // The pass is a closed loop: the machine leaves it where it joined it, heading the same way, so
  // the junction must be one a forward path can leave (not a pocket of a thin strip).
  const R = ctx.turnOptions.turnRadiusMeters;
  // First round: junctions from which the machine reaches open ground (room to turn round) or
  // gets 150 m away; second round (a pass wholly in narrow ground): any that it can leave at all.
  const strict = strictExit;
  const leavable = (pose: Pose): boolean => (strict ? canLeave(pose, ctx.region, R, false, PASS_EXIT_METERS, 600, true) : canLeave(pose, ctx.region, R));
  // ...and, being a closed loop, left at the same junction: its arriving side must be smooth too.
  const leavableAt = (s: number, dir: 1 | -1, pose: Pose): boolean => loopSideFits(loop, { s, pose }, dir, 'leave', R, rateLimitOf(ctx)) && leavable(pose);
  // A headland pass is a working piece: join it on a straight stretch (no corner within a meter
  // of the junction) where one is in reach, anywhere smooth enough otherwise.
  for (const longEdgesOnly of [true, false]) {
    for (const dir of dirs) {
      const on = ontoLoop(from, loop, near.s, dir, ctx, false, longEdgesOnly, (j) => leavableAt(j.s, dir, j.pose));
      if (on) {
        const len = polylineLength(on.conn.xy);
        if (len < bestLen) { bestLen = len; best = { conn: on.conn, s: on.s, dir }; }
      }
    }
    if (best) break;
  }
  if (!best) {
    for (const dir of dirs) {
      const j = headlandJunction(loop, near.s + dir * 2 * ctx.turnOptions.turnRadiusMeters, dir, ctx.turnOptions.turnRadiusMeters, rateLimitOf(ctx));
      const t = j && leavableAt(j.s, dir, j.pose) ? tryTraversal(from, j.pose, ctx) : undefined;
      if (j && t) { best = { conn: t, s: j.s, dir }; break; }
    }
  }
  if (!best && ctx.partOf && ctx.partOf(from.x, from.y) !== ctx.partOf(loop.xy[0], loop.xy[1])) {
    const j = headlandJunction(loop, near.s + dirs[0] * 2 * ctx.turnOptions.turnRadiusMeters, dirs[0], ctx.turnOptions.turnRadiusMeters, rateLimitOf(ctx));
    const tr = j ? transport(from, j.pose, ctx) : undefined;
    if (j && tr) best = { conn: tr, s: j.s, dir: dirs[0] };
  }
  if (!best) {
    for (const dir of dirs) {
      const j = headlandJunction(loop, near.s + dir * 2 * ctx.turnOptions.turnRadiusMeters, dir, ctx.turnOptions.turnRadiusMeters, rateLimitOf(ctx));
      const t = j && leavableAt(j.s, dir, j.pose) ? tryBridgedTraversal(from, j.pose, ctx) : undefined;
      if (j && t) { best = { conn: t, s: j.s, dir }; break; }
    }
  }
  if (!best) {
    for (const dir of dirs) {
      const j = headlandJunction(loop, near.s + dir * 2 * ctx.turnOptions.turnRadiusMeters, dir, ctx.turnOptions.turnRadiusMeters, rateLimitOf(ctx));
      const t = j && leavableAt(j.s, dir, j.pose) ? tryWaypointChain(from, j.pose, ctx) : undefined;
      if (j && t) { best = { conn: t, s: j.s, dir }; break; }
    }
  }
  if (!best && strict) best = enterFarAlongLoop(from, loop, dirs, ctx, leavableAt);
  if (!best) {
    for (const dir of dirs) {
      const j = headlandJunction(loop, near.s + dir * 2 * R, dir, R, rateLimitOf(ctx));
      const t = j && leavableAt(j.s, dir, j.pose) ? tryNeckTransport(from, j.pose, ctx) : undefined;
      if (j && t) { best = { conn: t, s: j.s, dir }; break; }
    }
  }
  // Where the machine may reverse: out of a pocket (a track end facing the boundary) by K-turns,
  // onto the pass nearby (a small search: most passes that get here are out of reach anyway).
  if (!best && ctx.turnOptions.reverseAllowed && !canLeave(from, ctx.region, R)) {
    for (const dir of dirs) {
      const j = headlandJunction(loop, near.s + dir * 2 * R, dir, R, rateLimitOf(ctx));
      const t = j && leavableAt(j.s, dir, j.pose) ? tryReversingSearch(from, j.pose, ctx, PASS_ENTRY_EXPANSIONS) : undefined;
      if (j && t) { best = { conn: t, s: j.s, dir }; break; }
    }
  }
  // Nothing fits: the caller leaves the pass out (and says so).
  if (!best) return undefined;
  return { conn: best.conn, ring: sliceLoop(loop, best.s, loop.lengthMeters, best.dir) };
}

/**
 * How far a forward path must get from where a headland pass is joined (and left), meters, unless
 * it reaches open ground first (room for a full circle of radius R): a thin arm of the field that
 * ends in a point lets the machine drive on for a while but not out again.
 */
const PASS_EXIT_METERS = 150;

/** Expansions of a reversing search onto a headland pass from a pocket (a K-turn or two nearby). */
const PASS_ENTRY_EXPANSIONS = 3000;

/**
 * Whether the pass has anywhere a junction that is smooth on both sides and that a forward path
 * can reach and leave: a pass that bends tighter than R all round (round a pole) has none.
 */
function passHasJunction(loop: LoopPath, dirs: (1 | -1)[], ctx: RouteContext, toOpenGround = true): boolean {
  const cache = toOpenGround ? passJunctionCache : passLeavableCache;
  const cached = cache.get(loop);
  if (cached !== undefined) return cached;
  const R = ctx.turnOptions.turnRadiusMeters;
  let found = false;
  // Every metre along the pass, smoothness first (cheap); the two small searches at no more
  // than 8 smooth junctions at least 20 m apart.
  let searched = 0, lastSearched = -Infinity;
  for (let s = 0; s < loop.lengthMeters && !found && searched < 8; s += 1) {
    for (const dir of dirs) {
      const j = junctionOnLoop(loop, s, dir, 'enter');
      if (!loopSideFits(loop, j, dir, 'enter', R, rateLimitOf(ctx)) || !loopSideFits(loop, j, dir, 'leave', R, rateLimitOf(ctx))) continue;
      if (j.s - lastSearched < 20) continue;
      lastSearched = j.s;
      searched++;
      const ok = toOpenGround
        ? canLeave(j.pose, ctx.region, R, false, PASS_EXIT_METERS, 300, true) && canLeave(j.pose, ctx.region, R, true, PASS_EXIT_METERS, 300, true)
        : canLeave(j.pose, ctx.region, R) && canLeave(j.pose, ctx.region, R, true);
      if (ok) { found = true; break; }
    }
  }
  cache.set(loop, found);
  return found;
}
const passJunctionCache = new WeakMap<LoopPath, boolean>();
const passLeavableCache = new WeakMap<LoopPath, boolean>();

/**
 * The pass's nearest point may be cut off from `from` (across a bay, behind a neck): try entry
 * points along the whole pass: the nearest by distance inside the field, with a waypoint chain
 * or a searched path.
 */
function enterFarAlongLoop(from: Pose, loop: LoopPath, dirs: (1 | -1)[], ctx: RouteContext, leavableAt: (s: number, dir: 1 | -1, pose: Pose) => boolean): { conn: Conn; s: number; dir: 1 | -1 } | undefined {
  const R = ctx.turnOptions.turnRadiusMeters;
  if (timeIsUp(ctx) || !searchAllowed(ctx) || !canLeave(from, ctx.region, R)) return undefined;
  // The sample of the pass nearest to `from` by distance inside the field.
  const step = Math.max(5, Math.min(20, loop.lengthMeters / 40));
  const at: number[] = [], xy: number[] = [];
  for (let s = 0; s < loop.lengthMeters; s += step) {
    const q = poseOnLoop(loop, s, 1);
    at.push(s);
    xy.push(q.x, q.y);
  }
  const nearest = nearestByFieldDistance(ctx.region, from.x, from.y, xy);
  const picked = nearest >= 0 ? [at[nearest]] : [];
  for (const s of picked) {
    for (const dir of dirs) {
      const j = headlandJunction(loop, s, dir, R, rateLimitOf(ctx));
      if (!j || !leavableAt(j.s, dir, j.pose)) continue;
      // A smaller search here: the pass is optional (left out, with its warning, if not reached).
      const t = tryDirect(from, j.pose, ctx, 8) ?? tryWaypointChain(from, j.pose, ctx) ?? trySearch(from, j.pose, ctx, 1500);
      if (t) return { conn: t, s: j.s, dir };
    }
  }
  return undefined;
}

function endPose(xy: ArrayLike<number>): Pose {
  const n = xy.length;
  let i = n - 4;
  // Step back past points that nearly repeat the last one.
  while (i > 0 && hypot(xy[n - 2] - xy[i], xy[n - 1] - xy[i + 1]) < 1e-6) i -= 2;
  return { x: xy[n - 2], y: xy[n - 1], headingRadians: Math.atan2(xy[n - 1] - xy[i + 1], xy[n - 2] - xy[i]) };
}

function reverseCurve(xy: Float64Array): Float64Array {
  const n = xy.length, out = new Float64Array(n);
  for (let i = 0; i < n; i += 2) { out[i] = xy[n - 2 - i]; out[i + 1] = xy[n - 1 - i]; }
  return out;
}

/** Builds track pieces for a visit order. `cellOf` groups neighbours. */
export function trackPieces(tracks: Track[], visits: TrackVisit[], cellOf: Int32Array): Extract<Piece, { kind: 'track' }>[] {
  return visits.map((v) => {
    const t = tracks[v.trackIndex];
    return v.forward
      ? { kind: 'track', trackIndex: v.trackIndex, line: t.line, cell: cellOf[v.trackIndex], sx: t.x0, sy: t.y0, ex: t.x1, ey: t.y1, ...(t.xy ? { xy: t.xy } : {}) }
      : { kind: 'track', trackIndex: v.trackIndex, line: t.line, cell: cellOf[v.trackIndex], sx: t.x1, sy: t.y1, ex: t.x0, ey: t.y0, ...(t.xy ? { xy: reverseCurve(t.xy) } : {}) };
  });
}

/** Joins the pieces, in order, into route segments (turns and connectors in between). */
export function connectTracks(pieces: Piece[], ctx: RouteContext): LocalSegment[] {
  type Pending = { seg: LocalSegment; piece?: Extract<Piece, { kind: 'track' }> };
  const out: Pending[] = [];
  let cur: Pose | undefined;
  let prev: Piece | undefined;
  const push = (c: Conn, type: 'Turn' | 'Connector'): void => {
    const seg: LocalSegment = { type, xy: Float64Array.from(c.xy), connector: c.kind };
    if (type === 'Turn') seg.turnType = c.turnType ?? 'Dubins';
    else if (c.turnType) seg.turnType = c.turnType;
    if (c.reverse) seg.reverse = true;
    out.push({ seg });
  };
  // A headland pass is left where it was joined, heading the same way; in a thin strip that can
  // be a pocket nothing leaves. When the piece right after a pass cannot be reached, the pass is
  // taken out again (with a warning) and the piece retried from where the machine was before it
  // (one pass back: deeper undoing cascades).
  // Passes driven since the last track, innermost last: each can be undone once.
  const passStack: { outLength: number; cur: Pose | undefined; prev: Piece | undefined; warnings: number; piece: Extract<Piece, { kind: 'headland' }> }[] = [];
  const skipPass = (p: Extract<Piece, { kind: 'headland' }>): void => {
    // Left out, loudly: its area counts as uncovered in the metrics.
    ctx.warnings.push({
      code: 'headland-pass-skipped',
      message: `headland pass ${p.headlandIndex} (${p.type}, ${Math.round(p.loop.lengthMeters)} m) cannot be joined and left by a forward path within the turning radius inside the field; it is left out of the route and its area counts as uncovered`,
      x: p.loop.xy[0],
      y: p.loop.xy[1],
    });
  };
  const undoLastPass = (warningsBefore: number): boolean => {
    const lp = passStack[passStack.length - 1];
    if (!lp || prev !== lp.piece) return false;
    // Only a pass that left the machine in a pocket (no way to open ground) is to blame.
    const R = ctx.turnOptions.turnRadiusMeters;
    if (cur && canLeave(cur, ctx.region, R, false, PASS_EXIT_METERS, 600, true)) return false;
    // One pass back only: deeper undoing cascades where the next piece is hard for other reasons.
    passStack.length = 0;
    out.length = lp.outLength;
    cur = lp.cur;
    prev = lp.prev;
    ctx.warnings.length = Math.min(lp.warnings, warningsBefore);
    skipPass(lp.piece);
    return true;
  };
  // Runs of headland passes are driven nearest-first from wherever the machine is (a pass
  // around a hole next, rather than one across the field): reorder them as they come.
  const queue = pieces.slice();
  for (let i = 0; i < queue.length; i++) {
    // past the caller's deadline: stop (the connection is marked aborted and not used)
    if (timeIsUp(ctx)) break;
    if (cur !== undefined && queue[i].kind === 'headland') {
      let j = i, best = i, bestD = Infinity;
      while (j < queue.length && queue[j].kind === 'headland') {
        const q = queue[j] as Extract<Piece, { kind: 'headland' }>;
        const d = nearestOnLoop(q.loop, cur.x, cur.y).distance;
        if (d < bestD - 1e-9) { bestD = d; best = j; }
        j++;
      }
      if (best !== i) [queue[i], queue[best]] = [queue[best], queue[i]];
    }
    const p = queue[i];
    if (p.kind === 'track') {
      if (cur !== undefined) {
        const warned = ctx.warnings.length;
        const neighbours = prev?.kind === 'track' && prev.cell === p.cell && Math.abs(prev.line - p.line) <= turnSpanLines(ctx.widthMeters, ctx.turnOptions.turnRadiusMeters);
        const from = cur, to = trackStart(p);
        let c = neighbours ? connectNeighbours(prev as Extract<Piece, { kind: 'track' }>, p, ctx) : remember(ctx.memo, ctx, `far ${poseKey(from)} ${poseKey(to)}`, MAX_FAILED_SEARCHES, () => connectFar(from, to, ctx, `the way to track ${p.trackIndex}`));
        if (c.kind === 'unfitted' && undoLastPass(warned)) { i--; continue; }
        if (c.kind === 'unfitted' && ctx.shortenUnfitted?.start()) {
          // Shorten the tracks at this join until something fits: its warning replaces turn-not-fitted.
          const warnedAfter = ctx.warnings.length;
          const s = withShorteningBudget(ctx, (budgeted) => connectShortened(prev?.kind === 'track' ? prev : undefined, from, p, budgeted));
          if (s) {
            ctx.warnings.splice(warned, warnedAfter - warned);
            c = s;
          }
        }
        // a manoeuvre straight from one track of a cell to another is a turn, however many lines over
        push(c, neighbours || (c.kind === 'direct' && prev?.kind === 'track' && prev.cell === p.cell) ? 'Turn' : 'Connector');
      }
      out.push({ seg: { type: 'Track', xy: new Float64Array(0), trackIndex: p.trackIndex }, piece: p });
      cur = trackEnd(p);
      passStack.length = 0;
    } else {
      const before = { outLength: out.length, cur, prev, warnings: ctx.warnings.length };
      const from = cur;
      const entered = from && ctx.memo ? remember(ctx.memo, ctx, `pass ${objectKey(ctx.memo, p.loop)} ${poseKey(from)}`, MAX_FAILED_SEARCHES, () => enterHeadland(from, p, ctx)) : enterHeadland(from, p, ctx);
      if (!entered) {
        // Undo the previous pass only if this one could be joined from somewhere at all.
        if (passHasJunction(p.loop, loopDirections(p.loop, ctx.headlandWinding), ctx) && undoLastPass(ctx.warnings.length)) { i--; continue; }
        skipPass(p);
        continue;
      }
      const { conn, ring } = entered;
      if (conn) push(conn, 'Connector');
      out.push({ seg: { type: p.type, xy: Float64Array.from(ring), headlandIndex: p.headlandIndex } });
      cur = endPose(ring);
      passStack.push({ ...before, piece: p });
    }
    prev = p;
  }
  // Tracks may have been trimmed by later turns: their geometry is final only now.
  for (const o of out) {
    if (o.piece) o.seg.xy = o.piece.xy ? curveBetween(o.piece.xy, o.piece.sx, o.piece.sy, o.piece.ex, o.piece.ey) : Float64Array.from([o.piece.sx, o.piece.sy, o.piece.ex, o.piece.ey]);
  }
  return out.map((o) => o.seg);
}
