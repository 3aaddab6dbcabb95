/** Curvature measured from dense geometry, the way the independent checker measures it. */
import { hypot } from './vec.js';

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
      const ax = xy[2 * a],
        ay = xy[2 * a + 1],
        bx = xy[2 * b],
        by = xy[2 * b + 1],
        cx = xy[2 * c],
        cy = xy[2 * c + 1];
      const ab = hypot(bx - ax, by - ay),
        bc = hypot(cx - bx, cy - by),
        ca = hypot(ax - cx, ay - cy);
      const prod = ab * bc * ca;
      if (prod > 0) {
        const area2 = Math.abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
        const r = ((2 * area2) / prod) * radiusMeters;
        if (r > worst) {
          worst = r;
          at = b;
        }
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
    const ax = xy[2 * i - 2],
      ay = xy[2 * i - 1],
      bx = xy[2 * i],
      by = xy[2 * i + 1],
      cx = xy[2 * i + 2],
      cy = xy[2 * i + 3];
    const prod = hypot(bx - ax, by - ay) * hypot(cx - bx, cy - by) * hypot(cx - ax, cy - ay);
    k[i] = prod > 0 ? (2 * Math.abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))) / prod : degenerate;
  }
  return k;
}
