/**
 * Zipped Shapefile boundaries in: every polygon layer of the archive (any folder), reprojected
 * from its .prj to WGS84 with proj4, attribute columns kept as properties. Records are parsed by
 * shpjs; the archive, the .prj and the text encoding are handled here: a geographic WGS84 .prj
 * is not "reprojected" (no round-off), a .prj proj4 cannot read is an error (not silently
 * ignored), and a .dbf without .cpg is decoded as UTF-8 when it is valid UTF-8, else Windows-1252.
 */
import * as shpjs from 'shpjs';
import proj4 from 'proj4';
import type { FeatureCollection, Geometry, GeoJsonProperties } from 'geojson';
import {
  boundaryError,
  collectBoundaries,
  entryText,
  isArchiveLimitError,
  isZip,
  unzipArchive,
} from '@furrow/format-geojson';
import type { ParsedBoundary, SourcePlace } from '@furrow/format-geojson';

// shpjs is ESM with named exports; its @types describe a CommonJS `export =`.
const lib = shpjs as unknown as {
  parseShp: (shp: Uint8Array, prj?: string) => Geometry[];
  parseDbf: (dbf: Uint8Array, cpg?: string) => GeoJsonProperties[];
  combine: (parts: [Geometry[], GeoJsonProperties[] | undefined]) => FeatureCollection;
};

export { isZip };

/** A .prj that is plain geographic WGS84: read as is, no transform. */
function isGeographicWgs84(prj: string): boolean {
  const p = prj.trim().toUpperCase();
  return !p.startsWith('PROJCS') && !p.startsWith('PROJCRS') && /WGS[_ ]?(19)?84/.test(p);
}

function utf8OrLatin(bytes: Uint8Array): string {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** A TextDecoder label for a .cpg code page ("UTF-8", "1252", "ANSI 1252", "88591", "ISO-8859-1", ...). */
export function encodingOfCpg(cpg: string, dbfText: Uint8Array): string {
  const c = cpg
    .trim()
    .toUpperCase()
    .replace(/^ANSI\s*/, '')
    .replace(/^CP/, '');
  const label = /^\d{3,4}$/.test(c)
    ? `windows-${c}`
    : /^8859[_-]?(\d+)$/.test(c)
      ? `iso-8859-${/(\d+)$/.exec(c)![1]}`
      : c;
  try {
    new TextDecoder(label);
    return label;
  } catch {
    return utf8OrLatin(dbfText);
  }
}

interface LayerFiles {
  shp?: Uint8Array;
  dbf?: Uint8Array;
  prj?: Uint8Array;
  cpg?: Uint8Array;
}

const LAYER_FILE = /^(.*)\.(shp|dbf|prj|cpg)$/i;

/** Reads the polygon layers of a zipped Shapefile (.shp + .dbf [+ .prj, .cpg]). */
export async function readBoundary(input: Uint8Array, name?: string): Promise<ParsedBoundary[]> {
  const where: SourcePlace = { file: name, format: 'shapefile' };
  if (typeof input === 'string' || !isZip(input))
    throw boundaryError(where, 'expected a ZIP archive holding .shp, .shx, .dbf and .prj files');
  let files: Map<string, Uint8Array>;
  try {
    files = unzipArchive(input, (n) => !n.includes('__MACOSX') && LAYER_FILE.test(n), { file: name }).files;
  } catch (err) {
    if (isArchiveLimitError(err)) throw err;
    throw boundaryError(where, `not a readable zip archive (${err instanceof Error ? err.message : String(err)})`);
  }
  const layers = new Map<string, LayerFiles>();
  for (const [fileName, bytes] of files) {
    const m = LAYER_FILE.exec(fileName)!;
    const entry = layers.get(m[1]) ?? {};
    entry[m[2].toLowerCase() as keyof LayerFiles] = bytes;
    layers.set(m[1], entry);
  }
  const features: { geometry: unknown; properties: Record<string, unknown> }[] = [];
  const places: string[] = [];
  for (const [base, files] of layers) {
    if (!files.shp) continue;
    const layerWhere: SourcePlace = { ...where, place: `layer ${base}` };
    let transform: string | undefined;
    if (files.prj) {
      const prj = entryText(files.prj);
      if (!isGeographicWgs84(prj)) {
        try {
          // checked here because shpjs ignores a .prj proj4 cannot read
          proj4(prj);
          transform = prj;
        } catch {
          throw boundaryError(
            layerWhere,
            `the coordinate system in ${base}.prj is not supported; reproject the shapefile to WGS84 (EPSG:4326)`,
          );
        }
      }
    }
    let collection: FeatureCollection;
    try {
      const geometries = lib.parseShp(files.shp, transform);
      let rows: GeoJsonProperties[] | undefined;
      if (files.dbf) {
        const dbf = files.dbf;
        const text = dbf.subarray(dbf.length > 10 ? dbf[8] | (dbf[9] << 8) : 0);
        const cpg = files.cpg ? encodingOfCpg(entryText(files.cpg), text) : utf8OrLatin(text);
        rows = lib.parseDbf(dbf, cpg);
      }
      collection = lib.combine([geometries, rows]);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw boundaryError(
        layerWhere,
        `could not read the shapefile (${reason}); a layer needs valid .shp, .shx and .dbf files`,
      );
    }
    collection.features.forEach((f, i) => {
      features.push({ geometry: f.geometry, properties: { ...(f.properties ?? {}) } });
      places.push(`layer ${base} record ${i + 1}`);
    });
  }
  if (layers.size === 0 || ![...layers.values()].some((l) => l.shp))
    throw boundaryError(where, 'the archive holds no .shp file');
  if (features.length === 0) throw boundaryError(where, 'the archive holds no shapefile records');
  const out = collectBoundaries(features, where, (i) => places[i]);
  for (const b of out) b.format = 'shapefile';
  return out;
}
