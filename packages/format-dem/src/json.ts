/**
 * The JSON elevation grid (docs/terrain.md):
 * { "type": "ElevationGrid", "crs": "EPSG:4326", "origin": [west, north], "cellSize": [dx, dy],
 *   "columns": 3, "rows": 2, "elevations": [[…row 0 (north)…], […]] or a flat row-major list,
 *   "noData": -9999, "verticalUnit": "m" | "ft" }
 * The library's own ElevationGrid shape (crs, originX, originY, cellSizeX, cellSizeY, columns, rows,
 * elevationsMeters) is accepted too.
 */
import { validateElevationGrid, type ElevationGrid } from '@furrow/core';
import { demError } from './errors.js';

export interface ElevationGridJson {
  type: 'ElevationGrid';
  crs: string;
  origin: [number, number];
  cellSize: [number, number] | number;
  columns: number;
  rows: number;
  elevations: number[] | (number | null)[][] | (number | null)[];
  noData?: number;
  verticalUnit?: 'm' | 'ft';
}

const FEET = 0.3048;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses a JSON elevation grid (text or an already parsed value). */
export function readElevationGridJson(input: string | unknown, fileName = 'elevation grid JSON'): ElevationGrid {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (err) {
      throw demError(fileName, `not valid JSON (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  if (!isObject(value)) throw demError(fileName, 'must be a JSON object');
  if ('elevationsMeters' in value && !('elevations' in value)) {
    const grid = value as unknown as ElevationGrid;
    validateElevationGrid(grid, fileName);
    return grid;
  }
  if (value.type !== 'ElevationGrid') throw demError(fileName, 'type must be "ElevationGrid"', 'terrain.grid.type');
  const origin = value.origin;
  if (
    !Array.isArray(origin) ||
    origin.length !== 2 ||
    !origin.every((v) => typeof v === 'number' && Number.isFinite(v))
  ) {
    throw demError(
      fileName,
      'origin must be [west, north] (the corner of the first cell), two numbers',
      'terrain.grid.origin',
    );
  }
  const cs = value.cellSize;
  const cell = typeof cs === 'number' ? [cs, cs] : cs;
  if (!Array.isArray(cell) || cell.length !== 2 || !cell.every((v) => typeof v === 'number' && v > 0)) {
    throw demError(fileName, 'cellSize must be a positive number or [dx, dy]', 'terrain.grid.cellSize');
  }
  const columns = value.columns,
    rows = value.rows;
  const unit = value.verticalUnit ?? 'm';
  if (unit !== 'm' && unit !== 'ft')
    throw demError(fileName, 'verticalUnit must be "m" or "ft"', 'terrain.grid.verticalUnit');
  const k = unit === 'ft' ? FEET : 1;
  const noData = typeof value.noData === 'number' ? value.noData : undefined;
  const raw = value.elevations;
  if (!Array.isArray(raw))
    throw demError(
      fileName,
      'elevations must be an array (rows from the north, or a flat row-major list)',
      'terrain.grid.elevations',
    );
  const flat: unknown[] = Array.isArray(raw[0]) ? [] : raw;
  if (Array.isArray(raw[0])) {
    raw.forEach((row, r) => {
      if (!Array.isArray(row) || row.length !== columns) {
        throw demError(
          fileName,
          `elevations[${r}] must be a row of ${String(columns)} values`,
          `terrain.grid.elevations[${r}]`,
        );
      }
      for (const v of row) flat.push(v);
    });
  }
  const z = flat.map((v, i) => {
    if (v === null) return NaN;
    if (typeof v !== 'number')
      throw demError(fileName, `elevations value ${i} is not a number`, `terrain.grid.elevations[${i}]`);
    return v === noData ? NaN : v * k;
  });
  const grid: ElevationGrid = {
    crs: typeof value.crs === 'string' ? value.crs : '',
    originX: origin[0],
    originY: origin[1],
    cellSizeX: cell[0],
    cellSizeY: cell[1],
    columns: columns as number,
    rows: rows as number,
    elevationsMeters: z,
  };
  validateElevationGrid(grid, fileName);
  return grid;
}

/** The grid as the JSON elevation grid (rows nested, no-data cells as null). */
export function writeElevationGridJson(grid: ElevationGrid): ElevationGridJson {
  const rows: (number | null)[][] = [];
  for (let r = 0; r < grid.rows; r++) {
    const row: (number | null)[] = [];
    for (let c = 0; c < grid.columns; c++) {
      const v = grid.elevationsMeters[r * grid.columns + c];
      row.push(Number.isFinite(v) && v !== grid.noDataValue ? v : null);
    }
    rows.push(row);
  }
  return {
    type: 'ElevationGrid',
    crs: grid.crs,
    origin: [grid.originX, grid.originY],
    cellSize: [grid.cellSizeX, grid.cellSizeY],
    columns: grid.columns,
    rows: grid.rows,
    elevations: rows,
  };
}
