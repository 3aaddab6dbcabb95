/**
 * The centre line of a polygon: its medial axis, approximated by the Voronoi diagram of points
 * sampled along its rings (Delaunay triangulation by delaunator; each triangle inside the polygon
 * gives a Voronoi vertex, its circumcentre, at the distance of its circumradius from the rings).
 * Voronoi edges between two triangles inside the polygon whose shared Delaunay edge joins points
 * far apart along the rings (not neighbours on one side) are the axis; the rest are spokes to the
 * rings. Leaf branches shorter than `minBranchMeters` (or than the clearance where they leave
 * the axis: spurs into corners) are pruned; what remains is cut into branches between junctions.
 */
import Delaunator from 'delaunator';
import type { PathsD } from './clipper.js';
import { Region } from './region.js';
import { hypot } from './vec.js';

/** One branch of the axis: a polyline (flat xy) with the clearance (half the local width) at each point. */
export interface MedialBranch {
  xy: Float64Array;
  radiusMeters: Float64Array;
  /** Graph node at each end (`MedialAxis.nodes`), so branches can be joined at junctions. */
  startNode: number;
  endNode: number;
}

export interface MedialAxis {
  branches: MedialBranch[];
  /** Degree of each node kept (junctions: ≥ 3). */
  degree: Map<number, number>;
}

/** Ring samples at most `stepMeters` apart, with the ring and the place along it of each. */
function sampleRings(rings: PathsD, stepMeters: number): { coords: Float64Array; ring: Int32Array; at: Int32Array } {
  const xs: number[] = [],
    ring: number[] = [],
    at: number[] = [];
  rings.forEach((r, ri) => {
    let k = 0;
    for (let i = 0; i < r.length; i++) {
      const a = r[i],
        b = r[(i + 1) % r.length];
      const l = hypot(b.x - a.x, b.y - a.y);
      const m = Math.max(1, Math.ceil(l / stepMeters));
      for (let j = 0; j < m; j++) {
        xs.push(a.x + ((b.x - a.x) * j) / m, a.y + ((b.y - a.y) * j) / m);
        ring.push(ri);
        at.push(k++);
      }
    }
  });
  return { coords: Float64Array.from(xs), ring: Int32Array.from(ring), at: Int32Array.from(at) };
}

/** Samples of one ring closer than this along it are neighbours (their bisector is a spoke). */
const NEIGHBOUR_SAMPLES = 3;

interface Graph {
  x: Float64Array;
  y: Float64Array;
  r: Float64Array;
  adj: Map<number, Set<number>>;
}

/** The Voronoi graph inside the polygon: nodes are triangles, edges the axis pieces. */
function voronoiGraph(rings: PathsD, stepMeters: number): Graph {
  const { coords, ring, at } = sampleRings(rings, stepMeters);
  const ringSize = new Int32Array(rings.length);
  for (let i = 0; i < ring.length; i++) ringSize[ring[i]] = Math.max(ringSize[ring[i]], at[i] + 1);
  const region = new Region(rings);
  const d = new Delaunator(coords);
  const tri = d.triangles,
    half = d.halfedges;
  const nt = tri.length / 3;
  const x = new Float64Array(nt),
    y = new Float64Array(nt),
    r = new Float64Array(nt);
  const inside = new Uint8Array(nt);
  for (let t = 0; t < nt; t++) {
    const a = tri[3 * t],
      b = tri[3 * t + 1],
      c = tri[3 * t + 2];
    const ax = coords[2 * a],
      ay = coords[2 * a + 1];
    const bx = coords[2 * b] - ax,
      by = coords[2 * b + 1] - ay,
      cx = coords[2 * c] - ax,
      cy = coords[2 * c + 1] - ay;
    const dd = 2 * (bx * cy - by * cx);
    if (dd === 0) continue;
    const b2 = bx * bx + by * by,
      c2 = cx * cx + cy * cy;
    const ux = (cy * b2 - by * c2) / dd,
      uy = (bx * c2 - cx * b2) / dd;
    x[t] = ax + ux;
    y[t] = ay + uy;
    r[t] = hypot(ux, uy);
    const gx = ax + (bx + cx) / 3,
      gy = ay + (by + cy) / 3;
    inside[t] = region.contains(gx, gy) && region.contains(x[t], y[t]) ? 1 : 0;
  }
  const adj = new Map<number, Set<number>>();
  const link = (p: number, q: number): void => {
    let s = adj.get(p);
    if (!s) adj.set(p, (s = new Set()));
    s.add(q);
  };
  for (let e = 0; e < tri.length; e++) {
    const o = half[e];
    if (o < e) continue;
    const t1 = Math.floor(e / 3),
      t2 = Math.floor(o / 3);
    if (!inside[t1] || !inside[t2]) continue;
    const p = tri[e],
      q = tri[e % 3 === 2 ? e - 2 : e + 1];
    if (ring[p] === ring[q]) {
      const gap = Math.abs(at[p] - at[q]);
      if (Math.min(gap, ringSize[ring[p]] - gap) < NEIGHBOUR_SAMPLES) continue;
    }
    link(t1, t2);
    link(t2, t1);
  }
  return { x, y, r, adj };
}

/** The chain from node `from` through `next` until a node of degree ≠ 2 (or back at `from`). */
function walk(g: Graph, from: number, next: number): number[] {
  const out = [from, next];
  let prev = from,
    cur = next;
  while ((g.adj.get(cur)?.size ?? 0) === 2 && cur !== from) {
    let nxt = -1;
    for (const n of g.adj.get(cur)!) if (n !== prev) nxt = n;
    if (nxt < 0) break;
    out.push(nxt);
    prev = cur;
    cur = nxt;
  }
  return out;
}

function chainLength(g: Graph, nodes: number[]): number {
  let l = 0;
  for (let i = 1; i < nodes.length; i++)
    l += hypot(g.x[nodes[i]] - g.x[nodes[i - 1]], g.y[nodes[i]] - g.y[nodes[i - 1]]);
  return l;
}

function removeNode(g: Graph, v: number): void {
  for (const n of g.adj.get(v) ?? []) g.adj.get(n)?.delete(v);
  g.adj.delete(v);
}

/**
 * Prunes leaf branches shorter than `minBranchMeters` or than 1.5 × the clearance where they meet
 * the rest (spurs into corners), until none is. A round judges all leaves on the graph as it was
 * at its start (the two spurs at a strip's square end go together, not one of them left to bend
 * the axis into its corner); a junction whose branches would all go keeps its longest.
 */
function prune(g: Graph, minBranchMeters: number): void {
  for (let round = 0; round < 50; round++) {
    const byJunction = new Map<number, { chain: number[]; length: number; short: boolean }[]>();
    for (const leaf of [...g.adj.keys()].sort((a, b) => a - b)) {
      const nb = g.adj.get(leaf)!;
      if (nb.size === 0) {
        g.adj.delete(leaf);
        continue;
      }
      if (nb.size !== 1) continue;
      const chain = walk(g, leaf, [...nb][0]);
      const end = chain[chain.length - 1];
      // a lone chain (no junction) is the axis itself: kept
      if ((g.adj.get(end)?.size ?? 0) < 3) continue;
      const length = chainLength(g, chain);
      let l = byJunction.get(end);
      if (!l) byJunction.set(end, (l = []));
      l.push({ chain, length, short: length < minBranchMeters || length < 1.5 * g.r[end] });
    }
    let removed = false;
    for (const [end, leaves] of byJunction) {
      const all = leaves.length >= (g.adj.get(end)?.size ?? 0);
      const longest = leaves.reduce((m, e) => (e.length > m.length ? e : m), leaves[0]);
      for (const e of leaves) {
        if (!e.short || (all && e === longest)) continue;
        for (let i = 0; i + 1 < e.chain.length; i++) removeNode(g, e.chain[i]);
        removed = true;
      }
    }
    if (!removed) break;
  }
}

/**
 * The medial axis of `rings` (shells counter-clockwise, holes clockwise) as branches between
 * junctions, sampled every `stepMeters` along the rings; leaf branches shorter than
 * `minBranchMeters` pruned.
 */
export function medialAxis(rings: PathsD, stepMeters: number, minBranchMeters: number): MedialAxis {
  const g = voronoiGraph(rings, stepMeters);
  prune(g, minBranchMeters);
  const seen = new Set<string>();
  const branches: MedialBranch[] = [];
  const key = (a: number, b: number): string => `${a}:${b}`;
  const emit = (nodes: number[]): void => {
    for (let i = 1; i < nodes.length; i++) {
      seen.add(key(nodes[i - 1], nodes[i]));
      seen.add(key(nodes[i], nodes[i - 1]));
    }
    const xy = new Float64Array(2 * nodes.length),
      radiusMeters = new Float64Array(nodes.length);
    nodes.forEach((v, i) => {
      xy[2 * i] = g.x[v];
      xy[2 * i + 1] = g.y[v];
      radiusMeters[i] = g.r[v];
    });
    branches.push({ xy, radiusMeters, startNode: nodes[0], endNode: nodes[nodes.length - 1] });
  };
  // Branches from every end and junction; then loops with no junction on them.
  const ordered = [...g.adj.keys()].sort((a, b) => a - b);
  for (const v of ordered) {
    if (g.adj.get(v)!.size === 2) continue;
    for (const n of [...g.adj.get(v)!].sort((a, b) => a - b)) if (!seen.has(key(v, n))) emit(walk(g, v, n));
  }
  for (const v of ordered) {
    const nb = [...g.adj.get(v)!].sort((a, b) => a - b);
    if (nb.length === 2 && !seen.has(key(v, nb[0]))) emit(walk(g, v, nb[0]));
  }
  const degree = new Map<number, number>();
  for (const [v, s] of g.adj) degree.set(v, s.size);
  return { branches: branches.filter((b) => b.xy.length >= 4), degree };
}
