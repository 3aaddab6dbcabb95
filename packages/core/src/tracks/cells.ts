/**
 * Cells of the plan (boustrophedon decomposition): runs of tracks on consecutive scanlines
 * whose neighbours overlap one to one (`groupCells`); a cell's outline follows its tracks'
 * ends on both sides and its outer tracks' swath edges, so the cells tile the worked
 * mainland. Each cell is driven as one block by the route orders.
 *
 * `cellRegions` gives the part of the mainland a cell of the field heading stands for (its
 * tracks' slabs, to the mainland's edge), which `assignCellHeadings` re-tracks at the cell's
 * own heading when that is cheaper.
 */
import { areaOf, bufferPolylines, flatToPath, intersectPolygons, unionPolygons } from '../geometry/clipper.js';
import type { PathD, PathsD } from '../geometry/clipper.js';
import { crossingsAt, rotateEdges } from '../geometry/scanLine.js';
import { boxOf, nearBox } from '../geometry/nearBox.js';
import type { Track } from './generateTracks.js';

export interface LocalCell {
  index: number;
  trackIndices: number[];
  /** Closed outline (first point not repeated), local frame, counter-clockwise. */
  outline: Float64Array;
  areaSquareMeters: number;
  /** The cell's track direction, radians CCW from +x, [0, π). */
  directionRadians: number;
  /** The same as a bearing, degrees clockwise from north, [0, 180). */
  headingDegrees: number;
}

function bearing180(directionRadians: number): number {
  const b = 90 - (directionRadians * 180) / Math.PI;
  return Math.round((((b % 180) + 180) % 180) * 1e6) / 1e6;
}

/**
 * Outlines of the cells. `directionRadians` is the plan's track direction; a track carrying
 * its own `directionRadians` (a cell with its own heading) is outlined in its own frame.
 * Curved tracks (`Track.xy`) are outlined by the union of their swaths (its largest ring).
 */
export function cellOutlines(
  tracks: Track[],
  cellOf: ArrayLike<number>,
  directionRadians: number,
  widthMeters: number,
): LocalCell[] {
  const byCell = new Map<number, number[]>();
  for (let i = 0; i < tracks.length; i++) {
    const k = cellOf[i];
    const l = byCell.get(k);
    if (l) l.push(i);
    else byCell.set(k, [i]);
  }
  const out: LocalCell[] = [];
  for (const [index, ids] of [...byCell.entries()].sort((a, b) => a[0] - b[0])) {
    const dir = tracks[ids[0]].directionRadians ?? directionRadians;
    const c = Math.cos(dir),
      s = Math.sin(dir);
    ids.sort((a, b) => tracks[a].v - tracks[b].v);
    if (tracks[ids[0]].xy) {
      out.push(curvedOutline(tracks, ids, index, dir, widthMeters));
      continue;
    }
    const uv: number[] = [];
    const h = widthMeters / 2;
    // Up the right ends (u1), then back down the left ends (u0): counter-clockwise in (u, v).
    for (let j = 0; j < ids.length; j++) {
      const t = tracks[ids[j]];
      if (j === 0) uv.push(t.u1, t.v - h);
      uv.push(t.u1, t.v);
      if (j === ids.length - 1) uv.push(t.u1, t.v + h);
    }
    for (let j = ids.length - 1; j >= 0; j--) {
      const t = tracks[ids[j]];
      if (j === ids.length - 1) uv.push(t.u0, t.v + h);
      uv.push(t.u0, t.v);
      if (j === 0) uv.push(t.u0, t.v - h);
    }
    const outline = new Float64Array(uv.length);
    for (let i = 0; i < uv.length; i += 2) {
      outline[i] = c * uv[i] - s * uv[i + 1];
      outline[i + 1] = s * uv[i] + c * uv[i + 1];
    }
    let a2 = 0;
    const n = outline.length / 2;
    for (let i = 0, j = n - 1; i < n; j = i++)
      a2 += (outline[2 * j] - outline[2 * i]) * (outline[2 * j + 1] + outline[2 * i + 1]);
    out.push({
      index,
      trackIndices: ids,
      outline,
      areaSquareMeters: Math.abs(a2 / 2),
      directionRadians: dir,
      headingDegrees: bearing180(dir),
    });
  }
  return out;
}

function curvedOutline(tracks: Track[], ids: number[], index: number, dir: number, widthMeters: number): LocalCell {
  // Swaths one by one, a little wider than w / 2 so neighbours overlap (unions of exactly touching swaths are fragile).
  const swaths = unionPolygons(
    ids.flatMap((i) =>
      bufferPolylines(
        [flatToPath(tracks[i].xy ?? Float64Array.of(tracks[i].x0, tracks[i].y0, tracks[i].x1, tracks[i].y1))],
        0.51 * widthMeters,
      ),
    ),
  );
  let ring = swaths[0] ?? [];
  for (const r of swaths) if (areaOf([r]) > areaOf([ring])) ring = r;
  const outline = new Float64Array(2 * ring.length);
  ring.forEach((p, k) => {
    outline[2 * k] = p.x;
    outline[2 * k + 1] = p.y;
  });
  return {
    index,
    trackIndices: ids,
    outline,
    areaSquareMeters: Math.abs(areaOf([ring])),
    directionRadians: dir,
    headingDegrees: bearing180(dir),
  };
}

/**
 * The mainland each cell stands for: per track, its slab [v − w/2, v + w/2] from the
 * mainland's edge to the mainland's edge (the inside intervals of the slab's edges and centre
 * line that overlap the track), cut half-way to the next track on the same line so that cells
 * sharing a line do not overlap; the staircase of the cell's slabs intersected with the
 * mainland. Regions of different cells do not overlap; slivers of the mainland between
 * sample lines may belong to none.
 */
export function cellRegions(
  mainland: PathsD,
  tracks: Track[],
  cells: number[][],
  directionRadians: number,
  widthMeters: number,
): PathsD[];
/** With `stop`: asked before each cell; undefined once it answers true. */
export function cellRegions(
  mainland: PathsD,
  tracks: Track[],
  cells: number[][],
  directionRadians: number,
  widthMeters: number,
  stop: () => boolean,
): PathsD[] | undefined;
export function cellRegions(
  mainland: PathsD,
  tracks: Track[],
  cells: number[][],
  directionRadians: number,
  widthMeters: number,
  stop?: () => boolean,
): PathsD[] | undefined {
  const c = Math.cos(directionRadians),
    s = Math.sin(directionRadians);
  const h = widthMeters / 2;
  const edges = rotateEdges(mainland, directionRadians);
  // Neighbours on the same line, by along-track order.
  const byLine = new Map<number, number[]>();
  tracks.forEach((t, i) => {
    const l = byLine.get(t.line);
    if (l) l.push(i);
    else byLine.set(t.line, [i]);
  });
  const leftLimit = new Float64Array(tracks.length).fill(-Infinity);
  const rightLimit = new Float64Array(tracks.length).fill(Infinity);
  for (const ids of byLine.values()) {
    ids.sort((a, b) => tracks[a].u0 - tracks[b].u0);
    for (let k = 0; k + 1 < ids.length; k++) {
      const mid = (tracks[ids[k]].u1 + tracks[ids[k + 1]].u0) / 2;
      rightLimit[ids[k]] = mid;
      leftLimit[ids[k + 1]] = mid;
    }
  }
  const out: PathsD[] = [];
  for (const cell of cells) {
    if (stop?.()) return undefined;
    const ids = [...cell].sort((a, b) => tracks[a].v - tracks[b].v);
    const right: { u: number; v: number }[] = [],
      left: { u: number; v: number }[] = [];
    for (const i of ids) {
      const t = tracks[i];
      let lo = t.u0,
        hi = t.u1;
      for (const dv of [-0.999 * h, 0.999 * h]) {
        const xs = crossingsAt(edges, t.v + dv);
        for (let k = 0; k + 1 < xs.length; k += 2) {
          if (xs[k + 1] <= t.u0 || xs[k] >= t.u1) continue;
          if (xs[k] < lo) lo = xs[k];
          if (xs[k + 1] > hi) hi = xs[k + 1];
        }
      }
      lo = Math.max(lo - 1e-3, leftLimit[i]);
      hi = Math.min(hi + 1e-3, rightLimit[i]);
      right.push({ u: hi, v: t.v - h }, { u: hi, v: t.v + h });
      left.push({ u: lo, v: t.v - h }, { u: lo, v: t.v + h });
    }
    const ring: PathD = [];
    for (const p of right) ring.push({ x: c * p.u - s * p.v, y: s * p.u + c * p.v });
    for (let k = left.length - 1; k >= 0; k--)
      ring.push({ x: c * left[k].u - s * left[k].v, y: s * left[k].u + c * left[k].v });
    // The mainland near the cell only (geometry/nearBox.ts): the same intersection, without sweeping the whole boundary
    // per cell.
    out.push(intersectPolygons(nearBox(mainland, boxOf([ring]), 1), [ring]));
  }
  return out;
}

/** Cells: lists of track indices, one per consecutive scanline, in line order. */
export function groupCells(tracks: Track[]): number[][] {
  const byLine = new Map<number, number[]>();
  tracks.forEach((t, i) => {
    const l = byLine.get(t.line);
    if (l) l.push(i);
    else byLine.set(t.line, [i]);
  });
  const cellOf = new Int32Array(tracks.length).fill(-1);
  const cells: number[][] = [];
  const lines = [...byLine.keys()].sort((a, b) => a - b);
  const overlaps = (a: Track, b: Track): boolean => Math.min(a.u1, b.u1) - Math.max(a.u0, b.u0) > 0;
  for (const line of lines) {
    const cur = byLine.get(line)!;
    const prev = byLine.get(line - 1) ?? [];
    for (const i of cur) {
      const ups = prev.filter((p) => overlaps(tracks[p], tracks[i]));
      if (ups.length === 1) {
        const p = ups[0];
        const downs = cur.filter((q) => overlaps(tracks[p], tracks[q]));
        if (downs.length === 1) {
          const c = cellOf[p];
          cells[c].push(i);
          cellOf[i] = c;
          continue;
        }
      }
      cellOf[i] = cells.length;
      cells.push([i]);
    }
  }
  return cells;
}
