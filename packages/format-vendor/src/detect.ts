/**
 * Boundary format detection from content (file name only as a tie-breaker) and one reader
 * for all: GeoJSON, WKT, KML / KMZ, zipped Shapefile, ISO-XML TASKDATA.XML (or a zip of it).
 */
import { boundaryError, entryText, isZip, readBoundary as readGeoJson, textOf, unzipArchive } from '@furrow/format-geojson';
import type { BoundaryFormat, ParsedBoundary } from '@furrow/format-geojson';
import { looksLikeWkt, readBoundary as readWkt } from '@furrow/format-wkt';
import { readBoundary as readKml } from '@furrow/format-kml';
import { readBoundary as readShapefile } from '@furrow/format-shapefile';
import { readBoundary as readIsoxml } from '@furrow/format-isoxml';

function extensionOf(filename?: string): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(filename ?? '');
  return m ? m[1].toLowerCase() : '';
}

/** The boundary format of a file, from its content; the file name decides only when the content cannot. */
export function detectFormat(input: Uint8Array | string, filename?: string): BoundaryFormat {
  const ext = extensionOf(filename);
  if (typeof input !== 'string' && isZip(input)) {
    const names = unzipArchive(input, () => false, { file: filename }).names.map((n) => n.toLowerCase());
    if (names.some((n) => /(^|\/)taskdata\.xml$/.test(n))) return 'isoxml';
    if (names.some((n) => n.endsWith('.shp'))) return 'shapefile';
    if (names.some((n) => n.endsWith('.kml'))) return 'kml';
    if (ext === 'kmz') return 'kml';
    throw boundaryError({ file: filename, format: 'shapefile' }, 'a zip archive without a .shp, TASKDATA.XML or .kml file in it');
  }
  const text = textOf(input).trimStart();
  if (text.startsWith('{')) return 'geojson';
  if (text.startsWith('<')) {
    const head = text.slice(0, 4096);
    if (/<(\w+:)?kml[\s>]/.test(head)) return 'kml';
    if (/<ISO11783_TaskData[\s>]/.test(head)) return 'isoxml';
    if (ext === 'kml') return 'kml';
    if (ext === 'xml') return 'isoxml';
  }
  if (looksLikeWkt(text)) return 'wkt';
  const byExt: Record<string, BoundaryFormat> = { geojson: 'geojson', json: 'geojson', wkt: 'wkt', kml: 'kml', xml: 'isoxml', zip: 'shapefile', shp: 'shapefile' };
  if (byExt[ext]) return byExt[ext];
  throw boundaryError(
    { file: filename, format: 'geojson' },
    'unrecognised boundary format: expected GeoJSON, WKT, KML, a zipped Shapefile or an ISO-XML TASKDATA.XML',
  );
}

async function readKmz(bytes: Uint8Array, name?: string): Promise<ParsedBoundary[]> {
  const { files } = unzipArchive(bytes, (n) => n.toLowerCase().endsWith('.kml'), { file: name });
  const [entry] = files.keys();
  if (entry === undefined) throw boundaryError({ file: name, format: 'kml' }, 'the KMZ archive holds no .kml file');
  return readKml(entryText(files.get(entry)!), `${name ?? 'archive'}:${entry}`);
}

/** Reads a boundary file of any supported format (detected from the content). */
export async function readAnyBoundary(input: Uint8Array | string, filename?: string): Promise<ParsedBoundary[]> {
  const format = detectFormat(input, filename);
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  switch (format) {
    case 'geojson':
      return readGeoJson(input, filename);
    case 'wkt':
      return readWkt(input, filename);
    case 'kml':
      return typeof input !== 'string' && isZip(input) ? readKmz(input, filename) : readKml(input, filename);
    case 'shapefile':
      return readShapefile(bytes, filename);
    case 'isoxml':
      return readIsoxml(input, filename);
  }
}
