/**
 * Wheel footprints: the two lanes a machine's wheels leave along its route (the route's centre line
 * offset by ±gauge/2), each a tyre wide, united with Clipper2 and cut to the field. The trafficked share
 * is their area ÷ the field's.
 */
import {
  areaOf,
  bufferPolylines,
  intersectPolygons,
  unionPolygons,
  type PathD,
  type PathsD,
} from '../geometry/clipper.js';
import type { LocalFrame } from '../geometry/projection.js';
import type { Plan } from '../types.js';

/** Working passes: the lanes that stay (turns and connectors are on the headland). */
const WORKING = new Set(['Track', 'ExteriorHeadland', 'InteriorHeadland']);
/** Below this (|n| of the summed unit normals), a vertex is a cusp: its offset takes the incoming normal. */
const CUSP_NORMAL = 0.3;

/** The polyline `xy` (flat) offset `d` meters to its left (vertices moved along their mitred normals). */
export function offsetPolyline(xy: ArrayLike<number>, d: number): PathD {
  const n = xy.length / 2;
  const out: PathD = [];
  let px = 0,
    py = 0;
  for (let i = 0; i < n; i++) {
    let nx = 0,
      ny = 0;
    for (const j of [i - 1, i]) {
      if (j < 0 || j + 1 >= n) continue;
      const dx = xy[2 * j + 2] - xy[2 * j],
        dy = xy[2 * j + 3] - xy[2 * j + 1];
      const l = Math.hypot(dx, dy);
      if (l > 0) {
        nx += -dy / l;
        ny += dx / l;
      }
    }
    let l = Math.hypot(nx, ny);
    const ends = i === 0 || i + 1 === n;
    // Mitre: along the summed normal, d / cos(half the turn) (l = 2·cos), capped at 2d;
    // a cusp keeps the incoming normal.
    let scale = ends ? 1 : Math.max(0.5, l / 2);
    if (l < CUSP_NORMAL && (px !== 0 || py !== 0)) {
      nx = px;
      ny = py;
      l = 1;
      scale = 1;
    }
    if (l === 0) continue;
    const ux = nx / l,
      uy = ny / l;
    out.push({ x: xy[2 * i] + (d * ux) / scale, y: xy[2 * i + 1] + (d * uy) / scale });
    px = ux;
    py = uy;
  }
  return out;
}

/** Vertices this close (meters) to the chord of their kept neighbours are dropped before buffering. */
const SIMPLIFY_METERS = 0.02;
/** Round joins of the tyre bands within this of true arcs, meters. */
const ARC_TOLERANCE_METERS = 0.05;

/** Douglas–Peucker on a flat xy polyline within SIMPLIFY_METERS (the footprint's outline moves no more). */
export function simplifyPolyline(xy: number[]): number[] {
  const n = xy.length / 2;
  if (n <= 2) return xy;
  const keep = new Uint8Array(n);
  keep[0] = keep[n - 1] = 1;
  const stack: number[] = [0, n - 1];
  while (stack.length > 0) {
    const b = stack.pop()!,
      a = stack.pop()!;
    const ax = xy[2 * a],
      ay = xy[2 * a + 1];
    const dx = xy[2 * b] - ax,
      dy = xy[2 * b + 1] - ay;
    const len = Math.hypot(dx, dy);
    let worst = -1,
      at = -1;
    for (let i = a + 1; i < b; i++) {
      const px = xy[2 * i] - ax,
        py = xy[2 * i + 1] - ay;
      const d = len > 0 ? Math.abs(dx * py - dy * px) / len : Math.hypot(px, py);
      if (d > worst) {
        worst = d;
        at = i;
      }
    }
    if (worst > SIMPLIFY_METERS) {
      keep[at] = 1;
      stack.push(a, at, at, b);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(xy[2 * i], xy[2 * i + 1]);
  return out;
}

/** Which route pieces a footprint covers: the working passes, or the turns and connectors. */
export type FootprintPart = 'working' | 'turns';

/** The wheel footprints of a plan's route pieces (`part`), in the local frame, united. */
export function wheelFootprint(
  plan: Plan,
  frame: LocalFrame,
  gaugeMeters: number,
  tyreWidthMeters: number,
  part: FootprintPart = 'working',
): PathsD {
  const lanes: PathsD = [];
  for (const seg of plan.route) {
    if (WORKING.has(seg.type) !== (part === 'working')) continue;
    const xy: number[] = [];
    for (const [lon, lat] of seg.coordinates) {
      const [x, y] = frame.toLocal(lon, lat);
      const m = xy.length;
      if (m >= 2 && Math.hypot(x - xy[m - 2], y - xy[m - 1]) < 1e-3) continue;
      xy.push(x, y);
    }
    if (xy.length < 4) continue;
    const line = simplifyPolyline(xy);
    lanes.push(offsetPolyline(line, gaugeMeters / 2), offsetPolyline(line, -gaugeMeters / 2));
  }
  if (lanes.length === 0) return [];
  // Clipper's offset unites what it buffers (its solution is one union, positive fill)
  return bufferPolylines(lanes, tyreWidthMeters / 2, false, ARC_TOLERANCE_METERS);
}

/** Area of the union of footprints inside the field, m² (one footprint: already united, only cut). */
export function traffickedArea(footprints: PathsD[], field: PathsD): number {
  const all = footprints.length === 1 ? footprints[0] : unionPolygons(footprints.flat());
  if (all.length === 0) return 0;
  return areaOf(intersectPolygons(all, field));
}
