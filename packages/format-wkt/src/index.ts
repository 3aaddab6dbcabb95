/**
 * WKT: boundaries in (POLYGON, MULTIPOLYGON with holes, GEOMETRYCOLLECTION of those,
 * EWKT with SRID=4326; one geometry per line when a file holds several) and out.
 */
import { geoJSONToWkt, wktToGeoJSON } from 'betterknown';
import type { Geometry } from 'geojson';
import type { FieldGeometry, Plan } from '@furrow/core';
import { boundaryError, routeInOrder, textOf, toFieldGeometry } from '@furrow/format-geojson';
import type { ParsedBoundary, SourcePlace } from '@furrow/format-geojson';

const WKT_START =
  /^\s*(SRID=\d+\s*;\s*)?(POLYGON|MULTIPOLYGON|GEOMETRYCOLLECTION|POINT|LINESTRING|MULTIPOINT|MULTILINESTRING)\b/i;

/** True if the text looks like WKT / EWKT. */
export function looksLikeWkt(text: string): boolean {
  return WKT_START.test(text);
}

function srid(text: string): number | undefined {
  const m = /^\s*SRID=(\d+)\s*;/i.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** Splits a text holding several WKT geometries (one per line, or back to back) at top-level keywords. */
function splitGeometries(text: string): { wkt: string; line: number }[] {
  const out: { wkt: string; line: number }[] = [];
  let depth = 0;
  let start = -1;
  let line = 1;
  let startLine = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    if (start < 0 && /[A-Za-z]/.test(c)) {
      start = i;
      startLine = line;
    }
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0 && start >= 0) {
        out.push({ wkt: text.slice(start, i + 1), line: startLine });
        start = -1;
      }
    } else if (depth === 0 && start >= 0 && /EMPTY/i.test(text.slice(i, i + 5)) && /[A-Za-z]/.test(c)) {
      // "POLYGON EMPTY": end at the keyword
      const end = text.toUpperCase().indexOf('EMPTY', i) + 5;
      out.push({ wkt: text.slice(start, end), line: startLine });
      start = -1;
      i = end - 1;
    }
    if (depth < 0) return [{ wkt: text, line: 1 }];
  }
  if (start >= 0) out.push({ wkt: text.slice(start), line: startLine });
  return out;
}

/** Reads one boundary per polygonal WKT geometry in the text. Coordinates must be lon/lat (SRID 4326). */
export function readBoundary(input: string | Uint8Array, name?: string): ParsedBoundary[] {
  const where: SourcePlace = { file: name, format: 'wkt' };
  const text = textOf(input).trim();
  if (!looksLikeWkt(text))
    throw boundaryError(where, 'does not start with a WKT geometry keyword (POLYGON, MULTIPOLYGON, ...)');
  const out: ParsedBoundary[] = [];
  for (const { wkt, line } of splitGeometries(text)) {
    const place = `line ${line}, geometry`;
    const code = srid(wkt);
    if (code !== undefined && code !== 4326 && code !== 4258) {
      throw boundaryError({ ...where, place }, `SRID=${code} is not supported: give WGS84 lon/lat (SRID=4326)`);
    }
    let geometry: Geometry | null;
    try {
      geometry = wktToGeoJSON(wkt.replace(/^\s*SRID=\d+\s*;\s*/i, ''));
    } catch (err) {
      throw boundaryError({ ...where, place }, `not valid WKT (${err instanceof Error ? err.message : String(err)})`);
    }
    if (geometry === null) throw boundaryError({ ...where, place }, 'empty geometry');
    if (
      geometry.type === 'Point' ||
      geometry.type === 'LineString' ||
      geometry.type === 'MultiPoint' ||
      geometry.type === 'MultiLineString'
    ) {
      continue;
    }
    out.push({ geometry: toFieldGeometry(geometry, where, place), properties: {}, format: 'wkt' });
  }
  if (out.length === 0) throw boundaryError(where, 'no POLYGON or MULTIPOLYGON found');
  return out;
}

/** A boundary as WKT (POLYGON or MULTIPOLYGON, full double precision). */
export function boundaryToWkt(geometry: FieldGeometry): string {
  return geoJSONToWkt(geometry as Geometry);
}

/** Boundaries as WKT, one geometry per line. */
export function writeBoundaries(boundaries: Pick<ParsedBoundary, 'geometry'>[]): string {
  return boundaries.map((b) => boundaryToWkt(b.geometry)).join('\n') + '\n';
}

/**
 * The plan as one WKT GEOMETRYCOLLECTION: the boundary polygon first, then every route
 * piece as a LINESTRING in driving order (WKT has no attributes: use GeoJSON, KML or
 * Shapefile to keep types and sequence numbers).
 */
export function planToWkt(plan: Plan): string {
  const geometries: Geometry[] = [];
  if (plan.boundary) geometries.push(plan.boundary as Geometry);
  for (const segment of routeInOrder(plan)) {
    geometries.push({ type: 'LineString', coordinates: segment.coordinates.map((p) => [p[0], p[1]]) });
  }
  return geoJSONToWkt({ type: 'GeometryCollection', geometries });
}
