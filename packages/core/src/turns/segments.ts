/**
 * A manoeuvre as a list of pieces of linearly varying curvature (lines, arcs, clothoids),
 * and the sampler that turns it into a dense polyline.
 *
 * Bicycle model: the pose heading is the machine's heading (not the direction of travel).
 * Over a piece of length s driven in direction d (+1 forward, -1 reverse) with steering
 * curvature κ(s) (+ = steering left), the heading changes by d·∫κ ds and the position by
 * d·∫(cos h, sin h) ds.
 */
import type { Pose, TurnSegment } from './types.js';

/** Gauss-Legendre 5-point nodes on [0, 1] and weights (sum 1). */
const GL_X = [0.04691007703066802, 0.23076534494715845, 0.5, 0.7692346550528415, 0.9530899229693319];
const GL_W = [0.11846344252809454, 0.23931433524968324, 0.28444444444444444, 0.23931433524968324, 0.11846344252809454];
/** The last `clothoidStep`'s integrals of (cos h, sin h) over the step, per meter. */
const GL_SUM = new Float64Array(2);

/**
 * Five-point Gauss-Legendre quadrature of (cos h, sin h) over one step [sa, sa + ds] of a
 * clothoid h(s) = h0 + d·(k0·s + a·s²/2), into GL_SUM.
 */
function clothoidStep(h0: number, d: number, k0: number, a: number, sa: number, ds: number): void {
  let ix = 0;
  let iy = 0;
  for (let g = 0; g < 5; g++) {
    const s = sa + GL_X[g] * ds;
    const hs = h0 + d * (k0 * s + 0.5 * a * s * s);
    ix += GL_W[g] * Math.cos(hs);
    iy += GL_W[g] * Math.sin(hs);
  }
  GL_SUM[0] = ix;
  GL_SUM[1] = iy;
}

/** Number of polyline steps for a piece: steps no longer than stepMeters. */
function stepCount(lengthMeters: number, stepMeters: number): number {
  return Math.max(1, Math.ceil(lengthMeters / stepMeters - 1e-9));
}

/** Points a sampling will produce (x,y pairs), so callers can size buffers. */
export function sampledPointCount(segments: readonly TurnSegment[], stepMeters: number): number {
  let n = 1;
  for (const s of segments) n += stepCount(s.lengthMeters, stepMeters);
  return Math.max(2, n);
}

/** `sampleSegments` asks `stop` after every 32 points (the runs geometry/edgeBands.ts gathers edges for). */
const STOP_RUN_MASK = 31;

function stopped(points: Float64Array, cusps: number[]): SampledPath {
  return { points, cusps, endPose: { x: NaN, y: NaN, headingRadians: NaN } };
}

export interface SampledPath {
  /** x0,y0,x1,y1,… */
  points: Float64Array;
  /** Point indices where the direction of travel flips. */
  cusps: number[];
  /** Pose reached by integrating the segments (before the last point is snapped onto a target). */
  endPose: Pose;
}

/**
 * Samples the segments from `from` with at most `stepMeters` between consecutive points.
 * Arcs and lines are evaluated in closed form from the piece start; clothoids are integrated
 * step by step with 5-point Gauss-Legendre (error far below a micrometer for steps ≤ 1 m).
 * When `to` is given the last point is set exactly to it (the caller checks endPose first).
 * `into`: a buffer to sample into where it is long enough (the points are then a view of its
 * start, every value written; the caller copies what it keeps). `stop`: called after every
 * STOP_RUN_MASK + 1 points with the number of points written so far; true stops the sampling there
 * (the points past them are then not written, `to` is not snapped, `endPose` is NaN).
 */
export function sampleSegments(
  from: Pose,
  segments: readonly TurnSegment[],
  stepMeters: number,
  to?: Pose,
  into?: Float64Array,
  stop?: (pointsWritten: number) => boolean,
): SampledPath {
  // At least two points, also for an empty manoeuvre (from = to).
  const total = sampledPointCount(segments, stepMeters);
  const points = into && into.length >= total * 2 ? into.subarray(0, total * 2) : new Float64Array(total * 2);
  const cusps: number[] = [];
  let x = from.x;
  let y = from.y;
  let h = from.headingRadians;
  points[0] = x;
  points[1] = y;
  let k = 1;
  let prevReverse: boolean | undefined;
  for (const seg of segments) {
    const len = seg.lengthMeters;
    const d = seg.reverse ? -1 : 1;
    if (prevReverse !== undefined && prevReverse !== seg.reverse) cusps.push(k - 1);
    prevReverse = seg.reverse;
    const k0 = seg.startCurvaturePerMeter;
    const k1 = seg.endCurvaturePerMeter;
    const n = stepCount(len, stepMeters);
    const ds = len / n;
    const x0 = x;
    const y0 = y;
    const h0 = h;
    if (k0 === k1) {
      const kappa = k0;
      if (Math.abs(kappa) < 1e-12) {
        const c = Math.cos(h0) * d;
        const s = Math.sin(h0) * d;
        for (let i = 1; i <= n; i++) {
          const t = i * ds;
          points[2 * k] = x0 + c * t;
          points[2 * k + 1] = y0 + s * t;
          k++;
          if ((k & STOP_RUN_MASK) === 0 && stop !== undefined && stop(k)) return stopped(points, cusps);
        }
        x = x0 + c * len;
        y = y0 + s * len;
      } else {
        const s0 = Math.sin(h0);
        const c0 = Math.cos(h0);
        const inv = 1 / kappa;
        for (let i = 1; i <= n; i++) {
          const hi = h0 + d * kappa * i * ds;
          points[2 * k] = x0 + (Math.sin(hi) - s0) * inv;
          points[2 * k + 1] = y0 - (Math.cos(hi) - c0) * inv;
          k++;
          if ((k & STOP_RUN_MASK) === 0 && stop !== undefined && stop(k)) return stopped(points, cusps);
        }
        h = h0 + d * kappa * len;
        x = x0 + (Math.sin(h) - s0) * inv;
        y = y0 - (Math.cos(h) - c0) * inv;
      }
      if (Math.abs(kappa) < 1e-12) h = h0;
    } else {
      // Clothoid: h(s) = h0 + d·(k0·s + a·s²/2), a = (k1 - k0)/len.
      const a = (k1 - k0) / len;
      let px = x0;
      let py = y0;
      for (let i = 0; i < n; i++) {
        clothoidStep(h0, d, k0, a, i * ds, ds);
        px += d * GL_SUM[0] * ds;
        py += d * GL_SUM[1] * ds;
        points[2 * k] = px;
        points[2 * k + 1] = py;
        k++;
        if ((k & STOP_RUN_MASK) === 0 && stop !== undefined && stop(k)) return stopped(points, cusps);
      }
      x = px;
      y = py;
      h = h0 + d * (k0 * len + 0.5 * a * len * len);
    }
  }
  const endPose: Pose = { x, y, headingRadians: h };
  if (k < total) {
    points[2 * k] = x;
    points[2 * k + 1] = y;
  }
  if (to) {
    points[2 * (total - 1)] = to.x;
    points[2 * (total - 1) + 1] = to.y;
  }
  return { points, cusps, endPose };
}

/** Sum of piece lengths, meters. */
export function segmentsLength(segments: readonly TurnSegment[]): number {
  let sum = 0;
  for (const s of segments) sum += s.lengthMeters;
  return sum;
}

/**
 * Pose reached by driving the segments from `from`, without sampling: arcs and lines in closed
 * form, clothoids by Gauss-Legendre on panels of ≤ 0.5 m. Same accuracy as `sampleSegments`.
 */
export function segmentsEndPose(from: Pose, segments: readonly TurnSegment[]): Pose {
  let x = from.x;
  let y = from.y;
  let h = from.headingRadians;
  for (const seg of segments) {
    const len = seg.lengthMeters;
    const d = seg.reverse ? -1 : 1;
    const k0 = seg.startCurvaturePerMeter;
    const k1 = seg.endCurvaturePerMeter;
    if (k0 === k1) {
      if (Math.abs(k0) < 1e-12) {
        x += d * Math.cos(h) * len;
        y += d * Math.sin(h) * len;
      } else {
        const h1 = h + d * k0 * len;
        x += (Math.sin(h1) - Math.sin(h)) / k0;
        y -= (Math.cos(h1) - Math.cos(h)) / k0;
        h = h1;
      }
    } else {
      const a = (k1 - k0) / len;
      const n = Math.max(1, Math.ceil(len / 0.5 - 1e-9));
      const ds = len / n;
      for (let i = 0; i < n; i++) {
        clothoidStep(h, d, k0, a, i * ds, ds);
        x += d * GL_SUM[0] * ds;
        y += d * GL_SUM[1] * ds;
      }
      h += d * (k0 * len + 0.5 * a * len * len);
    }
  }
  return { x, y, headingRadians: h };
}

/** Point indices where the direction of travel flips, as `sampleSegments` would number them. */
export function segmentCusps(segments: readonly TurnSegment[], stepMeters: number): number[] {
  const cusps: number[] = [];
  let k = 0;
  for (let i = 0; i < segments.length; i++) {
    if (i > 0 && segments[i].reverse !== segments[i - 1].reverse) cusps.push(k);
    k += stepCount(segments[i].lengthMeters, stepMeters);
  }
  return cusps;
}
