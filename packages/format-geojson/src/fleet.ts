/**
 * Fleet GeoJSON: a fleet plan (core's `planFleet`) as one FeatureCollection. Every route feature carries
 * `machineId`, `startSeconds` and `endSeconds` (and `sequence` within its machine's route); every wait is
 * a `Wait` Point with `machineId`, `startSeconds`, `durationSeconds`, `beforeSequence` and `givesWayTo`;
 * a machine with a start point has its way in as an `Approach` LineString (`machineId`, `startSeconds`,
 * `endSeconds`, `lengthMeters`); the field's boundary is a `Boundary` feature. The fleet's summary (`fleet`), its
 * `warnings` (every one, with or without a place; those with a place are also `Warning` features, as in a plan's
 * GeoJSON) and `version` are foreign members, as a plan's `metrics` are.
 */
import type { FleetPlan, FleetSummary, PlanWarning } from '@furrow/core';
import type { PlanFeature } from './plan.js';
import { geometryOf, routeFeatures } from './plan.js';

export interface FleetFeatureCollection {
  type: 'FeatureCollection';
  version: string;
  fleet: FleetSummary;
  warnings: PlanWarning[];
  features: PlanFeature[];
}

export function fleetToFeatureCollection(plan: FleetPlan): FleetFeatureCollection {
  const features: PlanFeature[] = [];
  for (const m of plan.machines) {
    // The way in from its start point (a transport leg before its route), drawn first.
    if (m.approach)
      features.push({
        type: 'Feature',
        properties: {
          type: 'Approach',
          machineId: m.machineId,
          startSeconds: m.approach.startSeconds,
          endSeconds: m.approach.endSeconds,
          lengthMeters: m.approach.lengthMeters,
        },
        geometry: { type: 'LineString', coordinates: m.approach.coordinates },
      });
    for (const f of routeFeatures(m)) features.push({ ...f, properties: { ...f.properties, machineId: m.machineId } });
    for (const w of m.waits)
      features.push({
        type: 'Feature',
        properties: {
          type: 'Wait',
          machineId: w.machineId,
          startSeconds: w.startSeconds,
          durationSeconds: w.durationSeconds,
          beforeSequence: w.beforeSequence,
          givesWayTo: w.givesWayTo,
        },
        geometry: { type: 'Point', coordinates: w.position },
      });
  }
  features.push({ type: 'Feature', properties: { type: 'Boundary' }, geometry: plan.boundary });
  for (const w of plan.warnings) {
    const geometry = geometryOf(w.geometry);
    if (geometry)
      features.push({ type: 'Feature', properties: { type: 'Warning', code: w.code, message: w.message }, geometry });
  }
  return { type: 'FeatureCollection', version: plan.version, fleet: plan.fleet, warnings: plan.warnings, features };
}
