/**
 * Coverage: the swaths are the working passes buffered by half the width (flat ends, round
 * joins), united with Clipper2 (exact on touching edges of adjacent swaths, where GEOS once
 * truncated the union). overlap = Σ swath areas − area of their union (area worked more than
 * once, counted once per extra pass); uncovered = workable area − covered part of it.
 */
import { areaOf, bufferPolylines, flatToPath, intersectPolygons, unionPolygons } from '../geometry/clipper.js';
import type { PathsD } from '../geometry/clipper.js';

export interface WorkingPass {
  /** Flat xy polyline in the local frame. Closed rings repeat their first point at the end. */
  xy: ArrayLike<number>;
  widthMeters: number;
}

export interface Coverage {
  workableAreaSquareMeters: number;
  coveredSquareMeters: number;
  overlapSquareMeters: number;
  uncoveredSquareMeters: number;
  overlapRatio: number;
  uncoveredRatio: number;
}

function isClosed(xy: ArrayLike<number>): boolean {
  const n = xy.length;
  return n >= 8 && Math.abs(xy[0] - xy[n - 2]) < 1e-9 && Math.abs(xy[1] - xy[n - 1]) < 1e-9;
}

/** The swath polygons of the passes (one set per pass). */
export function swathsOf(passes: WorkingPass[]): PathsD[] {
  const out: PathsD[] = [];
  for (const p of passes) {
    if (p.xy.length < 4) continue;
    const closed = isClosed(p.xy);
    const path = flatToPath(closed ? Array.prototype.slice.call(p.xy, 0, p.xy.length - 2) : p.xy);
    out.push(bufferPolylines([path], p.widthMeters / 2, closed));
  }
  return out;
}

export function computeCoverage(workable: PathsD, passes: WorkingPass[]): Coverage {
  const workableArea = areaOf(workable);
  const swaths = swathsOf(passes);
  let sum = 0;
  const all: PathsD = [];
  for (const s of swaths) {
    sum += areaOf(s);
    for (const r of s) all.push(r);
  }
  const union = all.length > 0 ? unionPolygons(all) : [];
  const unionArea = areaOf(union);
  const covered = union.length > 0 ? areaOf(intersectPolygons(union, workable)) : 0;
  const overlap = Math.max(0, sum - unionArea);
  const uncovered = Math.max(0, workableArea - covered);
  return {
    workableAreaSquareMeters: workableArea,
    coveredSquareMeters: covered,
    overlapSquareMeters: overlap,
    uncoveredSquareMeters: uncovered,
    overlapRatio: workableArea > 0 ? overlap / workableArea : 0,
    uncoveredRatio: workableArea > 0 ? uncovered / workableArea : 0,
  };
}
