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

/** The wheel footprints of a plan's route (working passes only unless `withTurns`), in the local frame. */
export function wheelFootprint(
  plan: Plan,
  frame: LocalFrame,
  gaugeMeters: number,
  tyreWidthMeters: number,
  withTurns = false,
): PathsD {
  const lanes: PathsD = [];
  for (const seg of plan.route) {
    if (!withTurns && !WORKING.has(seg.type)) continue;
    const xy: number[] = [];
    for (const [lon, lat] of seg.coordinates) {
      const [x, y] = frame.toLocal(lon, lat);
      const m = xy.length;
      if (m >= 2 && Math.hypot(x - xy[m - 2], y - xy[m - 1]) < 1e-3) continue;
      xy.push(x, y);
    }
    if (xy.length < 4) continue;
    lanes.push(offsetPolyline(xy, gaugeMeters / 2), offsetPolyline(xy, -gaugeMeters / 2));
  }
  if (lanes.length === 0) return [];
  return unionPolygons(bufferPolylines(lanes, tyreWidthMeters / 2));
}

/** Area of the union of footprints inside the field, m². */
export function traffickedArea(footprints: PathsD[], field: PathsD): number {
  const all = footprints.flat();
  if (all.length === 0) return 0;
  return areaOf(intersectPolygons(unionPolygons(all), field));
}
