/**
 * Ramer–Douglas–Peucker on a flat polyline `[x0, y0, x1, y1, …]`: which points to keep so that the
 * kept ones leave no point further than `toleranceMeters` from the polyline through them (both ends
 * kept). Clipper2's `ramerDouglasPeuckerD` gives the points; this gives their indices, for callers
 * that keep working on the original points (a closed ring passed with its first point repeated at
 * the end).
 */
export function douglasPeuckerKeep(xy: ArrayLike<number>, toleranceMeters: number): Uint8Array {
  const n = xy.length / 2;
  const keep = new Uint8Array(n);
  if (n <= 2) return keep.fill(1);
  keep[0] = keep[n - 1] = 1;
  const stack: number[] = [0, n - 1];
  const t2 = toleranceMeters * toleranceMeters;
  while (stack.length > 0) {
    const b = stack.pop()!,
      a = stack.pop()!;
    const ax = xy[2 * a],
      ay = xy[2 * a + 1],
      dx = xy[2 * b] - ax,
      dy = xy[2 * b + 1] - ay;
    const l2 = dx * dx + dy * dy;
    let worst = -1,
      at = -1;
    for (let i = a + 1; i < b; i++) {
      const px = xy[2 * i] - ax,
        py = xy[2 * i + 1] - ay;
      let t = l2 > 0 ? (px * dx + py * dy) / l2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const d2 = (t * dx - px) ** 2 + (t * dy - py) ** 2;
      if (d2 > worst) {
        worst = d2;
        at = i;
      }
    }
    if (worst > t2) {
      keep[at] = 1;
      stack.push(a, at, at, b);
    }
  }
  return keep;
}
