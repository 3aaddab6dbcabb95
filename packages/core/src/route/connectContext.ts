/**
 * What the connect stage shares: the context of one `connectTracks` call (field, rings, turn
 * options, budgets, deadline), a connection (`Conn`), and the poses of track pieces' ends.
 */
import type { Pose, TurnOptions } from '../turns/types.js';
import type { TurnType } from '../types.js';
import { Region } from '../geometry/region.js';
import { hypot, polylineLength, segmentParameter } from '../geometry/vec.js';
import type { LoopPath } from '../turns/connectorRings.js';
import type { Waypoints } from '../turns/waypointPath.js';
import type { ConnectionMemo } from './connectionMemo.js';
import type { LocalWarning, Piece } from '../turns/path.js';

export interface RouteContext {
  region: Region;
  /** Connector rings for headland traversal (built on first use: most fields need few). */
  loops: () => LoopPath[];
  /** Whether `loops` has built the rings already (past the wall-clock cap they are not built). */
  loopsBuilt?: () => boolean;
  /** How far from a connector ring a traversal may start or end, meters. */
  maxRingReachMeters: number;
  turnOptions: TurnOptions;
  widthMeters: number;
  warnings: LocalWarning[];
  /** routeOptions.forcedDirection: winding of headland passes (CW / CCW); absent = whichever joins better. */
  headlandWinding?: 'CW' | 'CCW';
  /**
   * routeOptions.enableHeadlandDrivethrough: far connectors try a direct manoeuvre across the headland band before a
   * headland traversal.
   */
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
   * The call's wall-clock cap (clock.ts `SafetyCap.hurry`): past it, far joins are made by the
   * cheap connectors only (a turn, a chain of waypoints: no free search; a headland pass is also
   * entered by one ring's traversal), and a turn between neighbours that needs more than trimmed
   * track ends is drawn straight, with its `turn-not-fitted` warning.
   */
  hurry?: (what: string, late?: boolean) => boolean;
  /**
   * A join nothing fits is retried with the tracks shortened at it (`connectShortened`, warning
   * `track-shortened`) while its budget lasts. Absent while ordering costs connectors (the order
   * is chosen on the joins as they are); given for the chosen route's joins that did not fit.
   */
  shortenUnfitted?: ShorteningBudget;
  /**
   * What a connection may still drive between its pieces before its caller has no use for it (route/passesBetween.ts:
   * a split that cannot beat the best one so far; route/order/connectedOrder.ts: a link of a route that cannot beat
   * the best route). Each turn and connector made spends its length; a search stops
   * once every way it has left is longer than what is left (`SearchLimits.maxPathMeters`); and a join nothing fits
   * spends it all (the caller discards a connection with one). Once it is spent, the connection stops there,
   * `aborted` (through `abort`, which the caller gives as `() => budget.spent`).
   */
  lengthBudget?: LengthBudget;
}

/** The metres of turns and connectors a connection may still drive (`RouteContext.lengthBudget`). */
export interface LengthBudget {
  leftMeters: number;
  spent: boolean;
  /** Spent at a join nothing fits (the connection has a defect). */
  unfitted?: boolean;
}

/**
 * Spends a join's length of the connection's length budget, if it has one (measured only then: every join of every
 * planning comes here); a join nothing fits spends it all.
 */
export function spendJoin(ctx: RouteContext, c: Conn): void {
  const b = ctx.lengthBudget;
  if (!b) return;
  if (c.kind === 'unfitted') {
    b.unfitted = true;
    b.leftMeters = -Infinity;
  } else b.leftMeters -= polylineLength(c.xy);
  if (b.leftMeters < 0) b.spent = true;
}

/** The budget of `connectShortened` over one planning. */
export interface ShorteningBudget {
  /** Whether one more join may be shortened (starts the refit clock on first use). */
  start(): boolean;
  /** The deadline of the shortening under way: once true, its searches give up. */
  over(): boolean;
}

/** Whether the caller's deadline has passed (marks the connection `aborted`). */
export function timeIsUp(ctx: RouteContext): boolean {
  if (!ctx.abort || !ctx.abort()) return false;
  ctx.aborted = true;
  return true;
}

/** What the wall-clock cap cuts from the connector searches (the `time-limit` warning). */
export const CUT_SEARCHES =
  'joins made after it were searched only by the cheap connectors (a turn, a chain of waypoints; a headland pass ' +
  "also by one ring's traversal where the rings were built before it), what they did not fit drawn straight " +
  'or, a headland pass, left out';

/** Past the call's wall-clock cap (`ctx.hurry`): only the cheap connectors are tried. */
export const CUT_JOINS_LATE =
  'joins made after the moment the call had to end by were tried by the shortest turn only, ' +
  'what it did not fit drawn straight (turn-not-fitted)';

/** Past the call's late moment: what a headland pass's entry leaves out (the `time-limit` warning). */
export const CUT_PASS_EXITS_LATE =
  'headland passes entered after the moment the call had to end by were joined where a turn reaches them, ' +
  'without searching whether the machine can drive off them there';

/** Past the call's late moment (clock.ts `hurry(what, true)`): a pass is entered without the search for its exit. */
export function tooLateForPassExits(ctx: RouteContext): boolean {
  return ctx.hurry?.(CUT_PASS_EXITS_LATE, true) ?? false;
}

/** Past the call's late moment (clock.ts `hurry(what, true)`): a join is tried by its shortest turn only. */
export function tooLate(ctx: RouteContext): boolean {
  return ctx.hurry?.(CUT_JOINS_LATE, true) ?? false;
}

export function hurried(ctx: RouteContext): boolean {
  return ctx.hurry?.(CUT_SEARCHES) ?? false;
}

/** Failed connector searches allowed per `connectTracks` call. */
export const MAX_FAILED_SEARCHES = 12;

/** Whether a search may still run; a failure is counted by `searchFailed`. */
export function searchAllowed(ctx: RouteContext): boolean {
  return (ctx.searchFailuresLeft ?? MAX_FAILED_SEARCHES) > 0;
}
export function searchFailed(ctx: RouteContext): void {
  ctx.searchFailuresLeft = (ctx.searchFailuresLeft ?? MAX_FAILED_SEARCHES) - 1;
}

/** Directions (along the loop's own order = 1) allowed by a forced winding, preferred first. */
export function loopDirections(loop: LoopPath, winding: 'CW' | 'CCW' | undefined): (1 | -1)[] {
  if (!winding) return [1, -1];
  let area2 = 0;
  const xy = loop.xy;
  for (let i = 2; i < xy.length; i += 2) area2 += xy[i - 2] * xy[i + 1] - xy[i] * xy[i - 1];
  const ccw = area2 > 0;
  return [(winding === 'CCW') === ccw ? 1 : -1];
}

/** One track of the route in driving order. */
export interface TrackVisit {
  trackIndex: number;
  /** true = drive from (x0, y0) to (x1, y1). */
  forward: boolean;
}

export interface Conn {
  xy: ArrayLike<number>;
  turnType?: TurnType;
  kind: string;
  reverse?: boolean;
}

export const MIN_TRACK_AFTER_TRIM_METERS = 1;

export function trackHeading(p: Extract<Piece, { kind: 'track' }>): number {
  return Math.atan2(p.ey - p.sy, p.ex - p.sx);
}

/** Curved tracks (`Piece.xy`, in driving order): arc length of the curve's point nearest to (x, y). */
export function curveParameter(xy: Float64Array, x: number, y: number): number {
  let best = Infinity,
    at = 0,
    acc = 0;
  for (let i = 2; i < xy.length; i += 2) {
    const ax = xy[i - 2],
      ay = xy[i - 1],
      dx = xy[i] - ax,
      dy = xy[i + 1] - ay;
    const l2 = dx * dx + dy * dy,
      l = Math.sqrt(l2);
    const t = segmentParameter(x, y, ax, ay, dx, dy);
    const d2 = (ax + t * dx - x) ** 2 + (ay + t * dy - y) ** 2;
    if (d2 < best) {
      best = d2;
      at = acc + t * l;
    }
    acc += l;
  }
  return at;
}

/** Curved tracks: the pose at arc length s along the curve (clamped to it), heading along the curve. */
export function poseOnCurve(xy: Float64Array, s: number): Pose {
  let acc = 0;
  for (let i = 2; i < xy.length; i += 2) {
    const dx = xy[i] - xy[i - 2],
      dy = xy[i + 1] - xy[i - 1],
      l = hypot(dx, dy);
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
export function curveBetween(xy: Float64Array, sx: number, sy: number, ex: number, ey: number): Float64Array {
  const s0 = curveParameter(xy, sx, sy),
    s1 = curveParameter(xy, ex, ey);
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
 * A pose pulled back or pushed in along a curved track this close to one of its vertices is put on
 * the vertex, m: the piece then ends on it, without a stub whose heading is the next segment's (a
 * connector leaving along the stub would meet the piece at a kink).
 */
export const SNAP_TO_VERTEX_METERS = 0.5;

/**
 * Curved tracks: the pose at arc length s, on the vertex within SNAP_TO_VERTEX_METERS of it where
 * there is one, heading along the segment before it (`end`: the piece ends there) or after it (`start`).
 */
export function poseNearVertex(xy: Float64Array, s: number, side: 'start' | 'end'): Pose {
  const n = xy.length / 2;
  let acc = 0;
  for (let j = 1; j + 1 < n; j++) {
    acc += hypot(xy[2 * j] - xy[2 * j - 2], xy[2 * j + 1] - xy[2 * j - 1]);
    if (acc < s - SNAP_TO_VERTEX_METERS) continue;
    if (acc > s + SNAP_TO_VERTEX_METERS) break;
    const a = side === 'end' ? j - 1 : j;
    const dx = xy[2 * a + 2] - xy[2 * a],
      dy = xy[2 * a + 3] - xy[2 * a + 1];
    if (dx === 0 && dy === 0) break;
    return { x: xy[2 * j], y: xy[2 * j + 1], headingRadians: Math.atan2(dy, dx) };
  }
  return poseOnCurve(xy, s);
}

export function trackStart(p: Extract<Piece, { kind: 'track' }>): Pose {
  if (p.xy) return { ...poseOnCurve(p.xy, curveParameter(p.xy, p.sx, p.sy) + 1e-9), x: p.sx, y: p.sy };
  return { x: p.sx, y: p.sy, headingRadians: trackHeading(p) };
}
export function trackEnd(p: Extract<Piece, { kind: 'track' }>): Pose {
  if (p.xy) return { ...poseOnCurve(p.xy, curveParameter(p.xy, p.ex, p.ey) - 1e-9), x: p.ex, y: p.ey };
  return { x: p.ex, y: p.ey, headingRadians: trackHeading(p) };
}

/** Length of a track piece as it now is (between its current ends), meters. */
export function pieceLength(p: Extract<Piece, { kind: 'track' }>): number {
  return p.xy ? curveParameter(p.xy, p.ex, p.ey) - curveParameter(p.xy, p.sx, p.sy) : hypot(p.ex - p.sx, p.ey - p.sy);
}

/** The pose `d` meters before the track's end, along it. */
export function pulledBackEnd(a: Extract<Piece, { kind: 'track' }>, d: number): Pose {
  if (d === 0) return trackEnd(a);
  const h = trackHeading(a);
  return a.xy
    ? poseNearVertex(a.xy, curveParameter(a.xy, a.ex, a.ey) - d, 'end')
    : { x: a.ex - d * Math.cos(h), y: a.ey - d * Math.sin(h), headingRadians: h };
}

/** The pose `d` meters after the track's start, along it. */
export function pushedInStart(b: Extract<Piece, { kind: 'track' }>, d: number): Pose {
  if (d === 0) return trackStart(b);
  const h = trackHeading(b);
  return b.xy
    ? poseNearVertex(b.xy, curveParameter(b.xy, b.sx, b.sy) + d, 'start')
    : { x: b.sx + d * Math.cos(h), y: b.sy + d * Math.sin(h), headingRadians: h };
}

export function endPose(xy: ArrayLike<number>): Pose {
  const n = xy.length;
  let i = n - 4;
  // Step back past points that nearly repeat the last one.
  while (i > 0 && hypot(xy[n - 2] - xy[i], xy[n - 1] - xy[i + 1]) < 1e-6) i -= 2;
  return { x: xy[n - 2], y: xy[n - 1], headingRadians: Math.atan2(xy[n - 1] - xy[i + 1], xy[n - 2] - xy[i]) };
}
