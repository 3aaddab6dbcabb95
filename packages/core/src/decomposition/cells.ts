/**
 * Cells of the plan (boustrophedon decomposition): runs of tracks on consecutive scanlines
 * whose neighbours overlap one to one (`groupCells`); a cell's outline follows its tracks'
 * ends on both sides and its outer tracks' swath edges, so the cells tile the worked
 * mainland. Each cell is driven as one block by the route orders.
 */
import type { Track } from '../tracks/generateTracks.js';

export interface LocalCell {
  index: number;
  trackIndices: number[];
  /** Closed outline (first point not repeated), local frame, counter-clockwise. */
  outline: Float64Array;
  areaSquareMeters: number;
}

export function cellOutlines(tracks: Track[], cellOf: ArrayLike<number>, directionRadians: number, widthMeters: number): LocalCell[] {
  const c = Math.cos(directionRadians), s = Math.sin(directionRadians);
  const byCell = new Map<number, number[]>();
  for (let i = 0; i < tracks.length; i++) {
    const k = cellOf[i];
    const l = byCell.get(k);
    if (l) l.push(i);
    else byCell.set(k, [i]);
  }
  const out: LocalCell[] = [];
  for (const [index, ids] of [...byCell.entries()].sort((a, b) => a[0] - b[0])) {
    ids.sort((a, b) => tracks[a].v - tracks[b].v);
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
    for (let i = 0, j = n - 1; i < n; j = i++) a2 += (outline[2 * j] - outline[2 * i]) * (outline[2 * j + 1] + outline[2 * i + 1]);
    out.push({ index, trackIndices: ids, outline, areaSquareMeters: Math.abs(a2 / 2) });
  }
  return out;
}
