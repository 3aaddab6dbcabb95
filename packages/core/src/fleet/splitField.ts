/**
 * A field cut across its tracks into strips of given shares of its area: cuts run along the heading
 * (the tracks' direction), each placed by bisection on the area left of it, and every strip is the
 * field (holes and obstacles out) clipped to the band between two cuts, in lon/lat. Used for fleets of
 * several widths (one strip per width class) and, in the bench, for the contiguous-split baseline.
 */
import { prepareField } from '../geometry/prepareField.js';
import { areaOf, groupPolygons, intersectPolygons } from '../geometry/clipper.js';
import type { PathsD } from '../geometry/clipper.js';
import type { LocalFrame } from '../geometry/projection.js';
import { normalizeRequest } from '../request/normalizeRequest.js';
import type { FieldGeometry, PathPlanRequest, Position } from '../types.js';

const BISECTIONS = 50;

/** The field of `request` cut into strips along `headingDegrees` (clockwise from north), areas ∝ `weights`. */
export function splitField(
  request: PathPlanRequest,
  headingDegrees: number,
  weights: readonly number[],
): FieldGeometry[] {
  const { field, frame } = prepareField(normalizeRequest(request));
  const h = (headingDegrees * Math.PI) / 180;
  const cos = Math.cos(h),
    sin = Math.sin(h);
  // s: across the tracks; t: along them.
  let sMin = Infinity,
    sMax = -Infinity,
    tMin = Infinity,
    tMax = -Infinity;
  for (const ring of field)
    for (const p of ring) {
      const s = p.x * cos - p.y * sin,
        t = p.x * sin + p.y * cos;
      sMin = Math.min(sMin, s);
      sMax = Math.max(sMax, s);
      tMin = Math.min(tMin, t);
      tMax = Math.max(tMax, t);
    }
  const band = (s0: number, s1: number): PathsD => [
    [
      [s0, tMin - 1],
      [s1, tMin - 1],
      [s1, tMax + 1],
      [s0, tMax + 1],
    ].map(([s, t]) => ({ x: s * cos + t * sin, y: -s * sin + t * cos })),
  ];
  const total = areaOf(field);
  const sum = weights.reduce((a, b) => a + b, 0);
  const cuts = [sMin - 1];
  let share = 0;
  for (let i = 0; i < weights.length - 1; i++) {
    share += weights[i] / sum;
    let lo = cuts[cuts.length - 1],
      hi = sMax + 1;
    for (let k = 0; k < BISECTIONS; k++) {
      const mid = (lo + hi) / 2;
      if (Math.abs(areaOf(intersectPolygons(field, band(sMin - 1, mid)))) < share * total) lo = mid;
      else hi = mid;
    }
    cuts.push((lo + hi) / 2);
  }
  cuts.push(sMax + 1);
  return weights.map((_, i) => toGeometry(groupPolygons(intersectPolygons(field, band(cuts[i], cuts[i + 1]))), frame));
}

function toGeometry(polygons: PathsD[], frame: LocalFrame): FieldGeometry {
  const ring = (r: PathsD[number]): Position[] => {
    const out = r.map((p) => frame.toLonLat(p.x, p.y));
    if (out.length > 0) out.push([out[0][0], out[0][1]]);
    return out;
  };
  const coordinates = polygons.map((rings) => rings.map(ring));
  return coordinates.length === 1
    ? { type: 'Polygon', coordinates: coordinates[0] }
    : { type: 'MultiPolygon', coordinates };
}
