/** Small planar helpers for flat xy arrays (x0,y0,x1,y1,…) in the local metric frame. */

/**
 * √(dx² + dy²). Not Math.hypot: its guard against overflow is moot for metre coordinates, and V8
 * runs it as a builtin that allocates for its arguments on every call (4 GB of garbage over the
 * 88 corpus fields; planning them took 7 % longer with it).
 */
export function hypot(dx: number, dy: number): number {
  return Math.sqrt(dx * dx + dy * dy);
}

/** Length of a flat polyline. */
export function polylineLength(xy: ArrayLike<number>): number {
  let len = 0;
  for (let i = 2; i < xy.length; i += 2) len += hypot(xy[i] - xy[i - 2], xy[i + 1] - xy[i - 1]);
  return len;
}

/** Inserts points so that no edge is longer than `stepMeters`. */
export function densify(xy: ArrayLike<number>, stepMeters: number): Float64Array {
  const out: number[] = [];
  const n = xy.length / 2;
  if (n === 0) return new Float64Array(0);
  out.push(xy[0], xy[1]);
  for (let i = 1; i < n; i++) {
    const x0 = xy[2 * i - 2],
      y0 = xy[2 * i - 1],
      x1 = xy[2 * i],
      y1 = xy[2 * i + 1];
    const d = hypot(x1 - x0, y1 - y0);
    const k = Math.ceil(d / stepMeters);
    for (let j = 1; j < k; j++) out.push(x0 + ((x1 - x0) * j) / k, y0 + ((y1 - y0) * j) / k);
    out.push(x1, y1);
  }
  return Float64Array.from(out);
}

/** Concatenates flat polylines, dropping a joint point that repeats the previous end (within 1 mm). */
export function concatPolylines(parts: ArrayLike<number>[]): Float64Array {
  const out: number[] = [];
  for (const p of parts) {
    let start = 0;
    if (out.length >= 2 && p.length >= 2) {
      const dx = p[0] - out[out.length - 2],
        dy = p[1] - out[out.length - 1];
      if (dx * dx + dy * dy < 1e-6) start = 2;
    }
    for (let i = start; i < p.length; i++) out.push(p[i]);
  }
  return Float64Array.from(out);
}

/** Normalises an angle to (-π, π]. */
export function wrapAngle(a: number): number {
  a = a % (2 * Math.PI);
  if (a <= -Math.PI) a += 2 * Math.PI;
  else if (a > Math.PI) a -= 2 * Math.PI;
  return a;
}

/** Where on the segment from (ax, ay) along (dx, dy) the point nearest to (x, y) lies: t in [0, 1]. */
export function segmentParameter(x: number, y: number, ax: number, ay: number, dx: number, dy: number): number {
  const l2 = dx * dx + dy * dy;
  const t = l2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / l2 : 0;
  return t < 0 ? 0 : t > 1 ? 1 : t;
}

/** Below this length `sortAscending` sorts in place by insertion: a scanline's few crossings. */
const INSERTION_SORT_MAX = 16;

/**
 * Sorts numbers ascending in place and returns them, as `xs.sort((p, q) => p - q)` does: a short
 * array (a scanline's crossings, most often two) by insertion, with no comparator calls and no
 * scratch copy (the built-in sort allocates one per call: tens of MB over a heading search).
 */
export function sortAscending(xs: number[]): number[] {
  const n = xs.length;
  if (n > INSERTION_SORT_MAX) return xs.sort((p, q) => p - q);
  for (let i = 1; i < n; i++) {
    const x = xs[i];
    let j = i - 1;
    while (j >= 0 && xs[j] > x) {
      xs[j + 1] = xs[j];
      j--;
    }
    xs[j + 1] = x;
  }
  return xs;
}

/** The polyline (flat xy) driven the other way: its points in reverse order. */
export function reversedPolyline(xy: Float64Array): Float64Array {
  const n = xy.length,
    out = new Float64Array(n);
  for (let i = 0; i < n; i += 2) {
    out[i] = xy[n - 2 - i];
    out[i + 1] = xy[n - 1 - i];
  }
  return out;
}
