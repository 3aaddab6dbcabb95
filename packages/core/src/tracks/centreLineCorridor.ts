/**
 * A centre-line pass fitted into the field (tracks/centreLine.ts): the smoothed centre line moved
 * across, point by point along its normals, within the room the field leaves on either side, so
 * that a bend too tight for R on the centre line is driven wide (outside edge — inside corner —
 * outside edge, as a driver takes a corner in a narrow strip) instead of cutting the pass in two.
 *
 * The offsets d minimise Σ |p[i-1] − 2 p[i] + p[i+1]|² + ε Σ d[i]² (p[i] = b[i] + d[i] n[i],
 * points 1 m apart: the second difference is the curvature) subject to lo ≤ d ≤ hi, the room in the field less a
 * margin: a banded (pentadiagonal) quadratic programme solved by primal-dual active sets. Where the
 * curvature is still over the limit it is solved again with a weaker pull ε towards the line (the
 * path then uses more of the room to spread its bends); the least greatest curvature is kept, and
 * the caller cuts the pass where it is still over R.
 */
import { pointCurvatures } from '../geometry/curvature.js';
import { hypot } from '../geometry/vec.js';
import { leftNormals } from '../geometry/activeSwath.js';
import { containsPoint, crossings, type EdgeIndex } from './centreLineGround.js';

export interface CorridorOptions {
  /** Greatest curvature wanted, 1/m. */
  maxCurvature: number;
  /** The pass keeps this far inside the field's edges, m. */
  marginMeters: number;
  /** The pass moves at most this far off the line (its normals must not cross within it), m. */
  maxOffsetMeters: number;
  /**
   * A corner of the field poking in between two points is held off by this much more than the
   * margin, m (each point keeps its distance along its own normal; on a bend the chord between them
   * passes nearer the corner than either). Default 0.
   */
  vertexExtraMeters?: number;
}

/** Pulls of each point towards the line it is moved from, against the curvature terms, tried in turn. */
const CENTRE_WEIGHTS = [1e-4, 1e-5, 1e-6];
/** Active-set iterations per solve. */
const ACTIVE_SET_ITERATIONS = 40;

/** The room along the normal at each point: [lo, hi] offsets that stay in the field, less the margin. */
export function corridorBounds(
  xy: Float64Array,
  field: EdgeIndex,
  o: Pick<CorridorOptions, 'marginMeters' | 'maxOffsetMeters' | 'vertexExtraMeters'>,
): { lo: Float64Array; hi: Float64Array; normals: Float64Array } {
  const n = xy.length / 2,
    h = o.maxOffsetMeters + o.marginMeters;
  const normals = leftNormals(xy);
  const lo = new Float64Array(n),
    hi = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const px = xy[2 * i],
      py = xy[2 * i + 1],
      nx = normals[2 * i],
      ny = normals[2 * i + 1];
    const ts = crossings(field, px, py, nx, ny, h);
    let inside = containsPoint(field, px - h * nx, py - h * ny),
      from = -h;
    // the inside interval holding the point, else the nearest one
    let best: [number, number] | undefined,
      bestGap = Infinity;
    const take = (a: number, b: number): void => {
      const gap = a > 0 ? a : b < 0 ? -b : 0;
      if (gap < bestGap) {
        bestGap = gap;
        best = [a, b];
      }
    };
    for (const t of ts) {
      if (inside) take(from, t);
      inside = !inside;
      from = t;
    }
    if (inside) take(from, h);
    if (!best) {
      // nothing of the field near (a line run on past the part's end): held on the line
      lo[i] = hi[i] = 0;
      continue;
    }
    const [a, b] = best;
    const l = Math.max(-o.maxOffsetMeters, a === -h ? -o.maxOffsetMeters : a + o.marginMeters),
      u = Math.min(o.maxOffsetMeters, b === h ? o.maxOffsetMeters : b - o.marginMeters);
    if (l <= u) {
      lo[i] = l;
      hi[i] = u;
    } else lo[i] = hi[i] = Math.max(-o.maxOffsetMeters, Math.min(o.maxOffsetMeters, (a + b) / 2));
  }
  holdOffVertices(xy, normals, field, lo, hi, o.marginMeters + (o.vertexExtraMeters ?? 0));
  return { lo, hi, normals };
}

/**
 * The room narrowed where a corner of the field pokes in between two points' normals (the inside
 * corner of a bend): both points keep the margin off it, so the segment between them does too.
 */
function holdOffVertices(
  xy: Float64Array,
  normals: Float64Array,
  field: EdgeIndex,
  lo: Float64Array,
  hi: Float64Array,
  margin: number,
): void {
  const n = lo.length,
    e = field.e;
  for (let i = 0; i + 1 < n; i++) {
    const px = xy[2 * i],
      py = xy[2 * i + 1],
      qx = xy[2 * i + 2],
      qy = xy[2 * i + 3];
    const l = hypot(qx - px, qy - py);
    if (!(l > 0)) continue;
    const tx = (qx - px) / l,
      ty = (qy - py) / l;
    const reach = Math.max(hi[i], hi[i + 1], -lo[i], -lo[i + 1]) + margin;
    const box = field.index.search(
      Math.min(px, qx) - reach,
      Math.min(py, qy) - reach,
      Math.max(px, qx) + reach,
      Math.max(py, qy) + reach,
    );
    for (const k of box) {
      const vx = e[4 * k] - px,
        vy = e[4 * k + 1] - py;
      const s = vx * tx + vy * ty;
      // (on a bend, a corner on the outer side projects between two segments: each takes it then)
      if (s < -l / 2 || s > 1.5 * l) continue;
      // across, as seen from the normals of the points round it (moved across on a bend, the points'
      // spacing changes: the corner may then fall between others of them)
      for (let j = Math.max(0, i - 1); j <= Math.min(n - 1, i + 2); j++) {
        const t = (e[4 * k] - xy[2 * j]) * normals[2 * j] + (e[4 * k + 1] - xy[2 * j + 1]) * normals[2 * j + 1];
        if (t < lo[j] - margin || t > hi[j] + margin) continue;
        const mid = lo[j] <= 0 && 0 <= hi[j] ? 0 : (lo[j] + hi[j]) / 2;
        if (t >= mid) hi[j] = Math.max(lo[j], Math.min(hi[j], t - margin));
        else lo[j] = Math.min(hi[j], Math.max(lo[j], t + margin));
      }
    }
  }
}

/**
 * `xy` (points about 1 m apart, bent no tighter than about `maxOffsetMeters`) moved across within
 * the field's room so that its curvature keeps under `maxCurvature` where the room allows.
 */
export function fitInCorridor(xy: Float64Array, field: EdgeIndex, o: CorridorOptions): Float64Array {
  const n = xy.length / 2;
  if (n < 5) return xy;
  const { lo, hi, normals } = corridorBounds(xy, field, o);
  const weights = new Float64Array(n).fill(1);
  let best = xy,
    bestCurvature = Infinity;
  // the pull towards the line weakened step by step: the path then uses more of the room to bend less
  for (const centreWeight of CENTRE_WEIGHTS) {
    const d = solveOffsets(xy, normals, weights, lo, hi, centreWeight);
    const out = moved(xy, normals, d);
    let k = 0;
    for (const v of pointCurvatures(out)) k = Math.max(k, v);
    if (k < bestCurvature) {
      best = out;
      bestCurvature = k;
    }
    if (k <= o.maxCurvature) break;
  }
  return best;
}

function moved(xy: Float64Array, normals: Float64Array, d: Float64Array): Float64Array {
  const out = new Float64Array(xy.length);
  for (let i = 0; i < d.length; i++) {
    out[2 * i] = xy[2 * i] + d[i] * normals[2 * i];
    out[2 * i + 1] = xy[2 * i + 1] + d[i] * normals[2 * i + 1];
  }
  return out;
}

/** The quadratic programme's banded Hessian (diagonal, first and second off-diagonals) and gradient at d = 0. */
function assemble(
  xy: Float64Array,
  nv: Float64Array,
  w: Float64Array,
  centreWeight: number,
): { a0: Float64Array; a1: Float64Array; a2: Float64Array; g: Float64Array } {
  const n = xy.length / 2;
  const a0 = new Float64Array(n).fill(centreWeight),
    a1 = new Float64Array(n),
    a2 = new Float64Array(n),
    g = new Float64Array(n);
  const c = [1, -2, 1];
  for (let i = 1; i + 1 < n; i++) {
    const sx = xy[2 * i - 2] - 2 * xy[2 * i] + xy[2 * i + 2],
      sy = xy[2 * i - 1] - 2 * xy[2 * i + 1] + xy[2 * i + 3];
    for (let a = 0; a < 3; a++) {
      const ja = i - 1 + a,
        ux = c[a] * nv[2 * ja],
        uy = c[a] * nv[2 * ja + 1];
      g[ja] += w[i] * (ux * sx + uy * sy);
      for (let b = a; b < 3; b++) {
        const jb = i - 1 + b,
          v = w[i] * (ux * c[b] * nv[2 * jb] + uy * c[b] * nv[2 * jb + 1]);
        if (b === a) a0[ja] += v;
        else if (b === a + 1) a1[ja] += v;
        else a2[ja] += v;
      }
    }
  }
  return { a0, a1, a2, g };
}

/** Offsets minimising the programme within [lo, hi] (primal-dual active sets from `start`). */
function solveOffsets(
  xy: Float64Array,
  nv: Float64Array,
  w: Float64Array,
  lo: Float64Array,
  hi: Float64Array,
  centreWeight: number,
): Float64Array {
  const n = lo.length;
  const H = assemble(xy, nv, w, centreWeight);
  // −1: held at lo, +1: held at hi, 0: free; from where the line lies
  const state = new Int8Array(n);
  for (let i = 0; i < n; i++) state[i] = 0 <= lo[i] ? -1 : 0 >= hi[i] ? 1 : 0;
  let d: Float64Array = new Float64Array(n);
  for (let it = 0; it < ACTIVE_SET_ITERATIONS; it++) {
    d = solveWithHeld(H, state, lo, hi);
    // gradient of the programme at d: H d + g
    let changed = false;
    for (let i = 0; i < n; i++) {
      let r = H.g[i] + H.a0[i] * d[i];
      if (i + 1 < n) r += H.a1[i] * d[i + 1];
      if (i + 2 < n) r += H.a2[i] * d[i + 2];
      if (i >= 1) r += H.a1[i - 1] * d[i - 1];
      if (i >= 2) r += H.a2[i - 2] * d[i - 2];
      let s = state[i];
      if (s === 0) s = d[i] < lo[i] - 1e-9 ? -1 : d[i] > hi[i] + 1e-9 ? 1 : 0;
      else if ((s === -1 && r < 0) || (s === 1 && r > 0)) s = 0; // the bound pushes the wrong way: let go
      if (s !== state[i]) {
        state[i] = s;
        changed = true;
      }
    }
    if (!changed) break;
  }
  for (let i = 0; i < n; i++) d[i] = Math.max(lo[i], Math.min(hi[i], d[i]));
  return d;
}

/** H d = −g with the held offsets fixed at their bounds (banded LDLᵀ, bandwidth 2). */
function solveWithHeld(
  H: { a0: Float64Array; a1: Float64Array; a2: Float64Array; g: Float64Array },
  state: Int8Array,
  lo: Float64Array,
  hi: Float64Array,
): Float64Array {
  const n = state.length;
  const a0 = Float64Array.from(H.a0),
    a1 = Float64Array.from(H.a1),
    a2 = Float64Array.from(H.a2),
    b = new Float64Array(n);
  for (let i = 0; i < n; i++) b[i] = -H.g[i];
  for (let j = 0; j < n; j++) {
    if (state[j] === 0) continue;
    const v = state[j] < 0 ? lo[j] : hi[j];
    // move column j to the right-hand side, row j to the identity
    if (j >= 1) {
      b[j - 1] -= a1[j - 1] * v;
      a1[j - 1] = 0;
    }
    if (j >= 2) {
      b[j - 2] -= a2[j - 2] * v;
      a2[j - 2] = 0;
    }
    if (j + 1 < n) {
      b[j + 1] -= a1[j] * v;
      a1[j] = 0;
    }
    if (j + 2 < n) {
      b[j + 2] -= a2[j] * v;
      a2[j] = 0;
    }
    a0[j] = 1;
    b[j] = v;
  }
  // LDLᵀ of the symmetric pentadiagonal matrix: L has unit diagonal and two sub-diagonals l1, l2
  const D = new Float64Array(n),
    l1 = new Float64Array(n),
    l2 = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // L[i][i-2] = a2[i-2] / D[i-2]; L[i][i-1] = (a1[i-1] − L[i][i-2]·D[i-2]·L[i-1][i-2]) / D[i-1]
    const li2 = i >= 2 ? a2[i - 2] / D[i - 2] : 0;
    const li1 = i >= 1 ? (a1[i - 1] - (i >= 2 ? li2 * D[i - 2] * l1[i - 1] : 0)) / D[i - 1] : 0;
    l2[i] = li2;
    l1[i] = li1;
    D[i] = a0[i] - (i >= 1 ? li1 * li1 * D[i - 1] : 0) - (i >= 2 ? li2 * li2 * D[i - 2] : 0);
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) y[i] = b[i] - (i >= 1 ? l1[i] * y[i - 1] : 0) - (i >= 2 ? l2[i] * y[i - 2] : 0);
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--)
    x[i] = y[i] / D[i] - (i + 1 < n ? l1[i + 1] * x[i + 1] : 0) - (i + 2 < n ? l2[i + 2] * x[i + 2] : 0);
  return x;
}
