/** Curvature measured from dense geometry, the way the independent checker measures it. */
import { hypot } from './vec.js';

/**
 * Curvature (1/m) of the circle through three points: 4 × the triangle's area over the product of its sides; -1
 * where two of them coincide (no circle).
 */
export function circleCurvature(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const prod = hypot(bx - ax, by - ay) * hypot(cx - bx, cy - by) * hypot(cx - ax, cy - ay);
  return prod > 0 ? (2 * Math.abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))) / prod : -1;
}

/** Minimum spacing of the point triples, meters (as the independent GEOS checker of plans measures). */
export const CURVATURE_SPACING_METERS = 0.4;

/**
 * Worst curvature × radius over point triples at least 0.4 m apart (1 = exactly the minimum
 * radius), and the index of the middle point where it occurs.
 */
export function worstCurvatureRatio(xy: ArrayLike<number>, radiusMeters: number): { ratio: number; at: number } {
  const n = xy.length / 2;
  let a = -1,
    b = -1;
  let last = 0;
  let worst = 0,
    at = 0;
  const s2 = CURVATURE_SPACING_METERS * CURVATURE_SPACING_METERS;
  const consider = (c: number): void => {
    if (a >= 0) {
      const k = circleCurvature(xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1], xy[2 * c], xy[2 * c + 1]);
      const r = k * radiusMeters;
      if (k >= 0 && r > worst) {
        worst = r;
        at = b;
      }
    }
    a = b;
    b = c;
  };
  if (n === 0) return { ratio: 0, at: 0 };
  consider(0);
  for (let i = 1; i < n; i++) {
    const dx = xy[2 * i] - xy[2 * last],
      dy = xy[2 * i + 1] - xy[2 * last + 1];
    if (dx * dx + dy * dy >= s2) {
      consider(i);
      last = i;
    }
  }
  return { ratio: worst, at };
}

/**
 * Curvature (1/m) at each point of a polyline: the circle through the point and its two neighbours; 0 at the
 * ends, and `degenerate` where two of the three points coincide.
 */
export function pointCurvatures(xy: Float64Array, degenerate = 0): Float64Array {
  const n = xy.length / 2;
  const k = new Float64Array(n);
  for (let i = 1; i + 1 < n; i++) {
    const c = circleCurvature(xy[2 * i - 2], xy[2 * i - 1], xy[2 * i], xy[2 * i + 1], xy[2 * i + 2], xy[2 * i + 3]);
    k[i] = c >= 0 ? c : degenerate;
  }
  return k;
}
