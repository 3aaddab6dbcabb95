/**
 * @furrow/format-dem — digital elevation models in: GeoTIFF (geotiff.js) and the JSON elevation
 * grid. Both give core's `ElevationGrid`, which `analyzeFieldTerrain` / `routeSlopeStatistics` take.
 */
import type { ElevationGrid } from '@furrow/core';
import { isTiff, readGeoTiffDem, type ReadGeoTiffOptions } from './geotiff.js';
import { readElevationGridJson } from './json.js';
import { demError } from './errors.js';

export { isTiff, readGeoTiffDem, type ReadGeoTiffOptions } from './geotiff.js';
export { readElevationGridJson, writeElevationGridJson, type ElevationGridJson } from './json.js';

/** Reads a DEM of either format, told apart by content (TIFF header or JSON object). */
export async function readDem(
  bytes: ArrayBuffer | Uint8Array | string,
  options: ReadGeoTiffOptions = {},
): Promise<ElevationGrid> {
  const file = options.fileName ?? 'DEM';
  if (typeof bytes === 'string') return readElevationGridJson(bytes, file);
  const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
  if (isTiff(view)) return readGeoTiffDem(view, options);
  let i = 0;
  while (
    i < view.length &&
    (view[i] === 0x20 ||
      view[i] === 0x0a ||
      view[i] === 0x0d ||
      view[i] === 0x09 ||
      view[i] === 0xef ||
      view[i] === 0xbb ||
      view[i] === 0xbf)
  )
    i++;
  if (view[i] === 0x7b) return readElevationGridJson(new TextDecoder().decode(view), file);
  throw demError(file, 'neither a GeoTIFF nor a JSON elevation grid');
}
