/**
 * The common shape every boundary reader returns, and the checks that turn loose
 * GeoJSON-like geometry into a clean RFC 7946 polygon (closed rings, lon/lat in range,
 * outer rings counter-clockwise, holes clockwise, no Z).
 */
import { PlanError } from '@furrow/core';
import type { FieldGeometry, GeoJsonPolygon, Position, Ring } from '@furrow/core';

export type BoundaryFormat = 'geojson' | 'wkt' | 'kml' | 'shapefile' | 'isoxml';

/** One field read from a boundary file. */
export interface ParsedBoundary {
  /** lon/lat, RFC 7946 orientation (outer rings CCW, holes CW), rings closed. */
  geometry: FieldGeometry;
  /** Attributes of the source feature (Grower / Farm / Field, name, ...). */
  properties: Record<string, unknown>;
  /** No-go zones given apart from the boundary's holes (ISO-XML PLN type 6, plan GeoJSON `Obstacle`). */
  obstacles?: GeoJsonPolygon[];
  /** Format it was read from. */
  format: BoundaryFormat;
}

/** Where a problem is: file name, format and place inside the file. */
export interface SourcePlace {
  file?: string;
  format: BoundaryFormat;
  place?: string;
}

/** A `PlanError('invalid-boundary')` whose message names file, format and place. */
export function boundaryError(where: SourcePlace, message: string): PlanError {
  const file = where.file ?? 'input';
  const place = where.place ? ` at ${where.place}` : '';
  const text = `${file} (${where.format})${place}: ${message}`;
  return new PlanError('invalid-boundary', text, [{ path: where.place ?? file, message }]);
}

/** Twice the signed area of a lon/lat ring (shoelace; > 0 = counter-clockwise). */
export function ringSignedArea(ring: readonly Position[]): number {
  let sum = 0;
  const n = ring.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  }
  return sum;
}

function rewound(ring: Ring, counterClockwise: boolean): Ring {
  const ccw = ringSignedArea(ring) > 0;
  return ccw === counterClockwise ? ring : ring.slice().reverse();
}

/** Rings rewound: outer counter-clockwise, holes clockwise (RFC 7946), or the opposite (shapefile). */
export function rewindPolygon(rings: Ring[], outerCounterClockwise = true): Ring[] {
  return rings.map((ring, i) => rewound(ring, i === 0 ? outerCounterClockwise : !outerCounterClockwise));
}

export function rewindGeometry(geometry: FieldGeometry, outerCounterClockwise = true): FieldGeometry {
  if (geometry.type === 'Polygon') {
    return { type: 'Polygon', coordinates: rewindPolygon(geometry.coordinates, outerCounterClockwise) };
  }
  return { type: 'MultiPolygon', coordinates: geometry.coordinates.map((p) => rewindPolygon(p, outerCounterClockwise)) };
}

function checkPosition(value: unknown, where: SourcePlace, place: string): Position {
  if (!Array.isArray(value) || value.length < 2) {
    throw boundaryError({ ...where, place }, 'a position must be [longitude, latitude]');
  }
  const lon = Number(value[0]);
  const lat = Number(value[1]);
  if (typeof value[0] !== 'number' || typeof value[1] !== 'number' || !Number.isFinite(lon) || !Number.isFinite(lat)) {
    throw boundaryError({ ...where, place }, 'longitude and latitude must be finite numbers');
  }
  if (lon < -180 || lon > 180 || lat < -90 || lat > 90) {
    throw boundaryError(
      { ...where, place },
      `[${lon}, ${lat}] is not a WGS84 longitude/latitude (projected coordinates? reproject to EPSG:4326 first)`,
    );
  }
  return [lon, lat];
}

/** A clean ring: positions checked, Z dropped, closed, consecutive duplicates removed, ≥ 3 distinct points. */
export function checkRing(value: unknown, where: SourcePlace, place: string): Ring {
  if (!Array.isArray(value)) throw boundaryError({ ...where, place }, 'a ring must be a list of positions');
  const ring: Ring = [];
  for (let i = 0; i < value.length; i++) {
    const p = checkPosition(value[i], where, `${place}[${i}]`);
    const last = ring[ring.length - 1];
    if (last === undefined || last[0] !== p[0] || last[1] !== p[1]) ring.push(p);
  }
  if (ring.length > 1 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1]) ring.pop();
  if (ring.length < 3) {
    throw boundaryError({ ...where, place }, `a ring needs at least 3 distinct positions, found ${ring.length}`);
  }
  if (ringSignedArea(ring) === 0) throw boundaryError({ ...where, place }, 'the ring has zero area');
  ring.push([ring[0][0], ring[0][1]]);
  return ring;
}

function checkPolygonRings(value: unknown, where: SourcePlace, place: string): Ring[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw boundaryError({ ...where, place }, 'a polygon needs at least an outer ring');
  }
  return rewindPolygon(value.map((r, i) => checkRing(r, where, `${place}[${i}]`)));
}

/**
 * Checks a GeoJSON-like polygonal geometry and returns it clean, in RFC 7946 orientation.
 * A GeometryCollection of polygons becomes a MultiPolygon; a MultiPolygon of one polygon stays a MultiPolygon.
 */
export function toFieldGeometry(geometry: unknown, where: SourcePlace, place = 'geometry'): FieldGeometry {
  if (geometry === null || typeof geometry !== 'object') {
    throw boundaryError({ ...where, place }, 'expected a Polygon or MultiPolygon geometry');
  }
  const g = geometry as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  if (g.type === 'Polygon') {
    return { type: 'Polygon', coordinates: checkPolygonRings(g.coordinates, where, `${place}.coordinates`) };
  }
  if (g.type === 'MultiPolygon') {
    if (!Array.isArray(g.coordinates) || g.coordinates.length === 0) {
      throw boundaryError({ ...where, place }, 'a MultiPolygon needs at least one polygon');
    }
    const polys = g.coordinates.map((p, i) => checkPolygonRings(p, where, `${place}.coordinates[${i}]`));
    return { type: 'MultiPolygon', coordinates: polys };
  }
  if (g.type === 'GeometryCollection' && Array.isArray(g.geometries)) {
    const polys: Ring[][] = [];
    g.geometries.forEach((child, i) => {
      const type = (child as { type?: unknown } | null)?.type;
      if (type !== 'Polygon' && type !== 'MultiPolygon') return;
      const field = toFieldGeometry(child, where, `${place}.geometries[${i}]`);
      if (field.type === 'Polygon') polys.push(field.coordinates);
      else polys.push(...field.coordinates);
    });
    if (polys.length === 0) throw boundaryError({ ...where, place }, 'the GeometryCollection holds no polygon');
    return polys.length === 1 ? { type: 'Polygon', coordinates: polys[0] } : { type: 'MultiPolygon', coordinates: polys };
  }
  throw boundaryError(
    { ...where, place },
    `expected a Polygon or MultiPolygon, found ${typeof g.type === 'string' ? g.type : 'no geometry type'}`,
  );
}

/** True if the geometry type is one a boundary can be made of. */
export function isPolygonal(geometry: unknown): boolean {
  const type = (geometry as { type?: unknown } | null)?.type;
  if (type === 'Polygon' || type === 'MultiPolygon') return true;
  if (type === 'GeometryCollection') {
    const children = (geometry as { geometries?: unknown }).geometries;
    return Array.isArray(children) && children.some(isPolygonal);
  }
  return false;
}

/** The polygons of a field geometry, as a list of ring lists. */
export function polygonsOf(geometry: FieldGeometry): Ring[][] {
  return geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
}

/** Text of a file given as a string or bytes (UTF-8, BOM dropped). */
export function textOf(input: string | Uint8Array): string {
  const text = typeof input === 'string' ? input : new TextDecoder('utf-8').decode(input);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
