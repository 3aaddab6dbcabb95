/**
 * Kinematic check of dense route geometry (turns, connectors): is it drivable by a machine
 * with minimum turning radius R, curvature-rate limit σ, and (not) reversing?
 *
 * - curvature: Menger curvature of point triples whose legs are ≥ minLegMeters (0.4 m) must
 *   be ≤ (1/R)·(1 + tolerance) + the position-noise allowance. On points of a circle this
 *   estimate is exact.
 * - curvature-rate: differences of those curvature estimates over ≥ minLegMeters of path,
 *   divided by the distance between the triples' mean arc lengths, must be ≤ σ·(1 + rateTolerance) + 1e-3. The
 *   triples smooth a jump over about 2·minLegMeters, so a curvature jump Δκ is caught when
 *   Δκ / (2·minLegMeters) > σ (a 1/R jump from a line into an arc is caught when 1/R > 0.8σ).
 * - heading-jump: at each vertex, the heading change between the chords to the nearest points
 *   ≥ headingChordMeters (0.1 m) back and forward must be ≤ asin(a/2R) + asin(b/2R) +
 *   headingToleranceRadians (the exact value for points on a circle of radius R): catches kinks
 *   at junctions that the 0.4 m triples would smooth, without reading a polygonal arc cut a few
 *   millimetres past a vertex as a kink.
 * - reverse: a cusp (declared in `cusps`, or a reversal of more than 90° between chords ≥ 1 cm) where
 *   reversing is not allowed. With reversing allowed, the path is checked piecewise between cusps,
 *   and at each cusp the chords must be antiparallel within the same bound as heading-jump
 *   (the machine backs out along its tangent; a 120° kink is not a cusp).
 *
 * Throws PlanError('invalid-option') for a radius that is not a finite number > 0 or a
 * non-positive rate limit.
 *
 * Allocation: one pass to copy pairs into a typed array (when given [x,y][]) and two typed
 * arrays of n entries; no per-point objects.
 */

import { PlanError } from '../errors.js';

export type KinematicViolationKind = 'curvature' | 'curvature-rate' | 'heading-jump' | 'reverse';

export interface KinematicViolation {
  kind: KinematicViolationKind;
  /** Point index where the worst value of this run of violations was measured. */
  index: number;
  x: number;
  y: number;
  /** Measured value (1/m, 1/m², radians, or 1 for a cusp). */
  value: number;
  /** The limit it exceeded. */
  limit: number;
  message: string;
}

export interface KinematicCheckOptions {
  /** Minimum turning radius, meters (> 0). */
  turnRadiusMeters: number;
  /** Curvature-rate limit σ, 1/m²; omitted or Infinity: not checked. */
  maxCurvatureRatePerSquareMeter?: number;
  /** Whether cusps (reversing) are allowed. Default false. */
  reverseAllowed?: boolean;
  /** Point indices where the driving direction flips (TurnPath.cusps). Chord reversals > 90° are found too. */
  cusps?: readonly number[];
  /** Shortest leg of a curvature triple, meters (default 0.4). */
  minLegMeters?: number;
  /** Relative tolerance on curvature (default 0.005). */
  curvatureTolerance?: number;
  /** Relative tolerance on the curvature rate (default 0.05). */
  rateTolerance?: number;
  /** Shortest chord either side of a vertex for the heading-jump test, meters (default 0.1). */
  headingChordMeters?: number;
  /** Extra heading change allowed at a vertex, radians (default 0.002). */
  headingToleranceRadians?: number;
  /**
   * Position noise of the points, meters (default 1e-4: plan coordinates are rounded to 1e-9°,
   * about 0.1 mm). A triple with outer chord c may read up to 16·noise/c² too curved; that much
   * is allowed on top of the relative tolerance (about 0.0025 1/m for 0.8 m triples).
   */
  positionToleranceMeters?: number;
}

/** Copies [x,y][] into x0,y0,x1,y1,… (Float64Array passes through). */
function flat(points: Float64Array | readonly (readonly [number, number])[] | readonly number[][]): Float64Array {
  if (points instanceof Float64Array) return points;
  const out = new Float64Array(points.length * 2);
  for (let i = 0; i < points.length; i++) {
    out[2 * i] = points[i][0];
    out[2 * i + 1] = points[i][1];
  }
  return out;
}

/** Reports violations: consecutive ones of one kind once, at the worst point. */
class ViolationRuns {
  private run: KinematicViolation | undefined;
  constructor(
    private readonly p: Float64Array,
    readonly out: KinematicViolation[],
  ) {}

  flush(): void {
    if (this.run) this.out.push(this.run);
    this.run = undefined;
  }

  note(kind: KinematicViolationKind, i: number, value: number, limit: number, message: string): void {
    const p = this.p,
      run = this.run;
    if (run && run.kind === kind) {
      if (value > run.value) {
        run.index = i;
        run.x = p[2 * i];
        run.y = p[2 * i + 1];
        run.value = value;
        run.message = message;
      }
      return;
    }
    this.flush();
    this.run = { kind, index: i, x: p[2 * i], y: p[2 * i + 1], value, limit, message };
  }
}

/** The limits and tolerances of one check, defaults applied. */
interface Limits {
  R: number;
  kmax: number;
  sigma: number;
  minLeg: number;
  hTol: number;
  noise: number;
  kLimit: number;
  rLimit: number;
  reverseAllowed: boolean;
  headingChordMeters: number;
}

/**
 * Violations of the machine's limits along a dense polyline (empty = drivable). Consecutive
 * violating points of one kind are reported once, at the worst point.
 */
export function checkKinematics(
  points: Float64Array | readonly (readonly [number, number])[] | readonly number[][],
  opts: KinematicCheckOptions,
): KinematicViolation[] {
  const p = flat(points);
  const n = p.length >> 1;
  const out: KinematicViolation[] = [];
  const R = opts.turnRadiusMeters;
  if (!(R > 0) || !Number.isFinite(R))
    throw new PlanError('invalid-option', `checkKinematics: turnRadiusMeters must be a finite number > 0, got ${R}`, [
      { path: 'turnRadiusMeters', message: 'must be > 0' },
    ]);
  if (opts.maxCurvatureRatePerSquareMeter !== undefined && !(opts.maxCurvatureRatePerSquareMeter > 0))
    throw new PlanError(
      'invalid-option',
      `checkKinematics: maxCurvatureRatePerSquareMeter must be > 0, got ${opts.maxCurvatureRatePerSquareMeter}`,
      [{ path: 'maxCurvatureRatePerSquareMeter', message: 'must be > 0' }],
    );
  if (n < 2) return out;
  const kmax = 1 / R;
  const sigma = opts.maxCurvatureRatePerSquareMeter ?? Infinity;
  const lim: Limits = {
    R,
    kmax,
    sigma,
    minLeg: opts.minLegMeters ?? 0.4,
    hTol: opts.headingToleranceRadians ?? 0.002,
    noise: opts.positionToleranceMeters ?? 1e-4,
    kLimit: kmax * (1 + (opts.curvatureTolerance ?? 0.005)) + 1e-9,
    rLimit: sigma * (1 + (opts.rateTolerance ?? 0.05)) + 1e-3,
    reverseAllowed: opts.reverseAllowed === true,
    headingChordMeters: opts.headingChordMeters ?? 0.1,
  };

  // Cumulative chord length.
  const s = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    const dx = p[2 * i] - p[2 * i - 2];
    const dy = p[2 * i + 1] - p[2 * i - 1];
    s[i] = s[i - 1] + Math.sqrt(dx * dx + dy * dy);
  }
  // Cusps: declared, plus chord reversals (> 90°) between non-degenerate chords.
  const isCusp = new Uint8Array(n);
  if (opts.cusps) for (const c of opts.cusps) if (c > 0 && c < n - 1) isCusp[c] = 1;
  const runs = new ViolationRuns(p, out);
  checkCusps(p, isCusp, lim, runs);
  checkHeadingJumps(p, s, isCusp, lim, runs);
  const est = curvatureEstimates(p, s, isCusp, lim);
  checkCurvature(est, lim, runs);
  if (sigma < Infinity) checkCurvatureRate(est, lim, runs);
  return out;
}

/**
 * Vertex pass 1: cusps, from chords of at least 1 cm (a sub-centimetre zigzag from splicing or
 * rounding is noise, not a reversal). Marks the reversals found in `isCusp`.
 */
function checkCusps(p: Float64Array, isCusp: Uint8Array, lim: Limits, runs: ViolationRuns): void {
  const n = p.length >> 1;
  const { kmax, hTol, R } = lim;
  let lastChord = -1; // index of the start of the last chord ≥ 1 cm
  for (let i = 1; i < n; i++) {
    const dx = p[2 * i] - p[2 * i - 2];
    const dy = p[2 * i + 1] - p[2 * i - 1];
    const len = Math.sqrt(dx * dx + dy * dy);
    if (len < 0.01) continue;
    if (lastChord >= 0) {
      const j = lastChord;
      const ax = p[2 * j + 2] - p[2 * j];
      const ay = p[2 * j + 3] - p[2 * j + 1];
      const alen = Math.sqrt(ax * ax + ay * ay);
      const v = i - 1; // vertex (the start of this chord)
      const turn = Math.abs(Math.atan2(ax * dy - ay * dx, ax * dx + ay * dy));
      if (turn > Math.PI / 2) isCusp[v] = 1;
      if (isCusp[v]) {
        if (!lim.reverseAllowed)
          runs.note(
            'reverse',
            v,
            1,
            0,
            `reversing at point ${v} (${p[2 * v].toFixed(2)}, ${p[2 * v + 1].toFixed(2)}) but reverseAllowed is false`,
          );
        else if (turn > Math.PI / 2) {
          // A cusp reverses along the same tangent: the chords are antiparallel up to what R allows.
          // (A declared cusp without a reversal is a reversed piece of zero length: nothing to check.)
          const allowed = Math.asin(Math.min(1, alen * 0.5 * kmax)) + Math.asin(Math.min(1, len * 0.5 * kmax)) + hTol;
          const off = Math.PI - turn;
          if (off > allowed)
            runs.note(
              'heading-jump',
              v,
              off,
              allowed,
              `the direction at the cusp at point ${v} is ${((off * 180) / Math.PI).toFixed(2)}° off a straight ` +
                `reversal, more than a ${R} m radius allows`,
            );
        }
        runs.flush();
      }
    }
    lastChord = i - 1;
  }
  runs.flush();
}

/**
 * Vertex pass 2: heading jumps (kinks). At each vertex the chords back and forward are taken to
 * the nearest points at least headingChordMeters away along the path (not across a cusp), so a
 * polygonal arc cut a few millimetres past one of its vertices does not read as a kink. The
 * heading change between the two chords must not exceed asin(a/2R) + asin(b/2R) (exact for
 * points on a circle of radius R) + the tolerance.
 */
function checkHeadingJumps(
  p: Float64Array,
  s: Float64Array,
  isCusp: Uint8Array,
  lim: Limits,
  runs: ViolationRuns,
): void {
  const n = p.length >> 1;
  const { kmax, hTol, R } = lim;
  const hChord = lim.headingChordMeters;
  let j = 0;
  let k = 0;
  let lastCusp = 0;
  for (let v = 1; v < n - 1; v++) {
    if (isCusp[v]) {
      runs.flush();
      lastCusp = v;
      continue;
    }
    if (j < lastCusp) j = lastCusp;
    while (j + 1 < v && s[v] - s[j + 1] >= hChord) j++;
    if (k <= v) k = v + 1;
    while (k < n - 1 && !isCusp[k] && s[k] - s[v] < hChord) k++;
    const ax = p[2 * v] - p[2 * j],
      ay = p[2 * v + 1] - p[2 * j + 1];
    const bx = p[2 * k] - p[2 * v],
      by = p[2 * k + 1] - p[2 * v + 1];
    const alen = Math.sqrt(ax * ax + ay * ay),
      blen = Math.sqrt(bx * bx + by * by);
    if (alen < 0.01 || blen < 0.01) continue;
    const turn = Math.abs(Math.atan2(ax * by - ay * bx, ax * bx + ay * by));
    const allowed = Math.asin(Math.min(1, alen * 0.5 * kmax)) + Math.asin(Math.min(1, blen * 0.5 * kmax)) + hTol;
    if (turn > allowed)
      runs.note(
        'heading-jump',
        v,
        turn,
        allowed,
        `heading jumps by ${((turn * 180) / Math.PI).toFixed(2)}° at point ${v}, more than a ${R} m radius allows`,
      );
    else runs.flush();
  }
  runs.flush();
}

/** Curvature per point from point triples at least minLeg apart, between cusps. */
interface CurvatureEstimates {
  /** Signed curvature, NaN where no triple fits. */
  kappa: Float64Array;
  /**
   * Where along the path each estimate applies: the mean arc length of its triple (exact for the
   * second divided difference of a cubic, i.e. for linearly varying curvature).
   */
  at: Float64Array;
  /** Curvature each estimate may read too high from position noise alone (16·noise/c²). */
  slack: Float64Array;
}

function curvatureEstimates(p: Float64Array, s: Float64Array, isCusp: Uint8Array, lim: Limits): CurvatureEstimates {
  const n = p.length >> 1;
  const { minLeg, noise } = lim;
  const kappa = new Float64Array(n).fill(NaN);
  const at = new Float64Array(n);
  const slack = new Float64Array(n);
  let lo = 0;
  while (lo < n - 1) {
    let hi = lo + 1;
    while (hi < n - 1 && !isCusp[hi]) hi++;
    // Piece lo..hi (cusps at its ends only).
    let j = lo;
    let k = lo;
    for (let i = lo + 1; i < hi; i++) {
      // j: the last index ≤ i with s[i] - s[j] ≥ minLeg; k: the first index ≥ i with s[k] - s[i] ≥ minLeg.
      while (j + 1 < i && s[i] - s[j + 1] >= minLeg) j++;
      if (s[i] - s[j] < minLeg) continue;
      if (k < i) k = i;
      while (k < hi && s[k] - s[i] < minLeg) k++;
      if (s[k] - s[i] < minLeg) break;
      const ax = p[2 * j],
        ay = p[2 * j + 1];
      const bx = p[2 * i],
        by = p[2 * i + 1];
      const cx = p[2 * k],
        cy = p[2 * k + 1];
      const ab = Math.sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay));
      const bc = Math.sqrt((cx - bx) * (cx - bx) + (cy - by) * (cy - by));
      const ca = Math.sqrt((ax - cx) * (ax - cx) + (ay - cy) * (ay - cy));
      if (ab < minLeg * 0.5 || bc < minLeg * 0.5) continue; // folded back on itself: left to the vertex pass
      const cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
      kappa[i] = (2 * cross) / (ab * bc * ca);
      at[i] = (s[j] + s[i] + s[k]) / 3;
      slack[i] = (16 * noise) / (ca * ca);
    }
    lo = hi;
  }
  return { kappa, at, slack };
}

function checkCurvature(est: CurvatureEstimates, lim: Limits, runs: ViolationRuns): void {
  const { kappa, slack } = est;
  const { kmax, kLimit, R } = lim;
  for (let i = 0; i < kappa.length; i++) {
    const v = Math.abs(kappa[i]);
    if (v > kLimit + slack[i])
      runs.note(
        'curvature',
        i,
        v,
        kmax,
        `curvature ${v.toFixed(4)} 1/m at point ${i} exceeds 1/R = ${kmax.toFixed(4)} 1/m (radius ` +
          `${(1 / v).toFixed(2)} m < ${R} m)`,
      );
    else runs.flush();
  }
  runs.flush();
}

function checkCurvatureRate(est: CurvatureEstimates, lim: Limits, runs: ViolationRuns): void {
  const { kappa, at, slack } = est;
  const { minLeg, rLimit, sigma } = lim;
  const n = kappa.length;
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(kappa[i])) {
      runs.flush();
      continue;
    }
    if (m < i) m = i;
    while (m < n && (Number.isNaN(kappa[m]) ? false : at[m] - at[i] < minLeg)) m++;
    if (m >= n || Number.isNaN(kappa[m])) {
      runs.flush();
      continue;
    }
    // No cusp between i and m (kappa is NaN at cusps, and m stops at the first NaN).
    const ds = at[m] - at[i];
    const rate = Math.abs(kappa[m] - kappa[i]) / ds;
    if (rate > rLimit + (slack[i] + slack[m]) / ds)
      runs.note(
        'curvature-rate',
        i,
        rate,
        sigma,
        `curvature rate ${rate.toFixed(4)} 1/m² near point ${i} exceeds the limit ${sigma} 1/m²`,
      );
    else runs.flush();
  }
  runs.flush();
}
