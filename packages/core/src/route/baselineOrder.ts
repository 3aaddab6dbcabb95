/**
 * Baseline track order (issue 2): tracks grouped into cells (runs of overlapping tracks on
 * consecutive scanlines, a boustrophedon decomposition), each cell driven as a snake with
 * skips so that neighbouring passes are at least 2R apart (turns need no loops), cells
 * visited nearest-first. The result is the seam for other orderings: a list of
 * (track index, direction) visits that `connectTracks` turns into a drivable route.
 */
import type { Track } from '../tracks/generateTracks.js';
import { hypot } from '../geometry/vec.js';

export interface TrackVisit {
  trackIndex: number;
  /** true = drive from (x0, y0) to (x1, y1). */
  forward: boolean;
}

export interface OrderOptions {
  widthMeters: number;
  turnRadiusMeters: number;
  /** 'boustrophedon' = neighbours in turn (no skips); 'snake' (default) = skips as R requires. */
  pattern?: 'boustrophedon' | 'snake';
  /** Explicit skip: neighbours in the visit differ by skipCount + 1 lines. */
  skipCount?: number;
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

/**
 * An order of 0..n-1 in which consecutive entries differ by `step` or `step + 1` (a snake with
 * skips), found by a depth-first search preferring the lowest index; undefined if none is
 * found within the budget.
 */
export function skipPattern(n: number, step: number): number[] | undefined {
  if (step <= 1) return Array.from({ length: n }, (_, i) => i);
  if (n === 1) return [0];
  const visited = new Uint8Array(n);
  const path: number[] = [];
  let budget = 20_000;
  const dfs = (i: number): boolean => {
    if (--budget < 0) return false;
    visited[i] = 1;
    path.push(i);
    if (path.length === n) return true;
    for (const j of [i - step - 1, i - step, i + step, i + step + 1].sort((a, b) => a - b)) {
      if (j < 0 || j >= n || visited[j]) continue;
      if (dfs(j)) return true;
    }
    visited[i] = 0;
    path.pop();
    return false;
  };
  for (let start = 0; start < Math.min(n, step + 1); start++) {
    if (dfs(start)) return path;
    budget = 20_000;
  }
  return undefined;
}

/** Lines between neighbouring passes so that a forward U fits without a loop. */
export function skipStep(opts: OrderOptions): number {
  if (opts.pattern === 'boustrophedon') return 1;
  if (opts.skipCount !== undefined) return opts.skipCount + 1;
  return Math.max(1, Math.ceil((2 * opts.turnRadiusMeters) / opts.widthMeters - 1e-9));
}

/** The baseline order of all tracks. `start` = where the machine is before the first track. */
export function orderTracks(tracks: Track[], opts: OrderOptions, start?: { x: number; y: number }): TrackVisit[] {
  const cells = groupCells(tracks);
  const step = skipStep(opts);
  const sequences = cells.map((cell) => {
    const lines = cell.map((i) => tracks[i].line);
    const base = lines[0];
    // Lines of one cell are consecutive; a pattern over their offsets.
    const pattern = skipPattern(cell.length, step) ?? skipPattern(cell.length, 1)!;
    void base;
    return pattern.map((k) => cell[k]);
  });
  const visits: TrackVisit[] = [];
  const done = new Uint8Array(sequences.length);
  let pos = start;
  for (let c = 0; c < sequences.length; c++) {
    // Nearest cell entry among the four variants (sequence forwards/backwards × first direction).
    let best = -1, bestRev = false, bestFwd = true, bestD = Infinity;
    for (let s = 0; s < sequences.length; s++) {
      if (done[s]) continue;
      if (pos === undefined) {
        best = s;
        break;
      }
      const seq = sequences[s];
      for (const rev of [false, true]) {
        const t = tracks[rev ? seq[seq.length - 1] : seq[0]];
        for (const fwd of [true, false]) {
          const d = fwd ? hypot(t.x0 - pos.x, t.y0 - pos.y) : hypot(t.x1 - pos.x, t.y1 - pos.y);
          if (d < bestD - 1e-9) {
            bestD = d; best = s; bestRev = rev; bestFwd = fwd;
          }
        }
      }
    }
    done[best] = 1;
    const seq = bestRev ? [...sequences[best]].reverse() : sequences[best];
    let fwd = bestFwd;
    for (const i of seq) {
      visits.push({ trackIndex: i, forward: fwd });
      fwd = !fwd;
    }
    const last = visits[visits.length - 1];
    const lt = tracks[last.trackIndex];
    pos = last.forward ? { x: lt.x1, y: lt.y1 } : { x: lt.x0, y: lt.y0 };
  }
  return visits;
}
