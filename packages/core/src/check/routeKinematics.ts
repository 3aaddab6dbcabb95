/**
 * Kinematic check of a whole route: every turn and connector, and every junction
 * between consecutive route pieces, run through `checkKinematics` with the machine's limits.
 *
 * - Each Turn / Connector is checked with `contextMeters` (default 1 m) of the piece before it
 *   and, when the piece after it is a working pass, of that one too: the junctions are part of
 *   the checked polyline, so a heading kink or a curvature jump where a turn meets a track is
 *   found (not only inside the turn). Each junction is checked once. Context from a long straight
 *   chord (a track) is resampled every 0.25 m, so a kink where a turn leaves a 500 m track is
 *   measured on 0.25 m chords, not on the 500 m one.
 * - A junction between two working pieces is checked the same way (1 m either side).
 * - Working pieces themselves (tracks, headland passes) are not checked for curvature: they
 *   follow the field (turns and connectors are what is checked).
 * - Reversing: the polyline is split at cusps (chord reversals); a cusp, or a piece flagged
 *   `reverse`, where reversing is not allowed is a `reverse` violation.
 * - `staging` / `refill` connectors are schematic straight legs to a depot off the field, and
 *   `transport` connectors (transit legs between zones) schematic legs off it (roads are not
 *   modelled): they and their junctions are skipped.
 *
 * Coordinates are local meters. One violation per (piece, kind): the worst.
 */
import type { RouteSegmentType } from '../types.js';
import { checkKinematics } from '../turns/kinematics.js';
import type { KinematicCheckOptions, KinematicViolation, KinematicViolationKind } from '../turns/kinematics.js';
import { hypot } from '../geometry/vec.js';

export interface RoutePieceXY {
  sequence: number;
  type: RouteSegmentType;
  /** x0,y0,x1,y1,… local meters. */
  xy: Float64Array;
  connectorKind?: string;
  turnType?: string;
  reverse?: boolean;
}

export interface RouteKinematicViolation {
  kind: KinematicViolationKind;
  /** The piece the violation is reported on (a junction belongs to the turn / connector it joins). */
  sequence: number;
  /** 'start' / 'end': at (within contextMeters of) the junction with the piece before / after. */
  where: 'start' | 'inside' | 'end';
  x: number;
  y: number;
  value: number;
  limit: number;
  message: string;
}

export interface RouteKinematicOptions extends Omit<KinematicCheckOptions, 'cusps'> {
  /** Length of the neighbouring pieces included at each junction, meters (default 1). */
  contextMeters?: number;
  /** Largest gap between pieces treated as a junction, meters (default 0.05; larger is a `gap`). */
  gapMeters?: number;
}

const isWork = (t: RouteSegmentType): boolean => t === 'Track' || t === 'ExteriorHeadland' || t === 'InteriorHeadland';
const isSchematic = (p: RoutePieceXY): boolean =>
  p.type === 'Connector' &&
  (p.connectorKind === 'staging' || p.connectorKind === 'refill' || p.connectorKind === 'transport');

/**
 * Chords longer than this are straight lines by construction (tracks, headland edges, straight
 * connectors): context taken from them is resampled every CONTEXT_STEP_METERS. Shorter chords
 * may be a polygonal arc: their vertices are kept as they are and no point is interpolated on
 * them (a point on a chord of an arc is not a point of the path).
 */
const STRAIGHT_CHORD_METERS = 1;
const CONTEXT_STEP_METERS = 0.25;

/** The first `meters` of the polyline x(i), y(i), i = 0..n-1 (forward or backward view), as pairs. */
function contextOf(n: number, x: (i: number) => number, y: (i: number) => number, meters: number): number[] {
  const out: number[] = [x(0), y(0)];
  let acc = 0;
  for (let i = 1; i < n && acc < meters; i++) {
    const ax = x(i - 1),
      ay = y(i - 1),
      bx = x(i),
      by = y(i);
    const l = hypot(bx - ax, by - ay);
    if (l > STRAIGHT_CHORD_METERS) {
      const steps = Math.ceil(Math.min(l, meters - acc) / CONTEXT_STEP_METERS);
      for (let k = 1; k <= steps; k++) {
        const t = Math.min(l, k * CONTEXT_STEP_METERS) / l;
        out.push(ax + (bx - ax) * t, ay + (by - ay) * t);
      }
      acc += Math.min(l, steps * CONTEXT_STEP_METERS);
    } else {
      out.push(bx, by);
      acc += l;
    }
  }
  return out;
}

/**
 * Chords longer than STRAIGHT_CHORD_METERS resampled every CONTEXT_STEP_METERS (they are straight
 * lines: a 40 m straight connector meeting a track at 45° must read as a corner, not as a bend over
 * 40 m chords). Returns the input when nothing changes.
 */
function resampleStraights(xy: ArrayLike<number>): ArrayLike<number> {
  let long = false;
  for (let i = 2; i < xy.length && !long; i += 2)
    long = hypot(xy[i] - xy[i - 2], xy[i + 1] - xy[i - 1]) > STRAIGHT_CHORD_METERS;
  if (!long) return xy;
  const out: number[] = [xy[0], xy[1]];
  for (let i = 2; i < xy.length; i += 2) {
    const ax = xy[i - 2],
      ay = xy[i - 1],
      bx = xy[i],
      by = xy[i + 1];
    const l = hypot(bx - ax, by - ay);
    if (l > STRAIGHT_CHORD_METERS) {
      const steps = Math.ceil(l / CONTEXT_STEP_METERS);
      for (let k = 1; k < steps; k++) out.push(ax + ((bx - ax) * k) / steps, ay + ((by - ay) * k) / steps);
    }
    out.push(bx, by);
  }
  return out;
}

/** The last `meters` of a polyline, in forward order (see contextOf). */
function tailOf(xy: Float64Array, meters: number): number[] {
  const n = xy.length >> 1;
  const back = contextOf(
    n,
    (i) => xy[2 * (n - 1 - i)],
    (i) => xy[2 * (n - 1 - i) + 1],
    meters,
  );
  const r: number[] = [];
  for (let i = back.length - 2; i >= 0; i -= 2) r.push(back[i], back[i + 1]);
  return r;
}

/** The first `meters` of a polyline (see contextOf). */
function headOf(xy: Float64Array, meters: number): number[] {
  return contextOf(
    xy.length >> 1,
    (i) => xy[2 * i],
    (i) => xy[2 * i + 1],
    meters,
  );
}

function joined(a: RoutePieceXY, b: RoutePieceXY, gapMeters: number): boolean {
  const n = a.xy.length;
  if (n < 4 || b.xy.length < 4) return false;
  return hypot(b.xy[0] - a.xy[n - 2], b.xy[1] - a.xy[n - 1]) <= gapMeters;
}

function label(p: RoutePieceXY): string {
  return `${p.type}${p.turnType ? ` (${p.turnType})` : ''} ${p.sequence}`;
}

/**
 * Where on piece p a violation lies, for its message: where it leaves `prev` or joins `next`, and how far
 * from the junction where the worst point lies on the neighbour (P, B: the points before and of the body).
 */
function whereNote(
  p: RoutePieceXY,
  prev: RoutePieceXY | undefined,
  next: RoutePieceXY | undefined,
  v: KinematicViolation,
  where: RouteKinematicViolation['where'],
  P: number,
  B: number,
  body: Float64Array,
): string {
  let at =
    where === 'start'
      ? ` where it leaves ${prev ? label(prev) : 'the previous piece'}`
      : where === 'end'
        ? ` where it joins ${next ? label(next) : 'the next piece'}`
        : '';
  // The worst point lies on the neighbour itself (e.g. a headland pass curving tighter than R
  // right at the junction): say so, the fix may be where the junction is.
  if (!isWork(p.type) && v.index < P && prev)
    at += ` (measured on ${label(prev)}, ${hypot(v.x - body[0], v.y - body[1]).toFixed(2)} m before the junction)`;
  else if (!isWork(p.type) && v.index > P + B - 1 && next)
    at +=
      ` (measured on ${label(next)}, ` +
      `${hypot(v.x - body[body.length - 2], v.y - body[body.length - 1]).toFixed(2)} m after the junction)`;
  return at;
}

/** Violations of the machine's limits along the route's turns, connectors and junctions. */
export function checkRouteKinematics(
  pieces: readonly RoutePieceXY[],
  opts: RouteKinematicOptions,
): RouteKinematicViolation[] {
  const ctxM = opts.contextMeters ?? 1;
  const gapM = opts.gapMeters ?? 0.05;
  const kin: KinematicCheckOptions = { ...opts };
  const out: RouteKinematicViolation[] = [];
  const worst = new Map<string, RouteKinematicViolation>();
  const add = (v: RouteKinematicViolation): void => {
    const key = `${v.sequence}:${v.kind}`;
    const w = worst.get(key);
    if (!w || v.value / v.limit > w.value / w.limit) worst.set(key, v);
  };

  for (let k = 0; k < pieces.length; k++) {
    const p = pieces[k];
    if (isSchematic(p)) continue;
    if (p.reverse && !opts.reverseAllowed && !isWork(p.type))
      add({
        kind: 'reverse',
        sequence: p.sequence,
        where: 'inside',
        x: p.xy[0],
        y: p.xy[1],
        value: 1,
        limit: 0,
        message: `${label(p)} is driven in reverse but reverseAllowed is false`,
      });
    const prev = k > 0 ? pieces[k - 1] : undefined;
    const next = k + 1 < pieces.length ? pieces[k + 1] : undefined;
    let pre: number[] = [];
    let body: Float64Array;
    let post: number[] = [];
    if (isWork(p.type)) {
      // Only the junction with a following working piece (turns and connectors carry the others).
      if (!next || !isWork(next.type) || !joined(p, next, gapM)) continue;
      pre = tailOf(p.xy, ctxM).slice(0, -2);
      body = p.xy.subarray(p.xy.length - 2);
      post = headOf(next.xy, ctxM).slice(2);
    } else {
      body = p.xy;
      if (prev && !isSchematic(prev) && joined(prev, p, gapM)) pre = tailOf(prev.xy, ctxM).slice(0, -2);
      if (next && isWork(next.type) && joined(p, next, gapM)) post = headOf(next.xy, ctxM).slice(2);
    }
    const pre2 = resampleStraights(pre);
    const body2 = resampleStraights(body);
    const post2 =
      post.length > 0
        ? Array.from(resampleStraights([body[body.length - 2], body[body.length - 1], ...post])).slice(2)
        : post;
    const P = pre2.length >> 1;
    const B = body2.length >> 1;
    const poly = new Float64Array(pre2.length + body2.length + post2.length);
    poly.set(pre2, 0);
    poly.set(body2, pre2.length);
    poly.set(post2, pre2.length + body2.length);
    if (poly.length < 4) continue;
    let vs: KinematicViolation[];
    try {
      vs = checkKinematics(poly, kin);
    } catch {
      continue;
    }
    for (const v of vs) {
      const where: RouteKinematicViolation['where'] = isWork(p.type)
        ? 'end'
        : v.index <= P && P > 0
          ? 'start'
          : v.index >= P + B - 1 && post.length > 0
            ? 'end'
            : 'inside';
      const at = whereNote(p, prev, next, v, where, P, B, body);
      add({
        kind: v.kind,
        sequence: p.sequence,
        where,
        x: v.x,
        y: v.y,
        value: v.value,
        limit: v.limit,
        message: `${label(p)}${at}: ${v.message.replace(/ at point \d+| near point \d+/, '')}`,
      });
    }
  }
  for (const v of worst.values()) out.push(v);
  out.sort((a, b) => a.sequence - b.sequence || a.kind.localeCompare(b.kind));
  return out;
}
