/**
 * The GeoJSON rendering of a plan (docs/formats.md "Plan GeoJSON"): @furrow/format-geojson's
 * `planToFeatureCollection`, with the API's `metrics` and `version` as foreign members.
 */
import type { Plan } from '@furrow/core';
import { planToFeatureCollection } from '@furrow/format-geojson';

export function planToGeoJson(
  plan: Plan,
): ReturnType<typeof planToFeatureCollection> & Pick<Plan, 'metrics' | 'version'> {
  return { ...planToFeatureCollection(plan), metrics: plan.metrics, version: plan.version };
}
