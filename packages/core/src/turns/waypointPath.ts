/**
 * Last-resort connector: the shortest polyline inside the field through waypoints kept well
 * away from the boundary (vertices of the field shrunk by 1.5 R, simplified), found by
 * Dijkstra over a visibility graph, then driven as a chain of turn candidates between poses
 * at the waypoints (heading along the bisector). Every leg must lie inside the field.
 */
import { Clipper } from 'clipper2-ts';
import type { PathsD } from '../geometry/clipper.js';
import { offsetPolygons } from '../geometry/clipper.js';
import type { Region } from '../geometry/region.js';
import type { Pose } from './types.js';
import { hypot } from '../geometry/vec.js';

export interface Waypoints {
  xs: Float64Array;
  ys: Float64Array;
}

/** Waypoints: vertices of the field shrunk by `clearanceMeters`, simplified to ~1 m. */
export function buildWaypoints(field: PathsD, clearanceMeters: number, maxCount = 400): Waypoints {
  const shrunk = offsetPolygons(field, -clearanceMeters, 0.25);
  let simple = Clipper.simplifyPathsD(shrunk, 1, true);
  let eps = 1;
  const count = (p: PathsD): number => p.reduce((a, r) => a + r.length, 0);
  while (count(simple) > maxCount && eps < 64) {
    eps *= 2;
    simple = Clipper.simplifyPathsD(shrunk, eps, true);
  }
  const xs: number[] = [],
    ys: number[] = [];
  for (const r of simple)
    for (const p of r) {
      xs.push(p.x);
      ys.push(p.y);
    }
  return { xs: Float64Array.from(xs), ys: Float64Array.from(ys) };
}

/**
 * Waypoint-to-waypoint straight distances, row by row (n × n), made once per waypoint set: every settled
 * waypoint reads
 * its row.
 */
const distanceCaches = new WeakMap<Waypoints, Float64Array>();
function distancesOf(wp: Waypoints): Float64Array {
  let d = distanceCaches.get(wp);
  if (d) return d;
  const n = wp.xs.length,
    xs = wp.xs,
    ys = wp.ys;
  d = new Float64Array(n * n);
  for (let u = 0; u < n; u++) for (let v = 0; v < n; v++) d[u * n + v] = hypot(xs[v] - xs[u], ys[v] - ys[u]);
  distanceCaches.set(wp, d);
  return d;
}

/**
 * Sight lines of one point (a query's a or b) to each waypoint (0 unknown, 1 clear, 2 blocked), and
 * how many are still unknown and how many clear: the same track ends and pass junctions are asked
 * about again and again, and a point that sees no waypoint is the end of no path through them.
 */
interface PointSight {
  row: Uint8Array;
  unknown: number;
  clear: number;
}

/**
 * A waypoint set's sight lines in one region: waypoint to waypoint (n × n, both ways: a row read in order), and per
 * point.
 */
interface Visibility {
  region: Region;
  clear: Uint8Array;
  points: Map<string, PointSight>;
}
const visibilityCaches = new WeakMap<Waypoints, Visibility>();

/** Sight lines filled as queries need them. */
function visibilityOf(wp: Waypoints, region: Region): Visibility {
  const n = wp.xs.length;
  let c = visibilityCaches.get(wp);
  if (!c || c.region !== region)
    visibilityCaches.set(wp, (c = { region, clear: new Uint8Array(n * n), points: new Map() }));
  return c;
}

/** Point (x, y)'s sight lines (exact coordinates: the poses asked about are the same numbers). */
function pointSight(vis: Visibility, n: number, x: number, y: number): PointSight {
  const key = `${x},${y}`;
  let p = vis.points.get(key);
  if (!p) vis.points.set(key, (p = { row: new Uint8Array(n), unknown: n, clear: 0 }));
  return p;
}

/** Whether the point whose sight lines are `p` is known to see no waypoint: no path through them ends there. */
function seesNone(p: PointSight): boolean {
  return p.unknown === 0 && p.clear === 0;
}

/** Whether waypoints u and v see each other (tested once, cached both ways). */
function waypointsSee(clear: Uint8Array, n: number, region: Region, wp: Waypoints, u: number, v: number): boolean {
  let c = clear[u * n + v];
  if (c === 0)
    clear[u * n + v] = clear[v * n + u] = c = region.segmentClear(wp.xs[u], wp.ys[u], wp.xs[v], wp.ys[v]) ? 1 : 2;
  return c === 1;
}

/** Whether (x, y), whose sight lines are `p`, sees waypoint v (tested once). */
function seesWaypoint(p: PointSight, region: Region, x: number, y: number, wp: Waypoints, v: number): boolean {
  let c = p.row[v];
  if (c === 0) {
    p.row[v] = c = region.segmentClear(x, y, wp.xs[v], wp.ys[v]) ? 1 : 2;
    p.unknown--;
    if (c === 1) p.clear++;
  }
  return c === 1;
}

/** The search's nodes: 0..n-1 the waypoints, n = a, n+1 = b. */
function searchNodes(
  wp: Waypoints,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): { X: Float64Array; Y: Float64Array } {
  const n = wp.xs.length;
  const X = new Float64Array(n + 2),
    Y = new Float64Array(n + 2);
  X.set(wp.xs);
  Y.set(wp.ys);
  X[n] = ax;
  Y[n] = ay;
  X[n + 1] = bx;
  Y[n + 1] = by;
  return { X, Y };
}

/** Node u's distance and predecessor as the settled nodes give them, each in its turn (the first of equals kept). */
function viaSettled(
  u: number,
  settled: number[],
  s: { dist: Float64Array; prev: Int32Array; D: ArrayLike<number>; X: Float64Array; Y: Float64Array; n: number },
  sees: (u: number, v: number) => boolean,
): void {
  const { dist, prev, D, X, Y, n } = s;
  dist[u] = Infinity;
  prev[u] = -1;
  for (const w of settled) {
    const d = dist[w] + (u < n ? D[w * n + u] : hypot(X[u] - X[w], Y[u] - Y[w])); // (settled nodes are waypoints)
    if (d < dist[u] && sees(w, u)) {
      dist[u] = d;
      prev[u] = w;
    }
  }
}

/**
 * Shortest visible polyline from a to b through waypoints, as points (excluding a and b), or
 * undefined. A* with the straight-line distance to b; sight lines between waypoints are cached
 * per waypoint set, so later queries test only those from a and to b.
 *
 * The sight lines from a are tested lazily: every node starts at its straight distance from a,
 * and the line is tested only when the node is about to be settled; where it is blocked, the node
 * takes the distance the nodes settled so far give it, in the order they were settled (what their
 * relaxations would have given it), and waits its turn again. A straight distance is never more
 * than the node's true one, so the nodes are settled in the same order, with the same distances
 * and the same predecessors, as when every line from a is tested first — but a query tests a few
 * lines from a rather than one to every waypoint (each across the field, the costly part).
 */
export function shortestWaypointPath(
  wp: Waypoints,
  region: Region,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number[] | undefined {
  const n = wp.xs.length;
  const vis = visibilityOf(wp, region),
    clear = vis.clear,
    D = distancesOf(wp);
  const fromA = pointSight(vis, n, ax, ay),
    toB = pointSight(vis, n, bx, by);
  // An end known to see no waypoint: the straight line or nothing (what the search would find).
  if (seesNone(fromA) || seesNone(toB)) return region.segmentClear(ax, ay, bx, by) ? [] : undefined;
  // Nodes 0..n-1 waypoints, n = a, n+1 = b.
  const { X, Y } = searchNodes(wp, ax, ay, bx, by);
  const dist = new Float64Array(n + 2).fill(Infinity);
  const prev = new Int32Array(n + 2).fill(-1);
  const done = new Uint8Array(n + 2);
  // 1: the node's distance is its straight line from a, not yet tested
  const untested = new Uint8Array(n + 2);
  const h = new Float64Array(n + 2);
  for (let i = 0; i < n + 2; i++) h[i] = hypot(X[i] - bx, Y[i] - by);
  // a and b: their own sight lines to the waypoints (u a waypoint or a, v any node)
  const sees = (u: number, v: number): boolean => {
    if (u >= n && v >= n) return region.segmentClear(X[u], Y[u], X[v], Y[v]);
    if (u === n) return seesWaypoint(fromA, region, ax, ay, wp, v);
    if (v === n + 1) return seesWaypoint(toB, region, bx, by, wp, u);
    return waypointsSee(clear, n, region, wp, u, v);
  };
  // a settled: its relaxations, untested
  dist[n] = 0;
  done[n] = 1;
  const settled: number[] = [];
  // Open nodes by (distance + estimate, index): the node a scan of them would pick, the first of equals.
  const open = new NodeQueue(n + 2);
  for (let v = 0; v < n + 2; v++) {
    if (v === n) continue;
    dist[v] = hypot(X[v] - X[n], Y[v] - Y[n]);
    prev[v] = n;
    untested[v] = 1;
    open.push(dist[v] + h[v], v);
  }
  for (;;) {
    let u = -1;
    while (open.size > 0) {
      const f = open.peekKey(),
        i = open.pop();
      if (!done[i] && f === dist[i] + h[i]) {
        u = i;
        break;
      } // else stale: settled, or its distance changed since
    }
    if (u < 0) return undefined;
    if (untested[u]) {
      untested[u] = 0;
      if (!sees(n, u)) {
        // no line from a: the distance the settled nodes give it, each in its turn (the first of equals kept)
        viaSettled(u, settled, { dist, prev, D, X, Y, n }, sees);
        if (dist[u] < Infinity) open.push(dist[u] + h[u], u);
        continue;
      }
    }
    if (u === n + 1) break;
    done[u] = 1;
    settled.push(u);
    const du = dist[u];
    // u is a waypoint (a is settled first, b ends the search): its row of distances and sight lines
    // (cached both ways, a row read in order), then b measured.
    const row = u * n;
    for (let v = 0; v < n; v++) {
      if (done[v]) continue;
      const d = du + D[row + v];
      if (d >= dist[v]) continue;
      // `waypointsSee` written out: through the call the replayed queries of it-tus-033 take 5 % longer
      let c = clear[row + v];
      if (c === 0) clear[row + v] = clear[v * n + u] = c = region.segmentClear(X[u], Y[u], X[v], Y[v]) ? 1 : 2;
      if (c !== 1) continue;
      dist[v] = d;
      prev[v] = u;
      untested[v] = 0;
      open.push(d + h[v], v);
    }
    const b = n + 1,
      d = du + hypot(X[b] - X[u], Y[b] - Y[u]);
    if (d < dist[b] && seesWaypoint(toB, region, bx, by, wp, u)) {
      dist[b] = d;
      prev[b] = u;
      untested[b] = 0;
      open.push(d + h[b], b);
    }
  }
  const out: number[] = [];
  for (let v = prev[n + 1]; v !== n && v >= 0; v = prev[v]) out.unshift(X[v], Y[v]);
  return out;
}

/** Poses at the waypoints, heading along the bisector of the incoming and outgoing legs. */
export function waypointPoses(from: Pose, to: Pose, pts: number[]): Pose[] {
  const poses: Pose[] = [];
  const m = pts.length / 2;
  for (let i = 0; i < m; i++) {
    const px = i === 0 ? from.x : pts[2 * i - 2],
      py = i === 0 ? from.y : pts[2 * i - 1];
    const nx = i === m - 1 ? to.x : pts[2 * i + 2],
      ny = i === m - 1 ? to.y : pts[2 * i + 3];
    const x = pts[2 * i],
      y = pts[2 * i + 1];
    const a1 = Math.atan2(y - py, x - px),
      a2 = Math.atan2(ny - y, nx - x);
    const h = Math.atan2(Math.sin(a1) + Math.sin(a2), Math.cos(a1) + Math.cos(a2));
    poses.push({ x, y, headingRadians: h });
  }
  return poses;
}

/**
 * A binary min-heap of nodes by (key, node index): the order a linear scan for the least key, the
 * lowest index among equals, would take them in (route/connectSearch.ts's `Heap` orders by key alone,
 * equals as they fall, and lies a stage later). Entries are not updated in place: a node whose key
 * changes is pushed again, and the caller skips the stale entries.
 */
class NodeQueue {
  private keys: Float64Array;
  private nodes: Int32Array;
  size = 0;
  constructor(capacity: number) {
    this.keys = new Float64Array(Math.max(16, 2 * capacity));
    this.nodes = new Int32Array(this.keys.length);
  }
  private less(a: number, b: number): boolean {
    const ka = this.keys[a],
      kb = this.keys[b];
    return ka < kb || (ka === kb && this.nodes[a] < this.nodes[b]);
  }
  private swap(a: number, b: number): void {
    const k = this.keys[a];
    this.keys[a] = this.keys[b];
    this.keys[b] = k;
    const v = this.nodes[a];
    this.nodes[a] = this.nodes[b];
    this.nodes[b] = v;
  }
  push(key: number, node: number): void {
    if (this.size === this.keys.length) {
      const keys = new Float64Array(2 * this.keys.length),
        nodes = new Int32Array(2 * this.nodes.length);
      keys.set(this.keys);
      nodes.set(this.nodes);
      this.keys = keys;
      this.nodes = nodes;
    }
    let i = this.size++;
    this.keys[i] = key;
    this.nodes[i] = node;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  peekKey(): number {
    return this.keys[0];
  }
  pop(): number {
    const top = this.nodes[0];
    this.size--;
    if (this.size > 0) {
      this.keys[0] = this.keys[this.size];
      this.nodes[0] = this.nodes[this.size];
      let i = 0;
      for (;;) {
        const l = 2 * i + 1,
          r = l + 1;
        let m = i;
        if (l < this.size && this.less(l, m)) m = l;
        if (r < this.size && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
}
