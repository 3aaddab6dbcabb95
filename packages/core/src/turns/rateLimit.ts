/**
 * Curvature-rate-limited refit of a polyline: a connector put together from pieces
 * (a CC turn onto a connector ring, a slice of the ring, a CC turn off it) or a ring made of
 * straights and polygonal arcs has curvature jumps where the pieces meet; a machine with a
 * steering-rate limit σ cannot drive them. `limitCurvatureRate` re-draws the path with the same
 * ends (position and heading) and curvature changing at most σ per meter.
 *
 * Method: the curvature profile κ(s) of the polyline (each vertex's turn over the mean of its two
 * chords, linear in between: exact on circles and on sampled clothoids) is averaged over a moving
 * window of width W (a box filter). Averaging never raises |κ| and keeps the slope of parts that
 * already respect σ (CC turns stay as they are); a jump Δκ becomes a ramp of slope Δκ / W, i.e. a
 * clothoid transition. W is the smallest of a short geometric list for which the averaged profile
 * respects σ. The profile is integrated back (heading, then position on a 5 cm grid); the
 * small offset a transition brings (Δκ·W²/24 beyond it, about a centimeter for a 1/3.45 1/m jump
 * over a meter) is taken out by a smooth displacement that vanishes with its derivative at both
 * ends (open paths: start and end pose kept exactly), or spread along a closed ring.
 *
 * The caller checks the result against the field (containment) and with `checkKinematics`.
 */
import { hypot } from '../geometry/vec.js';

export interface RateLimitOptions {
  /** Largest curvature the result may have, 1/m (1/R); the smoothed profile is kept 1 % below it. */
  maxCurvaturePerMeter?: number;
  /** Curvature-rate limit σ, 1/m² (> 0, finite). */
  maxCurvatureRatePerSquareMeter: number;
  /** Closed ring (last point = first): curvature wraps round, the start point may move. */
  closed?: boolean;
  /**
   * Largest distance between output points, meters (default 0.3: the kink test's absolute tolerance, 0.002 rad, is
   * worth more on short chords).
   */
  stepMeters?: number;
  /**
   * Curvature above which a vertex is a defect (a kink no machine drives, e.g. where a ring is
   * pinched): not counted when choosing the window (default Infinity: every vertex counts).
   */
  defectCurvaturePerMeter?: number;
  /**
   * Open paths: the heading at the first / last point, radians (default: the end chords'; a path ending on an arc has
   * its tangent there, not its chord's).
   */
  startHeadingRadians?: number;
  endHeadingRadians?: number;
  /** Farthest the result may lie from the input polyline, meters (default 0.3); farther: undefined. */
  maxDeviationMeters?: number;
}

/** Window over which the integrated heading is held to the input's, meters. */
const DRIFT_WINDOW_METERS = 20;
/** Shortest chord kept, meters. */
const MIN_CHORD_METERS = 0.05;
/** Grid step of the curvature profile and of the integration, meters. */
const GRID_METERS = 0.05;
/** Window widths tried, meters, smallest first. */
const WINDOWS_METERS = [0.3, 0.5, 0.75, 1.1, 1.6, 2.4, 3.6, 5.4];
/** Smoothing rounds at most. */
const MAX_ROUNDS = 16;
/** Rate allowed on the grid: σ and a little (CC clothoids sampled at 0.5 m read at σ exactly). */
const GRID_RATE_RATIO = 1.01;
/** Distance from a defect vertex within which the rate is not counted, meters. */
const DEFECT_MARGIN_METERS = 5;

function wrapPi(a: number): number {
  while (a > Math.PI) a -= 2 * Math.PI;
  while (a <= -Math.PI) a += 2 * Math.PI;
  return a;
}

/** The input polyline: its points (at least 5 cm apart) and chords. */
interface Polyline {
  px: number[];
  py: number[];
  /** Points. */
  m: number;
  closed: boolean;
  chords: number;
  len: Float64Array;
  /** Chord headings, unwrapped. */
  head: Float64Array;
  /** Arc length at each chord's start (and the total at the end). */
  cum: Float64Array;
  total: number;
}

/** The curvature profile on the grid: N cells of h meters. */
interface Grid {
  N: number;
  h: number;
  closed: boolean;
}

/**
 * The path redrawn with curvature rate ≤ σ, or undefined when it already complies (nothing to
 * do) or no window in the list makes it comply. Open paths keep their first and last point and
 * the headings of their first and last chord.
 */
export function limitCurvatureRate(xy: ArrayLike<number>, opts: RateLimitOptions): Float64Array | undefined {
  const sigma = opts.maxCurvatureRatePerSquareMeter;
  if (!(sigma > 0) || !Number.isFinite(sigma)) return undefined;
  const line = polylineOf(xy, opts.closed === true);
  if (!line || !(line.total > 4 * GRID_METERS)) return undefined;
  const { k0, defects, grid } = curvatureProfile(line, opts.defectCurvaturePerMeter ?? Infinity);
  const { N, h, closed } = grid;
  // Already drivable (e.g. a CC turn alone): nothing to do.
  const rateLimit = sigma * GRID_RATE_RATIO * h;
  {
    let ok = true;
    for (let j = 1; j < N && ok; j++) if (Math.abs(k0[j] - k0[j - 1]) > rateLimit) ok = false;
    if (ok && closed && Math.abs(k0[0] - k0[N - 1]) > rateLimit) ok = false;
    if (ok) return undefined;
  }
  const kRaw = Float64Array.from(k0);
  averageSpikes(k0, kRaw, line, grid);
  // Cells near a defect are not counted in the rate test.
  const ignore = new Uint8Array(N);
  for (const d of defects) {
    const a = Math.floor((d - DEFECT_MARGIN_METERS) / h),
      b = Math.ceil((d + DEFECT_MARGIN_METERS) / h);
    for (let j = a; j <= b; j++) ignore[closed ? ((j % N) + N) % N : Math.min(N - 1, Math.max(0, j))] = 1;
  }
  const k1 = smoothWhereTooSteep(k0, ignore, rateLimit, grid);
  if (!k1) return undefined;
  // Curvature kept 1 % under the limit: the end corrections below add a little.
  const kCap = 0.99 * (opts.maxCurvaturePerMeter ?? Infinity);
  for (let j = 0; j < N; j++) k1[j] = k1[j] > kCap ? kCap : k1[j] < -kCap ? -kCap : k1[j];
  // Total turning as before (open paths lose a little where the window reaches past an end that
  // was not straight): a sin² bump puts it back without a new jump.
  let sum0 = 0,
    sum1 = 0;
  for (let j = 0; j < N; j++) {
    sum0 += kRaw[j];
    sum1 += k1[j];
  }
  let target = sum0 * h;
  if (!closed && opts.startHeadingRadians !== undefined && opts.endHeadingRadians !== undefined)
    target += wrapPi(opts.endHeadingRadians - opts.startHeadingRadians - target);
  const dTheta = target - sum1 * h;
  if (dTheta !== 0)
    for (let j = 0; j < N; j++) {
      const t = Math.sin((Math.PI * (j + 0.5)) / N);
      k1[j] += (dTheta * 2 * t * t) / line.total;
    }
  const th = integrateHeadings(k1, kRaw, line, grid, opts.startHeadingRadians);
  const out = drawPath(th, line, grid, opts.stepMeters ?? 0.3);
  // Not the same path any more (a wide window over tight turns, a cusp in a pinched ring): none.
  const maxDev = opts.maxDeviationMeters ?? 0.3;
  if (deviation(out, line.px, line.py, line.cum, closed, line.total) > maxDev) return undefined;
  return Float64Array.from(out);
}

/** Points at least 5 cm apart and their chords; undefined when too few are left. */
function polylineOf(xy: ArrayLike<number>, closed: boolean): Polyline | undefined {
  // Points at least 5 cm apart (a repeated point carries no heading; a millimeter chord from an
  // offset's rounding would carry a spurious spike of curvature). The last point is kept.
  const px: number[] = [],
    py: number[] = [];
  const n2 = xy.length;
  for (let i = 0; i < n2; i += 2) {
    const x = xy[i],
      y = xy[i + 1];
    const m = px.length;
    if (m > 0 && hypot(x - px[m - 1], y - py[m - 1]) < MIN_CHORD_METERS) {
      if (i === n2 - 2 && m > 1) {
        px[m - 1] = x;
        py[m - 1] = y;
      }
      continue;
    }
    px.push(x);
    py.push(y);
  }
  if (closed && px.length > 1 && hypot(px[0] - px[px.length - 1], py[0] - py[py.length - 1]) < MIN_CHORD_METERS) {
    px.pop();
    py.pop();
  }
  const m = px.length;
  if (m < (closed ? 4 : 3)) return undefined;
  const chords = closed ? m : m - 1;
  const len = new Float64Array(chords),
    head = new Float64Array(chords);
  for (let i = 0; i < chords; i++) {
    const j = (i + 1) % m;
    const dx = px[j] - px[i],
      dy = py[j] - py[i];
    len[i] = hypot(dx, dy);
    const h = Math.atan2(dy, dx);
    head[i] = i === 0 ? h : head[i - 1] + wrapPi(h - head[i - 1]);
  }
  const cum = new Float64Array(chords + 1);
  for (let i = 0; i < chords; i++) cum[i + 1] = cum[i] + len[i];
  return { px, py, m, closed, chords, len, head, cum, total: cum[chords] };
}

/**
 * Vertex positions (arc length) and curvatures, then the profile on the grid (cell centers),
 * linear between vertices. Open: vertices 1..m-2, plus κ = 0 at both ends. Closed: vertex v
 * between chord v-1 and chord v, v = 0..m-1 (periodic). Defects: arc lengths of vertices above
 * `kDefect`.
 */
function curvatureProfile(line: Polyline, kDefect: number): { k0: Float64Array; defects: number[]; grid: Grid } {
  const { m, closed, chords, len, head, cum, total } = line;
  const vs: number[] = [],
    vk: number[] = [];
  const defects: number[] = [];
  if (!closed) {
    vs.push(0);
    vk.push(0);
  }
  for (let v = closed ? 0 : 1; v < (closed ? m : m - 1); v++) {
    const a = closed ? (v + chords - 1) % chords : v - 1;
    const turn = closed && v === 0 ? wrapPi(head[0] - head[chords - 1]) : head[v] - head[a];
    const k = turn / ((len[a] + len[v]) / 2);
    vs.push(cum[v]);
    vk.push(k);
    if (Math.abs(k) > kDefect) defects.push(cum[v]);
  }
  if (!closed) {
    vs.push(total);
    vk.push(0);
  }
  const N = Math.max(4, Math.ceil(total / GRID_METERS));
  const h = total / N;
  const k0 = new Float64Array(N);
  let t = 0;
  const nv = vs.length;
  for (let j = 0; j < N; j++) {
    const s = (j + 0.5) * h;
    if (closed) {
      // Between vertex t and t+1 (wrapping: the last vertex to vertex 0 at s = total).
      while (t + 1 < nv && vs[t + 1] <= s) t++;
      const sa = s < vs[0] ? vs[nv - 1] - total : vs[t];
      const ka = s < vs[0] ? vk[nv - 1] : vk[t];
      const sb = s < vs[0] ? vs[0] : t + 1 < nv ? vs[t + 1] : vs[0] + total;
      const kb = s < vs[0] ? vk[0] : t + 1 < nv ? vk[t + 1] : vk[0];
      k0[j] = sb > sa ? ka + ((kb - ka) * (s - sa)) / (sb - sa) : ka;
    } else {
      while (t + 2 < nv && vs[t + 1] <= s) t++;
      const sa = vs[t],
        sb = vs[t + 1];
      k0[j] = sb > sa ? vk[t] + ((vk[t + 1] - vk[t]) * (s - sa)) / (sb - sa) : vk[t];
    }
  }
  return { k0, defects, grid: { N, h, closed } };
}

/**
 * Polygonal arcs (a ring's clipper vertices with points added on their chords) give a spiky
 * profile (the turn at each vertex, none between): averaged over twice the longest chord (at most
 * 1.2 m) it is the curvature the path follows. Straights, arcs and clothoids keep theirs. Writes
 * into `k0`, reading `kRaw`.
 */
function averageSpikes(k0: Float64Array, kRaw: Float64Array, line: Polyline, grid: Grid): void {
  const { N, h, closed } = grid;
  let longest = 0;
  for (let i = 0; i < line.chords; i++) if (line.len[i] > longest && line.len[i] < 1.5) longest = line.len[i];
  const half = Math.round(Math.min(1.2, Math.max(0.5, 2 * longest)) / h / 2);
  const get = (j: number): number => (closed ? kRaw[((j % N) + N) % N] : j < 0 || j >= N ? 0 : kRaw[j]);
  let acc = 0;
  for (let j = -half; j <= half; j++) acc += get(j);
  for (let j = 0; j < N; j++) {
    k0[j] = acc / (2 * half + 1);
    acc += get(j + half + 1) - get(j - half);
  }
}

/**
 * Box filters where the rate is exceeded only: each round averages the profile over a window
 * (wider each round) within a window and a half of every cell still too steep, and leaves the
 * rest as it was (a long ring keeps its shape where it already complies). Open paths are padded
 * with κ = 0 (the pieces they join are driven straight at the junction: tracks, CC turns), closed
 * ones wrap. Undefined when no round makes the profile comply.
 */
function smoothWhereTooSteep(
  k0: Float64Array,
  ignore: Uint8Array,
  rateLimit: number,
  grid: Grid,
): Float64Array | undefined {
  const { N, h, closed } = grid;
  const complies = (k: Float64Array): boolean => {
    for (let j = 1; j < N; j++) if (!ignore[j] && !ignore[j - 1] && Math.abs(k[j] - k[j - 1]) > rateLimit) return false;
    if (closed && !ignore[0] && !ignore[N - 1] && Math.abs(k[0] - k[N - 1]) > rateLimit) return false;
    return true;
  };
  const k1 = Float64Array.from(k0);
  const mark = new Uint8Array(N);
  let done = false;
  for (let round = 0; round < MAX_ROUNDS && !done; round++) {
    // Wider each round up to the list's end; then from the start again (what is left is mostly the
    // small steps where a smoothed zone ends).
    const W = WINDOWS_METERS[round % WINDOWS_METERS.length];
    const half = Math.max(1, Math.round(W / h / 2));
    if (!closed && 2 * half + 1 > N) break;
    // Cells too steep, and the zone round them.
    mark.fill(0);
    let any = false;
    const reach = 3 * half + Math.round(0.5 / h);
    for (let j = closed ? 0 : 1; j < N; j++) {
      const i = j === 0 ? N - 1 : j - 1;
      if (ignore[j] || ignore[i] || Math.abs(k1[j] - k1[i]) <= rateLimit) continue;
      any = true;
      for (let q = j - reach; q <= j + reach; q++)
        mark[closed ? ((q % N) + N) % N : Math.min(N - 1, Math.max(0, q))] = 1;
    }
    if (!any) {
      done = true;
      break;
    }
    const at = (j: number): number => (closed ? k1[((j % N) + N) % N] : j < 0 || j >= N ? 0 : k1[j]);
    const f = new Float64Array(N);
    let acc = 0;
    for (let j = -half; j <= half; j++) acc += at(j);
    const inv = 1 / (2 * half + 1);
    for (let j = 0; j < N; j++) {
      f[j] = acc * inv;
      acc += at(j + half + 1) - at(j - half);
    }
    for (let j = 0; j < N; j++) if (mark[j]) k1[j] = f[j];
  }
  if (!done && !complies(k1)) return undefined;
  return k1;
}

/**
 * Integrate: heading at the cell centers. Summing curvature over thousands of cells lets the
 * heading wander (rounding where the profile bends): the wander is measured against the input's
 * own chord headings and taken out over 20 m windows (far wider than any transition, so they stay
 * as they are).
 */
function integrateHeadings(
  k1: Float64Array,
  kRaw: Float64Array,
  line: Polyline,
  grid: Grid,
  startHeadingRadians: number | undefined,
): Float64Array {
  const { N, h, closed } = grid;
  const { head, len, cum, chords } = line;
  const th = new Float64Array(N);
  let theta = head[0];
  // Open: the path's own heading at its start (the first chord's, less the turn over its first half).
  for (let j = 0; (j + 0.5) * h < len[0] / 2 && j < N; j++) theta -= kRaw[j] * h;
  if (!closed && startHeadingRadians !== undefined) theta = head[0] + wrapPi(startHeadingRadians - head[0]);
  const drift = new Float64Array(N);
  let c = 0;
  for (let j = 0; j < N; j++) {
    th[j] = theta + (k1[j] * h) / 2;
    theta += k1[j] * h;
    const s = (j + 0.5) * h;
    while (c + 1 < chords && cum[c + 1] <= s) c++;
    drift[j] = th[j] - head[c];
  }
  const half = Math.max(1, Math.round(DRIFT_WINDOW_METERS / h / 2));
  const smoothDrift = (src: Float64Array): Float64Array => {
    const get = (j: number): number => (closed ? src[((j % N) + N) % N] : src[j < 0 ? 0 : j >= N ? N - 1 : j]);
    const out = new Float64Array(N);
    let acc = 0;
    for (let j = -half; j <= half; j++) acc += get(j);
    for (let j = 0; j < N; j++) {
      out[j] = acc / (2 * half + 1);
      acc += get(j + half + 1) - get(j - half);
    }
    return out;
  };
  const d = smoothDrift(smoothDrift(drift));
  // Open paths keep their start and end headings (the integral gives them): no correction at
  // either end, the correction's trend between them taken out.
  if (closed) for (let j = 0; j < N; j++) th[j] -= d[j];
  else {
    const a = d[0],
      b = d[N - 1];
    for (let j = 0; j < N; j++) th[j] -= d[j] - (a + ((b - a) * j) / Math.max(1, N - 1));
  }
  return th;
}

/** Positions by the midpoint rule, the gap to the end closed smoothly, output every ≤ outStep. */
function drawPath(th: Float64Array, line: Polyline, grid: Grid, outStep: number): number[] {
  const { N, h, closed } = grid;
  const { px, py, m, len, cum, chords } = line;
  const X = new Float64Array(N + 1),
    Y = new Float64Array(N + 1);
  X[0] = px[0];
  Y[0] = py[0];
  for (let j = 0; j < N; j++) {
    X[j + 1] = X[j] + h * Math.cos(th[j]);
    Y[j + 1] = Y[j] + h * Math.sin(th[j]);
  }
  // Close the gap to the end (open: the last point; closed: the start) smoothly.
  const ex = (closed ? px[0] : px[m - 1]) - X[N],
    ey = (closed ? py[0] : py[m - 1]) - Y[N];
  for (let j = 1; j <= N; j++) {
    const t = j / N;
    const w = closed ? t : t * t * (3 - 2 * t);
    X[j] += ex * w;
    Y[j] += ey * w;
  }
  if (closed) {
    // Likewise its position: no shift on average.
    let dx = 0,
      dy = 0,
      c = 0;
    for (let j = 0; j < N; j++) {
      const s = j * h;
      while (c + 1 < chords && cum[c + 1] <= s) c++;
      const t = len[c] > 0 ? (s - cum[c]) / len[c] : 0,
        q = (c + 1) % m;
      dx += px[c] + t * (px[q] - px[c]) - X[j];
      dy += py[c] + t * (py[q] - py[c]) - Y[j];
    }
    dx /= N;
    dy /= N;
    for (let j = 0; j <= N; j++) {
      X[j] += dx;
      Y[j] += dy;
    }
  }
  const every = Math.max(1, Math.floor(outStep / h));
  const out: number[] = [];
  for (let j = 0; j < N; j += every) out.push(X[j], Y[j]);
  out.push(X[N], Y[N]);
  // Drop a last-but-one point that nearly repeats the end.
  const q = out.length;
  if (q >= 6 && hypot(out[q - 2] - out[q - 4], out[q - 1] - out[q - 3]) < 0.05) out.splice(q - 4, 2);
  if (!closed) {
    out[0] = px[0];
    out[1] = py[0];
    out[out.length - 2] = px[m - 1];
    out[out.length - 1] = py[m - 1];
  } else {
    out[out.length - 2] = out[0];
    out[out.length - 1] = out[1];
  }
  return out;
}

/**
 * Largest distance from a point of `out` to the input polyline (px, py; chord start arc lengths
 * `cum`), looking only at input chords within 3 m of the arc length where the point should be
 * (both paths are parametrised alike; lengths scaled): linear time.
 */
function deviation(
  out: number[],
  px: number[],
  py: number[],
  cum: Float64Array,
  closed: boolean,
  total: number,
): number {
  const m = px.length;
  const chords = closed ? m : m - 1;
  let outLen = 0;
  for (let i = 2; i < out.length; i += 2) outLen += hypot(out[i] - out[i - 2], out[i + 1] - out[i - 1]);
  const scale = outLen > 0 ? total / outLen : 1;
  let worst = 0,
    acc = 0,
    lo = 0;
  for (let i = 0; i < out.length; i += 2) {
    if (i > 0) acc += hypot(out[i] - out[i - 2], out[i + 1] - out[i - 1]);
    const s = acc * scale;
    while (lo < chords - 1 && cum[lo + 1] < s - 3) lo++;
    let best = Infinity;
    for (let c = lo; c < chords && cum[c] <= s + 3; c++) {
      const j = (c + 1) % m;
      const ax = px[c],
        ay = py[c],
        dx = px[j] - ax,
        dy = py[j] - ay;
      const l2 = dx * dx + dy * dy;
      let t = l2 > 0 ? ((out[i] - ax) * dx + (out[i + 1] - ay) * dy) / l2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const d = hypot(ax + t * dx - out[i], ay + t * dy - out[i + 1]);
      if (d < best) best = d;
    }
    if (best > worst) worst = best;
  }
  return worst;
}
