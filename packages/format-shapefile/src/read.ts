/**
 * Zipped Shapefile boundaries in (shpjs): every polygon layer of the archive, reprojected
 * from its .prj to WGS84, attribute columns kept as properties.
 */
import * as shpjs from 'shpjs';
import type { FeatureCollection } from 'geojson';
import { boundaryError, collectBoundaries } from '@furrow/format-geojson';
import type { ParsedBoundary, SourcePlace } from '@furrow/format-geojson';

// shpjs is ESM with named exports; its @types describe a CommonJS `export =`.
const { parseZip } = shpjs as unknown as { parseZip: (buffer: ArrayBuffer) => Promise<FeatureCollection | FeatureCollection[]> };

/** True if the bytes start like a ZIP archive. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5) && (bytes[3] === 4 || bytes[3] === 6);
}

/** Reads the polygon layers of a zipped Shapefile (.shp + .dbf [+ .prj, .cpg]). */
export async function readBoundary(input: Uint8Array, name?: string): Promise<ParsedBoundary[]> {
  const where: SourcePlace = { file: name, format: 'shapefile' };
  if (typeof input === 'string' || !isZip(input)) throw boundaryError(where, 'expected a ZIP archive holding .shp, .shx, .dbf and .prj files');
  let parsed: FeatureCollection | FeatureCollection[];
  try {
    parsed = await parseZip(input.buffer.slice(input.byteOffset, input.byteOffset + input.byteLength) as ArrayBuffer);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw boundaryError(where, `could not read the shapefile (${reason}); the archive needs .shp and .dbf files, and a .prj unless in WGS84`);
  }
  const layers = (Array.isArray(parsed) ? parsed : [parsed]) as (FeatureCollection & { fileName?: string })[];
  const features: { geometry: unknown; properties: Record<string, unknown> }[] = [];
  const places: string[] = [];
  for (const layer of layers) {
    layer.features.forEach((f, i) => {
      features.push({ geometry: f.geometry, properties: { ...(f.properties ?? {}) } });
      places.push(`layer ${layer.fileName ?? '?'} record ${i + 1}`);
    });
  }
  if (features.length === 0) throw boundaryError(where, 'the archive holds no shapefile records');
  const out = collectBoundaries(features, where, (i) => places[i]);
  for (const b of out) b.format = 'shapefile';
  return out;
}
