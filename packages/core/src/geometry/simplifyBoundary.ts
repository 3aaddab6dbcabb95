/**
 * The field's boundary for the stages that only need its shape to within a few centimetres —
 * headland offsets, connector rings, the coverage metric, the corridor report — with the vertices
 * that lie within `BOUNDARY_TOLERANCE_METERS` of the line through their neighbours removed
 * (Ramer–Douglas–Peucker, so no point of the simplified ring is further than the tolerance from the
 * real one). A GPS-logged boundary has a vertex every few decimetres; every offset, ring and boolean
 * of those stages sweeps all of them. Only such dense rings (DENSE_RING_VERTICES vertices or more)
 * are simplified: a digitised boundary (the corpus: at most 509 vertices a ring) is planned as drawn,
 * its near-collinear vertices included. Containment checks (`Region`, `checkPlan`) keep the real
 * boundary.
 *
 * The tolerance is far below what the plan is drawn to: turns are sampled every 0.5 m, `checkPlan`
 * lets the route's centre line reach 0.1 m outside the boundary, headland passes lie (i − ½)·w
 * inside it.
 */
import { Clipper } from 'clipper2-ts';
import type { PathsD } from './clipper.js';
import { areaOf, unionPolygons } from './clipper.js';

export const BOUNDARY_TOLERANCE_METERS = 0.05;
/** Rings with this many vertices or more are simplified (a logged boundary); fewer, kept as they are. */
export const DENSE_RING_VERTICES = 1000;

/** Rings of `paths` simplified within `toleranceMeters`; `paths` itself when nothing can be removed or the result is not sound. */
export function simplifyBoundary(paths: PathsD, toleranceMeters = BOUNDARY_TOLERANCE_METERS): PathsD {
  let removed = 0, perimeter = 0;
  const simple: PathsD = [];
  for (const ring of paths) {
    const r = ring.length >= DENSE_RING_VERTICES ? Clipper.ramerDouglasPeuckerD(ring, toleranceMeters) : ring;
    if (r.length < 3) return paths;
    removed += ring.length - r.length;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) perimeter += Math.hypot(ring[i].x - ring[j].x, ring[i].y - ring[j].y);
    simple.push(r);
  }
  if (removed === 0) return paths;
  // RDP may make a ring touch itself where the field is thinner than twice the tolerance: the union
  // resolves that; an area off by more than the tolerance along the whole boundary means it went wrong.
  const cleaned = unionPolygons(simple);
  return Math.abs(areaOf(cleaned) - areaOf(paths)) <= perimeter * toleranceMeters && cleaned.length === paths.length ? cleaned : paths;
}
