/** GeoJSON boundaries in: a geometry, a Feature or a FeatureCollection (RFC 7946). */
import type { GeoJsonPolygon } from '@furrow/core';
import { boundaryError, isPolygonal, polygonsOf, textOf, toFieldGeometry } from './boundary.js';
import type { ParsedBoundary, SourcePlace } from './boundary.js';

interface FeatureLike {
  type?: unknown;
  geometry?: unknown;
  properties?: unknown;
  id?: unknown;
}

function parseJson(text: string, where: SourcePlace): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw boundaryError(where, `not valid JSON (${reason})`);
  }
}

function propertiesOf(feature: FeatureLike): Record<string, unknown> {
  const props = feature.properties;
  const out: Record<string, unknown> = props && typeof props === 'object' && !Array.isArray(props) ? { ...props } : {};
  if (feature.id !== undefined && out.id === undefined) out.id = feature.id;
  return out;
}

function firstPosition(geometry: GeoJsonPolygon): [number, number] {
  return geometry.coordinates[0][0];
}

function inBox(p: [number, number], rings: number[][][]): boolean {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of rings[0]) {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return p[0] >= minX && p[0] <= maxX && p[1] >= minY && p[1] <= maxY;
}

/**
 * Reads the polygonal features of a GeoJSON text. A plan GeoJSON (features typed
 * `Boundary` / `Obstacle`) gives its boundary with the obstacles attached; any other
 * collection gives one boundary per polygonal feature (non-polygonal features are ignored).
 */
export function readBoundary(input: string | Uint8Array, name?: string): ParsedBoundary[] {
  const where: SourcePlace = { file: name, format: 'geojson' };
  const json = parseJson(textOf(input), where) as FeatureLike & { features?: unknown };
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw boundaryError(where, 'expected a GeoJSON object');
  }
  if (json.type === 'Feature') {
    return [
      {
        geometry: toFieldGeometry(json.geometry, where, 'geometry'),
        properties: propertiesOf(json),
        format: 'geojson',
      },
    ];
  }
  if (json.type !== 'FeatureCollection') {
    return [{ geometry: toFieldGeometry(json, where, '(root)'), properties: {}, format: 'geojson' }];
  }
  if (!Array.isArray(json.features)) throw boundaryError({ ...where, place: 'features' }, 'features must be an array');
  const features = json.features as FeatureLike[];
  features.forEach((feature, i) => {
    if (feature === null || typeof feature !== 'object' || feature.type !== 'Feature') {
      throw boundaryError({ ...where, place: `features[${i}]` }, 'expected a Feature');
    }
  });
  return collectBoundaries(
    features.map((f) => ({ geometry: f.geometry, properties: propertiesOf(f) })),
    where,
    (i) => `features[${i}].geometry`,
  );
}

/**
 * Boundaries from a list of features: when some are typed `Boundary` (a plan export), those
 * are the boundaries and polygons typed `Obstacle` are attached to the boundary they lie in;
 * otherwise every polygonal feature is a boundary. Non-polygonal features are ignored.
 */
export function collectBoundaries(
  features: { geometry: unknown; properties: Record<string, unknown> }[],
  where: SourcePlace,
  placeOf: (index: number) => string,
): ParsedBoundary[] {
  const typed = features.some((f) => f.properties.type === 'Boundary');
  const boundaries: ParsedBoundary[] = [];
  const obstacles: GeoJsonPolygon[] = [];
  features.forEach((feature, i) => {
    if (!isPolygonal(feature.geometry)) return;
    const kind = feature.properties.type;
    if (typed && kind !== 'Boundary' && kind !== 'Obstacle') return;
    const geometry = toFieldGeometry(feature.geometry, where, placeOf(i));
    if (typed && kind === 'Obstacle') {
      for (const rings of polygonsOf(geometry)) obstacles.push({ type: 'Polygon', coordinates: rings });
      return;
    }
    const properties = { ...feature.properties };
    if (typed) delete properties.type;
    boundaries.push({ geometry, properties, format: where.format ?? 'geojson' });
  });
  if (boundaries.length === 0) throw boundaryError(where, 'no Polygon or MultiPolygon feature found');
  for (const obstacle of obstacles) {
    const p = firstPosition(obstacle);
    const owner = boundaries.find((b) => polygonsOf(b.geometry).some((rings) => inBox(p, rings))) ?? boundaries[0];
    (owner.obstacles ??= []).push(obstacle);
  }
  return boundaries;
}

/** A boundary as a GeoJSON Feature (for writing it back out). */
export function boundaryToFeature(boundary: Pick<ParsedBoundary, 'geometry' | 'properties'>): {
  type: 'Feature';
  properties: Record<string, unknown>;
  geometry: ParsedBoundary['geometry'];
} {
  return { type: 'Feature', properties: { ...boundary.properties }, geometry: boundary.geometry };
}

/** Boundaries as a GeoJSON FeatureCollection text (obstacles as `Obstacle` features when present). */
export function writeBoundaries(boundaries: Pick<ParsedBoundary, 'geometry' | 'properties' | 'obstacles'>[]): string {
  const features: unknown[] = [];
  const withObstacles = boundaries.some((b) => b.obstacles && b.obstacles.length > 0);
  for (const b of boundaries) {
    const props = withObstacles ? { ...b.properties, type: 'Boundary' } : { ...b.properties };
    features.push({ type: 'Feature', properties: props, geometry: b.geometry });
    for (const o of b.obstacles ?? [])
      features.push({ type: 'Feature', properties: { type: 'Obstacle' }, geometry: o });
  }
  return JSON.stringify({ type: 'FeatureCollection', features });
}
