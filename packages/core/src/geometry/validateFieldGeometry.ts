/**
 * The planner's boundary validation on its own, for callers that store a field without planning
 * it (the API's `POST /api/fields/save`): the same checks `planRoute` makes (closed rings, enough
 * corners, lon/lat in range, no self-intersection, holes inside the shell), the same `PlanError`s.
 */
import { PlanError } from '../errors.js';
import type { FieldGeometry, Position } from '../types.js';
import { createLocalFrame } from './projection.js';
import { validatePolygon } from './validateBoundary.js';

/** Throws a `PlanError` naming the ring and vertex (paths under `path`) when the geometry is invalid. */
export function validateFieldGeometry(geometry: FieldGeometry, path = 'field'): void {
  if (
    geometry === null ||
    typeof geometry !== 'object' ||
    (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon')
  ) {
    throw new PlanError('invalid-boundary', `${path}: expected a GeoJSON Polygon or MultiPolygon`, [
      { path, message: 'expected a GeoJSON Polygon or MultiPolygon' },
    ]);
  }
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const paths =
    geometry.type === 'Polygon' ? [`${path}.coordinates`] : polygons.map((_, i) => `${path}.coordinates[${i}]`);
  const all: Position[] = [];
  for (const poly of polygons) {
    for (const ring of Array.isArray(poly) ? poly : []) {
      for (const p of Array.isArray(ring) ? ring : []) {
        if (Array.isArray(p) && Number.isFinite(p[0]) && Number.isFinite(p[1])) all.push(p);
      }
    }
  }
  const frame = createLocalFrame(all);
  polygons.forEach((poly, i) => validatePolygon(poly, paths[i], frame));
}
