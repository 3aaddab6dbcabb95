/**
 * The ground a centre-line pass reaches (tracks/centreLine.ts): the field's edges in a flatbush, and
 * the band of active sections at each point of a pass — where its boom is over ground still to work.
 */
import Flatbush from 'flatbush';
import type { PathsD } from '../geometry/clipper.js';
import { leftNormals } from '../geometry/activeSwath.js';

/** Edges of rings, stride 4, in a flatbush. */
export interface EdgeIndex {
  e: Float64Array;
  index: Flatbush;
}

export function edgeIndex(rings: PathsD): EdgeIndex {
  let m = 0;
  for (const r of rings) m += r.length;
  const e = new Float64Array(4 * m);
  const index = new Flatbush(Math.max(1, m));
  let k = 0;
  for (const r of rings)
    for (let i = 0; i < r.length; i++) {
      const a = r[i],
        b = r[(i + 1) % r.length];
      e.set([a.x, a.y, b.x, b.y], 4 * k++);
      index.add(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y));
    }
  if (m === 0) index.add(0, 0, 0, 0);
  index.finish();
  return { e, index };
}

/** Parameters t in (−h, h) where the line p + t·n crosses the rings, sorted. */
export function crossings(ix: EdgeIndex, px: number, py: number, nx: number, ny: number, h: number): number[] {
  const ax = px - h * nx,
    ay = py - h * ny,
    dx = 2 * h * nx,
    dy = 2 * h * ny;
  const out: number[] = [];
  const e = ix.e;
  for (const k of ix.index.search(
    Math.min(ax, ax + dx),
    Math.min(ay, ay + dy),
    Math.max(ax, ax + dx),
    Math.max(ay, ay + dy),
  )) {
    const cx = e[4 * k],
      cy = e[4 * k + 1],
      ex = e[4 * k + 2] - cx,
      ey = e[4 * k + 3] - cy;
    const den = dx * ey - dy * ex;
    if (den === 0) continue;
    const t = ((cx - ax) * ey - (cy - ay) * ex) / den;
    const u = ((cx - ax) * dy - (cy - ay) * dx) / den;
    if (t >= 0 && t <= 1 && u >= 0 && u < 1) out.push(-h + t * 2 * h);
  }
  return out.sort((a, b) => a - b);
}

/** Even-odd containment by a ray along +x (crossings of the rings' edges). */
export function containsPoint(ix: EdgeIndex, x: number, y: number): boolean {
  let inside = false;
  const e = ix.e;
  for (const k of ix.index.search(x, y, Infinity, y)) {
    const ay = e[4 * k + 1],
      by = e[4 * k + 3];
    if (ay > y === by > y) continue;
    const xc = e[4 * k] + ((y - ay) * (e[4 * k + 2] - e[4 * k])) / (by - ay);
    if (xc > x) inside = !inside;
  }
  return inside;
}

/**
 * The active band of a pass at each of its points: the sections over the ground (`ground`, an
 * edge index of the part's unworked rings) on, the others off; lo / hi are the band's right and
 * left limits, m from the centre line (+ = left). `sections`: the boom's section widths, left to
 * right (a section is on where half of it or more lies over the ground); absent: sections of any
 * width (the band is the ground's extent across the boom).
 */
export function activeBands(
  xy: Float64Array,
  ground: EdgeIndex,
  widthMeters: number,
  sections?: readonly number[],
): { lo: Float64Array; hi: Float64Array } {
  const n = xy.length / 2,
    h = widthMeters / 2;
  const nv = leftNormals(xy);
  const lo = new Float64Array(n),
    hi = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const px = xy[2 * i],
      py = xy[2 * i + 1],
      nx = nv[2 * i],
      ny = nv[2 * i + 1];
    const ts = crossings(ground, px, py, nx, ny, h);
    // inside intervals of the line across the boom
    const iv: number[] = [];
    let inside = containsPoint(ground, px - h * nx, py - h * ny),
      from = -h;
    for (const t of ts) {
      if (inside) iv.push(from, t);
      inside = !inside;
      from = t;
    }
    if (inside) iv.push(from, h);
    let a = Infinity,
      b = -Infinity;
    if (sections && sections.length > 0) {
      // left to right: from +h down
      let s1 = h;
      for (const sw of sections) {
        const s0 = s1 - sw;
        let over = 0;
        for (let j = 0; j < iv.length; j += 2) over += Math.max(0, Math.min(s1, iv[j + 1]) - Math.max(s0, iv[j]));
        if (over >= sw / 2 - 1e-9) {
          a = Math.min(a, s0);
          b = Math.max(b, s1);
        }
        s1 = s0;
      }
    } else
      for (let j = 0; j < iv.length; j += 2)
        if (iv[j + 1] - iv[j] > 1e-6) {
          a = Math.min(a, iv[j]);
          b = Math.max(b, iv[j + 1]);
        }
    lo[i] = a <= b ? a : 0;
    hi[i] = a <= b ? b : 0;
  }
  return { lo, hi };
}

/** The points from the first to the last where any section is on (the pass trimmed to where it works). */
export function workingRange(lo: Float64Array, hi: Float64Array): [number, number] | undefined {
  let a = 0,
    b = lo.length - 1;
  while (a <= b && hi[a] - lo[a] < 1e-6) a++;
  while (b >= a && hi[b] - lo[b] < 1e-6) b--;
  return a < b ? [a, b] : undefined;
}
