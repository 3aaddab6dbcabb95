/**
 * Plan renderings. The GeoJSON one is @furrow/format-geojson's `planToFeatureCollection`
 * (CONTRACT.md "Plan GeoJSON"); while that package does not export it yet, a minimal renderer
 * of the same contract stands in (route pieces as LineStrings in driving order, the boundary).
 */
import * as geojsonFormat from '@furrow/format-geojson';

type Plan = Record<string, unknown>;
type FeatureCollection = { type: 'FeatureCollection'; features: unknown[]; [k: string]: unknown };

export function planToGeoJson(plan: Plan): FeatureCollection {
  const fromFormat = (geojsonFormat as Record<string, unknown>).planToFeatureCollection;
  const fc = typeof fromFormat === 'function' ? (fromFormat as (p: Plan) => FeatureCollection)(plan) : fallbackFeatureCollection(plan);
  return { ...fc, metrics: plan.metrics, version: plan.version };
}

function fallbackFeatureCollection(plan: Plan): FeatureCollection {
  const features: unknown[] = [];
  const route = Array.isArray(plan.route) ? (plan.route as Record<string, unknown>[]) : [];
  for (const seg of route) {
    const properties: Record<string, unknown> = { type: seg.type, sequence: seg.sequence, lengthMeters: seg.lengthMeters };
    if (seg.widthMeters !== undefined) properties.widthMeters = seg.widthMeters;
    if (seg.turnType !== undefined) properties.turnType = seg.turnType;
    features.push({ type: 'Feature', properties, geometry: { type: 'LineString', coordinates: seg.coordinates } });
  }
  if (plan.boundary) features.push({ type: 'Feature', properties: { type: 'Boundary' }, geometry: plan.boundary });
  return { type: 'FeatureCollection', features };
}
