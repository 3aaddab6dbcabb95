/**
 * The GeoJSON rendering of a plan (CONTRACT.md "Plan GeoJSON"): @furrow/format-geojson's
 * `planToFeatureCollection`, with the API's `metrics` and `version` as foreign members.
 */
import type { Plan } from '@furrow/core';
import { planToFeatureCollection } from '@furrow/format-geojson';

export function planToGeoJson(plan: Record<string, unknown>): Record<string, unknown> {
  const fc = planToFeatureCollection(plan as unknown as Plan) as unknown as Record<string, unknown>;
  return { ...fc, metrics: plan.metrics, version: plan.version };
}
