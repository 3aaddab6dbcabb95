/**
 * Tracks: parallel working passes one width apart over the mainland, clipped to it by a
 * scanline over the polygon's edges in a frame rotated to the track direction (exact and
 * O(n + k) per heading; holes and concave bays split a scanline into several tracks).
 */
import { offsetPolygons, type PathsD } from '../geometry/clipper.js';
import { sortAscending } from '../geometry/vec.js';
import { DEFAULTS } from '../request/normalizeRequest.js';

export interface Track {
  /** Scanline number, 0 at the lowest line across the heading. */
  line: number;
  /** Along-track coordinates of the ends in the rotated frame (u0 < u1). */
  u0: number;
  u1: number;
  /** Across-track coordinate of the scanline. */
  v: number;
  /** Ends in the local frame: (x0, y0) at u0, (x1, y1) at u1. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /**
   * The track's own direction (radians CCW from +x, [0, π)) when its cell has a heading of
   * its own (`assignCellHeadings`); u and v are then in the frame rotated by it. Absent: the
   * set's direction.
   */
  directionRadians?: number;
  /**
   * Curved tracks only (`generateCurvedTracks`): the centre line from (x0, y0) to (x1, y1),
   * flat xy, local frame. Absent: the straight segment between the ends.
   */
  xy?: Float64Array;
  /**
   * Working width of a strip pass (tracks/strips.ts), meters, when narrower than the machine:
   * the machine drives it with part of its sections off. Absent: the machine's width.
   */
  widthMeters?: number;
  /**
   * Centre-line passes (tracks/centreLine.ts): at each point of `xy`, the left and right limits of
   * the boom's active sections, m from the centre line (+ = left of the direction from (x0, y0)).
   * Sections outside them are off (beyond the strip, over ground already worked). Absent: the
   * whole width, centred.
   */
  activeLeftMeters?: Float64Array;
  activeRightMeters?: Float64Array;
  /**
   * Centre-line passes: where their centre line was cut because it bends more tightly than R even
   * driven wide within the field's room (flat xy, local frame): no pass of radius R gets past there.
   */
  tightBends?: number[];
  /** A centre-line pass of a tour a bend cut, which may start the other way round (choice/ `tours-turned`). */
  tourTurnable?: boolean;
}

export interface TrackSet {
  /** Track direction, radians CCW from +x (local frame), in [0, π). */
  directionRadians: number;
  tracks: Track[];
  lineCount: number;
}

/** Shortest track kept, meters: shorter scanline pieces are slivers at corners. */
export const MIN_TRACK_LENGTH_METERS = 1;

/** The polygon's extent across the heading (v = −s·x + c·y). */
export function acrossExtent(poly: PathsD, directionRadians: number): { vmin: number; vmax: number } {
  const c = Math.cos(directionRadians),
    s = Math.sin(directionRadians);
  let vmin = Infinity,
    vmax = -Infinity;
  for (const ring of poly)
    for (const p of ring) {
      const v = -s * p.x + c * p.y;
      if (v < vmin) vmin = v;
      if (v > vmax) vmax = v;
    }
  return { vmin, vmax };
}

/** Intersections of `count` scanlines v0 + k·step with the rotated polygon edges, per line, sorted. */
function scanAt(poly: PathsD, directionRadians: number, v0: number, step: number, count: number): number[][] {
  const c = Math.cos(directionRadians),
    s = Math.sin(directionRadians);
  const lines: number[][] = Array.from({ length: count }, () => []);
  for (const ring of poly) {
    const n = ring.length;
    for (let i = 0; i < n; i++) {
      const a = ring[i],
        b = ring[(i + 1) % n];
      const ua = c * a.x + s * a.y,
        va = -s * a.x + c * a.y;
      const ub = c * b.x + s * b.y,
        vb = -s * b.x + c * b.y;
      if (va === vb) continue;
      const lo = Math.min(va, vb),
        hi = Math.max(va, vb);
      // Half-open [lo, hi): a vertex on a scanline is counted once.
      let k0 = Math.ceil((lo - v0) / step);
      let k1 = Math.ceil((hi - v0) / step) - 1;
      if (k0 < 0) k0 = 0;
      if (k1 > count - 1) k1 = count - 1;
      const du = (ub - ua) / (vb - va);
      for (let k = k0; k <= k1; k++) {
        const v = v0 + k * step;
        if (v < lo || v >= hi) continue;
        lines[k].push(ua + (v - va) * du);
      }
    }
  }
  for (const l of lines) sortAscending(l);
  return lines;
}

/** K = ⌈H / w⌉ scanlines one width apart, centred across the polygon (the heading search's estimate). */
function scanlines(poly: PathsD, directionRadians: number, widthMeters: number): { v0: number; lines: number[][] } {
  const { vmin, vmax } = acrossExtent(poly, directionRadians);
  if (!(vmax > vmin)) return { v0: 0, lines: [] };
  const h = vmax - vmin;
  const count = Math.max(1, Math.ceil(h / widthMeters - 1e-9));
  const v0 = vmin + (h - (count - 1) * widthMeters) / 2;
  return { v0, lines: scanAt(poly, directionRadians, v0, widthMeters, count) };
}

/**
 * Sub-lines per width in the search for the lines' offset across the heading (odd: the band a
 * line's swath covers is the PHASE_STEPS sub-lines centred on it).
 */
const PHASE_STEPS = 11;
/**
 * What one more track costs in the offset search, in square meters of uncovered ground per w²:
 * a track is worth its turn when it works at least w²/2 (a 3 m stretch at w = 6 m) that the
 * others leave. Measured on the corpus (bench/uncovered-sources.ts): at 2·w² small fields lose
 * their only track over a sliver of mainland (de-bb-074: uncovered 1.5 → 3.6 %), at 0 every
 * grazing corner gets a track (median overlap 2.6 → 3.1 %, no less uncovered).
 */
const PIECE_COST_PER_SQUARE_WIDTH = 0.5;

/** Total length of the overlap of two sorted interval lists (flat pairs). */
function overlapLength(a: number[], b: number[]): number {
  let total = 0;
  for (let i = 0, j = 0; i + 1 < a.length && j + 1 < b.length;) {
    const lo = Math.max(a[i], b[j]),
      hi = Math.min(a[i + 1], b[j + 1]);
    if (hi > lo) total += hi - lo;
    if (a[i + 1] < b[j + 1]) i += 2;
    else j += 2;
  }
  return total;
}

/**
 * Pieces with their ends moved `fraction` of the way to the ends of the edge lines' intervals
 * that overlap them, and no further than the middle of the gap to the next interval of their own
 * line (`xs`), as tracks/extendTracks.ts moves them.
 */
function extendPieces(
  xs: number[],
  p: number[],
  below: number[] | undefined,
  above: number[] | undefined,
  fraction: number,
): number[] {
  if (fraction <= 0 || p.length === 0) return p;
  const out = p.slice();
  for (let k = 0; k + 1 < out.length; k += 2) {
    const u0 = p[k],
      u1 = p[k + 1];
    let lo = u0,
      hi = u1;
    for (const e of [below, above]) {
      if (!e) continue;
      for (let i = 0; i + 1 < e.length; i += 2) {
        if (e[i + 1] <= u0 || e[i] >= u1) continue;
        if (e[i] < lo) lo = e[i];
        if (e[i + 1] > hi) hi = e[i + 1];
      }
    }
    const at = xs.indexOf(u0);
    if (at >= 2) lo = Math.max(lo, (xs[at - 1] + u0) / 2);
    if (at >= 0 && at + 2 < xs.length) hi = Math.min(hi, (u1 + xs[at + 2]) / 2);
    out[k] = u0 - fraction * (u0 - lo);
    out[k + 1] = u1 + fraction * (hi - u1);
  }
  return out;
}

/** Track pieces of one scanline: its inside intervals at least MIN_TRACK_LENGTH_METERS long. */
function piecesOf(xs: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < xs.length; i += 2)
    if (xs[i + 1] - xs[i] >= MIN_TRACK_LENGTH_METERS) out.push(xs[i], xs[i + 1]);
  return out;
}

/**
 * The scanlines one width apart, offset across the heading so that their swaths leave the least
 * of the polygon unworked. Centring K = ⌈H / w⌉ lines on the extent H leaves, wherever the
 * outermost line only grazes the polygon (a corner, or an edge nearly parallel to the tracks, cut
 * by less than MIN_TRACK_LENGTH_METERS or not at all), a strip up to w/2 wide along the whole
 * side unworked. Here the polygon is cut by sub-lines w / PHASE_STEPS apart; each of the
 * PHASE_STEPS offsets puts the lines on every PHASE_STEPS-th sub-line, and a sub-line counts as
 * worked where the nearest line's tracks run beside it. The offset with the least uncovered area
 * plus PIECE_COST_PER_SQUARE_WIDTH·w² per track wins; ties go to the one nearest the centred lines.
 */
function phasedScanlines(
  poly: PathsD,
  directionRadians: number,
  widthMeters: number,
  extensionFraction: number,
): { v0: number; lines: number[][] } {
  const { vmin, vmax } = acrossExtent(poly, directionRadians);
  if (!(vmax > vmin)) return { v0: 0, lines: [] };
  const S = PHASE_STEPS,
    half = (S - 1) / 2;
  const step = widthMeters / S;
  const h = vmax - vmin;
  // The sub-lines run through the centred lines (one of the offsets tried is theirs).
  const count = Math.max(1, Math.ceil(h / widthMeters - 1e-9));
  const centredV0 = vmin + (h - (count - 1) * widthMeters) / 2;
  const f0 = centredV0 - step * Math.floor((centredV0 - vmin) / step + 1e-9);
  const fineCount = Math.max(1, Math.floor((vmax - f0) / step + 1e-9) + 1);
  const centred = Math.round((centredV0 - f0) / step) % S;
  const fine = scanAt(poly, directionRadians, f0, step, fineCount);
  const inside = new Float64Array(fineCount);
  for (let j = 0; j < fineCount; j++) {
    const xs = fine[j];
    for (let i = 0; i + 1 < xs.length; i += 2) inside[j] += xs[i + 1] - xs[i];
  }
  const raw = fine.map(piecesOf);
  // Each piece as the track stage leaves it: its ends moved `extensionFraction` of the way to where
  // the sub-lines at its swath's edges leave the polygon (tracks/extendTracks.ts).
  const pieces = raw.map((p, i) =>
    extendPieces(
      fine[i],
      p,
      i >= half ? fine[i - half] : undefined,
      i + half < fineCount ? fine[i + half] : undefined,
      extensionFraction,
    ),
  );
  const pieceCost = PIECE_COST_PER_SQUARE_WIDTH * widthMeters * widthMeters;
  const tol = (c: number): number => 1e-6 * (1 + Math.abs(c));
  let best = 0,
    bestCost = Infinity,
    bestTie = Infinity;
  for (let m = 0; m < S; m++) {
    let uncovered = 0,
      pieceCount = 0;
    for (let i = m; i < fineCount; i += S) pieceCount += raw[i].length / 2;
    for (let j = 0; j < fineCount; j++) {
      // The line nearest sub-line j (none below the first sub-line or above the last).
      const i = m + S * Math.round((j - m) / S);
      const worked = i >= 0 && i < fineCount ? overlapLength(fine[j], pieces[i]) : 0;
      uncovered += (inside[j] - worked) * step;
    }
    const cost = uncovered + pieceCost * pieceCount;
    const tie = Math.min(Math.abs(m - centred), S - Math.abs(m - centred));
    if (cost < bestCost - tol(bestCost) || (Math.abs(cost - bestCost) <= tol(bestCost) && tie < bestTie)) {
      best = m;
      bestCost = cost;
      bestTie = tie;
    }
  }
  const lines: number[][] = [];
  for (let i = best; i < fineCount; i += S) lines.push(fine[i]);
  return { v0: f0 + best * step, lines };
}

/**
 * A grid line beyond the polygon's side counts when its swath still reaches this share of a width
 * into the polygon: it is scanned against the polygon grown to reach it (the strip it works would
 * otherwise be left, the grid allowing no other line there).
 */
const EDGE_LINE_REACH = 0.1;

/**
 * The scanlines one width apart on the lane grid through `gridAcrossMeters` (v of any grid line); with
 * `edgeLines`, the grid lines just beyond either side whose swath reaches EDGE_LINE_REACH·w into it too.
 */
function gridScanlines(
  poly: PathsD,
  directionRadians: number,
  widthMeters: number,
  gridAcrossMeters: number,
  edgeLines: boolean,
): { v0: number; lines: number[][] } {
  const w = widthMeters;
  const { vmin, vmax } = acrossExtent(poly, directionRadians);
  if (!(vmax > vmin)) return { v0: 0, lines: [] };
  let v0 = gridAcrossMeters + w * Math.ceil((vmin - gridAcrossMeters) / w);
  const count = Math.max(0, Math.floor((vmax - v0) / w) + 1);
  const lines = scanAt(poly, directionRadians, v0, w, count);
  if (!edgeLines) return { v0, lines };
  const edge = (v: number, gap: number): number[] | undefined => {
    if (!(gap > 0 && gap <= w / 2 - EDGE_LINE_REACH * w)) return undefined;
    const xs = scanAt(offsetPolygons(poly, gap + 1e-3), directionRadians, v, w, 1)[0];
    return piecesOf(xs).length > 0 ? xs : undefined;
  };
  const below = edge(v0 - w, vmin - (v0 - w)),
    above = edge(v0 + count * w, v0 + count * w - vmax);
  if (above) lines.push(above);
  if (below) {
    lines.unshift(below);
    v0 -= w;
  }
  return { v0, lines };
}

/**
 * Tracks over the mainland along `directionRadians`, one width apart, offset across the heading
 * to leave the least unworked (`phasedScanlines`), counting the track ends as the track stage
 * extends them afterwards (`extensionFraction` of the full extension, tracks/extendTracks.ts).
 * With `gridAcrossMeters` (the across-track coordinate of one line of a lane grid,
 * request/trackReference.ts), the tracks lie on that grid's lines instead (`gridScanlines`; with
 * `gridEdgeLines`, where headland passes leave room, also on the lines just beyond the polygon).
 */
export function generateTracks(
  mainland: PathsD,
  directionRadians: number,
  widthMeters: number,
  extensionFraction = DEFAULTS.trackExtensionFraction,
  gridAcrossMeters?: number,
  gridEdgeLines = false,
): TrackSet {
  const { v0, lines } =
    gridAcrossMeters === undefined
      ? phasedScanlines(mainland, directionRadians, widthMeters, extensionFraction)
      : gridScanlines(mainland, directionRadians, widthMeters, gridAcrossMeters, gridEdgeLines);
  const c = Math.cos(directionRadians),
    s = Math.sin(directionRadians);
  const tracks: Track[] = [];
  for (let k = 0; k < lines.length; k++) {
    const xs = lines[k];
    const v = v0 + k * widthMeters;
    for (let i = 0; i + 1 < xs.length; i += 2) {
      const u0 = xs[i],
        u1 = xs[i + 1];
      if (u1 - u0 < MIN_TRACK_LENGTH_METERS) continue;
      tracks.push({
        line: k,
        u0,
        u1,
        v,
        x0: c * u0 - s * v,
        y0: s * u0 + c * v,
        x1: c * u1 - s * v,
        y1: s * u1 + c * v,
      });
    }
  }
  return { directionRadians, tracks, lineCount: lines.length };
}

/** Cheap summary of a heading for the search: track pieces and their total length. */
export function summarizeTracks(
  mainland: PathsD,
  directionRadians: number,
  widthMeters: number,
): { pieces: number; lengthMeters: number } {
  const { lines } = scanlines(mainland, directionRadians, widthMeters);
  let pieces = 0,
    lengthMeters = 0;
  for (const xs of lines) {
    for (let i = 0; i + 1 < xs.length; i += 2) {
      const d = xs[i + 1] - xs[i];
      if (d < MIN_TRACK_LENGTH_METERS) continue;
      pieces++;
      lengthMeters += d;
    }
  }
  return { pieces, lengthMeters };
}
