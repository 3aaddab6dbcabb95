/**
 * Boundary format detection from content (file name only as a tie-breaker) and one reader
 * for all: GeoJSON, WKT, KML / KMZ, zipped Shapefile, ISO-XML TASKDATA.XML (or a zip of it),
 * AgOpenGPS field folders (zipped, or as a folder's files).
 */
import {
  boundaryError,
  entryText,
  isZip,
  readBoundary as readGeoJson,
  textOf,
  unzipArchive,
} from '@furrow/format-geojson';
import type { BoundaryFormat, ParsedBoundary } from '@furrow/format-geojson';
import { looksLikeWkt, readBoundary as readWkt } from '@furrow/format-wkt';
import { readBoundary as readKml } from '@furrow/format-kml';
import { readBoundary as readShapefile } from '@furrow/format-shapefile';
import { readBoundary as readIsoxml } from '@furrow/format-isoxml';
import { isAgOpenGpsFolder, readBoundary as readAgOpenGps, readFieldFolders } from '@furrow/format-agopengps';

function extensionOf(filename?: string): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(filename ?? '');
  return m ? m[1].toLowerCase() : '';
}

/** What the start of an unrecognised file looks like, for the error message (at most 40 characters, quoted). */
function describeText(text: string): string {
  if (text.length === 0) return 'an empty file';
  if (text.startsWith('<')) {
    const root = /<(?![?!])([\w:.-]+)/.exec(text.slice(0, 4096));
    return root ? `an XML document whose root element is <${root[1]}>` : 'an XML document without a root element';
  }
  const head = text
    .slice(0, 40)
    .replace(/\s+/g, ' ')
    .replace(/[^\x20-\x7e\u00a0-\uffff]/g, '?');
  return `content starting with "${head}${text.length > 40 ? '…' : ''}"`;
}

/** The boundary format of a file, from its content; the file name decides only when the content cannot. */
export function detectFormat(input: Uint8Array | string, filename?: string): BoundaryFormat {
  const ext = extensionOf(filename);
  if (typeof input !== 'string' && isZip(input)) {
    const names = unzipArchive(input, () => false, { file: filename }).names.map((n) => n.toLowerCase());
    if (names.some((n) => /(^|\/)taskdata\.xml$/.test(n))) return 'isoxml';
    // before .kml: AgOpenGPS keeps a Field.kml in its field folders
    if (isAgOpenGpsFolder(names)) return 'agopengps';
    if (names.some((n) => n.endsWith('.shp'))) return 'shapefile';
    if (names.some((n) => n.endsWith('.kml'))) return 'kml';
    if (ext === 'kmz') return 'kml';
    const shown = names.filter((n) => !n.endsWith('/')).slice(0, 5);
    const listed = shown.length === 0 ? 'nothing' : shown.join(', ') + (names.length > shown.length ? ', …' : '');
    throw boundaryError(
      { file: filename },
      `a zip archive without a .shp, TASKDATA.XML, .kml file or AgOpenGPS field folder (Field.txt and ` +
        `Boundary.txt) in it (it holds ${listed})`,
    );
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
  const byExt: Record<string, BoundaryFormat> = {
    geojson: 'geojson',
    json: 'geojson',
    wkt: 'wkt',
    kml: 'kml',
    xml: 'isoxml',
    zip: 'shapefile',
    shp: 'shapefile',
  };
  if (byExt[ext]) return byExt[ext];
  throw boundaryError(
    { file: filename },
    `unrecognised boundary format: saw ${describeText(text)}; expected GeoJSON, WKT, KML, a zipped Shapefile or an ` +
      `ISO-XML TASKDATA.XML`,
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
    case 'agopengps':
      return readAgOpenGps(bytes, filename);
  }
}

/**
 * The boundaries of a folder, given as its files (relative path → content): AgOpenGPS field
 * folders (a Field.txt beside a Boundary.txt, at the top or one level down).
 */
export function readBoundaryFolder(files: Record<string, Uint8Array | string>, folder?: string): ParsedBoundary[] {
  return readFieldFolders(files, folder);
}
