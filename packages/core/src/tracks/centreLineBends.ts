/**
 * Bends of the field no pass of turning radius R gets round (tracks/centreLine.ts): where a
 * centre-line pass is cut in two, the strip's turn there and its width on both sides. The widest
 * circular arc that turns by θ through a corner of a strip w wide stays tangent to both outer
 * edges and passes the inner corner: r (1 − cos(θ/2)) = w. Where that r is under R, no curve of
 * curvature 1/R or less turns through the corner inside the strip, forwards or backwards.
 */
import { hypot, polylineLength } from '../geometry/vec.js';
import { leftNormals } from '../geometry/activeSwath.js';
import { crossings, type EdgeIndex } from './centreLineGround.js';

/** A piece's width is measured over this many R of it next to the cut. */
const WIDTH_SPAN_R = 2;

/**
 * The cuts between consecutive `pieces` of one line (in order along it) that no pass of radius R
 * turns through inside the field (`field`: its edges): the end of the piece before each, flat xy.
 */
export function tightBends(pieces: readonly Float64Array[], field: EdgeIndex, radiusMeters: number): number[] {
  const out: number[] = [];
  for (let k = 1; k < pieces.length; k++) {
    const a = pieces[k - 1],
      b = pieces[k];
    if (a.length < 4 || b.length < 4) continue;
    const [ax, ay] = legDirection(a, false, radiusMeters),
      [bx, by] = legDirection(b, true, radiusMeters);
    const turn = Math.acos(Math.max(-1, Math.min(1, ax * bx + ay * by)));
    const w = Math.max(widthNear(a, false, field, radiusMeters), widthNear(b, true, field, radiusMeters));
    const widest = w / (1 - Math.cos(turn / 2));
    if (widest < radiusMeters) out.push(a[a.length - 2], a[a.length - 1]);
  }
  return out;
}

/**
 * Unit direction of travel of a polyline next to its start (`atStart`) or end: the chord between
 * the points R and 2R from it (less where it is shorter), away from the bend the cut lies in.
 */
function legDirection(xy: Float64Array, atStart: boolean, R: number): [number, number] {
  const n = xy.length / 2;
  const at = (s: number): number => (atStart ? s : n - 1 - s);
  let along = 0,
    near = 0,
    far = n - 1;
  for (let s = 1; s < n; s++) {
    const i = at(s),
      j = at(s - 1);
    along += hypot(xy[2 * i] - xy[2 * j], xy[2 * i + 1] - xy[2 * j + 1]);
    if (along <= R) near = s;
    if (along >= 2 * R) {
      far = s;
      break;
    }
  }
  if (near >= far) near = 0;
  const a = at(near),
    b = at(far);
  const dx = xy[2 * a] - xy[2 * b],
    dy = xy[2 * a + 1] - xy[2 * b + 1];
  const l = hypot(dx, dy) || 1;
  // travel runs from the start to the end: towards the cut at an end, away from it at a start
  return atStart ? [-dx / l, -dy / l] : [dx / l, dy / l];
}

/**
 * The field's width across the piece (along its normals) over WIDTH_SPAN_R · R of it next to the
 * cut: the largest measured (the widest the strip is there), m.
 */
function widthNear(xy: Float64Array, atStart: boolean, field: EdgeIndex, R: number): number {
  const n = xy.length / 2;
  const nv = leftNormals(xy);
  const span = Math.min(WIDTH_SPAN_R * R, polylineLength(xy));
  const h = 4 * R;
  let widest = 0,
    along = 0;
  for (let s = 0; s < n; s++) {
    const i = atStart ? s : n - 1 - s;
    if (s > 0) {
      const j = atStart ? i - 1 : i + 1;
      along += hypot(xy[2 * i] - xy[2 * j], xy[2 * i + 1] - xy[2 * j + 1]);
    }
    if (along > span) break;
    const ts = crossings(field, xy[2 * i], xy[2 * i + 1], nv[2 * i], nv[2 * i + 1], h);
    let lo = -h,
      hi = h;
    for (const t of ts) {
      if (t < 0 && t > lo) lo = t;
      if (t >= 0 && t < hi) hi = t;
    }
    widest = Math.max(widest, hi - lo);
  }
  return widest;
}
