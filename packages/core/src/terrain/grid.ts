/**
 * Digital elevation models. `ElevationGrid` is the public, JSON-able input (docs/terrain.md);
 * `TerrainModel` is the planner's working form: a metric grid in the local frame with its
 * Horn gradient precomputed, sampled bilinearly.
 */
import { PlanError } from '../errors.js';
import { hypot } from '../geometry/vec.js';

/**
 * A north-up raster of elevations. Row 0 is the northern row, column 0 the western column.
 * `originX` / `originY` are the west / north edges of the grid (corner of cell (0, 0), not its
 * centre), in the units of `crs`; cell sizes are positive.
 */
export interface ElevationGrid {
  /**
   * Coordinate system of originX/originY/cellSize: `EPSG:4326` (lon/lat degrees), `EPSG:3857`,
   * `EPSG:326NN` / `EPSG:327NN` (UTM north / south, WGS84), a proj4 definition (`+proj=…`), or
   * `local` (meters in the planner's local transverse Mercator frame centred on the field).
   */
  crs: string;
  originX: number;
  originY: number;
  cellSizeX: number;
  cellSizeY: number;
  columns: number;
  rows: number;
  /** rows × columns values, row-major from the northern row, meters above any datum. */
  elevationsMeters: ArrayLike<number>;
  /** Cells holding this value (or NaN) have no data. */
  noDataValue?: number;
}

/** A metric grid in the local frame with its gradient; built by `createTerrainModel`. */
export interface TerrainModel {
  readonly originX: number;
  readonly originY: number;
  readonly cellSizeX: number;
  readonly cellSizeY: number;
  readonly columns: number;
  readonly rows: number;
  /** Elevations, NaN where there is no data. */
  readonly z: Float64Array;
  /** dz/dx (east) and dz/dy (north), rise over run, Horn's method; NaN where z is NaN. */
  readonly gradientX: Float64Array;
  readonly gradientY: Float64Array;
}

const MAX_CELLS = 25_000_000;

/** Checks an ElevationGrid's shape; throws PlanError('invalid-request') naming the bad member. */
export function validateElevationGrid(grid: ElevationGrid, path = 'terrain.grid'): void {
  const bad = (member: string, message: string): never => {
    throw new PlanError('invalid-request', `${path}.${member}: ${message}`, [{ path: `${path}.${member}`, message }]);
  };
  if (grid === null || typeof grid !== 'object')
    throw new PlanError('invalid-request', `${path} must be an object`, [{ path, message: 'must be an object' }]);
  if (typeof grid.crs !== 'string' || grid.crs.length === 0)
    bad('crs', 'must be a coordinate system name, e.g. "EPSG:4326" or "local"');
  for (const k of ['originX', 'originY'] as const)
    if (typeof grid[k] !== 'number' || !Number.isFinite(grid[k])) bad(k, 'must be a finite number');
  for (const k of ['cellSizeX', 'cellSizeY'] as const)
    if (typeof grid[k] !== 'number' || !(grid[k] > 0) || !Number.isFinite(grid[k])) bad(k, 'must be a positive number');
  for (const k of ['columns', 'rows'] as const)
    if (!Number.isInteger(grid[k]) || grid[k] < 2) bad(k, 'must be an integer ≥ 2');
  if (grid.columns * grid.rows > MAX_CELLS)
    bad(
      'columns',
      `grid has ${grid.columns * grid.rows} cells; at most ${MAX_CELLS} are accepted (crop it to the field)`,
    );
  const e = grid.elevationsMeters;
  if (e === null || typeof e !== 'object' || typeof e.length !== 'number')
    bad('elevationsMeters', 'must be an array of numbers');
  if (e.length !== grid.columns * grid.rows)
    bad('elevationsMeters', `has ${e.length} values; rows × columns = ${grid.columns * grid.rows}`);
  let valid = 0;
  for (let i = 0; i < e.length; i++) {
    const v = e[i];
    if (v === null || typeof v !== 'number')
      bad(`elevationsMeters[${i}]`, 'must be a number (use noDataValue for holes)');
    if (Number.isFinite(v) && v !== grid.noDataValue) valid++;
    else if (!Number.isNaN(v) && v !== grid.noDataValue)
      bad(`elevationsMeters[${i}]`, 'must be finite (use noDataValue for holes)');
  }
  if (valid === 0) bad('elevationsMeters', 'holds no data');
}

/** Builds the working model of a grid already in the local metric frame (crs `local`). */
export function localTerrainModel(grid: ElevationGrid): TerrainModel {
  validateElevationGrid(grid);
  const n = grid.columns * grid.rows;
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = grid.elevationsMeters[i];
    z[i] = v === grid.noDataValue || !Number.isFinite(v) ? NaN : v;
  }
  return modelFromArray(grid.originX, grid.originY, grid.cellSizeX, grid.cellSizeY, grid.columns, grid.rows, z);
}

export function modelFromArray(
  originX: number,
  originY: number,
  cellSizeX: number,
  cellSizeY: number,
  columns: number,
  rows: number,
  z: Float64Array,
): TerrainModel {
  const { gradientX, gradientY } = hornGradient(z, columns, rows, cellSizeX, cellSizeY);
  return { originX, originY, cellSizeX, cellSizeY, columns, rows, z, gradientX, gradientY };
}

/**
 * Horn's (1981) 3×3 weighted finite differences. Neighbours outside the grid or without data
 * take the centre cell's value, so edges and holes get one-sided estimates instead of NaN.
 */
export function hornGradient(
  z: Float64Array,
  columns: number,
  rows: number,
  cellSizeX: number,
  cellSizeY: number,
): { gradientX: Float64Array; gradientY: Float64Array } {
  const gradientX = new Float64Array(z.length);
  const gradientY = new Float64Array(z.length);
  const inv8dx = 1 / (8 * cellSizeX);
  const inv8dy = 1 / (8 * cellSizeY);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const i = r * columns + c;
      const e = z[i];
      if (Number.isNaN(e)) {
        gradientX[i] = NaN;
        gradientY[i] = NaN;
        continue;
      }
      // Edges: the missing row / column is replaced by the cell's own (one-sided difference,
      // scaled by 2 below); a neighbour without data takes the centre value.
      const rn = (r > 0 ? r - 1 : r) * columns,
        r0 = r * columns,
        rs = (r < rows - 1 ? r + 1 : r) * columns;
      const cw = c > 0 ? c - 1 : c;
      const ce = c < columns - 1 ? c + 1 : c;
      let a = z[rn + cw],
        b = z[rn + c],
        cc = z[rn + ce];
      let d = z[r0 + cw],
        f = z[r0 + ce];
      let g = z[rs + cw],
        h = z[rs + c],
        k = z[rs + ce];
      if (a !== a) a = e;
      if (b !== b) b = e;
      if (cc !== cc) cc = e;
      if (d !== d) d = e;
      if (f !== f) f = e;
      if (g !== g) g = e;
      if (h !== h) h = e;
      if (k !== k) k = e;
      const sx = 2 / Math.max(1, ce - cw);
      const sy = r > 0 && r < rows - 1 ? 1 : 2;
      gradientX[i] = (cc + 2 * f + k - (a + 2 * d + g)) * inv8dx * sx;
      gradientY[i] = (a + 2 * b + cc - (g + 2 * h + k)) * inv8dy * sy;
    }
  }
  return { gradientX, gradientY };
}

/** Fractional cell-centre coordinates of a point, or undefined outside the grid's extent. */
function locate(m: TerrainModel, x: number, y: number): [number, number] | undefined {
  const fc = (x - m.originX) / m.cellSizeX - 0.5;
  const fr = (m.originY - y) / m.cellSizeY - 0.5;
  if (!(fc >= -0.5 && fc <= m.columns - 0.5 && fr >= -0.5 && fr <= m.rows - 0.5)) return undefined;
  return [Math.min(Math.max(fc, 0), m.columns - 1), Math.min(Math.max(fr, 0), m.rows - 1)];
}

/** Bilinear interpolation of `values` between cell centres; NaN outside the grid or next to a hole. */
function bilinear(m: TerrainModel, values: Float64Array, x: number, y: number): number {
  const loc = locate(m, x, y);
  if (loc === undefined) return NaN;
  const [fc, fr] = loc;
  const c0 = Math.min(Math.floor(fc), m.columns - 2);
  const r0 = Math.min(Math.floor(fr), m.rows - 2);
  const tx = fc - c0;
  const ty = fr - r0;
  const i = r0 * m.columns + c0;
  const v00 = values[i],
    v01 = values[i + 1],
    v10 = values[i + m.columns],
    v11 = values[i + m.columns + 1];
  const w00 = (1 - tx) * (1 - ty),
    w01 = tx * (1 - ty),
    w10 = (1 - tx) * ty,
    w11 = tx * ty;
  // Ignore hole corners with zero weight; otherwise a hole makes the sample unknown.
  let sum = 0,
    wsum = 0;
  if (w00 > 0) {
    if (Number.isNaN(v00)) return NaN;
    sum += w00 * v00;
    wsum += w00;
  }
  if (w01 > 0) {
    if (Number.isNaN(v01)) return NaN;
    sum += w01 * v01;
    wsum += w01;
  }
  if (w10 > 0) {
    if (Number.isNaN(v10)) return NaN;
    sum += w10 * v10;
    wsum += w10;
  }
  if (w11 > 0) {
    if (Number.isNaN(v11)) return NaN;
    sum += w11 * v11;
    wsum += w11;
  }
  return wsum > 0 ? sum / wsum : Number.isNaN(v00) ? NaN : v00;
}

/** Elevation at a local point (meters), bilinear between cell centres; NaN where unknown. */
export function sampleElevation(m: TerrainModel, x: number, y: number): number {
  return bilinear(m, m.z, x, y);
}

/** Gradient [dz/dx east, dz/dy north] at a local point; NaNs where unknown. */
export function sampleGradient(m: TerrainModel, x: number, y: number): [number, number] {
  return [bilinear(m, m.gradientX, x, y), bilinear(m, m.gradientY, x, y)];
}

/** Slope angle in degrees from a gradient. */
export function slopeDegreesOf(gx: number, gy: number): number {
  return (Math.atan(hypot(gx, gy)) * 180) / Math.PI;
}

/**
 * Aspect: the compass direction the slope faces (downhill), degrees clockwise from north in
 * [0, 360); NaN on flat ground.
 */
export function aspectDegreesOf(gx: number, gy: number): number {
  if (gx === 0 && gy === 0) return NaN;
  const a = (Math.atan2(-gx, -gy) * 180) / Math.PI;
  return a < 0 ? a + 360 : a;
}

/** Slope and aspect rasters of a model (same layout as `z`). */
export function slopeAspect(m: TerrainModel): { slopeDegrees: Float64Array; aspectDegrees: Float64Array } {
  const n = m.z.length;
  const slopeDegrees = new Float64Array(n);
  const aspectDegrees = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const gx = m.gradientX[i],
      gy = m.gradientY[i];
    slopeDegrees[i] = Number.isNaN(gx) ? NaN : slopeDegreesOf(gx, gy);
    aspectDegrees[i] = Number.isNaN(gx) ? NaN : aspectDegreesOf(gx, gy);
  }
  return { slopeDegrees, aspectDegrees };
}
