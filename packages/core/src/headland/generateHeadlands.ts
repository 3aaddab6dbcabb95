/**
 * Headlands: N passes around the field's edge. Pass i (1-based) drives at (i − ½)·width
 * inside the boundary; rings that come out clockwise run around a hole and are
 * InteriorHeadland passes. The mainland (where tracks go) is the field shrunk by N·width.
 */
import { areaOf, offsetPolygons } from '../geometry/clipper.js';
import type { PathD, PathsD } from '../geometry/clipper.js';

/** Working passes need no fine arcs (1 cm from the true circle). */
const PASS_ARC_TOLERANCE_METERS = 0.01;

export interface HeadlandPass {
  type: 'ExteriorHeadland' | 'InteriorHeadland';
  /** 1 = outermost. */
  passIndex: number;
  /** Closed ring (first point not repeated), local frame, in driving direction. */
  ring: PathD;
}

export interface Headlands {
  passes: HeadlandPass[];
  /** Area left for tracks: shells counter-clockwise, holes clockwise. */
  mainland: PathsD;
}

function ringArea(ring: PathD): number {
  return areaOf([ring]);
}

export function generateHeadlands(field: PathsD, passCount: number, widthMeters: number): Headlands {
  const passes: HeadlandPass[] = [];
  for (let i = 1; i <= passCount; i++) {
    const rings = offsetPolygons(field, -(i - 0.5) * widthMeters, PASS_ARC_TOLERANCE_METERS);
    for (const ring of rings) {
      if (ring.length < 3) continue;
      const a = ringArea(ring);
      // Slivers smaller than a swath-width square are not drivable passes.
      if (Math.abs(a) < widthMeters * widthMeters * 0.25) continue;
      passes.push({ type: a > 0 ? 'ExteriorHeadland' : 'InteriorHeadland', passIndex: i, ring });
    }
  }
  const mainland = passCount > 0 ? offsetPolygons(field, -passCount * widthMeters, PASS_ARC_TOLERANCE_METERS) : field.map((r) => r.slice());
  return { passes, mainland };
}
