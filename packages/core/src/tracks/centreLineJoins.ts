/** Whether a centre-line pass (tracks/centreLine.ts) can be turned into and out of without reversing. */
import type { PathsD } from '../geometry/clipper.js';
import { Region } from '../geometry/region.js';
import type { Track } from './generateTracks.js';
import { bandArea } from './centreLine.js';

/** Grid step of the search for turning room near a pass's end, as a share of R. */
export const ROOM_STEP_SHARE = 0.5;

/**
 * Whether the machine can turn forward near the point: somewhere within 2R of it a circle of
 * 0.9 R fits in the field (a loop or a U turn needs about that much room).
 */
export function roomToTurn(region: Region, x: number, y: number, R: number): boolean {
  const step = ROOM_STEP_SHARE * R;
  for (let dy = -2 * R; dy <= 2 * R + 1e-9; dy += step)
    for (let dx = -2 * R; dx <= 2 * R + 1e-9; dx += step) {
      if (dx * dx + dy * dy > 4 * R * R + 1e-9) continue;
      const px = x + dx,
        py = y + dy;
      if (region.contains(px, py) && region.distanceToEdge(px, py) >= 0.9 * R) return true;
    }
  return false;
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
  const dead = new Map<Track, number>();
  for (const t of centre)
    dead.set(t, (roomToTurn(region, t.x0, t.y0, R) ? 0 : 1) + (roomToTurn(region, t.x1, t.y1, R) ? 0 : 1));
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
