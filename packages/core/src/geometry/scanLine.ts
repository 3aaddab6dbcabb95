/**
 * One scanline over a polygon set: the intervals (along-track u) where the line at
 * across-track offset v lies inside (even-odd, holes included), in a frame rotated to the
 * track direction. Edges are pre-rotated once into typed arrays; from the INDEX_AFTER_CALLS-th
 * line on, a line visits only the edges of its band of v (`EdgeBands`, built once), so a line costs
 * the edges near it rather than all of them (tracks × boundary vertices on a dense field).
 */
import type { PathsD } from './clipper.js';
import { sortAscending } from './vec.js';

export interface RotatedEdges {
  /** Stride 4: ua, va, ub, vb. */
  e: Float64Array;
  count: number;
  /** Lines asked so far, and the bands of v once built (`crossingsAt`). */
  calls?: number;
  bands?: EdgeBands;
}

/** Edges by bands of equal height in v: band b lists (ascending) every edge whose v range meets it. */
interface EdgeBands {
  v0: number;
  height: number;
  count: number;
  /** Band b's edges: ids[start[b] .. start[b + 1]). */
  start: Int32Array;
  ids: Int32Array;
}

/** Lines asked of one edge set before its bands are built (a few lines are cheaper scanned). */
const INDEX_AFTER_CALLS = 4;
/** Edge sets smaller than this are always scanned. */
const INDEX_MIN_EDGES = 64;

function bandOf(bands: { v0: number; height: number; count: number }, v: number): number {
  const b = Math.floor((v - bands.v0) / bands.height);
  return b < 0 ? 0 : b >= bands.count ? bands.count - 1 : b;
}

function buildBands(edges: RotatedEdges): EdgeBands | undefined {
  const e = edges.e,
    n = edges.count;
  let lo = Infinity,
    hi = -Infinity;
  for (let k = 0; k < n; k++) {
    const va = e[4 * k + 1],
      vb = e[4 * k + 3];
    if (va === vb) continue;
    lo = Math.min(lo, va, vb);
    hi = Math.max(hi, va, vb);
  }
  if (!(hi > lo)) return undefined;
  const shape = { v0: lo, height: (hi - lo) / Math.max(1, Math.min(n, 4096)), count: Math.max(1, Math.min(n, 4096)) };
  const start = new Int32Array(shape.count + 1);
  const span = (k: number, f: (b: number) => void): void => {
    const va = e[4 * k + 1],
      vb = e[4 * k + 3];
    if (va === vb) return;
    const b1 = bandOf(shape, Math.max(va, vb));
    for (let b = bandOf(shape, Math.min(va, vb)); b <= b1; b++) f(b);
  };
  for (let k = 0; k < n; k++) span(k, (b) => start[b + 1]++);
  for (let b = 0; b < shape.count; b++) start[b + 1] += start[b];
  const fill = start.slice(0, shape.count);
  const ids = new Int32Array(start[shape.count]);
  for (let k = 0; k < n; k++)
    span(k, (b) => {
      ids[fill[b]++] = k;
    });
  return { ...shape, start, ids };
}

export function rotateEdges(poly: PathsD, directionRadians: number): RotatedEdges {
  const c = Math.cos(directionRadians),
    s = Math.sin(directionRadians);
  let n = 0;
  for (const r of poly) n += r.length;
  const e = new Float64Array(4 * n);
  let k = 0;
  for (const r of poly) {
    const m = r.length;
    for (let i = 0; i < m; i++) {
      const a = r[i],
        b = r[(i + 1) % m];
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
  const visit = (k: number): void => {
    const va = e[4 * k + 1],
      vb = e[4 * k + 3];
    if (va === vb) return;
    // Half-open: a vertex on the line counts once.
    if (va <= v ? vb > v : vb <= v) {
      const ua = e[4 * k],
        ub = e[4 * k + 2];
      out.push(ua + ((v - va) * (ub - ua)) / (vb - va));
    }
  };
  edges.calls = (edges.calls ?? 0) + 1;
  if (edges.bands === undefined && edges.calls === INDEX_AFTER_CALLS && edges.count >= INDEX_MIN_EDGES)
    edges.bands = buildBands(edges);
  const bands = edges.bands;
  if (bands) {
    // An edge the line crosses has v in [min, max) of its ends, so it is listed in v's band.
    const b = bandOf(bands, v);
    for (let i = bands.start[b]; i < bands.start[b + 1]; i++) visit(bands.ids[i]);
  } else {
    for (let k = 0; k < edges.count; k++) visit(k);
  }
  return sortAscending(out);
}

/** The inside interval of the line v containing u (within `slack`), or undefined. */
export function intervalContaining(crossings: number[], u: number, slack = 1e-6): [number, number] | undefined {
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    if (crossings[i] - slack <= u && u <= crossings[i + 1] + slack) return [crossings[i], crossings[i + 1]];
  }
  return undefined;
}
