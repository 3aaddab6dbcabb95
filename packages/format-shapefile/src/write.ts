/**
 * Shapefile layers out: .shp/.shx through @mapbox/shp-write's low-level `write` (one record
 * per feature; its `zip()` merges lines and mis-winds rings), our own UTF-8 .dbf,
 * a WGS84 .prj and a .cpg; zipped with jszip. Polygon rings are rewound to the shapefile
 * convention (outer clockwise, holes counter-clockwise).
 */
import shpwrite from '@mapbox/shp-write';
import JSZip from 'jszip';
import type { Plan, Position } from '@furrow/core';
import { planToFeatureCollection, rewindPolygon } from '@furrow/format-geojson';
import type { GeoJsonGeometry, ParsedBoundary, PlanFeature } from '@furrow/format-geojson';
import { writeDbf } from './dbf.js';

/** ESRI WKT of WGS84 geographic coordinates, as GDAL and the displays expect in a .prj. */
export const WGS84_PRJ =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';

export type ShapeType = 'POINT' | 'POLYLINE' | 'POLYGON';

export interface ShapefileLayer {
  /** Base name inside the archive, may contain folders ("AgGPS/Data/C/F/F/Boundary"). */
  name: string;
  shapeType: ShapeType;
  /** One record per entry: geometry (lon/lat) + attributes. */
  records: { geometry: GeoJsonGeometry; attributes: Record<string, unknown> }[];
}

type Parts = Position[][];

function partsOf(geometry: GeoJsonGeometry, shapeType: ShapeType): Position[] | Parts | undefined {
  const xy = (p: Position): Position => [p[0], p[1]];
  switch (shapeType) {
    case 'POINT':
      return geometry.type === 'Point' ? (xy(geometry.coordinates) as unknown as Position[]) : undefined;
    case 'POLYLINE':
      if (geometry.type === 'LineString') return [geometry.coordinates.map(xy)];
      if (geometry.type === 'MultiLineString') return geometry.coordinates.map((l) => l.map(xy));
      return undefined;
    case 'POLYGON':
      if (geometry.type === 'Polygon')
        return rewindPolygon(
          geometry.coordinates.map((r) => r.map(xy)),
          false,
        );
      if (geometry.type === 'MultiPolygon')
        return geometry.coordinates.flatMap((p) =>
          rewindPolygon(
            p.map((r) => r.map(xy)),
            false,
          ),
        );
      return undefined;
  }
}

const SHAPE_CODES: Record<ShapeType, number> = { POINT: 1, POLYLINE: 3, POLYGON: 5 };

/** A layer without records: the 100-byte .shp / .shx headers (shp-write fails on an empty list). */
function emptyLayer(shapeType: ShapeType): { shp: DataView; shx: DataView } {
  const header = (): DataView => {
    const view = new DataView(new ArrayBuffer(100));
    view.setInt32(0, 9994); // file code, big-endian
    view.setInt32(24, 50); // file length in 16-bit words
    view.setInt32(28, 1000, true); // version
    view.setInt32(32, SHAPE_CODES[shapeType], true);
    return view;
  };
  return { shp: header(), shx: header() };
}

function toBytes(view: DataView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice();
}

/** The files of one layer (.shp, .shx, .dbf, .prj, .cpg), keyed by file name. Records of another shape are skipped. */
export function layerFiles(layer: ShapefileLayer, date?: Date): Record<string, Uint8Array | string> {
  const geometries: unknown[] = [];
  const rows: Record<string, unknown>[] = [];
  for (const record of layer.records) {
    const parts = partsOf(record.geometry, layer.shapeType);
    if (!parts) continue;
    geometries.push(parts);
    rows.push(record.attributes);
  }
  let files: { shp: DataView; shx: DataView } | undefined;
  if (geometries.length === 0) files = emptyLayer(layer.shapeType);
  else
    shpwrite.write(
      rows.map(() => ({})),
      layer.shapeType,
      geometries as object[],
      (err: unknown, data: { shp: DataView; shx: DataView }) => {
        if (err) throw err instanceof Error ? err : new Error(String(err));
        files = data;
      },
    );
  if (!files) throw new Error('shapefile writer returned nothing');
  return {
    [`${layer.name}.shp`]: toBytes(files.shp),
    [`${layer.name}.shx`]: toBytes(files.shx),
    [`${layer.name}.dbf`]: writeDbf(rows, date),
    [`${layer.name}.prj`]: WGS84_PRJ,
    [`${layer.name}.cpg`]: 'UTF-8',
  };
}

/** Zips a map of file name → content (folders from the names), deterministic order. */
export async function zipFiles(files: Record<string, Uint8Array | string>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const name of Object.keys(files).sort()) zip.file(name, files[name], { date: new Date(Date.UTC(2020, 0, 1)) });
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', platform: 'UNIX' });
}

const LINE_TYPES = new Set(['LineString', 'MultiLineString']);
const POLYGON_TYPES = new Set(['Polygon', 'MultiPolygon']);
const POINT_TYPES = new Set(['Point']);

function attributesOf(f: PlanFeature): Record<string, unknown> {
  const p = f.properties;
  const a: Record<string, unknown> = { type: p.type };
  if (typeof p.sequence === 'number') a.sequence = p.sequence;
  if (typeof p.widthMeters === 'number') a.width_m = p.widthMeters;
  if (typeof p.turnType === 'string') a.turn_type = p.turnType;
  if (typeof p.lengthMeters === 'number') a.length_m = Math.round(p.lengthMeters * 1000) / 1000;
  if (typeof p.name === 'string') a.name = p.name;
  if (typeof p.index === 'number' && a.sequence === undefined) a.index = p.index;
  if (typeof p.trackIndex === 'number') a.trackIndex = p.trackIndex;
  if (typeof p.end === 'string') a.end = p.end;
  if (typeof p.code === 'string') a.code = p.code;
  return a;
}

/**
 * Plan layers: `<name>_lines` (route + guidance lines), `<name>_polygons` (boundary, obstacles, ...), `<name>_points`
 * (refill, staging).
 */
export function planLayers(plan: Plan, name = 'plan'): ShapefileLayer[] {
  const features = planToFeatureCollection(plan).features;
  const pick = (types: Set<string>) =>
    features
      .filter((f) => types.has(f.geometry.type))
      .map((f) => ({ geometry: f.geometry, attributes: attributesOf(f) }));
  const layers: ShapefileLayer[] = [
    { name: `${name}_lines`, shapeType: 'POLYLINE', records: pick(LINE_TYPES) },
    { name: `${name}_polygons`, shapeType: 'POLYGON', records: pick(POLYGON_TYPES) },
    { name: `${name}_points`, shapeType: 'POINT', records: pick(POINT_TYPES) },
  ];
  return layers.filter((l) => l.records.length > 0);
}

export interface ShapefileOptions {
  /** Base name of the layers in the archive (default "plan"). */
  name?: string;
  /** Date written in the .dbf headers (default now). */
  date?: Date;
}

/**
 * The plan as a zipped Shapefile: separate line, polygon (and point) layers, attributes type / sequence / width_m,
 * WGS84 .prj.
 */
export async function planToShapefileZip(plan: Plan, options: ShapefileOptions = {}): Promise<Uint8Array> {
  const files: Record<string, Uint8Array | string> = {};
  for (const layer of planLayers(plan, options.name ?? 'plan')) Object.assign(files, layerFiles(layer, options.date));
  return zipFiles(files);
}

/** Boundaries as one zipped polygon layer; attributes (Grower / Farm / Field, ...) become columns. */
export async function writeBoundaries(
  boundaries: Pick<ParsedBoundary, 'geometry' | 'properties'>[],
  options: ShapefileOptions = {},
): Promise<Uint8Array> {
  const layer: ShapefileLayer = {
    name: options.name ?? 'boundary',
    shapeType: 'POLYGON',
    records: boundaries.map((b) => ({ geometry: b.geometry, attributes: scalarAttributes(b.properties) })),
  };
  return zipFiles(layerFiles(layer, options.date));
}

function scalarAttributes(props: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}
