/**
 * The common shape every boundary reader returns, and the step that turns loose
 * GeoJSON-like geometry into a clean RFC 7946 polygon: validated by the planner's own boundary
 * validation (the same codes and messages as `planRoute` and the API), then outer rings
 * counter-clockwise, holes clockwise, no Z, no repeated positions.
 */
import { PlanError, isPlanError, validateFieldGeometry } from '@furrow/core';
import type { FieldGeometry, GeoJsonPolygon, Position, Ring } from '@furrow/core';

export type BoundaryFormat = 'geojson' | 'wkt' | 'kml' | 'shapefile' | 'isoxml' | 'agopengps';

/** One field read from a boundary file. */
export interface ParsedBoundary {
  /** lon/lat, RFC 7946 orientation (outer rings CCW, holes CW), rings closed. */
  geometry: FieldGeometry;
  /** Attributes of the source feature (Grower / Farm / Field, name, ...). */
  properties: Record<string, unknown>;
  /** No-go zones given apart from the boundary's holes (ISO-XML PLN type 6, plan GeoJSON `Obstacle`). */
  obstacles?: GeoJsonPolygon[];
  /** Zones the machine may drive over but never works (AgOpenGPS holes marked drive-through). */
  passableZones?: GeoJsonPolygon[];
  /** Format it was read from. */
  format: BoundaryFormat;
}

/** Where a problem is: file name, format (unset while it is not known) and place inside the file. */
export interface SourcePlace {
  file?: string;
  format?: BoundaryFormat;
  place?: string;
}

function describePlace(where: SourcePlace): string {
  const format = where.format ? ` (${where.format})` : '';
  const place = where.place ? ` at ${where.place}` : '';
  return `${where.file ?? 'input'}${format}${place}`;
}

/** A `PlanError('invalid-boundary')` whose message names file, format and place. */
export function boundaryError(where: SourcePlace, message: string): PlanError {
  const file = where.file ?? 'input';
  const text = `${describePlace(where)}: ${message}`;
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
  return {
    type: 'MultiPolygon',
    coordinates: geometry.coordinates.map((p) => rewindPolygon(p, outerCounterClockwise)),
  };
}

/** Positions as given, Z dropped; whatever is not a position is left for the validation to name. */
function positionsOf(ring: unknown): unknown {
  return Array.isArray(ring) ? ring.map((p: unknown) => (Array.isArray(p) && p.length > 2 ? [p[0], p[1]] : p)) : ring;
}

/** Rings without repeated consecutive positions, outer counter-clockwise and holes clockwise. */
function tidyPolygon(rings: Ring[]): Ring[] {
  return rewindPolygon(
    rings.map((ring) => ring.filter((p, i) => i === 0 || p[0] !== ring[i - 1][0] || p[1] !== ring[i - 1][1])),
  );
}

/**
 * The planner's boundary validation (`validateFieldGeometry` of @furrow/core: closed rings, enough
 * corners, lon/lat in range, no self-intersection, holes inside the shell), so a file gets the same
 * code and message as the same boundary sent to `planRoute` or the API; the message also names
 * the file and the format.
 */
function validated(geometry: FieldGeometry, where: SourcePlace, place: string): FieldGeometry {
  try {
    validateFieldGeometry(geometry, place);
  } catch (err) {
    if (!isPlanError(err)) throw err;
    const detail = err.details?.[0] ?? { path: place, message: err.message };
    throw new PlanError(err.code, `${describePlace({ ...where, place: detail.path })}: ${detail.message}`, err.details);
  }
  return geometry.type === 'Polygon'
    ? { type: 'Polygon', coordinates: tidyPolygon(geometry.coordinates) }
    : { type: 'MultiPolygon', coordinates: geometry.coordinates.map(tidyPolygon) };
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
    const rings = Array.isArray(g.coordinates) ? g.coordinates.map(positionsOf) : g.coordinates;
    return validated({ type: 'Polygon', coordinates: rings as Ring[] }, where, place);
  }
  if (g.type === 'MultiPolygon') {
    if (!Array.isArray(g.coordinates) || g.coordinates.length === 0) {
      throw boundaryError({ ...where, place }, 'a MultiPolygon needs at least one polygon');
    }
    const polys = g.coordinates.map((p: unknown) => (Array.isArray(p) ? p.map(positionsOf) : p));
    return validated({ type: 'MultiPolygon', coordinates: polys as Ring[][] }, where, place);
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
    return polys.length === 1
      ? { type: 'Polygon', coordinates: polys[0] }
      : { type: 'MultiPolygon', coordinates: polys };
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
