/**
 * Closed forms of the classic field turns between two parallel tracks `spacingMeters` apart
 * whose ends lie on one line, and their extents: how far past the
 * track ends the centre line reaches. The route stage uses `predictFieldTurns` to decide
 * whether a turn fits a headland band without sampling anything.
 */
import { reedsSheppSolutions } from './reedsShepp.js';
import { sampleSegments } from './segments.js';
import type { TurnSegment } from './types.js';
import { pushTurn } from './words.js';
import { halfTurnDisplacement, turnDisplacement, turnLengthMeters, turnShape, type TurnShape } from './shape.js';
import type { TurnType } from '../types.js';
import { hypot } from '../geometry/vec.js';

/** Flat U (two quarter arcs and a straight), w ≥ 2R: w + (π − 2)R; NaN when w < 2R. */
export function uTurnLengthMeters(spacingMeters: number, radiusMeters: number): number {
  const w = spacingMeters;
  const R = radiusMeters;
  return w >= 2 * R - 1e-9 ? w + (Math.PI - 2) * R : NaN;
}

/** Bulb / omega turn (away, big arc, back), w ≤ 2R: R[π + 4·arccos((w + 2R)/(4R))]. */
export function bulbTurnLengthMeters(spacingMeters: number, radiusMeters: number): number {
  const w = spacingMeters;
  const R = radiusMeters;
  if (w > 2 * R + 1e-9) return NaN;
  return R * (Math.PI + 4 * Math.acos(Math.min(1, (w + 2 * R) / (4 * R))));
}

/** Extent of the bulb past the track ends: R + √(4R² − (w/2 + R)²). */
export function bulbTurnExtentMeters(spacingMeters: number, radiusMeters: number): number {
  const w = spacingMeters;
  const R = radiusMeters;
  if (w > 2 * R + 1e-9) return NaN;
  const h = w / 2 + R;
  return R + Math.sqrt(Math.max(0, 4 * R * R - h * h));
}

/** Fishtail / K-turn, w < 2R: quarter arc, reverse straight 2R − w, quarter arc: πR + 2R − w. */
export function fishtailTurnLengthMeters(spacingMeters: number, radiusMeters: number): number {
  const w = spacingMeters;
  const R = radiusMeters;
  return w <= 2 * R + 1e-9 ? Math.PI * R + Math.max(0, 2 * R - w) : NaN;
}

export interface FieldTurnPrediction {
  turnType: TurnType;
  lengthMeters: number;
  /** Farthest reach of the centre line past the line of the track ends, meters. */
  extentMeters: number;
  /** Whether the turn needs reversing. */
  reverse: boolean;
  /** How far the manoeuvre goes back behind the line of the track ends (over the tracks), meters ≥ 0. */
  behindMeters: number;
  /** Reeds-Shepp word, for reversing turns other than the fishtail (e.g. 'R+L-R+'). */
  word?: string;
}

export interface FieldTurnOptions {
  turnRadiusMeters: number;
  /** σ, 1/m²; with a limit the turns use clothoid transitions (longer, wider). */
  maxCurvatureRatePerSquareMeter?: number;
  reverseAllowed?: boolean;
  /** 'Arcs' / 'None' ignore the curvature-rate limit (plain arcs). */
  smoothing?: 'None' | 'Arcs' | 'Clothoids';
}

const threePointPredictionMemo = new WeakMap<TurnShape, Map<number, FieldTurnPrediction | null>>();

/** The memo of `shape` in `memos`, made on first use: per spacing, the turn, or null where none fits. */
function memoOf<T>(memos: WeakMap<TurnShape, Map<number, T | null>>, shape: TurnShape): Map<number, T | null> {
  let memo = memos.get(shape);
  if (!memo) {
    memo = new Map();
    memos.set(shape, memo);
  }
  return memo;
}

/** The three-point turn as a prediction; extent and reach behind measured on the path sampled every 2 cm. */
function threePointPrediction(shape: TurnShape, w: number): FieldTurnPrediction | undefined {
  const memo = memoOf(threePointPredictionMemo, shape);
  const hit = memo.get(w);
  if (hit !== undefined) return hit ?? undefined;
  const k = fieldThreePoint(shape, w);
  let result: FieldTurnPrediction | undefined;
  if (k) {
    const segs: TurnSegment[] = [];
    pushTurn(segs, shape, -1, k.outerDeflectionRadians);
    pushTurn(segs, shape, 1, k.middleDeflectionRadians, true);
    pushTurn(segs, shape, -1, k.outerDeflectionRadians);
    const [maxY, minY] = alongRange({ x: 0, y: 0, headingRadians: Math.PI / 2 }, segs);
    result = {
      turnType: 'Fishtail',
      lengthMeters: k.lengthMeters,
      extentMeters: maxY,
      reverse: true,
      behindMeters: -minY,
      word: 'R+L-R+',
    };
  }
  if (memo.size >= 256) memo.clear();
  memo.set(w, result ?? null);
  return result;
}

/** Largest and smallest y of the pieces driven from `from`, sampled every 2 cm (0 included). */
function alongRange(
  from: { x: number; y: number; headingRadians: number },
  segs: readonly TurnSegment[],
): [number, number] {
  const pts = sampleSegments(from, segs, 0.02).points;
  let maxY = 0;
  let minY = 0;
  for (let i = 1; i < pts.length; i += 2) {
    if (pts[i] > maxY) maxY = pts[i];
    if (pts[i] < minY) minY = pts[i];
  }
  return [maxY, minY];
}

const rsMemo = new Map<string, FieldTurnPrediction[]>();

/**
 * Reeds-Shepp manoeuvres between aligned opposite-parallel poses w apart (next track on the
 * left), with their extent and reach behind the track ends measured on the path sampled every
 * 2 cm (error < 1 mm for R ≥ 1 m). Only those not dominated in (length, extent, behind).
 */
function reedsSheppFieldTurns(radiusMeters: number, w: number): FieldTurnPrediction[] {
  const key = `${radiusMeters}/${w}`;
  const hit = rsMemo.get(key);
  if (hit) return hit;
  const from = { x: 0, y: 0, headingRadians: Math.PI / 2 };
  const to = { x: -w, y: 0, headingRadians: -Math.PI / 2 };
  const all: FieldTurnPrediction[] = [];
  for (const sol of reedsSheppSolutions(from, to, radiusMeters)) {
    if (!sol.segments.some((g) => g.reverse)) continue;
    const pts = sampleSegments(from, sol.segments, 0.02, to).points;
    let maxY = 0;
    let minY = 0;
    for (let i = 1; i < pts.length; i += 2) {
      if (pts[i] > maxY) maxY = pts[i];
      if (pts[i] < minY) minY = pts[i];
    }
    all.push({
      turnType: 'ReedsShepp',
      lengthMeters: sol.lengthMeters,
      extentMeters: maxY,
      reverse: true,
      behindMeters: -minY,
      word: sol.word,
    });
  }
  const kept = all.filter(
    (p) =>
      !all.some(
        (q) =>
          q !== p &&
          q.lengthMeters <= p.lengthMeters + 1e-9 &&
          q.extentMeters <= p.extentMeters + 1e-9 &&
          q.behindMeters <= p.behindMeters + 1e-9 &&
          (q.lengthMeters < p.lengthMeters - 1e-9 ||
            q.extentMeters < p.extentMeters - 1e-9 ||
            q.behindMeters < p.behindMeters - 1e-9 ||
            all.indexOf(q) < all.indexOf(p)),
      ),
  );
  if (rsMemo.size >= 256) rsMemo.clear();
  rsMemo.set(key, kept);
  return kept;
}

/**
 * The forward field turns (U / PerfectU or Bulb) and, when reversing is allowed, the fishtail
 * between parallel tracks `spacingMeters` apart with aligned ends, sorted by length. Lengths
 * and extents are closed forms of the turn shape (exact; no sampling). With a curvature-rate
 * limit, a quarter CC turn advances a ≥ R, so a U needs w ≥ 2a instead of w ≥ 2R.
 * With reversing allowed and plain arcs, the Reeds-Shepp manoeuvres (three-point turns such as
 * R+L-R+ reach less far than the fishtail) are listed too, with how far they go back over the
 * tracks (`behindMeters`).
 */
export function predictFieldTurns(spacingMeters: number, opts: FieldTurnOptions): FieldTurnPrediction[] {
  const R = opts.turnRadiusMeters;
  const w = Math.abs(spacingMeters);
  const sigma =
    opts.smoothing === 'Arcs' || opts.smoothing === 'None'
      ? Infinity
      : (opts.maxCurvatureRatePerSquareMeter ?? Infinity);
  const shape = turnShape(R, sigma);
  const out: FieldTurnPrediction[] = [];
  const quarter = turnLengthMeters(shape, Math.PI / 2);
  const a = turnDisplacement(shape, Math.PI / 2)[0];
  const tol = 1e-9 * Math.max(1, R);
  if (Number.isFinite(quarter) && w >= 2 * a - tol) {
    const straight = Math.max(0, w - 2 * a);
    out.push({
      turnType: straight <= 1e-6 ? 'PerfectU' : 'U',
      lengthMeters: 2 * quarter + straight,
      extentMeters: a,
      reverse: false,
      behindMeters: 0,
    });
  }
  if (w < 2 * a - tol) {
    const bulb = fieldBulb(shape, w);
    if (bulb)
      out.push({
        turnType: bulb.outerDeflectionRadians < 0 ? 'U' : 'Bulb',
        lengthMeters: bulb.lengthMeters,
        extentMeters: bulb.extentMeters,
        reverse: false,
        behindMeters: 0,
      });
  }
  if (opts.reverseAllowed && Number.isFinite(quarter) && w < 2 * a - tol) {
    out.push({
      turnType: 'Fishtail',
      lengthMeters: 2 * quarter + (2 * a - w),
      extentMeters: a,
      reverse: true,
      behindMeters: 0,
    });
  }
  if (opts.reverseAllowed) {
    const k = threePointPrediction(shape, w);
    if (k) out.push(k);
    if (sigma === Infinity)
      for (const p of reedsSheppFieldTurns(R, w))
        if (!k || p.word !== k.word || Math.abs(p.lengthMeters - k.lengthMeters) > 1e-6) out.push(p);
  }
  out.sort((p, q) => p.lengthMeters - q.lengthMeters);
  return out;
}

export interface FieldBulb {
  /**
   * Signed deflection of the two outer turns, radians: > 0 turns away from the next track
   * first (a bulb), < 0 toward it (three turns the same way: a U whose quarter turns would
   * overshoot, possible only with clothoids).
   */
  outerDeflectionRadians: number;
  /** Deflection of the middle turn (π + 2·outer), radians, toward the next track. */
  middleDeflectionRadians: number;
  lengthMeters: number;
  extentMeters: number;
}

/**
 * The symmetric three-turn field turn between tracks w < 2a apart with aligned ends, for any
 * turn shape: outer turns δ1, middle turn π + 2δ1 (Dubins: the bulb, δ1 = arccos((w+2R)/4R)).
 * Each turn is a CC turn, or an elementary clothoid pair when its deflection is below κ²/σ, so
 * with a curvature-rate limit this turn exists where CC-Dubins words do not. The path is
 * symmetric about the line halfway between the tracks; δ1 solves
 * chord(π + 2δ1) − 2·sign(δ1)·left(|δ1|) = w (scan, then bisection). Undefined when none fits.
 */
export function fieldBulb(shape: TurnShape, spacingMeters: number): FieldBulb | undefined {
  const w = Math.abs(spacingMeters);
  // Route stages ask for the same spacing over and over: memoise per shape.
  const memo = memoOf(bulbMemo, shape);
  const hit = memo.get(w);
  if (hit !== undefined) return hit ?? undefined;
  const result = solveFieldBulb(shape, w);
  if (memo.size >= 256) memo.clear();
  memo.set(w, result ?? null);
  return result;
}

/**
 * A root of f: the first sign change of f over xAt(1), …, xAt(steps) from (a, fa), refined by
 * regula falsi (the Illinois variant); undefined when f keeps its sign.
 */
function firstRoot(
  f: (x: number) => number,
  a: number,
  fa: number,
  xAt: (i: number) => number,
  steps: number,
): number | undefined {
  let b = NaN;
  let fb = NaN;
  for (let i = 1; i <= steps; i++) {
    const x = xAt(i);
    const fx = f(x);
    if (fa * fx <= 0) {
      b = x;
      fb = fx;
      break;
    }
    a = x;
    fa = fx;
  }
  if (Number.isNaN(b)) return undefined;
  let c = b;
  let side = 0;
  for (let i = 0; i < 100; i++) {
    c = (a * fb - b * fa) / (fb - fa);
    const fc = f(c);
    if (Math.abs(fc) < 1e-12 || Math.abs(b - a) < 1e-15) break;
    if (fc * fb > 0) {
      b = c;
      fb = fc;
      if (side === -1) fa /= 2;
      side = -1;
    } else {
      a = c;
      fa = fc;
      if (side === 1) fb /= 2;
      side = 1;
    }
  }
  return c;
}

const bulbMemo = new WeakMap<TurnShape, Map<number, FieldBulb | null>>();

function solveFieldBulb(shape: TurnShape, w: number): FieldBulb | undefined {
  const f = (d1: number): number => {
    const [fx, fy] = turnDisplacement(shape, Math.PI + 2 * d1);
    return hypot(fx, fy) - 2 * Math.sign(d1) * turnDisplacement(shape, Math.abs(d1))[1] - w;
  };
  const f0 = f(0);
  let d1 = 0;
  if (f0 !== 0) {
    // f changes sign between 0 and ±end: scan for the bracket nearest to 0, then regula falsi (Illinois).
    const end = f0 > 0 ? Math.PI * (1 - 1e-9) : -Math.PI / 2;
    const root = firstRoot(f, 0, f0, (i) => (end * i) / 16, 16);
    if (root === undefined) return undefined;
    d1 = root;
  }
  const d2 = Math.PI + 2 * d1;
  const [f1] = turnDisplacement(shape, Math.abs(d1));
  const h = Math.PI / 2 - d1;
  const [hx, hy] = halfTurnDisplacement(shape, d2);
  return {
    outerDeflectionRadians: d1,
    middleDeflectionRadians: d2,
    lengthMeters: 2 * turnLengthMeters(shape, Math.abs(d1)) + turnLengthMeters(shape, d2),
    extentMeters: f1 + hx * Math.sin(h) + hy * Math.cos(h),
  };
}

export interface FieldThreePoint {
  /** Deflection of the first and last forward turns (away from the next track), radians. */
  outerDeflectionRadians: number;
  /** Deflection of the reversed middle turn (steering toward the next track), radians. */
  middleDeflectionRadians: number;
  lengthMeters: number;
}

/**
 * x of the end of forward-away δ1, reverse δ2 = π − 2δ1, forward-away δ1, from (0,0) heading +y, next
 * track at −x.
 */
function threePointX(shape: TurnShape, d1: number): number {
  const d2 = Math.PI - 2 * d1;
  const [f1, l1] = turnDisplacement(shape, d1);
  const [f2, l2] = turnDisplacement(shape, d2);
  // Turn 1 from heading π/2, to the right: (f1, −l1) rotated by π/2 → x = l1.
  let x = l1;
  // Turn 2, reversed left turn ending at heading h1 = π/2 − δ1: −Rot(h1 − δ2)·(f2, l2).
  const a = Math.PI / 2 - d1 - d2;
  x -= f2 * Math.cos(a) - l2 * Math.sin(a);
  // Turn 3 from heading h2 = a, to the right: Rot(a)·(f1, −l1).
  x += f1 * Math.cos(a) + l1 * Math.sin(a);
  return x;
}

/**
 * The three-point turn (K-turn) between opposite-parallel tracks w apart with aligned ends:
 * forward turn away δ1, reversed turn π − 2δ1 steering toward the next track, forward turn away
 * δ1 — the Reeds-Shepp word C+C−C+, here for any turn shape, so with clothoids too (curvature
 * is 0 at both cusps). It reaches less far past the track ends than the fishtail. Exists for
 * 0 < w < chord of a π turn (2R with arcs); δ1 by scan and regula falsi.
 */
export function fieldThreePoint(shape: TurnShape, spacingMeters: number): FieldThreePoint | undefined {
  const w = Math.abs(spacingMeters);
  const memo = memoOf(threePointMemo, shape);
  const hit = memo.get(w);
  if (hit !== undefined) return hit ?? undefined;
  const f = (d1: number): number => threePointX(shape, d1) + w;
  const a = 1e-9;
  const d1 = firstRoot(f, a, f(a), (i) => (Math.PI / 2) * (i / 16) * (1 - 1e-9), 16);
  let result: FieldThreePoint | undefined;
  if (d1 !== undefined) {
    const d2 = Math.PI - 2 * d1;
    result = {
      outerDeflectionRadians: d1,
      middleDeflectionRadians: d2,
      lengthMeters: 2 * turnLengthMeters(shape, d1) + turnLengthMeters(shape, d2),
    };
  }
  if (memo.size >= 256) memo.clear();
  memo.set(w, result ?? null);
  return result;
}

const threePointMemo = new WeakMap<TurnShape, Map<number, FieldThreePoint | null>>();
