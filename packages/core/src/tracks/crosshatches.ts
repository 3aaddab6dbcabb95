/**
 * `useCrossHatches` (options, spec 2.2): perpendicular passes over the ends of the field
 * that the straight tracks leave unworked (the bands where tracks end: the headland, or
 * with turn-only / no headlands the strips beyond the track ends). The region is the field
 * minus the tracks' swaths, opened by w/2 so that hairline leftovers drop out; passes run
 * at the track direction + 90°, one width apart, and only those at least `minLengthMeters`
 * long are kept (shorter ones are stubs across the side bands, not ends).
 * Each crosshatch carries its extension points: where it starts and ends.
 */
import {
  areaOf,
  bufferPolylines,
  differencePolygons,
  intersectPolygons,
  offsetPolygons,
  unionPolygons,
} from '../geometry/clipper.js';
import type { PathD, PathsD } from '../geometry/clipper.js';
import { generateTracks } from './generateTracks.js';
import type { Track } from './generateTracks.js';

export interface LocalCrosshatch {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  lengthMeters: number;
}

export interface CrosshatchResult {
  passes: LocalCrosshatch[];
  /** Direction of the passes, radians CCW from +x, [0, π). */
  directionRadians: number;
  /** Area the tracks leave unworked that the crosshatches cover, m². */
  coveredSquareMeters: number;
  /** Area of the region the tracks leave unworked (opened), m². */
  regionSquareMeters: number;
}

export function planCrosshatches(
  field: PathsD,
  tracks: Track[],
  trackDirectionRadians: number,
  widthMeters: number,
  minLengthMeters: number,
): CrosshatchResult {
  const w = widthMeters;
  let dir = trackDirectionRadians + Math.PI / 2;
  if (dir >= Math.PI) dir -= Math.PI;
  const swaths: PathsD = [];
  for (const t of tracks) {
    const path: PathD = [
      { x: t.x0, y: t.y0 },
      { x: t.x1, y: t.y1 },
    ];
    for (const r of bufferPolylines([path], w / 2)) swaths.push(r);
  }
  const worked = swaths.length > 0 ? unionPolygons(swaths) : [];
  const left = worked.length > 0 ? differencePolygons(field, worked) : field;
  // Opening by w/2: drop what a w-wide pass cannot work anyway.
  const core = offsetPolygons(left, -w / 2, 0.01);
  const region = core.length > 0 ? intersectPolygons(offsetPolygons(core, w / 2, 0.01), left) : [];
  const regionArea = areaOf(region);
  if (core.length === 0)
    return { passes: [], directionRadians: dir, coveredSquareMeters: 0, regionSquareMeters: Math.max(0, regionArea) };
  // Pass centre lines must keep the swath in the region: scan the eroded core.
  const set = generateTracks(core, dir, w);
  const passes: LocalCrosshatch[] = [];
  const hatchSwaths: PathsD = [];
  for (const t of set.tracks) {
    const len = t.u1 - t.u0;
    if (len < minLengthMeters) continue;
    passes.push({ x0: t.x0, y0: t.y0, x1: t.x1, y1: t.y1, lengthMeters: len });
    for (const r of bufferPolylines(
      [
        [
          { x: t.x0, y: t.y0 },
          { x: t.x1, y: t.y1 },
        ],
      ],
      w / 2,
    ))
      hatchSwaths.push(r);
  }
  const covered = hatchSwaths.length > 0 ? areaOf(intersectPolygons(unionPolygons(hatchSwaths), region)) : 0;
  return { passes, directionRadians: dir, coveredSquareMeters: covered, regionSquareMeters: regionArea };
}
