/**
 * Plan GeoJSON (docs/formats.md "Plan GeoJSON"): a FeatureCollection with the plan's `metrics`
 * and `version` as foreign members; route features in driving order with `sequence` from 0;
 * context features (Boundary, Obstacle, RefillPoint, StagingArea, AccessPoint, Crosshatch, ...).
 * Cells of the decomposition (`plan.cells`) are `Cell` features: the cell's Polygon with
 * `index`, `headingDegrees`, `trackCount` and `areaSquareMeters` (its track list stays in the
 * plan JSON: feature properties are scalars). Writers that do not know a context type skip it
 * (ISO-XML) or put it in its own folder / layer (KML, Shapefile).
 */
import type { Plan, PlanMetrics, Position, RouteSegment } from '@furrow/core';

export type GeoJsonGeometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'LineString'; coordinates: Position[] }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPoint'; coordinates: Position[] }
  | { type: 'MultiLineString'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] };

export interface PlanFeature {
  type: 'Feature';
  properties: { type: string; [key: string]: unknown };
  geometry: GeoJsonGeometry;
}

export interface PlanFeatureCollection {
  type: 'FeatureCollection';
  metrics: PlanMetrics;
  version: string;
  features: PlanFeature[];
  [foreign: string]: unknown;
}

/** The five route feature types: working passes and driving without working. */
export const ROUTE_FEATURE_TYPES = ['Track', 'ExteriorHeadland', 'InteriorHeadland', 'Turn', 'Connector'] as const;
const WORKING = new Set<string>(['Track', 'ExteriorHeadland', 'InteriorHeadland']);

const GEOMETRY_TYPES = new Set(['Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon']);

function isPosition(x: unknown): x is Position {
  return Array.isArray(x) && x.length >= 2 && typeof x[0] === 'number' && typeof x[1] === 'number';
}

function lonLat(p: Position): Position {
  return [p[0], p[1]];
}

/**
 * Best-effort geometry of a plan member: a GeoJSON geometry, a Feature-like `{ geometry }`,
 * a [lon, lat] position (Point), a list of positions (LineString), or an object holding one
 * of those under `coordinates` / `position` / `point` / `location` / `line` / `polygon`.
 */
export function geometryOf(x: unknown, depth = 0): GeoJsonGeometry | undefined {
  if (depth > 3 || x === null || x === undefined) return undefined;
  if (isPosition(x)) return { type: 'Point', coordinates: lonLat(x) };
  if (Array.isArray(x)) {
    if (x.length >= 2 && x.every(isPosition)) return { type: 'LineString', coordinates: x.map(lonLat) };
    return undefined;
  }
  if (typeof x !== 'object') return undefined;
  const o = x as Record<string, unknown>;
  if (typeof o.type === 'string' && GEOMETRY_TYPES.has(o.type) && Array.isArray(o.coordinates)) {
    return { type: o.type, coordinates: o.coordinates } as GeoJsonGeometry;
  }
  for (const key of ['geometry', 'coordinates', 'position', 'point', 'location', 'line', 'polygon']) {
    if (key in o) {
      const g = geometryOf(o[key], depth + 1);
      if (g) return g;
    }
  }
  return undefined;
}

/** Scalar members of a plan member, kept as feature properties. */
function scalarProps(x: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (x === null || typeof x !== 'object' || Array.isArray(x)) return out;
  for (const [k, v] of Object.entries(x as Record<string, unknown>)) {
    if (k === 'type' || k === 'coordinates') continue;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
    if (k === 'properties' && v && typeof v === 'object') Object.assign(out, scalarProps(v));
  }
  return out;
}

function listOf(x: unknown): unknown[] {
  if (x === undefined || x === null) return [];
  return Array.isArray(x) && !isPosition(x) && !(x.length >= 2 && x.every(isPosition)) ? x : [x];
}

function contextFeatures(items: unknown, type: string): PlanFeature[] {
  const out: PlanFeature[] = [];
  listOf(items).forEach((item, index) => {
    const geometry = geometryOf(item);
    if (geometry) out.push({ type: 'Feature', properties: { ...scalarProps(item), type, index }, geometry });
  });
  return out;
}

/** Route segments sorted in driving order (by `sequence`, stable). */
export function routeInOrder(plan: Pick<Plan, 'route'>): RouteSegment[] {
  return (plan.route ?? [])
    .map((segment, i) => ({ segment, i }))
    .sort((a, b) => a.segment.sequence - b.segment.sequence || a.i - b.i)
    .map((x) => x.segment);
}

function routeFeature(segment: RouteSegment, sequence: number): PlanFeature {
  const props: PlanFeature['properties'] = { type: segment.type, sequence };
  if (WORKING.has(segment.type) && segment.widthMeters !== undefined) props.widthMeters = segment.widthMeters;
  if (segment.type === 'Turn') props.turnType = segment.turnType ?? 'U';
  if (typeof segment.lengthMeters === 'number') props.lengthMeters = segment.lengthMeters;
  for (const [k, v] of Object.entries(segment)) {
    if (k in props || k === 'coordinates' || k === 'sequence' || k === 'type') continue;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') props[k] = v;
  }
  // a centre-line pass's sections along it: active width and the band's middle per coordinate
  for (const k of ['activeWidthsMeters', 'activeOffsetsMeters'] as const) {
    const v = segment[k];
    if (Array.isArray(v) && v.every((x) => typeof x === 'number')) props[k] = [...(v as number[])];
  }
  return {
    type: 'Feature',
    properties: props,
    geometry: { type: 'LineString', coordinates: segment.coordinates.map(lonLat) },
  };
}

/** Route features in driving order, `sequence` renumbered 0, 1, 2, ... */
export function routeFeatures(plan: Pick<Plan, 'route'>): PlanFeature[] {
  return routeInOrder(plan).map((segment, i) => routeFeature(segment, i));
}

/** Context features of a plan (everything but the route). Absent members give no features. */
export function contextFeaturesOf(plan: Plan): PlanFeature[] {
  const features: PlanFeature[] = [];
  if (plan.boundary) features.push({ type: 'Feature', properties: { type: 'Boundary' }, geometry: plan.boundary });
  features.push(...contextFeatures(plan.obstacles, 'Obstacle'));
  features.push(...contextFeatures(plan.headlandAreas ?? plan.headlandPolygons, 'HeadlandArea'));
  features.push(...contextFeatures(plan.cells, 'Cell'));
  features.push(...contextFeatures(plan.crosshatches, 'Crosshatch'));
  features.push(...contextFeatures(plan.guidanceLines ?? plan.abLines, 'GuidanceLine'));
  features.push(...contextFeatures(plan.refillPoints, 'RefillPoint'));
  features.push(...contextFeatures(plan.stagingArea, 'StagingArea'));
  // The gates: one Point each, `index` into the request's `accessPoints` (a bare list of
  // positions would read as a line).
  const gates = Array.isArray(plan.accessPoints) ? plan.accessPoints : [];
  features.push(
    ...contextFeatures(
      gates.map((p) => ({ type: 'Point', coordinates: p })),
      'AccessPoint',
    ),
  );
  features.push(...contextFeatures(plan.nodes, 'Node'));
  for (const warning of plan.warnings ?? []) {
    const geometry = geometryOf(warning.geometry);
    if (geometry)
      features.push({
        type: 'Feature',
        properties: { type: 'Warning', code: warning.code, message: warning.message },
        geometry,
      });
  }
  return features;
}

/** The plan as "Plan GeoJSON" (docs/formats.md): route features first (driving order), then context. */
export function planToFeatureCollection(plan: Plan): PlanFeatureCollection {
  return {
    type: 'FeatureCollection',
    metrics: plan.metrics,
    version: plan.version,
    features: [...routeFeatures(plan), ...contextFeaturesOf(plan)],
  };
}
