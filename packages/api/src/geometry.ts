/**
 * Geometric checks the API makes before planning or storing a boundary (422 when they fail):
 * rings closed, at least 4 positions, coordinates within WGS84 ranges, a vertex budget.
 * Deeper validity (self-intersections, holes outside shells) is the planner's `PlanError`.
 */
import * as core from '@furrow/core';
import { ApiError, fromPlanError, type ErrorDetail } from './errors.js';

export const MAX_VERTICES = 100_000;

type Geometry = { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] };

export function geometryProblems(geometry: Geometry, path: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const prefix = geometry.type === 'Polygon' ? (_p: number) => `${path}.coordinates` : (p: number) => `${path}.coordinates[${p}]`;
  let vertices = 0;
  polygons.forEach((rings, p) => {
    rings.forEach((ring, r) => {
      const at = `${prefix(p)}[${r}]`;
      vertices += ring.length;
      if (ring.length < 4) {
        problems.push({ path: at, message: `a ring needs at least 4 positions (3 corners and the closing one); it has ${ring.length}` });
        return;
      }
      const first = ring[0];
      const last = ring[ring.length - 1];
      if (first[0] !== last[0] || first[1] !== last[1])
        problems.push({ path: at, message: 'the ring is not closed: its last position must equal its first' });
      for (let i = 0; i < ring.length; i++) {
        const [lon, lat] = ring[i];
        if (lon < -180 || lon > 180 || lat < -90 || lat > 90) {
          problems.push({ path: `${at}[${i}]`, message: `[${lon}, ${lat}] is not a WGS84 [lon, lat] position` });
          break;
        }
      }
    });
  });
  if (vertices > MAX_VERTICES) problems.push({ path, message: `${vertices} positions exceed the limit of ${MAX_VERTICES}` });
  return problems;
}

export function assertValidGeometry(geometry: Geometry, path: string): void {
  const problems = geometryProblems(geometry, path);
  if (problems.length > 0) {
    throw new ApiError(422, 'InvalidGeometry', `${problems[0].path}: ${problems[0].message}`, problems);
  }
}

/**
 * A stored boundary is validated exactly like a plan's field: the checks above, then the
 * planner's own boundary validation (self-intersections, holes outside shells) when @furrow/core
 * exports it as `validateFieldGeometry(geometry, path)`.
 */
export function assertValidBoundary(geometry: Geometry, path: string): void {
  assertValidGeometry(geometry, path);
  const validate = (core as Record<string, unknown>).validateFieldGeometry;
  if (typeof validate !== 'function') return;
  try {
    validate(geometry, path);
  } catch (err) {
    throw fromPlanError(err) ?? err;
  }
}

/** Fields/save rings ([ring, …] of [lon, lat]) as a GeoJSON Polygon. */
export function ringsToPolygon(rings: number[][][]): { type: 'Polygon'; coordinates: number[][][] } {
  return { type: 'Polygon', coordinates: rings.map((ring) => ring.map((p) => [p[0], p[1]])) };
}
