/**
 * Per-cell headings. The tracks of the field heading are grouped into boustrophedon
 * cells (`groupCells`), and each cell is cut into pieces where a track end steps by more than
 * `STEP_WIDTHS` widths between neighbouring lines (a reflex corner of the mainland: the arms of
 * an L are one boustrophedon cell but want different headings). Each piece of at least
 * `MIN_CELL_TRACKS` tracks stands for a region of the mainland (`cellRegions`: its tracks'
 * slabs to the mainland's edge). A piece keeps the field heading (and stays part of its cell)
 * unless its region, tracked at its own best heading (`edgeHeading`: the best of its longest
 * edges' directions), is
 * cheaper by at least two turns under the cost
 *
 *   cost = tracks × (π·R + 2·w)  +  (sub-cells − 1) × 2 × (π·R + 2·w)
 *
 * (every track costs one turn of about a half circle plus the skip spacing, as in
 * `searchHeading`; a region that the new heading cuts into several sub-cells pays a far
 * connection, about two turns, per extra sub-cell), and its tracks do not lose more than
 * `MAX_LENGTH_LOSS` of the worked length. A re-tracked region becomes one cell per sub-cell;
 * its tracks carry their own `directionRadians`, and u / v in that frame. Lines are
 * renumbered so that every (cell, line) pair is unique and lines of one cell are consecutive.
 */
import type { PathsD } from '../geometry/clipper.js';
import { cellRegions, groupCells } from './cells.js';
import { generateTracks } from './generateTracks.js';
import type { Track } from './generateTracks.js';
import { headingCost, longEdgeDirections } from './searchHeading.js';
import type { HeadingChoice } from './searchHeading.js';

/** Cells with fewer tracks keep the field heading (too small to gain a turn). */
export const MIN_CELL_TRACKS = 3;
/** A cell is cut into pieces where a track end moves by more than this many widths from one line to the next. */
export const STEP_WIDTHS = 3;
/** Edge directions tried per piece (the longest edges of its region). */
export const EDGE_CANDIDATES = 8;
/** A re-tracked cell may lose at most this share of its worked length. */
export const MAX_LENGTH_LOSS = 0.02;

export interface CellHeading {
  /** Track direction of the cell, radians CCW from +x, [0, π). */
  directionRadians: number;
  /** true when the cell was re-tracked at its own heading. */
  own: boolean;
  /** Estimated cost of the cell's turns (formula above), meters, at the field heading and as chosen. */
  fieldHeadingCostMeters: number;
  costMeters: number;
}

export interface CellTracks {
  tracks: Track[];
  cellOf: Int32Array;
  cells: CellHeading[];
}

/**
 * The cheapest of the directions of the region's longest edges (rotating calipers: for a convex
 * region the narrowest width is flush with an edge; tracks parallel to an edge are what a farmer
 * drives, and leave no drifting strip along it). Ties go to the longer worked length.
 */
export function edgeHeading(region: PathsD, widthMeters: number, turnRadiusMeters: number): HeadingChoice {
  let best: HeadingChoice = { directionRadians: 0, costMeters: Infinity };
  for (const d of longEdgeDirections(region, EDGE_CANDIDATES)) {
    const cost = headingCost(region, d, widthMeters, turnRadiusMeters);
    if (cost < best.costMeters - 1e-9) best = { directionRadians: d, costMeters: cost };
  }
  return best;
}

function trackLength(ts: Track[]): number {
  let s = 0;
  for (const t of ts) s += t.u1 - t.u0;
  return s;
}

/** A stop that never answers true (no cap). */
const never = (): boolean => false;

/**
 * Cells of the field-heading tracks and, where cheaper, their own headings. `tracks` are the
 * tracks of `directionRadians` over `mainland` (generateTracks); the result lists every track
 * once, cell by cell. `stop` (the call's wall-clock cap) is asked before each cell's region and
 * heading: once it answers true the work is dropped (undefined: no headings of their own).
 */
export function assignCellHeadings(
  mainland: PathsD,
  tracks: Track[],
  directionRadians: number,
  widthMeters: number,
  turnRadiusMeters: number,
): CellTracks;
export function assignCellHeadings(
  mainland: PathsD,
  tracks: Track[],
  directionRadians: number,
  widthMeters: number,
  turnRadiusMeters: number,
  stop: () => boolean,
): CellTracks | undefined;
export function assignCellHeadings(
  mainland: PathsD,
  tracks: Track[],
  directionRadians: number,
  widthMeters: number,
  turnRadiusMeters: number,
  stop?: () => boolean,
): CellTracks | undefined {
  const w = widthMeters,
    R = turnRadiusMeters;
  const turn = Math.PI * R + 2 * w;
  const cells = groupCells(tracks);
  // Pieces: runs of a cell's tracks between steps of the track ends (a reflex corner of the mainland).
  const pieces: { cell: number; ids: number[] }[] = [];
  const step = STEP_WIDTHS * w;
  cells.forEach((cell, ci) => {
    const ids = [...cell].sort((a, b) => tracks[a].v - tracks[b].v);
    let cur: number[] = [];
    for (let k = 0; k < ids.length; k++) {
      if (k > 0) {
        const a = tracks[ids[k - 1]],
          b = tracks[ids[k]];
        if (Math.abs(b.u0 - a.u0) > step || Math.abs(b.u1 - a.u1) > step) {
          pieces.push({ cell: ci, ids: cur });
          cur = [];
        }
      }
      cur.push(ids[k]);
    }
    pieces.push({ cell: ci, ids: cur });
  });
  const candidates = pieces.map((p, i) => (p.ids.length >= MIN_CELL_TRACKS ? i : -1)).filter((i) => i >= 0);
  const regions =
    candidates.length === 0
      ? []
      : cellRegions(
          mainland,
          tracks,
          candidates.map((i) => pieces[i].ids),
          directionRadians,
          w,
          stop ?? never,
        );
  if (!regions) return undefined;
  const replaced = new Map<number, { subs: Track[][]; heading: CellHeading }>();
  let stopped = false;
  candidates.forEach((pi, k) => {
    if (stopped || (stopped = stop?.() === true)) return;
    const region = regions[k];
    if (region.length === 0) return;
    const own = pieces[pi].ids;
    const before = own.length * turn;
    const choice = edgeHeading(region, w, R);
    if (!(choice.costMeters <= before - 2 * turn + 1e-6)) return;
    const set = generateTracks(region, choice.directionRadians, w);
    if (set.tracks.length === 0) return;
    const sub = groupCells(set.tracks);
    const after = set.tracks.length * turn + (sub.length - 1) * 2 * turn;
    if (!(after <= before - 2 * turn + 1e-6)) return;
    if (trackLength(set.tracks) < (1 - MAX_LENGTH_LOSS) * trackLength(own.map((i) => tracks[i]))) return;
    const d = choice.directionRadians;
    replaced.set(pi, {
      subs: sub.map((ids) => ids.map((i) => ({ ...set.tracks[i], directionRadians: d }))),
      heading: { directionRadians: d, own: true, fieldHeadingCostMeters: before, costMeters: after },
    });
  });
  if (stopped) return undefined;
  if (replaced.size === 0) {
    const cellOf = new Int32Array(tracks.length);
    cells.forEach((c, k) => {
      for (const i of c) cellOf[i] = k;
    });
    return {
      tracks,
      cellOf,
      cells: cells.map((c) => ({
        directionRadians,
        own: false,
        fieldHeadingCostMeters: c.length * turn,
        costMeters: c.length * turn,
      })),
    };
  }

  return withReplacedPieces(tracks, pieces, replaced, directionRadians, turn);
}

/**
 * The tracks with the re-tracked pieces put in (each sub-cell a cell of its own heading); the other pieces keep the
 * field heading, consecutive ones of one cell as one cell.
 */
function withReplacedPieces(
  tracks: Track[],
  pieces: { cell: number; ids: number[] }[],
  replaced: Map<number, { subs: Track[][]; heading: CellHeading }>,
  directionRadians: number,
  turn: number,
): CellTracks {
  const out: Track[] = [];
  const cellOfList: number[] = [];
  const headings: CellHeading[] = [];
  // Lines: the field heading's own numbers for its tracks; re-tracked pieces get fresh numbers above them.
  let nextLine = 0;
  for (const t of tracks) if (t.line >= nextLine) nextLine = t.line + 1;
  let run: number[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    const k = headings.length;
    headings.push({
      directionRadians,
      own: false,
      fieldHeadingCostMeters: run.length * turn,
      costMeters: run.length * turn,
    });
    for (const i of run) {
      out.push(tracks[i]);
      cellOfList.push(k);
    }
    run = [];
  };
  pieces.forEach((piece, pi) => {
    // Consecutive kept pieces of one cell stay one cell; a re-tracked piece or a new cell ends the run.
    if (pi > 0 && pieces[pi - 1].cell !== piece.cell) flush();
    const r = replaced.get(pi);
    if (!r) {
      run.push(...piece.ids);
      return;
    }
    flush();
    for (const ids of r.subs) {
      const k = headings.length;
      headings.push(r.heading);
      let minLine = Infinity,
        maxLine = -Infinity;
      for (const t of ids) {
        if (t.line < minLine) minLine = t.line;
        if (t.line > maxLine) maxLine = t.line;
      }
      for (const t of ids) {
        out.push({ ...t, line: nextLine + t.line - minLine });
        cellOfList.push(k);
      }
      nextLine += maxLine - minLine + 1;
    }
  });
  flush();
  return { tracks: out, cellOf: Int32Array.from(cellOfList), cells: headings };
}
