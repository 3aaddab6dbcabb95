import { describe, expect, it } from 'vitest';
import type { PathD } from './clipper.js';
import { crossingsAt, rotateEdges } from './scanLine.js';
import { seededRandom } from './random.js';

describe('crossingsAt', () => {
  it('finds the same crossings from its bands of edges as a scan of every edge, vertices on the line included', () => {
    const rnd = seededRandom(3);
    const ring: PathD = [];
    for (let i = 0; i < 2000; i++) {
      const a = (2 * Math.PI * i) / 2000,
        r = 300 + 40 * Math.sin(7 * a) + (rnd() - 0.5);
      // every tenth vertex on a whole-metre line, as a track's line may meet one
      const y = r * Math.sin(a);
      ring.push({ x: r * Math.cos(a), y: i % 10 === 0 ? Math.round(y) : y });
    }
    const hole: PathD = [
      { x: -50, y: -50 },
      { x: -50, y: 50 },
      { x: 50, y: 50 },
      { x: 50, y: -50 },
    ];
    const poly = [ring, hole];
    const brute = (v: number): number[] => {
      const out: number[] = [];
      for (const r of poly)
        for (let i = 0; i < r.length; i++) {
          const a = r[i],
            b = r[(i + 1) % r.length];
          if (a.y !== b.y && (a.y <= v ? b.y > v : b.y <= v)) out.push(a.x + ((v - a.y) * (b.x - a.x)) / (b.y - a.y));
        }
      return out.sort((p, q) => p - q);
    };
    const edges = rotateEdges(poly, 0);
    const lines = [
      -400,
      -340,
      -50,
      0,
      50,
      339.5,
      400,
      ...Array.from({ length: 200 }, () => Math.round((rnd() - 0.5) * 700 * 4) / 4),
    ];
    for (const v of lines) expect(crossingsAt(edges, v)).toEqual(brute(v));
    expect(edges.bands).toBeDefined();
  });
});
