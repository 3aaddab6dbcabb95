/**
 * Bringing an ElevationGrid in any supported CRS into the planner's local metric frame: the
 * grid is resampled (bilinear) onto a north-up metric grid over the area of interest.
 */
import proj4 from 'proj4';
import { PlanError } from '../errors.js';
import type { FieldGeometry, Position } from '../types.js';
import { createLocalFrame } from '../geometry/projection.js';
import {
  localTerrainModel,
  modelFromArray,
  validateElevationGrid,
  type ElevationGrid,
  type TerrainModel,
} from './grid.js';
import { hypot } from '../geometry/vec.js';

/** Local transverse Mercator (k = 1) centred on a lon/lat point: the planner's frame. */
export interface TerrainFrame {
  readonly originLonLat: Position;
  toLocal(lon: number, lat: number): [number, number];
  toLonLat(x: number, y: number): Position;
}

/** The frame the planner uses for a field (geometry/projection.ts): tmerc centred on the bounding-box centre. */
export function frameForPositions(positions: Iterable<Position>): TerrainFrame {
  const list = [...positions];
  if (list.length === 0) throw new PlanError('invalid-boundary', 'no positions to centre the local frame on');
  return createLocalFrame(list);
}

export function fieldPositions(field: FieldGeometry): Position[] {
  const out: Position[] = [];
  const polys = field.type === 'Polygon' ? [field.coordinates] : field.coordinates;
  for (const poly of polys) for (const ring of poly) for (const p of ring) out.push(p);
  return out;
}

/** proj4 definition of a CRS name, or undefined for `local`. Throws for unknown names. */
export function proj4Definition(crs: string): string | undefined {
  const name = crs.trim();
  if (name === 'local') return undefined;
  if (name.startsWith('+proj=')) return name;
  const m = /^EPSG:(\d+)$/i.exec(name);
  if (m) {
    const code = Number(m[1]);
    if (code === 4326 || code === 4979) return '+proj=longlat +datum=WGS84 +no_defs';
    if (code === 3857 || code === 900913) return 'EPSG:3857';
    if (code > 32600 && code <= 32660) return `+proj=utm +zone=${code - 32600} +datum=WGS84 +units=m +no_defs`;
    if (code > 32700 && code <= 32760) return `+proj=utm +zone=${code - 32700} +south +datum=WGS84 +units=m +no_defs`;
    if (code === 4258) return '+proj=longlat +ellps=GRS80 +no_defs';
    if (code > 25800 && code <= 25860) return `+proj=utm +zone=${code - 25800} +ellps=GRS80 +units=m +no_defs`;
  }
  throw new PlanError(
    'invalid-option',
    `terrain.grid.crs "${crs}" is not supported: use EPSG:4326, EPSG:3857, EPSG:326NN/327NN (UTM WGS84), ` +
      `EPSG:258NN (UTM ETRS89), "local" or a proj4 definition ("+proj=…")`,
    [{ path: 'terrain.grid.crs', message: 'unsupported coordinate system' }],
  );
}

/** Axis-aligned box in the local frame, meters. */
export interface LocalBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface LocalModelOptions {
  /** Cell size of the resampled grid, meters (default: the source cell size in meters, at least 0.5). */
  cellSizeMeters?: number;
  /** Margin added around the box, meters (default 2 cells). */
  marginMeters?: number;
  /** At most this many cells in the resampled grid (default 4,000,000); the cell size grows to fit. */
  maxCells?: number;
}

/**
 * The grid as a TerrainModel in `frame`, covering `box` (plus a margin). A `local` grid is used
 * as is; any other CRS is resampled bilinearly through the projection.
 */
export function createTerrainModel(
  grid: ElevationGrid,
  frame: TerrainFrame,
  box: LocalBox,
  options: LocalModelOptions = {},
): TerrainModel {
  validateElevationGrid(grid);
  const def = proj4Definition(grid.crs);
  if (def === undefined) return localTerrainModel(grid);
  const conv = proj4('EPSG:4326', def);
  const toGrid = (x: number, y: number): [number, number] => {
    const ll = frame.toLonLat(x, y);
    const r = conv.forward([ll[0], ll[1]]) as number[];
    return [r[0], r[1]];
  };
  // Source cell size in meters, measured at the box centre.
  const cx = (box.minX + box.maxX) / 2,
    cy = (box.minY + box.maxY) / 2;
  const g0 = toGrid(cx, cy),
    gx1 = toGrid(cx + 1, cy),
    gy1 = toGrid(cx, cy + 1);
  const unitsPerMeterX = hypot(gx1[0] - g0[0], gx1[1] - g0[1]);
  const unitsPerMeterY = hypot(gy1[0] - g0[0], gy1[1] - g0[1]);
  const sourceCell = Math.min(grid.cellSizeX / unitsPerMeterX, grid.cellSizeY / unitsPerMeterY);
  let cell = options.cellSizeMeters ?? Math.max(0.5, sourceCell);
  const margin = options.marginMeters ?? 2 * cell;
  const w = box.maxX - box.minX + 2 * margin,
    h = box.maxY - box.minY + 2 * margin;
  const maxCells = options.maxCells ?? 4_000_000;
  while (Math.ceil(w / cell + 1) * Math.ceil(h / cell + 1) > maxCells) cell *= 1.5;
  const columns = Math.max(2, Math.ceil(w / cell) + 1);
  const rows = Math.max(2, Math.ceil(h / cell) + 1);
  const originX = box.minX - margin,
    originY = box.maxY + margin;
  const source = sourceModel(grid);
  const z = new Float64Array(columns * rows);
  for (let r = 0; r < rows; r++) {
    const y = originY - (r + 0.5) * cell;
    for (let c = 0; c < columns; c++) {
      const p = toGrid(originX + (c + 0.5) * cell, y);
      z[r * columns + c] = sampleSource(source, p[0], p[1]);
    }
  }
  let any = false;
  for (let i = 0; i < z.length && !any; i++) any = !Number.isNaN(z[i]);
  if (!any) {
    throw new PlanError('invalid-request', 'terrain.grid does not cover the field (check its crs and origin)', [
      { path: 'terrain.grid', message: 'no elevation inside the field' },
    ]);
  }
  return modelFromArray(originX, originY, cell, cell, columns, rows, z);
}

/** The grid's placement and its values, no-data as NaN. */
type SourceGrid = Pick<ElevationGrid, 'originX' | 'originY' | 'cellSizeX' | 'cellSizeY' | 'columns' | 'rows'> & {
  z: Float64Array;
};

function sourceModel(grid: ElevationGrid): SourceGrid {
  const n = grid.columns * grid.rows;
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = grid.elevationsMeters[i];
    z[i] = v === grid.noDataValue || !Number.isFinite(v) ? NaN : v;
  }
  return {
    originX: grid.originX,
    originY: grid.originY,
    cellSizeX: grid.cellSizeX,
    cellSizeY: grid.cellSizeY,
    columns: grid.columns,
    rows: grid.rows,
    z,
  };
}

function sampleSource(s: SourceGrid, x: number, y: number): number {
  let fc = (x - s.originX) / s.cellSizeX - 0.5;
  let fr = (s.originY - y) / s.cellSizeY - 0.5;
  if (!(fc >= -0.5 && fc <= s.columns - 0.5 && fr >= -0.5 && fr <= s.rows - 0.5)) return NaN;
  fc = Math.min(Math.max(fc, 0), s.columns - 1);
  fr = Math.min(Math.max(fr, 0), s.rows - 1);
  const c0 = Math.min(Math.floor(fc), s.columns - 2);
  const r0 = Math.min(Math.floor(fr), s.rows - 2);
  const tx = fc - c0,
    ty = fr - r0;
  const i = r0 * s.columns + c0;
  const z = s.z;
  const v00 = z[i],
    v01 = z[i + 1],
    v10 = z[i + s.columns],
    v11 = z[i + s.columns + 1];
  const w00 = (1 - tx) * (1 - ty),
    w01 = tx * (1 - ty),
    w10 = (1 - tx) * ty,
    w11 = tx * ty;
  let sum = 0,
    wsum = 0;
  if (w00 > 0) {
    if (v00 !== v00) return NaN;
    sum += w00 * v00;
    wsum += w00;
  }
  if (w01 > 0) {
    if (v01 !== v01) return NaN;
    sum += w01 * v01;
    wsum += w01;
  }
  if (w10 > 0) {
    if (v10 !== v10) return NaN;
    sum += w10 * v10;
    wsum += w10;
  }
  if (w11 > 0) {
    if (v11 !== v11) return NaN;
    sum += w11 * v11;
    wsum += w11;
  }
  return wsum > 0 ? sum / wsum : NaN;
}

/** Bounding box of local points given as [x, y] pairs. */
export function boxOf(points: Iterable<[number, number]>): LocalBox {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const [x, y] of points) {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}

/** The field's rings (shells and holes) in the frame, flat xy. */
export function fieldRingsLocal(field: FieldGeometry, frame: TerrainFrame): Float64Array[] {
  const rings: Float64Array[] = [];
  const polys = field.type === 'Polygon' ? [field.coordinates] : field.coordinates;
  for (const poly of polys) {
    for (const ring of poly) {
      const xy = new Float64Array(ring.length * 2);
      ring.forEach((p, i) => {
        const q = frame.toLocal(p[0], p[1]);
        xy[2 * i] = q[0];
        xy[2 * i + 1] = q[1];
      });
      rings.push(xy);
    }
  }
  return rings;
}

/** Bounding box of flat xy rings. */
export function ringsBox(rings: readonly ArrayLike<number>[]): LocalBox {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const r of rings) {
    for (let i = 0; i < r.length; i += 2) {
      if (r[i] < minX) minX = r[i];
      if (r[i] > maxX) maxX = r[i];
      if (r[i + 1] < minY) minY = r[i + 1];
      if (r[i + 1] > maxY) maxY = r[i + 1];
    }
  }
  return { minX, minY, maxX, maxY };
}
