/**
 * What the plan view asks first when it opens a field: a field never planned is planned at once
 * with the default parameters and what the field keeps (obstacles, passable zones, gates, start
 * point). The server side of the package hands `firstPlanRequest` to the API, which plans a
 * launched field ahead with it (the same request, so the plan view's request gets that plan).
 */
import type { StoredBoundary } from './api.js';
import { normalizeBoundary } from './api.js';
import type { PlanParameters } from './params.js';
import { DEFAULT_PARAMETERS, buildPlanRequest } from './params.js';

/** The path-plan request for a stored field with `params`. */
export function planRequestFor(b: StoredBoundary, params: PlanParameters): Record<string, unknown> {
  return buildPlanRequest(b.geometry, b.obstacles, params, b);
}

/**
 * The request the plan view sends first for a field, from the field as
 * `GET /api/boundaries/{boundaryId}` answers it; undefined when it shows a stored plan instead
 * (the field has one: `latestPlanId`) or the answer is no field.
 */
export function firstPlanRequest(boundary: unknown): Record<string, unknown> | undefined {
  const b = normalizeBoundary(boundary);
  return b ? firstPlanRequestOf(b) : undefined;
}

/** `firstPlanRequest` of a field as the app reads it (`ApiClient.boundary`). */
export function firstPlanRequestOf(b: StoredBoundary): Record<string, unknown> | undefined {
  return b.latestPlanId === null ? planRequestFor(b, DEFAULT_PARAMETERS) : undefined;
}
