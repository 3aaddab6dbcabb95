/**
 * `checkPlanFeatureCollection`: the "Plan GeoJSON" rules of docs/formats.md as a checker of its own
 * output (like earcut's `deviation`), for tests, the API and debugging. Returns the problems
 * found, an empty list when the collection keeps the contract.
 */
import type { Position } from '@furrow/core';
import type { PlanFeatureCollection } from './plan.js';
import { ROUTE_FEATURE_TYPES } from './plan.js';

const RAD = Math.PI / 180;
const WGS84_A = 6378137;
const WGS84_E2 = 0.00669437999014;

/**
 * Distance between nearby points, meters, on the WGS84 ellipsoid (meridian and prime-vertical
 * radii at the mid latitude): relative error ~1e-7 over a few hundred meters, which a spherical
 * formula (0.3 % off) is not when checking 0.5 m spacings.
 */
export function distanceMeters(a: Position, b: Position): number {
  const lat = ((a[1] + b[1]) / 2) * RAD;
  const s = 1 - WGS84_E2 * Math.sin(lat) ** 2;
  const n = WGS84_A / Math.sqrt(s);
  const m = (WGS84_A * (1 - WGS84_E2)) / (s * Math.sqrt(s));
  return Math.hypot((b[0] - a[0]) * RAD * n * Math.cos(lat), (b[1] - a[1]) * RAD * m);
}

function headingRadians(a: Position, b: Position): number {
  return Math.atan2((b[0] - a[0]) * Math.cos(((a[1] + b[1]) / 2) * RAD), b[1] - a[1]);
}

function turnAt(line: Position[], i: number): number {
  if (i <= 0 || i >= line.length - 1) return 0;
  let d = Math.abs(headingRadians(line[i], line[i + 1]) - headingRadians(line[i - 1], line[i]));
  if (d > Math.PI) d = 2 * Math.PI - d;
  return d;
}

export interface PlanCheckOptions {
  /** Largest gap between consecutive route pieces, meters (contract: 0.05). */
  maxGapMeters?: number;
  /** Largest point spacing along curved turn / connector stretches, meters (contract: 0.5). */
  maxCurveSpacingMeters?: number;
  /**
   * A stretch longer than the spacing counts as straight when the heading changes less than this at both ends, degrees.
   */
  straightToleranceDegrees?: number;
}

/** Problems with a plan FeatureCollection against "Plan GeoJSON" (docs/formats.md) (empty = none). */
export function checkPlanFeatureCollection(fc: PlanFeatureCollection, options: PlanCheckOptions = {}): string[] {
  const maxGap = options.maxGapMeters ?? 0.05;
  const maxSpacing = options.maxCurveSpacingMeters ?? 0.5;
  const straight = (options.straightToleranceDegrees ?? 2) * RAD;
  const problems: string[] = [];
  if (fc.type !== 'FeatureCollection') problems.push('type is not FeatureCollection');
  if (!fc.metrics || typeof fc.metrics !== 'object') problems.push('no top-level metrics');
  if (typeof fc.version !== 'string') problems.push('no top-level version');
  const routeTypes = ROUTE_FEATURE_TYPES as readonly string[];
  const route: { seq: number; type: string; line: Position[]; i: number }[] = [];
  fc.features.forEach((f, i) => {
    const p = f.properties;
    if (!p || typeof p.type !== 'string') {
      problems.push(`features[${i}]: no properties.type`);
      return;
    }
    if (!routeTypes.includes(p.type)) return;
    if (f.geometry.type !== 'LineString')
      problems.push(`features[${i}] (${p.type}): geometry is ${f.geometry.type}, not LineString`);
    if (!Number.isInteger(p.sequence)) problems.push(`features[${i}] (${p.type}): sequence is not an integer`);
    if (
      (p.type === 'Track' || p.type === 'ExteriorHeadland' || p.type === 'InteriorHeadland') &&
      typeof p.widthMeters !== 'number'
    ) {
      problems.push(`features[${i}] (${p.type}): no widthMeters`);
    }
    if (p.type === 'Turn' && typeof p.turnType !== 'string') problems.push(`features[${i}] (Turn): no turnType`);
    if (f.geometry.type === 'LineString')
      route.push({ seq: p.sequence as number, type: p.type, line: f.geometry.coordinates, i });
  });
  route.sort((a, b) => a.seq - b.seq);
  let numbering = true;
  route.forEach((r, k) => {
    if (numbering && r.seq !== k) {
      problems.push(`route sequence ${k} missing (found ${r.seq})`);
      numbering = false; // one report: every later number is off too
    }
    if (k > 0) {
      const prev = route[k - 1].line;
      const gap = distanceMeters(prev[prev.length - 1], r.line[0]);
      if (gap > maxGap)
        problems.push(`sequence ${r.seq} (${r.type}) starts ${gap.toFixed(3)} m from where ${route[k - 1].seq} ended`);
    }
    if (r.type === 'Turn' || r.type === 'Connector') {
      for (let j = 1; j < r.line.length; j++) {
        const d = distanceMeters(r.line[j - 1], r.line[j]);
        if (d <= maxSpacing + 2e-4) continue; // 0.2 mm: coordinates rounded to 1e-9° (±0.06 mm each)
        if (turnAt(r.line, j - 1) <= straight && turnAt(r.line, j) <= straight) continue;
        problems.push(`sequence ${r.seq} (${r.type}): ${d.toFixed(4)} m between points ${j - 1} and ${j} on a curve`);
        break;
      }
    }
  });
  return problems;
}
