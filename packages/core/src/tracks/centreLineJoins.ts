/** Whether a centre-line pass (tracks/centreLine.ts) can be turned into and out of without reversing. */
import type { PathsD } from '../geometry/clipper.js';
import { Region } from '../geometry/region.js';
import type { Track } from './generateTracks.js';
import { bandArea } from './centreLine.js';

/** Grid step of the search for turning room near a pass's end, as a share of R. */
export const ROOM_STEP_SHARE = 0.5;

/** Grid step of the search for a loop's centre near a pass's end, as a share of R (finer: a loop hugs its hole). */
export const LOOP_STEP_SHARE = 0.25;
/** Radii of the loops tried, as multiples of R. */
const LOOP_RADII = [1, 1.5, 2];
/** Points of a loop's polygon. */
const LOOP_POINTS = 48;

/**
 * Whether the machine can turn forward near the point: somewhere within 2R of it a circle of
 * 0.9 R fits in the field (a loop or a U turn needs about that much room), or a loop of radius R
 * or more lies in the field round one of `holes` (`loopRoundHole`).
 */
export function roomToTurn(region: Region, x: number, y: number, R: number, holes: PathsD = []): boolean {
  const free = (px: number, py: number): boolean => region.contains(px, py) && region.distanceToEdge(px, py) >= 0.9 * R;
  return anyWithin2R(x, y, R, ROOM_STEP_SHARE * R, free) || loopRoundHole(region, holes, x, y, R);
}

/** Whether `test` holds at some point of a grid of `step` over the disc of radius 2R round (x, y). */
function anyWithin2R(
  x: number,
  y: number,
  R: number,
  step: number,
  test: (px: number, py: number) => boolean,
): boolean {
  for (let dy = -2 * R; dy <= 2 * R + 1e-9; dy += step)
    for (let dx = -2 * R; dx <= 2 * R + 1e-9; dx += step)
      if (dx * dx + dy * dy <= 4 * R * R + 1e-9 && test(x + dx, y + dy)) return true;
  return false;
}

/** The region's holes (its clockwise rings) a loop of radius 2R could go round: none wider than 4R. */
export function smallHoles(region: Region, R: number): PathsD {
  const out: PathsD = [];
  let k = 0;
  for (const ring of region.rings()) {
    const hole = region.holeEdge[k] === 1;
    k += ring.length;
    if (!hole) continue;
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    for (const p of ring) {
      x0 = Math.min(x0, p.x);
      y0 = Math.min(y0, p.y);
      x1 = Math.max(x1, p.x);
      y1 = Math.max(y1, p.y);
    }
    if (x1 - x0 <= 4 * R && y1 - y0 <= 4 * R) out.push(ring);
  }
  return out;
}

/** Whether every point of one of the holes lies within `rho` of (cx, cy). */
function enclosesHole(holes: PathsD, cx: number, cy: number, rho: number): boolean {
  for (const ring of holes) {
    let inside = true;
    for (let i = 0; i < ring.length && inside; i++) inside = (ring[i].x - cx) ** 2 + (ring[i].y - cy) ** 2 <= rho * rho;
    if (inside) return true;
  }
  return false;
}

/**
 * Whether a loop (a circle of radius R, 1.5 R or 2 R, its centre within 2R of the point) lies in the
 * field round one of `holes` (`smallHoles`): the machine turns by driving round the hole, as round a
 * small pond between two passes, where no free disc fits. The circle is tested as a polygon of
 * `LOOP_POINTS` points, exactly against the field's edges (`Region.containsPolyline`).
 */
export function loopRoundHole(region: Region, holes: PathsD, x: number, y: number, R: number): boolean {
  // the cheap rejection first: no hole within reach
  const near = holes.filter((ring) => ring.some((p) => (p.x - x) ** 2 + (p.y - y) ** 2 <= 16 * R * R));
  if (near.length === 0) return false;
  const xy = new Float64Array(2 * (LOOP_POINTS + 1));
  const loopFits =
    (rho: number) =>
    (cx: number, cy: number): boolean => {
      if (!enclosesHole(near, cx, cy, rho)) return false;
      for (let k = 0; k <= LOOP_POINTS; k++) {
        const a = (2 * Math.PI * k) / LOOP_POINTS;
        xy[2 * k] = cx + rho * Math.cos(a);
        xy[2 * k + 1] = cy + rho * Math.sin(a);
      }
      return region.containsPolyline(xy);
    };
  return LOOP_RADII.some((share) => anyWithin2R(x, y, R, LOOP_STEP_SHARE * R, loopFits(share * R)));
}

/**
 * The centre-line passes (those with active bands; the others are kept as they are) a route
 * without reversing can join: a pass with no room to turn forward at either end (`roomToTurn`) is
 * driven only when it is all there is; one with no room at one end only starts or ends the route,
 * so at most two of those are kept (those that work most). `othersCount`: headland passes and
 * tracks besides the strips.
 */
export function joinableWithoutReversing(tracks: Track[], field: PathsD, R: number, othersCount: number): Track[] {
  const centre = tracks.filter((t) => t.activeLeftMeters !== undefined);
  if (centre.length === 0 || centre.length + othersCount <= 1) return tracks;
  const region = new Region(field);
  const holes = smallHoles(region, R);
  const dead = new Map<Track, number>();
  for (const t of centre)
    dead.set(
      t,
      (roomToTurn(region, t.x0, t.y0, R, holes) ? 0 : 1) + (roomToTurn(region, t.x1, t.y1, R, holes) ? 0 : 1),
    );
  const byArea = [...centre].sort((p, q) => bandArea([q]) - bandArea([p]));
  const others = tracks.length - centre.length + othersCount;
  const keep = new Set<Track>(byArea.filter((t) => dead.get(t) === 0));
  let ends = 0;
  for (const t of byArea)
    if (dead.get(t) === 1 && ends < 2) {
      keep.add(t);
      ends++;
    }
  // one pass dead at both ends is all the route drives: where nothing else is, or nothing else
  // of the strips can be joined and it works more than those
  const lone = byArea.find((t) => dead.get(t) === 2);
  const nothingElse = others === 0 || (keep.size === 0 && tracks.length === centre.length);
  if (lone && nothingElse && bandArea([lone]) > bandArea([...keep]))
    return tracks.filter((t) => t.activeLeftMeters === undefined || t === lone);
  return tracks.filter((t) => t.activeLeftMeters === undefined || keep.has(t));
}
