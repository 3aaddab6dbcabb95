/**
 * Curved tracks that follow the contour: the key contour of the field and its parallels at
 * whole multiples of the working width, as level sets of the signed distance to the key
 * contour (marching squares on a fine distance grid), cut to the field and kept clear of an
 * inset band along the boundary (the headland).
 */
import { PlanError } from '../errors.js';
import type { FieldGeometry, Position } from '../types.js';
import { clipLinesToRings, contourLines, keyContourLine } from './contours.js';
import { fieldPositions, fieldRingsLocal, frameForPositions, ringsBox, type LocalModelOptions } from './frame.js';
import { modelFromArray, type ElevationGrid } from './grid.js';
import type { LocalRings } from './heading.js';
import { hypot, polylineLength } from '../geometry/vec.js';
import { segmentDistance } from '../geometry/region.js';

export interface ContourTrack {
  /** Multiple of the width from the key contour: 0 is the key contour, negative on its left. */
  offsetIndex: number;
  coordinates: Position[];
  lengthMeters: number;
}

export interface ContourTracksResult {
  levelMeters: number;
  widthMeters: number;
  tracks: ContourTrack[];
}

export interface ContourTracksOptions {
  widthMeters: number;
  /** Keep tracks this far from the field boundary (e.g. the headland width), meters (default 0). */
  insetMeters?: number;
  /** Contour level (default: the field's median elevation). */
  levelMeters?: number;
  model?: LocalModelOptions;
}

/** Distance from a point to the nearest edge of the rings. */
function distanceToRings(x: number, y: number, rings: LocalRings): number {
  let best = Infinity;
  for (const r of rings) {
    for (let i = 2; i < r.length; i += 2) {
      const d = segmentDistance(x, y, r[i - 2], r[i - 1], r[i], r[i + 1]);
      if (d < best) best = d;
    }
  }
  return best;
}

/**
 * Signed distance to the line on a grid over the field: a third of the width, at most 2 m (the distance is
 * linear away from the medial axis, so marching squares places the levels within centimeters),
 * coarsened to at most 1.5M cells.
 */
function signedDistanceGrid(
  line: number[],
  box: { minX: number; minY: number; maxX: number; maxY: number },
  w: number,
): { ox: number; oy: number; cell: number; columns: number; rows: number; d: Float64Array } {
  const { minX, minY, maxX, maxY } = box;
  let cell = Math.min(2, w / 3);
  const pad = 2 * cell;
  while (((maxX - minX + 2 * pad) / cell) * ((maxY - minY + 2 * pad) / cell) > 1_500_000) cell *= 1.25;
  const columns = Math.ceil((maxX - minX + 2 * pad) / cell) + 1,
    rows = Math.ceil((maxY - minY + 2 * pad) / cell) + 1;
  const ox = minX - pad,
    oy = maxY + pad;
  const d = new Float64Array(columns * rows);
  for (let r = 0; r < rows; r++) {
    const y = oy - (r + 0.5) * cell;
    for (let c = 0; c < columns; c++) {
      const x = ox + (c + 0.5) * cell;
      let best = Infinity,
        side = 0;
      for (let i = 2; i < line.length; i += 2) {
        const ax = line[i - 2],
          ay = line[i - 1],
          dx = line[i] - ax,
          dy = line[i + 1] - ay;
        // Cheapest rejection first: the segment's box is farther than the best so far.
        const lo = Math.min(0, dx),
          hi = Math.max(0, dx),
          lo2 = Math.min(0, dy),
          hi2 = Math.max(0, dy);
        const bx = x - ax < lo ? lo - (x - ax) : x - ax > hi ? x - ax - hi : 0;
        const by = y - ay < lo2 ? lo2 - (y - ay) : y - ay > hi2 ? y - ay - hi2 : 0;
        if (bx * bx + by * by >= best) continue;
        const len2 = dx * dx + dy * dy;
        let t = len2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const qx = ax + t * dx - x,
          qy = ay + t * dy - y;
        const d2 = qx * qx + qy * qy;
        if (d2 < best) {
          best = d2;
          side = dx * (y - ay) - dy * (x - ax);
        }
      }
      d[r * columns + c] = side < 0 ? -Math.sqrt(best) : Math.sqrt(best);
    }
  }
  return { ox, oy, cell, columns, rows, d };
}

/** Contour-following curved tracks of a field over an elevation grid. Empty on flat ground. */
export function contourTracks(
  field: FieldGeometry,
  grid: ElevationGrid,
  options: ContourTracksOptions,
): ContourTracksResult {
  const w = options.widthMeters;
  if (!(w > 0) || !Number.isFinite(w))
    throw new PlanError('width-not-positive', 'widthMeters must be a positive number', [
      { path: 'widthMeters', message: 'must be > 0' },
    ]);
  const inset = options.insetMeters ?? 0;
  const key = keyContourLine(field, grid, {
    ...(options.levelMeters !== undefined ? { levelMeters: options.levelMeters } : {}),
    ...(options.model ? { model: options.model } : {}),
  });
  if (!key) return { levelMeters: NaN, widthMeters: w, tracks: [] };
  const frame = frameForPositions(fieldPositions(field));
  const rings: LocalRings = fieldRingsLocal(field, frame);
  const { minX, minY, maxX, maxY } = ringsBox(rings);
  // The key contour in the local frame, its open ends extended past the field so it divides it.
  const line: number[] = [];
  for (const p of key.coordinates) line.push(...frame.toLocal(p[0], p[1]));
  const diag = hypot(maxX - minX, maxY - minY);
  const n = line.length;
  const closed = hypot(line[0] - line[n - 2], line[1] - line[n - 1]) < 1e-6;
  if (!closed && n >= 4) {
    const ex = (i: number, j: number): [number, number] => {
      const dx = line[i] - line[j],
        dy = line[i + 1] - line[j + 1],
        l = hypot(dx, dy) || 1;
      return [line[i] + (dx / l) * diag, line[i + 1] + (dy / l) * diag];
    };
    const head = ex(0, 2),
      tail = ex(n - 2, n - 4);
    line.unshift(head[0], head[1]);
    line.push(tail[0], tail[1]);
  }
  const { ox, oy, cell, columns, rows, d } = signedDistanceGrid(line, { minX, minY, maxX, maxY }, w);
  const dist = modelFromArray(ox, oy, cell, cell, columns, rows, d);
  let dMin = Infinity,
    dMax = -Infinity;
  for (const v of d) {
    if (v < dMin) dMin = v;
    if (v > dMax) dMax = v;
  }
  const tracks: ContourTrack[] = [];
  for (let k = Math.ceil(dMin / w); k <= Math.floor(dMax / w); k++) {
    // Level 0 exactly on the line has no sign change on its own cells: nudge it.
    const level = k === 0 ? 1e-7 : k * w;
    const pieces = clipLinesToRings(contourLines(dist, level), rings);
    for (const piece of pieces) {
      // Drop the points inside the inset band, splitting the piece there.
      let run: number[] = [];
      const flush = (): void => {
        if (run.length >= 4 && polylineLength(run) >= w) {
          tracks.push({ offsetIndex: k, coordinates: toLonLat(run), lengthMeters: polylineLength(run) });
        }
        run = [];
      };
      for (let i = 0; i < piece.length; i += 2) {
        if (inset > 0 && distanceToRings(piece[i], piece[i + 1], rings) < inset) flush();
        else run.push(piece[i], piece[i + 1]);
      }
      flush();
    }
  }
  function toLonLat(xy: number[]): Position[] {
    const out: Position[] = [];
    for (let i = 0; i < xy.length; i += 2) {
      const ll = frame.toLonLat(xy[i], xy[i + 1]);
      out.push([Math.round(ll[0] * 1e9) / 1e9, Math.round(ll[1] * 1e9) / 1e9]);
    }
    return out;
  }
  tracks.sort((a, b) => a.offsetIndex - b.offsetIndex || b.lengthMeters - a.lengthMeters);
  return { levelMeters: key.levelMeters, widthMeters: w, tracks };
}
