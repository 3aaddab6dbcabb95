import { describe, expect, it } from 'vitest';
import type { PathsD } from '../geometry/clipper.js';
import { seededRandom } from '../geometry/random.js';
import { longEdgeDirections } from './searchHeading.js';

/** The definition: every edge sorted by length (longest first), then direction, stably; the first `count`. */
function bySorting(field: PathsD, count: number): number[] {
  const edges: { len: number; dir: number }[] = [];
  for (const ring of field) {
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i],
        b = ring[(i + 1) % ring.length];
      let dir = Math.atan2(b.y - a.y, b.x - a.x) % Math.PI;
      if (dir < 0) dir += Math.PI;
      edges.push({ len: Math.sqrt((b.x - a.x) ** 2 + (b.y - a.y) ** 2), dir });
    }
  }
  edges.sort((p, q) => q.len - p.len || p.dir - q.dir);
  return edges.slice(0, count).map((e) => e.dir);
}

describe('longEdgeDirections', () => {
  it('gives the directions of the longest edges as sorting them all would, ties and all', () => {
    const rnd = seededRandom(7);
    for (let trial = 0; trial < 40; trial++) {
      // grid points make equal lengths and directions common; a second ring now and then
      const ring = (n: number) =>
        Array.from({ length: n }, () => ({ x: Math.round(rnd() * 6), y: Math.round(rnd() * 6) }));
      const field: PathsD = [ring(3 + Math.floor(rnd() * 30)), ...(trial % 3 === 0 ? [ring(5)] : [])];
      for (const count of [0, 1, 5, 12, 100]) expect(longEdgeDirections(field, count)).toEqual(bySorting(field, count));
    }
  });
});
