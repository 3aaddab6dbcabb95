/**
 * The swath of a pass with section control: at each point of the pass, the band between the
 * left and right limits of its active sections (m from the centre line, + = left of the direction
 * of travel). Used for the coverage metric of centre-line passes (tracks/centreLine.ts) and by
 * the tests' independent area checks.
 */
import type { PathsD } from './clipper.js';
import { unionPolygons } from './clipper.js';
import { hypot } from './vec.js';

/** Per-point unit normals (left of the direction of travel) of a flat polyline. */
export function leftNormals(xy: ArrayLike<number>): Float64Array {
  const n = xy.length / 2,
    out = new Float64Array(xy.length);
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - 1),
      b = Math.min(n - 1, i + 1);
    const dx = xy[2 * b] - xy[2 * a],
      dy = xy[2 * b + 1] - xy[2 * a + 1];
    const l = hypot(dx, dy) || 1;
    out[2 * i] = -dy / l;
    out[2 * i + 1] = dx / l;
  }
  return out;
}

/**
 * The band between `lo` (right limit) and `hi` (left limit) along the pass, point by point: one
 * quad per segment, united (a band wider than a bend's radius folds on its inner side; the union
 * makes it whole).
 */
export function activeSwath(xy: ArrayLike<number>, lo: ArrayLike<number>, hi: ArrayLike<number>): PathsD {
  const n = xy.length / 2;
  if (n < 2) return [];
  const nv = leftNormals(xy);
  const quads: PathsD = [];
  for (let i = 0; i + 1 < n; i++) {
    if (Math.abs(hi[i] - lo[i]) + Math.abs(hi[i + 1] - lo[i + 1]) < 1e-6) continue;
    quads.push([
      { x: xy[2 * i] + lo[i] * nv[2 * i], y: xy[2 * i + 1] + lo[i] * nv[2 * i + 1] },
      { x: xy[2 * i + 2] + lo[i + 1] * nv[2 * i + 2], y: xy[2 * i + 3] + lo[i + 1] * nv[2 * i + 3] },
      { x: xy[2 * i + 2] + hi[i + 1] * nv[2 * i + 2], y: xy[2 * i + 3] + hi[i + 1] * nv[2 * i + 3] },
      { x: xy[2 * i] + hi[i] * nv[2 * i], y: xy[2 * i + 1] + hi[i] * nv[2 * i + 1] },
    ]);
  }
  return quads.length > 0 ? unionPolygons(quads, 4) : [];
}

/**
 * A pass's active limits carried onto the route piece that drives it (`segXy`: the track's
 * polyline, maybe shortened at its ends, maybe driven the other way): each piece point takes the
 * limits of the nearest track point; driven the other way, left and right swap.
 */
export function bandsAlong(
  segXy: ArrayLike<number>,
  trackXy: ArrayLike<number>,
  lo: ArrayLike<number>,
  hi: ArrayLike<number>,
): { lo: Float64Array; hi: Float64Array } {
  const n = segXy.length / 2,
    m = trackXy.length / 2;
  const d = (i: number, j: number): number =>
    hypot(segXy[2 * i] - trackXy[2 * j], segXy[2 * i + 1] - trackXy[2 * j + 1]);
  const back = m > 1 && n > 1 && d(0, m - 1) + d(n - 1, 0) < d(0, 0) + d(n - 1, m - 1);
  const at = (k: number): number => (back ? m - 1 - k : k);
  const outLo = new Float64Array(n),
    outHi = new Float64Array(n);
  // nearest track point, searched from the start once, then walked forward
  let j = 0,
    best = Infinity;
  for (let k = 0; k < m; k++) {
    const dk = d(0, at(k));
    if (dk < best) {
      best = dk;
      j = k;
    }
  }
  for (let i = 0; i < n; i++) {
    while (j + 1 < m && d(i, at(j + 1)) <= d(i, at(j))) j++;
    const t = at(j);
    outLo[i] = back ? -hi[t] : lo[t];
    outHi[i] = back ? -lo[t] : hi[t];
  }
  return { lo: outLo, hi: outHi };
}

/**
 * The swath of a pass with sections given per coordinate (a plan segment's `activeWidthsMeters` and
 * `activeOffsetsMeters`): the band of its active sections point by point; undefined where the two are not
 * arrays of one number per point of `xy`.
 */
export function sectionBandSwath(xy: ArrayLike<number>, widths: unknown, offsets: unknown): PathsD | undefined {
  const n = xy.length / 2;
  if (!Array.isArray(widths) || !Array.isArray(offsets) || widths.length !== n || offsets.length !== n)
    return undefined;
  const lo = new Float64Array(n),
    hi = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const w = Number(widths[i]),
      o = Number(offsets[i]);
    lo[i] = o - w / 2;
    hi[i] = o + w / 2;
  }
  return activeSwath(xy, lo, hi);
}
