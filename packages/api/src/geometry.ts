/**
 * The geometric checks the API makes before planning, charging or storing a boundary: the
 * library's own (`validateFieldGeometry` of @furrow/core: closed rings, enough corners, lon/lat in
 * range, no self-intersection, holes inside the shell), so a boundary gets the same answer, code
 * and message from `/direct`, `fields/save`, boundary import, guidance jobs, the CLI and
 * `planRoute`. A failure is the library's `PlanError`, answered 422 with its code as `reason`.
 */
import {
  LIMITS,
  PlanError,
  validateFieldGeometry,
  type FieldGeometry,
  type GeoJsonPolygon,
  type Position,
} from '@furrow/core';
import { fromPlanError } from './errors.js';

/** Positions in a geometry, however malformed (the budget is checked before anything costly). */
function countPositions(geometry: unknown): number {
  const coordinates = (geometry as { coordinates?: unknown } | null)?.coordinates;
  let n = 0;
  const walk = (v: unknown, depth: number): void => {
    if (!Array.isArray(v)) return;
    if (depth === 0) n += v.length;
    else for (const x of v) walk(x, depth - 1);
  };
  walk(coordinates, (geometry as { type?: string }).type === 'MultiPolygon' ? 2 : 1);
  return n;
}

/** Throws the library's `PlanError` when `geometry` is not a plannable boundary. */
export function validateBoundary(geometry: unknown, path: string): void {
  const positions = countPositions(geometry);
  if (positions > LIMITS.maxVertices) {
    const message = `has ${positions} positions; at most ${LIMITS.maxVertices} are accepted (simplify the boundary)`;
    throw new PlanError('too-many-vertices', `${path}.coordinates: ${message}`, [
      { path: `${path}.coordinates`, message },
    ]);
  }
  validateFieldGeometry(geometry as FieldGeometry, path);
}

/** `validateBoundary` as the API's 422. */
export function assertValidBoundary(geometry: unknown, path: string): void {
  try {
    validateBoundary(geometry, path);
  } catch (err) {
    throw fromPlanError(err) ?? err;
  }
}

/**
 * A plan request's field (shape A) or boundary (shape B) and its obstacles' outlines, checked before any credit is
 * taken.
 */
export function assertValidRequestGeometry(request: {
  field?: unknown;
  boundary?: unknown;
  obstacles?: { geometry: unknown }[];
}): void {
  const geometry = request.field ?? request.boundary;
  if (geometry !== undefined) assertValidBoundary(geometry, request.field !== undefined ? 'field' : 'boundary');
  request.obstacles?.forEach((o, i) => {
    const outline = o.geometry as { type: 'Polygon'; coordinates: unknown[] };
    // The planner plans around an obstacle's outer ring (its holes are ignored): that ring is what is checked.
    assertValidBoundary({ type: 'Polygon', coordinates: outline.coordinates.slice(0, 1) }, `obstacles[${i}].geometry`);
  });
}

/** A request's [lon, lat] or [lon, lat, height] position as a planar [lon, lat]. */
export const lonLat = (p: readonly number[]): Position => [p[0], p[1]];

/** Fields/save rings ([ring, …] of [lon, lat]) as a GeoJSON Polygon. */
export function ringsToPolygon(rings: number[][][]): GeoJsonPolygon {
  return { type: 'Polygon', coordinates: rings.map((ring) => ring.map(lonLat)) };
}
