/**
 * The field's boundary for the stages that only need its shape to within a few decimetres —
 * headland offsets and connector rings — with the vertices that lie within a tolerance of the line
 * through their neighbours removed (Ramer–Douglas–Peucker, so no point of the simplified ring is
 * further than the tolerance from the real one). Containment checks (`Region`, `checkPlan`) and
 * the workable area keep the real boundary; the coverage sweeps measure uncovered ground against
 * the simplified one within a stated bound (geometry/computeCoverage.ts).
 *
 * Only dense rings (DENSE_RING_VERTICES vertices or more: a logged boundary) are simplified; a
 * digitised boundary (the corpus: at most 509 vertices a ring) is planned as drawn, its
 * near-collinear vertices included. A logged boundary has a vertex every few decimetres, each off
 * the true edge by GPS noise of centimetres to decimetres; every offset, ring and boolean of those
 * stages sweeps all of them, and the kinks they leave in the headland passes make the passes
 * unjoinable and their swaths costly (the cost grows faster than the vertex count). So the
 * tolerance is the smallest of BOUNDARY_TOLERANCES_METERS that leaves the ring at most one vertex
 * per MIN_VERTEX_SPACING_METERS of its length on average (the noise gone, the shape kept to within
 * the tolerance), the largest of them where none does.
 *
 * The largest tolerance, 0.25 m, is small beside what the plan is drawn to: headland passes lie
 * (i − ½)·w inside the boundary (3 m for the outermost at w = 6 m), connector rings 1.15·R and more,
 * turns are sampled every 0.5 m; uncovered ground measured against it is off by at most perimeter ×
 * tolerance (the area between the two boundaries).
 */
import { Clipper } from 'clipper2-ts';
import type { PathD, PathsD } from './clipper.js';
import { areaOf, unionPolygons } from './clipper.js';

/** Tolerances tried in turn on a dense ring, meters. */
export const BOUNDARY_TOLERANCES_METERS = [0.05, 0.1, 0.15, 0.2, 0.25];
/**
 * A simplified ring keeps at most one vertex per this length of boundary on average, m (unless the largest tolerance
 * leaves more).
 */
export const MIN_VERTEX_SPACING_METERS = 5;
/** Rings with this many vertices or more are simplified (a logged boundary); fewer, kept as they are. */
export const DENSE_RING_VERTICES = 1000;

function ringPerimeter(ring: PathD): number {
  let p = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    p += Math.hypot(ring[i].x - ring[j].x, ring[i].y - ring[j].y);
  return p;
}

/** Total length of the rings of `paths`, m. */
export function perimeterOf(paths: PathsD): number {
  let p = 0;
  for (const r of paths) p += ringPerimeter(r);
  return p;
}

/** A dense ring simplified (`simplifyBoundary`) and the tolerance used; other rings as they are (tolerance 0). */
export function simplifyRing(
  ring: PathD,
  tolerances: readonly number[] = BOUNDARY_TOLERANCES_METERS,
): { ring: PathD; toleranceMeters: number } {
  if (ring.length < DENSE_RING_VERTICES) return { ring, toleranceMeters: 0 };
  const enough = ringPerimeter(ring) / MIN_VERTEX_SPACING_METERS;
  let out = ring,
    used = 0;
  for (const t of tolerances) {
    out = Clipper.ramerDouglasPeuckerD(ring, t);
    used = t;
    if (out.length <= enough) break;
  }
  return { ring: out, toleranceMeters: used };
}

/**
 * Rings of `paths` simplified (dense ones only, each within its own tolerance); `paths` itself when
 * nothing can be removed or the result is not sound.
 */
export function simplifyBoundary(paths: PathsD, tolerances: readonly number[] = BOUNDARY_TOLERANCES_METERS): PathsD {
  if (tolerances !== BOUNDARY_TOLERANCES_METERS) return simplified(paths, tolerances);
  if (toleranceOf.has(paths)) return paths; // simplified already (its tolerance would add up)
  let out = simplifiedFields.get(paths);
  if (!out) simplifiedFields.set(paths, (out = simplified(paths, tolerances)));
  return out;
}

/**
 * The simplified field by field (the same object through a plan: the headlands, the rings and the corridor report ask).
 * Read-only.
 */
const simplifiedFields = new WeakMap<PathsD, PathsD>();
/** How far each simplified field may lie from the real one, m. */
const toleranceOf = new WeakMap<PathsD, number>();
/** The union that cleans a simplified field puts it on a centimetre grid: its vertices move by up to this, m. */
const UNION_GRID_METERS = 0.01;

/**
 * How far `paths`, a field `simplifyBoundary` returned, may lie from the real boundary, m: the
 * largest tolerance its rings were simplified within and the union's grid (0 for a field kept as
 * it is). A stage that works on the simplified field where it must stay inside the real one moves
 * inwards by this.
 */
export function simplificationTolerance(paths: PathsD): number {
  return toleranceOf.get(paths) ?? 0;
}

function simplified(paths: PathsD, tolerancesMeters: readonly number[]): PathsD {
  let removed = 0,
    allowance = 0,
    largest = 0;
  const simple: PathsD = [];
  for (const ring of paths) {
    const s = simplifyRing(ring, tolerancesMeters);
    if (s.ring.length < 3) return paths;
    removed += ring.length - s.ring.length;
    allowance += ringPerimeter(ring) * s.toleranceMeters;
    largest = Math.max(largest, s.toleranceMeters);
    simple.push(s.ring);
  }
  if (removed === 0) return paths;
  // RDP may make a ring touch itself where the field is thinner than twice the tolerance: the union
  // resolves that; an area off by more than the tolerance along the whole boundary means it went wrong.
  const cleaned = unionPolygons(simple);
  if (!(Math.abs(areaOf(cleaned) - areaOf(paths)) <= allowance && cleaned.length === paths.length)) return paths;
  toleranceOf.set(cleaned, largest + UNION_GRID_METERS);
  return cleaned;
}
