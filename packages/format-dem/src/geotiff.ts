/**
 * GeoTIFF digital elevation models, read with the maintained `geotiff` package (geotiff.js):
 * a single-band raster, north-up (no rotation), in a geographic or projected CRS named by an
 * EPSG code in its GeoKeys (or given by the caller), elevations in meters (feet are converted).
 */
import { fromArrayBuffer, type GeoTIFFImage } from 'geotiff';
import { validateElevationGrid, type ElevationGrid } from '@furrow/core';
import { demError } from './errors.js';

export interface ReadGeoTiffOptions {
  /** Name used in error messages (default "GeoTIFF"). */
  fileName?: string;
  /** Band to read, from 0 (default 0). */
  band?: number;
  /** CRS to use when the file has none or a user-defined one: `EPSG:…` or a proj4 definition. */
  crs?: string;
  /** Which image of a multi-image file (e.g. overviews), from 0 (default 0, full resolution). */
  image?: number;
}

const USER_DEFINED = 32767;
/** GeoTIFF linear unit codes (EPSG) → meters. */
const VERTICAL_UNITS: Record<number, number> = { 9001: 1, 9002: 0.3048, 9003: 1200 / 3937 };

function toArrayBuffer(bytes: ArrayBuffer | Uint8Array): ArrayBuffer {
  if (bytes instanceof ArrayBuffer) return bytes;
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}

/** True when the bytes start with a TIFF or BigTIFF header. */
export function isTiff(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const le = bytes[0] === 0x49 && bytes[1] === 0x49 && (bytes[2] === 42 || bytes[2] === 43) && bytes[3] === 0;
  const be = bytes[0] === 0x4d && bytes[1] === 0x4d && bytes[2] === 0 && (bytes[3] === 42 || bytes[3] === 43);
  return le || be;
}

function crsOf(image: GeoTIFFImage, file: string, override: string | undefined): string {
  if (override !== undefined) return override;
  const keys = image.getGeoKeys() ?? {};
  const projected = keys.ProjectedCSTypeGeoKey as number | undefined;
  const geographic = keys.GeographicTypeGeoKey as number | undefined;
  const model = keys.GTModelTypeGeoKey as number | undefined;
  if (model !== 2 && projected !== undefined && projected !== USER_DEFINED) return `EPSG:${projected}`;
  if (geographic !== undefined && geographic !== USER_DEFINED && (model === 2 || projected === undefined))
    return `EPSG:${geographic}`;
  throw demError(
    file,
    'the GeoTIFF names no EPSG coordinate system (user-defined or missing GeoKeys): pass the CRS explicitly (crs: ' +
      '"EPSG:…" or a proj4 definition)',
    'terrain.grid.crs',
  );
}

/** Reads one band of a GeoTIFF DEM into an ElevationGrid (row 0 north, meters). */
export async function readGeoTiffDem(
  bytes: ArrayBuffer | Uint8Array,
  options: ReadGeoTiffOptions = {},
): Promise<ElevationGrid> {
  const file = options.fileName ?? 'GeoTIFF';
  const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
  if (!isTiff(view)) throw demError(file, 'not a TIFF file (no II*/MM* header)');
  let image: GeoTIFFImage;
  try {
    const tiff = await fromArrayBuffer(toArrayBuffer(bytes));
    const count = await tiff.getImageCount();
    const index = options.image ?? 0;
    if (!(Number.isInteger(index) && index >= 0 && index < count))
      throw demError(file, `image ${index} does not exist (the file has ${count})`);
    image = await tiff.getImage(index);
  } catch (err) {
    if (err instanceof Error && err.name === 'PlanError') throw err;
    throw demError(file, `cannot read the TIFF structure (${err instanceof Error ? err.message : String(err)})`);
  }
  const columns = image.getWidth();
  const rows = image.getHeight();
  const bands = image.getSamplesPerPixel();
  if (columns * rows > 25_000_000) {
    throw demError(
      file,
      `the raster has ${columns} × ${rows} cells; at most 25,000,000 are read — crop it to the field first ` +
        `(gdal_translate -projwin)`,
    );
  }
  const band = options.band ?? 0;
  if (!(Number.isInteger(band) && band >= 0 && band < bands))
    throw demError(file, `band ${band} does not exist (the file has ${bands})`);

  const fd = image.fileDirectory;
  const scale = fd.getValue('ModelPixelScale') as number[] | undefined;
  const tie = fd.getValue('ModelTiepoint') as number[] | undefined;
  const mt = fd.getValue('ModelTransformation') as number[] | undefined;
  let originX: number, originY: number, cellX: number, cellY: number; // cellY > 0 means rows go south
  if (scale && tie && tie.length >= 6) {
    cellX = scale[0];
    cellY = scale[1];
    originX = tie[3] - tie[0] * cellX;
    originY = tie[4] + tie[1] * cellY;
  } else if (mt && mt.length >= 16) {
    if (mt[1] !== 0 || mt[4] !== 0)
      throw demError(file, 'the raster is rotated or sheared (ModelTransformation); warp it north-up first (gdalwarp)');
    cellX = mt[0];
    cellY = -mt[5];
    originX = mt[3];
    originY = mt[7];
  } else {
    throw demError(file, 'the GeoTIFF has no georeferencing (ModelPixelScale + ModelTiepoint or ModelTransformation)');
  }
  if (!(cellX > 0) || cellY === 0 || !Number.isFinite(cellY))
    throw demError(file, `invalid pixel size ${cellX} × ${cellY}`);
  const keys = image.getGeoKeys() ?? {};
  if (keys.GTRasterTypeGeoKey === 2) {
    // PixelIsPoint: the tie point is the centre of the first pixel; the grid edge is half a cell out.
    originX -= cellX / 2;
    originY += cellY / 2;
  }
  const unitCode = keys.VerticalUnitsGeoKey as number | undefined;
  const toMeters = unitCode === undefined ? 1 : VERTICAL_UNITS[unitCode];
  if (toMeters === undefined)
    throw demError(file, `vertical unit code ${unitCode} is not supported (use meters or feet)`);
  const crs = crsOf(image, file, options.crs);

  const raster = (await image.readRasters({ samples: [band], interleave: true })) as ArrayLike<number>;
  const noData = image.getGDALNoData();
  const z = new Array<number>(columns * rows);
  const flip = cellY < 0; // rows run north: store them from the northern one
  for (let r = 0; r < rows; r++) {
    const src = (flip ? rows - 1 - r : r) * columns;
    for (let c = 0; c < columns; c++) {
      const v = raster[src + c];
      z[r * columns + c] = (noData !== null && v === noData) || !Number.isFinite(v) ? NaN : v * toMeters;
    }
  }
  if (flip) originY = originY + rows * -cellY;
  const grid: ElevationGrid = {
    crs,
    originX,
    originY,
    cellSizeX: cellX,
    cellSizeY: Math.abs(cellY),
    columns,
    rows,
    elevationsMeters: z,
  };
  validateElevationGrid(grid, file);
  return grid;
}
