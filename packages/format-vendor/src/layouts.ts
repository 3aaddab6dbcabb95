/**
 * Plan exports for display import layouts (see docs/formats.md for the public source each
 * follows), and `writePlan`, one entry point for every plan format.
 */
import type { Plan, Position } from '@furrow/core';
import { planToFeatureCollection, routeInOrder } from '@furrow/format-geojson';
import type { GeoJsonGeometry } from '@furrow/format-geojson';
import { planToKml } from '@furrow/format-kml';
import { planToWkt } from '@furrow/format-wkt';
import { layerFiles, planLayers, zipFiles } from '@furrow/format-shapefile';
import { planToTaskData, ringAreaSquareMeters } from '@furrow/format-isoxml';
import { planToAgOpenGps, zipAgOpenGps } from '@furrow/format-agopengps';

export const VENDOR_LAYOUTS = ['trimble', 'johndeere', 'cnh', 'fendt', 'mueller'] as const;
export type VendorLayout = (typeof VENDOR_LAYOUTS)[number];
export const PLAN_FORMATS = [
  'json',
  'geojson',
  'kml',
  'wkt',
  'shapefile',
  'isoxml',
  'agopengps',
  ...VENDOR_LAYOUTS,
] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

export interface PlanExportOptions {
  /** Client / grower name (default "furrow"). */
  customer?: string;
  /** Farm name (default "furrow"). */
  farm?: string;
  /** Field name (default "field"). */
  field?: string;
  /** Date written where a layout records one (default now). */
  date?: Date;
}

export interface PlanOutput {
  format: PlanFormat;
  mediaType: string;
  /** Suggested file name. */
  fileName: string;
  /** The bytes to write (a zip for multi-file layouts). */
  bytes: Uint8Array;
  /** Multi-file layouts: the files by relative path, to write as a folder instead of the zip. */
  files?: Record<string, Uint8Array | string>;
}

/** A folder name safe on FAT32 USB sticks. */
export function safeName(name: string, fallback: string): string {
  const cleaned = name
    .replace(/[<>:"/\\|?*\u0000-\u001f]/g, '_')
    .trim()
    .slice(0, 64);
  return cleaned.length > 0 ? cleaned : fallback;
}

const yyyymmdd = (d: Date): string =>
  `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;

function lineLengthMeters(line: Position[]): number {
  const R = 6371008.8;
  const rad = Math.PI / 180;
  let sum = 0;
  for (let i = 1; i < line.length; i++) {
    const [x1, y1] = line[i - 1];
    const [x2, y2] = line[i];
    const a =
      Math.sin(((y2 - y1) * rad) / 2) ** 2 +
      Math.cos(y1 * rad) * Math.cos(y2 * rad) * Math.sin(((x2 - x1) * rad) / 2) ** 2;
    sum += 2 * R * Math.asin(Math.min(1, Math.sqrt(a)));
  }
  return sum;
}

function trackLines(plan: Plan): Position[][] {
  return routeInOrder(plan)
    .filter((s) => s.type === 'Track')
    .map((s) => s.coordinates);
}

function boundaryArea(plan: Plan): number {
  const polys = plan.boundary.type === 'Polygon' ? [plan.boundary.coordinates] : plan.boundary.coordinates;
  return polys.reduce(
    (a, rings) => a + rings.reduce((s, r, i) => s + (i === 0 ? 1 : -1) * ringAreaSquareMeters(r), 0),
    0,
  );
}

/**
 * Trimble AgGPS (FM-750 / FM-1000 / FmX, Trimble FM-1000 User Guide "Data storage structure"):
 * `AgGPS/Data/<Client>/<Farm>/<Field>/Boundary.shp` (polygon; Area in ha, Date YYYYMMDD) and
 * `Swath.shp` (the guidance lines: one polyline per track, ID and Length in m), WGS84.
 */
export function trimbleFiles(plan: Plan, options: PlanExportOptions = {}): Record<string, Uint8Array | string> {
  const dir =
    `AgGPS/Data/${safeName(options.customer ?? 'furrow', 'Client')}/` +
    `${safeName(options.farm ?? 'furrow', 'Farm')}/${safeName(options.field ?? 'field', 'Field')}`;
  const date = yyyymmdd(options.date ?? new Date());
  const boundary = layerFiles(
    {
      name: `${dir}/Boundary`,
      shapeType: 'POLYGON',
      records: [
        {
          geometry: plan.boundary as GeoJsonGeometry,
          attributes: { Name: options.field ?? 'field', Area: Math.round(boundaryArea(plan) / 100) / 100, Date: date },
        },
      ],
    },
    options.date,
  );
  const swath = layerFiles(
    {
      name: `${dir}/Swath`,
      shapeType: 'POLYLINE',
      records: trackLines(plan).map((line, i) => ({
        geometry: { type: 'LineString', coordinates: line },
        attributes: {
          ID: i + 1,
          Name: `Track ${i + 1}`,
          Length: Math.round(lineLengthMeters(line) * 100) / 100,
          Date: date,
        },
      })),
    },
    options.date,
  );
  return { ...boundary, ...swath };
}

/**
 * John Deere (Operations Center file import of shapefiles): one folder per field with a
 * boundary polygon layer (CLIENT / FARM / FIELD columns) and a guidance line layer, WGS84.
 * This is the generic shapefile profile, not John Deere's proprietary setup format.
 */
export function johnDeereFiles(plan: Plan, options: PlanExportOptions = {}): Record<string, Uint8Array | string> {
  const names = {
    CLIENT: options.customer ?? 'furrow',
    FARM: options.farm ?? 'furrow',
    FIELD: options.field ?? 'field',
  };
  const dir = `${safeName(names.CLIENT, 'Client')}/${safeName(names.FARM, 'Farm')}/${safeName(names.FIELD, 'Field')}`;
  const boundary = layerFiles(
    {
      name: `${dir}/boundary`,
      shapeType: 'POLYGON',
      records: [
        {
          geometry: plan.boundary as GeoJsonGeometry,
          attributes: { ...names, AREA_HA: Math.round(boundaryArea(plan) / 100) / 100 },
        },
      ],
    },
    options.date,
  );
  const lines = layerFiles(
    {
      name: `${dir}/guidance_lines`,
      shapeType: 'POLYLINE',
      records: trackLines(plan).map((line, i) => ({
        geometry: { type: 'LineString', coordinates: line },
        attributes: { ...names, NAME: `Track ${i + 1}`, TYPE: line.length > 2 ? 'Curve' : 'AB' },
      })),
    },
    options.date,
  );
  return { ...boundary, ...lines };
}

/** CNH (Case IH AFS Pro / New Holland IntelliView task controller): `TASKDATA/TASKDATA.XML` on the stick. */
export function cnhFiles(plan: Plan, options: PlanExportOptions = {}): Record<string, Uint8Array | string> {
  return { 'TASKDATA/TASKDATA.XML': planToTaskData(plan, options) };
}

/**
 * Fendt / AGCO (Varioterminal with VarioDoc Pro, FendtONE Task Doc): tasks with field boundaries
 * and guidance lines are exchanged as ISO-XML, `TASKDATA/TASKDATA.XML` on the stick.
 */
export function fendtFiles(plan: Plan, options: PlanExportOptions = {}): Record<string, Uint8Array | string> {
  return { 'TASKDATA/TASKDATA.XML': planToTaskData(plan, options) };
}

/**
 * Müller-Elektronik TOUCH terminals (TRACK-Leader / ISOBUS-TC manual "Folders on the USB memory
 * device"): shapefiles in `SHP/` (WGS84 boundary and guidance lines) and ISO-XML in `Taskdata/`.
 */
export function muellerFiles(plan: Plan, options: PlanExportOptions = {}): Record<string, Uint8Array | string> {
  const field = safeName(options.field ?? 'field', 'field');
  const files: Record<string, Uint8Array | string> = { 'Taskdata/TASKDATA.XML': planToTaskData(plan, options) };
  Object.assign(
    files,
    layerFiles(
      {
        name: `SHP/${field}_boundary`,
        shapeType: 'POLYGON',
        records: [{ geometry: plan.boundary as GeoJsonGeometry, attributes: { name: options.field ?? 'field' } }],
      },
      options.date,
    ),
    layerFiles(
      {
        name: `SHP/${field}_guidance`,
        shapeType: 'POLYLINE',
        records: trackLines(plan).map((line, i) => ({
          geometry: { type: 'LineString', coordinates: line },
          attributes: { name: `Track ${i + 1}` },
        })),
      },
      options.date,
    ),
  );
  return files;
}

const encoder = new TextEncoder();
const bytesOf = (x: string | Uint8Array): Uint8Array => (typeof x === 'string' ? encoder.encode(x) : x);

/** Writes the plan in any plan format. Multi-file layouts come zipped, with their files listed too. */
export async function writePlan(plan: Plan, format: PlanFormat, options: PlanExportOptions = {}): Promise<PlanOutput> {
  const base = safeName(options.field ?? 'plan', 'plan');
  switch (format) {
    case 'json':
      return { format, mediaType: 'application/json', fileName: `${base}.json`, bytes: bytesOf(JSON.stringify(plan)) };
    case 'geojson':
      return {
        format,
        mediaType: 'application/geo+json',
        fileName: `${base}.geojson`,
        bytes: bytesOf(JSON.stringify(planToFeatureCollection(plan))),
      };
    case 'kml':
      return {
        format,
        mediaType: 'application/vnd.google-earth.kml+xml',
        fileName: `${base}.kml`,
        bytes: bytesOf(planToKml(plan, { name: options.field })),
      };
    case 'wkt':
      return { format, mediaType: 'text/plain', fileName: `${base}.wkt`, bytes: bytesOf(planToWkt(plan) + '\n') };
    case 'shapefile': {
      const files: Record<string, Uint8Array | string> = {};
      for (const layer of planLayers(plan, base)) Object.assign(files, layerFiles(layer, options.date));
      return { format, mediaType: 'application/zip', fileName: `${base}.zip`, bytes: await zipFiles(files), files };
    }
    case 'isoxml': {
      const files = { 'TASKDATA/TASKDATA.XML': planToTaskData(plan, options) };
      return {
        format,
        mediaType: 'application/zip',
        fileName: `${base}-taskdata.zip`,
        bytes: await zipFiles(files),
        files,
      };
    }
    case 'agopengps': {
      // field folders (`<field>/Field.txt`, …) to unzip into AgOpenGPS's Fields folder
      const files = planToAgOpenGps(plan, { field: options.field ?? base, date: options.date ?? new Date() });
      return {
        format,
        mediaType: 'application/zip',
        fileName: `${base}-agopengps.zip`,
        bytes: await zipAgOpenGps(files),
        files,
      };
    }
    default: {
      const makers: Record<VendorLayout, (p: Plan, o: PlanExportOptions) => Record<string, Uint8Array | string>> = {
        trimble: trimbleFiles,
        johndeere: johnDeereFiles,
        cnh: cnhFiles,
        fendt: fendtFiles,
        mueller: muellerFiles,
      };
      const make = makers[format as VendorLayout];
      if (!make) throw new Error(`unknown plan format "${String(format)}"`);
      const files = make(plan, options);
      return {
        format,
        mediaType: 'application/zip',
        fileName: `${base}-${format}.zip`,
        bytes: await zipFiles(files),
        files,
      };
    }
  }
}
