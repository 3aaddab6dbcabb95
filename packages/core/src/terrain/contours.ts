/**
 * Contour lines of a terrain model (marching squares between cell centres), and the key
 * contour of a field: the longest piece of the contour at the field's median elevation,
 * a curved guidance line that tracks can follow for contour farming.
 */
import type { FieldGeometry, Position } from '../types.js';
import type { ElevationGrid, TerrainModel } from './grid.js';
import {
  createTerrainModel,
  fieldPositions,
  fieldRingsLocal,
  frameForPositions,
  ringsBox,
  type LocalModelOptions,
} from './frame.js';
import { pointInFlatRings } from '../geometry/pointInRing.js';
import type { LocalRings } from './heading.js';
import { polylineLength } from '../geometry/vec.js';

/**
 * Contour polylines at `levelMeters`, flat x0,y0,x1,y1,… in the model's frame; closed lines repeat their first point.
 */
export function contourLines(m: TerrainModel, levelMeters: number): Float64Array[] {
  const { columns, rows, z } = m;
  const px = (c: number): number => m.originX + (c + 0.5) * m.cellSizeX;
  const py = (r: number): number => m.originY - (r + 0.5) * m.cellSizeY;
  // Crossing points keyed by edge: h r c = edge (r,c)-(r,c+1); v r c = edge (r,c)-(r+1,c).
  const points = new Map<string, [number, number]>();
  const crossing = (key: string, r0: number, c0: number, r1: number, c1: number): string => {
    if (!points.has(key)) {
      const z0 = z[r0 * columns + c0],
        z1 = z[r1 * columns + c1];
      const t = (levelMeters - z0) / (z1 - z0);
      points.set(key, [px(c0) + (px(c1) - px(c0)) * t, py(r0) + (py(r1) - py(r0)) * t]);
    }
    return key;
  };
  const links = new Map<string, string[]>();
  const link = (a: string, b: string): void => {
    (links.get(a) ?? links.set(a, []).get(a)!).push(b);
    (links.get(b) ?? links.set(b, []).get(b)!).push(a);
  };
  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c + 1 < columns; c++) {
      const tl = z[r * columns + c],
        tr = z[r * columns + c + 1],
        br = z[(r + 1) * columns + c + 1],
        bl = z[(r + 1) * columns + c];
      if (Number.isNaN(tl) || Number.isNaN(tr) || Number.isNaN(br) || Number.isNaN(bl)) continue;
      const idx =
        (tl >= levelMeters ? 8 : 0) |
        (tr >= levelMeters ? 4 : 0) |
        (br >= levelMeters ? 2 : 0) |
        (bl >= levelMeters ? 1 : 0);
      if (idx === 0 || idx === 15) continue;
      const top = (): string => crossing(`h${r},${c}`, r, c, r, c + 1);
      const bottom = (): string => crossing(`h${r + 1},${c}`, r + 1, c, r + 1, c + 1);
      const left = (): string => crossing(`v${r},${c}`, r, c, r + 1, c);
      const right = (): string => crossing(`v${r},${c + 1}`, r, c + 1, r + 1, c + 1);
      switch (idx) {
        case 1:
        case 14:
          link(left(), bottom());
          break;
        case 2:
        case 13:
          link(bottom(), right());
          break;
        case 3:
        case 12:
          link(left(), right());
          break;
        case 4:
        case 11:
          link(top(), right());
          break;
        case 6:
        case 9:
          link(top(), bottom());
          break;
        case 7:
        case 8:
          link(left(), top());
          break;
        case 5:
        case 10: {
          // Saddle: the centre value decides which corners connect.
          const centreAbove = (tl + tr + br + bl) / 4 >= levelMeters;
          if ((idx === 5) === centreAbove) {
            link(left(), top());
            link(bottom(), right());
          } else {
            link(left(), bottom());
            link(top(), right());
          }
          break;
        }
      }
    }
  }
  return chainsOf(points, links).filter((l) => l.length >= 4);
}

/** Walks the chains of linked crossing points: open ones from their ends first, then the closed loops. */
function chainsOf(points: Map<string, [number, number]>, links: Map<string, string[]>): Float64Array[] {
  const used = new Set<string>();
  const edgeKey = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);
  const walk = (start: string): Float64Array => {
    const out: number[] = [...points.get(start)!];
    let prev = '',
      cur = start;
    for (;;) {
      const next =
        (links.get(cur) ?? []).find((n) => n !== prev && !used.has(edgeKey(cur, n))) ??
        (links.get(cur) ?? []).find((n) => !used.has(edgeKey(cur, n)));
      if (next === undefined) break;
      used.add(edgeKey(cur, next));
      out.push(...points.get(next)!);
      prev = cur;
      cur = next;
      if (cur === start) break;
    }
    return Float64Array.from(out);
  };
  const lines: Float64Array[] = [];
  const keys = [...links.keys()].sort();
  for (const k of keys) if (links.get(k)!.length === 1 && !used.has(edgeKey(k, links.get(k)![0]))) lines.push(walk(k));
  for (const k of keys) if (links.get(k)!.some((n) => !used.has(edgeKey(k, n)))) lines.push(walk(k));
  return lines;
}

/**
 * The parts of polylines whose points lie inside the rings (cut at the first outside point; about one cell of
 * accuracy).
 */
export function clipLinesToRings(lines: Float64Array[], rings: LocalRings): Float64Array[] {
  const out: Float64Array[] = [];
  for (const l of lines) {
    let run: number[] = [];
    for (let i = 0; i < l.length; i += 2) {
      if (pointInFlatRings(l[i], l[i + 1], rings)) run.push(l[i], l[i + 1]);
      else {
        if (run.length >= 4) out.push(Float64Array.from(run));
        run = [];
      }
    }
    if (run.length >= 4) out.push(Float64Array.from(run));
  }
  return out;
}

export interface KeyContour {
  levelMeters: number;
  /** [lon, lat] positions of the line. */
  coordinates: Position[];
  lengthMeters: number;
}

/**
 * The key contour line of a field: the longest piece, inside the field, of the contour at
 * `levelMeters` (default: the median elevation over the field). Null on flat ground.
 */
export function keyContourLine(
  field: FieldGeometry,
  grid: ElevationGrid,
  options: { levelMeters?: number; model?: LocalModelOptions } = {},
): KeyContour | null {
  const frame = frameForPositions(fieldPositions(field));
  const rings: LocalRings = fieldRingsLocal(field, frame);
  const model = createTerrainModel(grid, frame, ringsBox(rings), options.model);
  let level = options.levelMeters;
  if (level === undefined) {
    const zs: number[] = [];
    for (let r = 0; r < model.rows; r++) {
      for (let c = 0; c < model.columns; c++) {
        const v = model.z[r * model.columns + c];
        if (
          !Number.isNaN(v) &&
          pointInFlatRings(
            model.originX + (c + 0.5) * model.cellSizeX,
            model.originY - (r + 0.5) * model.cellSizeY,
            rings,
          )
        )
          zs.push(v);
      }
    }
    if (zs.length === 0) return null;
    zs.sort((a, b) => a - b);
    level = zs[Math.floor(zs.length / 2)];
    if (zs[zs.length - 1] - zs[0] < 1e-6) return null;
    // A level exactly on sample values makes degenerate crossings: nudge it a hair.
    level += 1e-9;
  }
  const pieces = clipLinesToRings(contourLines(model, level), rings);
  if (pieces.length === 0) return null;
  let best = pieces[0],
    bestLen = polylineLength(best);
  for (const p of pieces) {
    const len = polylineLength(p);
    if (len > bestLen) {
      best = p;
      bestLen = len;
    }
  }
  const coordinates: Position[] = [];
  for (let i = 0; i < best.length; i += 2) {
    const ll = frame.toLonLat(best[i], best[i + 1]);
    coordinates.push([Math.round(ll[0] * 1e9) / 1e9, Math.round(ll[1] * 1e9) / 1e9]);
  }
  return { levelMeters: level, coordinates, lengthMeters: bestLen };
}
