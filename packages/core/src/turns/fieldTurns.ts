/**
 * Closed forms of the classic field turns between two parallel tracks `spacingMeters` apart
 * whose ends lie on one line (PLANNER-NOTES, "Turns"), and their extents: how far past the
 * track ends the centre line reaches. The route stage uses `predictFieldTurns` to decide
 * whether a turn fits a headland band without sampling anything.
 */
import { turnDisplacement, turnLengthMeters, turnShape } from './shape.js';
import type { TurnType } from '../types.js';

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
}

export interface FieldTurnOptions {
  turnRadiusMeters: number;
  /** σ, 1/m²; with a limit the turns use clothoid transitions (longer, wider). */
  maxCurvatureRatePerSquareMeter?: number;
  reverseAllowed?: boolean;
  /** 'Arcs' / 'None' ignore the curvature-rate limit (plain arcs). */
  smoothing?: 'None' | 'Arcs' | 'Clothoids';
}

/**
 * The forward field turns (U / PerfectU or Bulb) and, when reversing is allowed, the fishtail
 * between parallel tracks `spacingMeters` apart with aligned ends, sorted by length. Lengths
 * and extents are closed forms of the turn shape (exact; no sampling). With a curvature-rate
 * limit, a quarter CC turn advances a ≥ R, so a U needs w ≥ 2a instead of w ≥ 2R.
 */
export function predictFieldTurns(spacingMeters: number, opts: FieldTurnOptions): FieldTurnPrediction[] {
  const R = opts.turnRadiusMeters;
  const w = Math.abs(spacingMeters);
  const sigma =
    opts.smoothing === 'Arcs' || opts.smoothing === 'None' ? Infinity : (opts.maxCurvatureRatePerSquareMeter ?? Infinity);
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
    });
  }
  // Bulb: R L R (next track on the left), centres as in words.ts.
  const cx = shape.centerForwardMeters;
  const cy = shape.centerLeftMeters;
  const r = shape.outerRadiusMeters;
  const half = w / 2 + cy;
  if (half <= 2 * r && w < 2 * a - tol) {
    const c2y = cx + Math.sqrt(4 * r * r - half * half);
    // Middle-circle junction headings give the three deflections; the shape is symmetric.
    const p12 = Math.atan2(c2y - cx, -half);
    const hm1 = p12 - Math.PI / 2 + shape.muRadians;
    let d1 = Math.PI / 2 - hm1;
    d1 = ((d1 % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
    const d2 = Math.PI + 2 * d1;
    const len = 2 * turnLengthMeters(shape, d1) + turnLengthMeters(shape, d2);
    if (Number.isFinite(len)) out.push({ turnType: 'Bulb', lengthMeters: len, extentMeters: c2y + R, reverse: false });
  }
  if (opts.reverseAllowed && Number.isFinite(quarter) && w < 2 * a - tol) {
    out.push({ turnType: 'Fishtail', lengthMeters: 2 * quarter + (2 * a - w), extentMeters: a, reverse: true });
  }
  out.sort((p, q) => p.lengthMeters - q.lengthMeters);
  return out;
}
