/**
 * One scanline over a polygon set: the intervals (along-track u) where the line at
 * across-track offset v lies inside (even-odd, holes included), in a frame rotated to the
 * track direction. O(n) per line over edges pre-rotated once into typed arrays.
 */
import type { PathsD } from './clipper.js';

export interface RotatedEdges {
  /** Stride 4: ua, va, ub, vb. */
  e: Float64Array;
  count: number;
}

export function rotateEdges(poly: PathsD, directionRadians: number): RotatedEdges {
  const c = Math.cos(directionRadians), s = Math.sin(directionRadians);
  let n = 0;
  for (const r of poly) n += r.length;
  const e = new Float64Array(4 * n);
  let k = 0;
  for (const r of poly) {
    const m = r.length;
    for (let i = 0; i < m; i++) {
      const a = r[i], b = r[(i + 1) % m];
      e[k++] = c * a.x + s * a.y;
      e[k++] = -s * a.x + c * a.y;
      e[k++] = c * b.x + s * b.y;
      e[k++] = -s * b.x + c * b.y;
    }
  }
  return { e, count: n };
}

/** Sorted crossings of the line v with the edges: consecutive pairs are inside intervals. */
export function crossingsAt(edges: RotatedEdges, v: number): number[] {
  const e = edges.e;
  const out: number[] = [];
  for (let k = 0; k < edges.count; k++) {
    const va = e[4 * k + 1], vb = e[4 * k + 3];
    if (va === vb) continue;
    // Half-open: a vertex on the line counts once.
    if (va <= v ? vb > v : vb <= v) {
      const ua = e[4 * k], ub = e[4 * k + 2];
      out.push(ua + ((v - va) * (ub - ua)) / (vb - va));
    }
  }
  out.sort((p, q) => p - q);
  return out;
}

/** The inside interval of the line v containing u (within `slack`), or undefined. */
export function intervalContaining(crossings: number[], u: number, slack = 1e-6): [number, number] | undefined {
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    if (crossings[i] - slack <= u && u <= crossings[i + 1] + slack) return [crossings[i], crossings[i + 1]];
  }
  return undefined;
}
