/**
 * Narrow corridors: parts of the workable area narrower than the machine. The workable
 * area opened by w/2 (shrunk, then grown back) is where a w-wide swath fits; what is left
 * over and holds at least a w × w square of area is a corridor (smaller leftovers are the
 * rounded-off tips of corners). Headland passes at (i − ½)·w and the mainland at N·w never
 * reach into them, so no track is placed there; they are reported with their geometry.
 */
import { areaOf, differencePolygons, groupPolygons, offsetPolygons, sharedOffset } from './clipper.js';
import type { PathsD } from './clipper.js';
import { simplifyBoundary } from './simplifyBoundary.js';

export interface LocalCorridor {
  /** Polygon rings (shell first), local frame. */
  polygon: PathsD;
  areaSquareMeters: number;
}

/**
 * Corridors found, by workable area (the same object: `planRoute`'s two plannings of a field share
 * it) and width. Read-only results: callers convert them, never change them.
 */
const corridorCache = new WeakMap<PathsD, Map<number, LocalCorridor[]>>();

export function findNarrowCorridors(workable: PathsD, widthMeters: number): LocalCorridor[] {
  let byWidth = corridorCache.get(workable);
  if (!byWidth) corridorCache.set(workable, (byWidth = new Map()));
  let found = byWidth.get(widthMeters);
  // on the boundary as the headlands see it: a logged boundary's jitter left by the opening is no corridor
  if (!found) byWidth.set(widthMeters, (found = narrowCorridors(simplifyBoundary(workable), widthMeters)));
  return found;
}

function narrowCorridors(workable: PathsD, widthMeters: number): LocalCorridor[] {
  const h = widthMeters / 2;
  const shrunk = sharedOffset(workable, -h, 0.01);
  const opened = shrunk.length > 0 ? offsetPolygons(shrunk, h, 0.01) : [];
  const rest = opened.length > 0 ? differencePolygons(workable, opened) : workable;
  const out: LocalCorridor[] = [];
  for (const p of groupPolygons(rest)) {
    const a = areaOf(p);
    if (a >= widthMeters * widthMeters) out.push({ polygon: p, areaSquareMeters: a });
  }
  return out.sort((a, b) => b.areaSquareMeters - a.areaSquareMeters);
}
