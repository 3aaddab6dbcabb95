/**
 * Guards on the coverage metric's inputs: no polygon reaches Clipper2's sweep in a form known to
 * make it run without bound, and the sweep's size is bounded.
 *
 * - Spikes: clipper2-ts 2.0.1 never finishes (its heap grows until the process dies) on a ring
 *   whose consecutive horizontal edges reverse direction — a flat spike. The union of the swaths
 *   makes such rings: sliver gaps between two headland swaths of a GPS-logged boundary, rounded to
 *   the union's grid, and turned so that the tracks lie along x. A ring with a flat spike is passed
 *   through `trimCollinearD` (collinear points and spikes removed, the area unchanged) before a boolean.
 * - Size: the swath of a closed pass is an offset of a polyline; past MAX_PASS_VERTICES vertices
 *   over all curved passes they are simplified (Ramer–Douglas–Peucker) until within the bound, and
 *   the metric says so (a plan warning `coverage-approximate`).
 */
import { Clipper } from 'clipper2-ts';
import type { PathD, PathsD } from './clipper.js';

/** Vertices of curved working passes (headland passes, curved tracks) the metric buffers exactly. */
export const MAX_PASS_VERTICES = 200_000;
/** Tolerances tried, in turn, when the passes are over the bound, meters. */
const PASS_TOLERANCES_METERS = [0.01, 0.02, 0.05, 0.1, 0.25, 0.5];

/**
 * Whether the ring, on the grid of `precision` decimals, has a flat spike: two consecutive edges on
 * one line running opposite ways (exact: on the grid's integers).
 */
export function hasFlatSpike(ring: PathD, precision: number): boolean {
  const k = 10 ** precision;
  const n = ring.length;
  for (let i = 0; i < n; i++) {
    const a = ring[(i + n - 1) % n],
      b = ring[i],
      c = ring[(i + 1) % n];
    const ux = Math.round(b.x * k) - Math.round(a.x * k),
      uy = Math.round(b.y * k) - Math.round(a.y * k);
    const vx = Math.round(c.x * k) - Math.round(b.x * k),
      vy = Math.round(c.y * k) - Math.round(b.y * k);
    if (ux * vy - uy * vx === 0 && ux * vx + uy * vy < 0) return true;
  }
  return false;
}

/**
 * The rings, those with a flat spike passed through `trimCollinearD` (collinear points and spikes
 * removed, the area unchanged; rings left with fewer than 3 vertices have none and are dropped).
 * Rings without one are kept as they are, so the metric is unchanged wherever it already finished.
 */
export function withoutSpikes(paths: PathsD, precision: number): PathsD {
  if (!paths.some((r) => hasFlatSpike(r, precision))) return paths;
  const out: PathsD = [];
  for (const r of paths) {
    const t = hasFlatSpike(r, precision) ? Clipper.trimCollinearD(r, precision, false) : r;
    if (t.length >= 3) out.push(t);
  }
  return out;
}

export interface BoundedPasses<P extends { xy: ArrayLike<number> }> {
  passes: P[];
  /** Set when the passes were simplified: what was done, for the plan's warning. */
  approximation?: string;
}

/** The passes, the curved ones simplified when they have more than `maxVertices` vertices in all. */
export function boundPasses<P extends { xy: ArrayLike<number> }>(
  passes: P[],
  maxVertices = MAX_PASS_VERTICES,
): BoundedPasses<P> {
  const curvedVertices = (ps: P[]): number => ps.reduce((n, p) => n + (p.xy.length > 4 ? p.xy.length / 2 : 0), 0);
  const total = curvedVertices(passes);
  if (total <= maxVertices) return { passes };
  let out = passes;
  let used = 0;
  for (const tol of PASS_TOLERANCES_METERS) {
    used = tol;
    out = passes.map((p) => (p.xy.length > 4 ? { ...p, xy: simplifyFlat(p.xy, tol) } : p));
    if (curvedVertices(out) <= maxVertices) break;
  }
  return {
    passes: out,
    approximation:
      `the coverage metric buffered the headland and curved passes simplified within ${used} m ` +
      `(${total} vertices, more than the ${maxVertices} it buffers exactly)`,
  };
}

function simplifyFlat(xy: ArrayLike<number>, toleranceMeters: number): Float64Array {
  const path: PathD = [];
  for (let i = 0; i + 1 < xy.length; i += 2) path.push({ x: xy[i], y: xy[i + 1] });
  const s = Clipper.ramerDouglasPeuckerD(path, toleranceMeters);
  // A closed pass ends where it starts; the simplification drops that repeated end point, and with
  // it the pass's last side: it is put back.
  const last = path[path.length - 1];
  if (s.length > 0 && (s[s.length - 1].x !== last.x || s[s.length - 1].y !== last.y)) s.push(last);
  const out = new Float64Array(2 * s.length);
  s.forEach((p, i) => {
    out[2 * i] = p.x;
    out[2 * i + 1] = p.y;
  });
  return out;
}
