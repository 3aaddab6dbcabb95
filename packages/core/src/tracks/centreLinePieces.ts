/**
 * The pieces of a centre-line pass (tracks/centreLine.ts) the machine can drive: the line clipped
 * to the field, its ends pulled off the edge and without stubs, cut where it still bends tighter
 * than R; and the active bands of a pass that comes back over its own work, set stretch by stretch.
 */
import { circleCurvature } from '../geometry/curvature.js';
import type { PathsD } from '../geometry/clipper.js';
import { differencePolygons } from '../geometry/clipper.js';
import { activeSwath } from '../geometry/activeSwath.js';
import { hypot, polylineLength } from '../geometry/vec.js';
import { limitCurvatureRate } from '../turns/rateLimit.js';
import { clipPolylines, resample } from './curvedTracks.js';
import { activeBands, edgeIndex, type EdgeIndex } from './centreLineGround.js';
import { CURVATURE_MARGIN, type CentreLineOptions } from './centreLineBasics.js';

/** Spacing of the passes' points, m. */
export const STEP_METERS = 1;
/** Passes end this far inside the field's edge, m. */
const EDGE_MARGIN_METERS = 0.05;

/** The ground a pass's sections work: its edges and, for a pass that comes back over its own work, its rings. */
export interface Ground {
  index: EdgeIndex;
  rings?: PathsD;
}

/** Points per stretch of a pass whose work is taken off the ground before the next stretch's sections are set. */
const SEQUENTIAL_STRETCH_POINTS = 24;

/**
 * The active bands of a pass that comes back over its own work (a tour round a hole, through a
 * junction again): set stretch by stretch, each against the ground the stretches before it leave.
 */
export function sequentialBands(
  xy: Float64Array,
  rings: PathsD,
  o: CentreLineOptions,
): { lo: Float64Array; hi: Float64Array } {
  const n = xy.length / 2;
  const lo = new Float64Array(n),
    hi = new Float64Array(n);
  let left = rings;
  for (let a = 0; a + 1 < n && left.length > 0; a += SEQUENTIAL_STRETCH_POINTS) {
    const b = Math.min(n - 1, a + SEQUENTIAL_STRETCH_POINTS);
    const piece = xy.subarray(2 * a, 2 * b + 2);
    const band = activeBands(piece, edgeIndex(left), o.widthMeters, o.sectionWidthsMeters);
    lo.set(band.lo, a);
    hi.set(band.hi, a);
    // the stretch's work up to its last point (that one's band is set again by the next stretch)
    const done = activeSwath(piece.subarray(0, piece.length - 2), band.lo, band.hi);
    if (done.length > 0) left = differencePolygons(left, done);
  }
  return { lo, hi };
}

/** The line clipped to the field, its ends pulled off the edge, cut where it bends tighter than R. */
export function drivablePieces(line: Float64Array, o: CentreLineOptions, kMax: number): Float64Array[] {
  const pieces: Float64Array[] = [];
  for (const clipped of clipPolylines([line], o.field)) {
    if (polylineLength(clipped) < 2 * STEP_METERS) continue;
    let whole = resample(clipped, STEP_METERS);
    // pulled off the field's edge a little at both ends
    whole = trimEnds(whole, EDGE_MARGIN_METERS);
    if (o.maxCurvatureRatePerSquareMeter !== undefined && whole.length >= 8) {
      const limited = limitCurvatureRate(whole, {
        maxCurvaturePerMeter: kMax / CURVATURE_MARGIN,
        maxCurvatureRatePerSquareMeter: o.maxCurvatureRatePerSquareMeter,
        stepMeters: STEP_METERS,
      });
      if (limited) whole = limited;
    }
    // cut where a bend is still tighter than R (two corners too close for their arcs), kept in the field
    for (const xy of clipPolylines(cutTight(whole, kMax / CURVATURE_MARGIN), o.field))
      if (xy.length >= 4) pieces.push(withoutStubs(xy));
  }
  return pieces;
}

/** A point closer than this to the end beyond it is dropped (a stub would turn the end's heading), m. */
const MIN_END_SEGMENT_METERS = 0.5;

/**
 * The polyline without the point before an end that is nearer it than MIN_END_SEGMENT_METERS: the
 * leftover of resampling or clipping, whose direction is the line's before a bend, not its chord's,
 * so that a connector leaving along it would kink at the pass's end.
 */
export function withoutStubs(xy: Float64Array): Float64Array {
  let out = xy;
  const n = () => out.length / 2;
  if (n() >= 3 && hypot(out[2] - out[0], out[3] - out[1]) < MIN_END_SEGMENT_METERS)
    out = Float64Array.of(out[0], out[1], ...out.subarray(4));
  const m = out.length;
  if (n() >= 3 && hypot(out[m - 2] - out[m - 4], out[m - 1] - out[m - 3]) < MIN_END_SEGMENT_METERS)
    out = Float64Array.of(...out.subarray(0, m - 4), out[m - 2], out[m - 1]);
  return out;
}

/**
 * The polyline cut at every point where the circle through it and its neighbours (each at least
 * 0.4 m away, as the plan check measures) is tighter than `maxCurvature`: the pieces between.
 */
function cutTight(xy: Float64Array, maxCurvature: number): Float64Array[] {
  const n = xy.length / 2;
  const out: Float64Array[] = [];
  let from = 0;
  const near = (i: number, dir: number): number => {
    let j = i + dir;
    while (j >= 0 && j < n && hypot(xy[2 * j] - xy[2 * i], xy[2 * j + 1] - xy[2 * i + 1]) < 0.4) j += dir;
    return j;
  };
  for (let i = 1; i + 1 < n; i++) {
    const a = near(i, -1),
      c = near(i, 1);
    if (a < 0 || c >= n) continue;
    const k = circleCurvature(xy[2 * a], xy[2 * a + 1], xy[2 * i], xy[2 * i + 1], xy[2 * c], xy[2 * c + 1]);
    if (k <= maxCurvature) continue;
    if (i - 1 > from) out.push(xy.slice(2 * from, 2 * i));
    from = i + 1;
  }
  if (n - 1 > from) out.push(xy.slice(2 * from));
  return out;
}

/** The polyline shortened by `meters` at both ends. */
function trimEnds(xy: Float64Array, meters: number): Float64Array {
  const n = xy.length;
  if (n < 4) return xy;
  const out = Float64Array.from(xy);
  const pull = (i: number, j: number): void => {
    const dx = xy[j] - xy[i],
      dy = xy[j + 1] - xy[i + 1],
      l = hypot(dx, dy);
    if (l > 2 * meters) {
      out[i] = xy[i] + (dx / l) * meters;
      out[i + 1] = xy[i + 1] + (dy / l) * meters;
    }
  };
  pull(0, 2);
  pull(n - 2, n - 4);
  return out;
}
