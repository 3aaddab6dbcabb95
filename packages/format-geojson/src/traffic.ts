/**
 * A controlled-traffic system (`planTrafficSystem`) as one FeatureCollection: the guidance line the
 * operations share (the lanes' reference line), the wheel lanes, the drill's tramline passes with
 * their lanes, and every operation's route (each feature with `operation`, its name).
 */
import type { Position, TrafficSystemResult } from '@furrow/core';
import { routeFeatures, type PlanFeature } from './plan.js';

export interface TrafficFeatureCollection {
  type: 'FeatureCollection';
  traffickedShare: number;
  independentTraffickedShare?: number;
  features: PlanFeature[];
}

const M_PER_DEG_LAT = 111_132.954;

/** The reference line across the lanes' extent: the guidance line every operation uses. */
export function sharedGuidanceLine(result: TrafficSystemResult): Position[] {
  const [lon0, lat0] = result.referenceLine.point;
  const mLon = 111_319.49 * Math.cos((lat0 * Math.PI) / 180);
  const b = (result.referenceLine.headingDegrees * Math.PI) / 180;
  const ex = Math.sin(b),
    ny = Math.cos(b);
  let lo = Infinity,
    hi = -Infinity;
  for (const lane of result.lanes)
    for (const [lon, lat] of lane) {
      const u = (lon - lon0) * mLon * ex + (lat - lat0) * M_PER_DEG_LAT * ny;
      lo = Math.min(lo, u);
      hi = Math.max(hi, u);
    }
  if (!(hi > lo)) return [result.referenceLine.point, result.referenceLine.point];
  const at = (u: number): Position => [lon0 + (u * ex) / mLon, lat0 + (u * ny) / M_PER_DEG_LAT];
  return [at(lo), at(hi)];
}

export function trafficFeatureCollection(result: TrafficSystemResult): TrafficFeatureCollection {
  const features: PlanFeature[] = [
    {
      type: 'Feature',
      properties: {
        type: 'GuidanceLine',
        guidance: 'AB',
        shared: true,
        headingDegrees: result.referenceLine.headingDegrees,
        baseWidthMeters: result.baseWidthMeters,
      },
      geometry: { type: 'LineString', coordinates: sharedGuidanceLine(result) },
    },
  ];
  for (const lane of result.lanes)
    features.push({
      type: 'Feature',
      properties: { type: 'Lane' },
      geometry: { type: 'LineString', coordinates: lane },
    });
  for (const op of result.operations) {
    for (const pass of op.tramlinePasses ?? [])
      features.push({
        type: 'Feature',
        properties: {
          type: 'TramlinePass',
          operation: op.name,
          sequence: pass.sequence,
          passType: pass.type,
          along: pass.along,
          passNumber: pass.passNumber,
          lanes: pass.lanes,
        },
        geometry: { type: 'LineString', coordinates: pass.coordinates },
      });
    for (const f of routeFeatures(op.plan))
      features.push({ ...f, properties: { ...f.properties, operation: op.name, kind: op.kind } });
  }
  return {
    type: 'FeatureCollection',
    traffickedShare: result.system.traffickedShare,
    ...(result.independent ? { independentTraffickedShare: result.independent.shares.traffickedShare } : {}),
    features,
  };
}
