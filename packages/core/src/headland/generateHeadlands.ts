/**
 * Headlands: N passes around the field's edge. Pass i (1-based) drives at (i − ½)·width
 * inside the boundary; rings that come out clockwise run around a hole and are
 * InteriorHeadland passes. The mainland (where tracks go) is the field shrunk by N·width.
 */
import { areaOf, offsetPolygons, ringToFlat } from '../geometry/clipper.js';
import type { PathD, PathsD } from '../geometry/clipper.js';
import { offsetMitred } from './corners.js';

/** Working passes need no fine arcs (1 cm from the true circle). */
const PASS_ARC_TOLERANCE_METERS = 0.01;

export interface HeadlandPass {
  type: 'ExteriorHeadland' | 'InteriorHeadland';
  /** 1 = outermost. */
  passIndex: number;
  /** Closed ring (first point not repeated), local frame, in driving direction. */
  ring: PathD;
}

/** A pass as a flat xy polyline, its first point repeated at the end. */
export function passToFlat(p: HeadlandPass): Float64Array {
  return ringToFlat(p.ring);
}

export interface Headlands {
  passes: HeadlandPass[];
  /** Area left for tracks: shells counter-clockwise, holes clockwise. */
  mainland: PathsD;
  /** Turn-only headlands: the band at the track ends the passes work (the plan's `headlandAreas`). */
  band?: PathsD;
}

/**
 * Where a w-wide pass fits: the field opened by w/2 (shrunk, grown back). Without headland passes
 * (or along the sides of turn-only headlands) the mainland reaches the boundary, so it is cut to
 * this, keeping tracks out of the narrow corridors that decomposition/corridors.ts reports.
 */
export function passableCore(field: PathsD, widthMeters: number): PathsD {
  const shrunk = offsetPolygons(field, -widthMeters / 2, PASS_ARC_TOLERANCE_METERS);
  return shrunk.length > 0 ? offsetPolygons(shrunk, widthMeters / 2, PASS_ARC_TOLERANCE_METERS) : [];
}

function ringArea(ring: PathD): number {
  return areaOf([ring]);
}

/** With a corner style the passes are offset with mitred joins (sharp at every corner), then rounded or squared by headland/corners.ts. */
export function generateHeadlands(field: PathsD, passCount: number, widthMeters: number, corners?: 'rounded' | 'square'): Headlands {
  const passes: HeadlandPass[] = [];
  for (let i = 1; i <= passCount; i++) {
    const d = -(i - 0.5) * widthMeters;
    const rings = corners ? offsetMitred(field, d) : offsetPolygons(field, d, PASS_ARC_TOLERANCE_METERS);
    for (const ring of rings) {
      if (ring.length < 3) continue;
      const a = ringArea(ring);
      // Slivers smaller than a swath-width square are not drivable passes.
      if (Math.abs(a) < widthMeters * widthMeters * 0.25) continue;
      passes.push({ type: a > 0 ? 'ExteriorHeadland' : 'InteriorHeadland', passIndex: i, ring });
    }
  }
  const mainland = passCount > 0 ? offsetPolygons(field, -passCount * widthMeters, PASS_ARC_TOLERANCE_METERS) : passableCore(field, widthMeters);
  return { passes, mainland };
}
