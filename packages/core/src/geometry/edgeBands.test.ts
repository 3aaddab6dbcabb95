/**
 * The banded edge index answers exactly what a test of every edge answers: points on vertices
 * and edges, rays through vertices, segments along edges, long and short, and polylines.
 */
import { describe, expect, it } from 'vitest';
import { EdgeBands, segmentsIntersect } from './edgeBands.js';
import { crossesRayLeft } from './pointInRing.js';

/**
 * A field of `n` jagged vertices round (0, 0), radius ~100 m, with two holes; some vertices on a 5 m grid, so that rays
 * and edges meet them exactly.
 */
function edgesOf(n: number, seed: number): Float64Array {
  let s = seed;
  const rnd = (): number => (s = (s * 16807) % 2147483647) / 2147483647;
  const ring = (cx: number, cy: number, r: number, count: number, cw: boolean): number[][] => {
    const pts: number[][] = [];
    for (let i = 0; i < count; i++) {
      const t = ((cw ? -1 : 1) * 2 * Math.PI * i) / count;
      const rr = r * (0.8 + 0.4 * rnd());
      const p = [cx + rr * Math.cos(t), cy + rr * Math.sin(t)];
      pts.push(i % 3 === 0 ? p.map((v) => Math.round(v / 5) * 5) : p);
    }
    return pts;
  };
  const rings = [ring(0, 0, 100, n, false), ring(30, 10, 15, 12, true), ring(-40, -20, 10, 4, true)];
  const out: number[] = [];
  for (const r of rings)
    for (let i = 0; i < r.length; i++) out.push(r[i][0], r[i][1], r[(i + 1) % r.length][0], r[(i + 1) % r.length][1]);
  return Float64Array.from(out);
}

function bruteContains(e: Float64Array, x: number, y: number): boolean {
  let inside = false;
  for (let k = 0; k < e.length; k += 4) {
    if (Math.min(e[k], e[k + 2]) > x || Math.min(e[k + 1], e[k + 3]) > y || Math.max(e[k + 1], e[k + 3]) < y) continue;
    if (crossesRayLeft(x, y, e[k], e[k + 1], e[k + 2], e[k + 3])) inside = !inside;
  }
  return inside;
}

function bruteClear(e: Float64Array, ax: number, ay: number, bx: number, by: number): boolean {
  for (let k = 0; k < e.length; k += 4)
    if (segmentsIntersect(ax, ay, bx, by, e[k], e[k + 1], e[k + 2], e[k + 3])) return false;
  return true;
}

describe('EdgeBands', () => {
  for (const [n, seed] of [
    [7, 3],
    [60, 11],
    [400, 5],
  ]) {
    it(`answers as every edge does (${n}-vertex shell, two holes)`, () => {
      const e = edgesOf(n, seed);
      const bands = new EdgeBands(e);
      let s = seed * 7 + 1;
      const rnd = (): number => (s = (s * 48271) % 2147483647) / 2147483647;
      const grid = (v: number): number => (rnd() < 0.3 ? Math.round(v / 5) * 5 : v);
      let inside = 0,
        blocked = 0;
      for (let i = 0; i < 4000; i++) {
        const x = grid(-130 + 260 * rnd()),
          y = grid(-130 + 260 * rnd());
        expect(bands.containsPoint(x, y)).toBe(bruteContains(e, x, y));
        if (bruteContains(e, x, y)) inside++;
        // short, long, horizontal and vertical segments
        const len = [0.5, 8, 60, 300][i % 4],
          t = i % 7 === 0 ? 0 : i % 11 === 0 ? Math.PI / 2 : 2 * Math.PI * rnd();
        const bx = x + len * Math.cos(t),
          by = i % 7 === 0 ? y : y + len * Math.sin(t);
        expect(bands.segmentClear(x, y, bx, by)).toBe(bruteClear(e, x, y, bx, by));
        if (!bruteClear(e, x, y, bx, by)) blocked++;
      }
      // vertices, edge midpoints and edges themselves
      for (let k = 0; k < e.length; k += 4) {
        const mx = (e[k] + e[k + 2]) / 2,
          my = (e[k + 1] + e[k + 3]) / 2;
        expect(bands.containsPoint(e[k], e[k + 1])).toBe(bruteContains(e, e[k], e[k + 1]));
        expect(bands.containsPoint(mx, my)).toBe(bruteContains(e, mx, my));
        expect(bands.segmentClear(e[k], e[k + 1], mx, my)).toBe(false);
      }
      // polylines: arcs of 0.5 m steps
      for (let i = 0; i < 400; i++) {
        const x0 = -120 + 240 * rnd(),
          y0 = -120 + 240 * rnd(),
          t0 = 2 * Math.PI * rnd();
        const xy = new Float64Array(2 * 80);
        for (let j = 0; j < 80; j++) {
          xy[2 * j] = x0 + 0.5 * j * Math.cos(t0 + 0.02 * j);
          xy[2 * j + 1] = y0 + 0.5 * j * Math.sin(t0 + 0.02 * j);
        }
        let clear = true;
        for (let j = 0; j < 79 && clear; j++)
          clear = bruteClear(e, xy[2 * j], xy[2 * j + 1], xy[2 * j + 2], xy[2 * j + 3]);
        expect(bands.polylineClear(xy)).toBe(clear);
      }
      // the cases are not all one way
      expect(inside).toBeGreaterThan(400);
      expect(inside).toBeLessThan(3600);
      expect(blocked).toBeGreaterThan(200);
    });
  }
});
