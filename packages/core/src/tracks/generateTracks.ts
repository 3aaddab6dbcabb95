/**
 * Tracks: parallel working passes one width apart over the mainland, clipped to it by a
 * scanline over the polygon's edges in a frame rotated to the track direction (exact and
 * O(n + k) per heading; holes and concave bays split a scanline into several tracks).
 */
import type { PathsD } from '../geometry/clipper.js';

export interface Track {
  /** Scanline number, 0 at the lowest line across the heading. */
  line: number;
  /** Along-track coordinates of the ends in the rotated frame (u0 < u1). */
  u0: number;
  u1: number;
  /** Across-track coordinate of the scanline. */
  v: number;
  /** Ends in the local frame: (x0, y0) at u0, (x1, y1) at u1. */
  x0: number; y0: number; x1: number; y1: number;
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
}

export interface TrackSet {
  /** Track direction, radians CCW from +x (local frame), in [0, π). */
  directionRadians: number;
  tracks: Track[];
  lineCount: number;
}

/** Shortest track kept, meters: shorter scanline pieces are slivers at corners. */
export const MIN_TRACK_LENGTH_METERS = 1;

/** Intersections of every scanline with the rotated polygon edges, per line, sorted. */
function scanlines(poly: PathsD, directionRadians: number, widthMeters: number): { v0: number; lines: number[][] } {
  const c = Math.cos(directionRadians), s = Math.sin(directionRadians);
  let vmin = Infinity, vmax = -Infinity;
  for (const ring of poly) for (const p of ring) {
    const v = -s * p.x + c * p.y;
    if (v < vmin) vmin = v;
    if (v > vmax) vmax = v;
  }
  if (!(vmax > vmin)) return { v0: 0, lines: [] };
  const h = vmax - vmin;
  const count = Math.max(1, Math.ceil(h / widthMeters - 1e-9));
  const v0 = vmin + (h - (count - 1) * widthMeters) / 2;
  const lines: number[][] = Array.from({ length: count }, () => []);
  for (const ring of poly) {
    const n = ring.length;
    for (let i = 0; i < n; i++) {
      const a = ring[i], b = ring[(i + 1) % n];
      const ua = c * a.x + s * a.y, va = -s * a.x + c * a.y;
      const ub = c * b.x + s * b.y, vb = -s * b.x + c * b.y;
      if (va === vb) continue;
      const lo = Math.min(va, vb), hi = Math.max(va, vb);
      // Half-open [lo, hi): a vertex on a scanline is counted once.
      let k0 = Math.ceil((lo - v0) / widthMeters);
      let k1 = Math.ceil((hi - v0) / widthMeters) - 1;
      if (k0 < 0) k0 = 0;
      if (k1 > count - 1) k1 = count - 1;
      const du = (ub - ua) / (vb - va);
      for (let k = k0; k <= k1; k++) {
        const v = v0 + k * widthMeters;
        if (v < lo || v >= hi) continue;
        lines[k].push(ua + (v - va) * du);
      }
    }
  }
  for (const l of lines) l.sort((p, q) => p - q);
  return { v0, lines };
}

export function generateTracks(mainland: PathsD, directionRadians: number, widthMeters: number): TrackSet {
  const { v0, lines } = scanlines(mainland, directionRadians, widthMeters);
  const c = Math.cos(directionRadians), s = Math.sin(directionRadians);
  const tracks: Track[] = [];
  for (let k = 0; k < lines.length; k++) {
    const xs = lines[k];
    const v = v0 + k * widthMeters;
    for (let i = 0; i + 1 < xs.length; i += 2) {
      const u0 = xs[i], u1 = xs[i + 1];
      if (u1 - u0 < MIN_TRACK_LENGTH_METERS) continue;
      tracks.push({ line: k, u0, u1, v, x0: c * u0 - s * v, y0: s * u0 + c * v, x1: c * u1 - s * v, y1: s * u1 + c * v });
    }
  }
  return { directionRadians, tracks, lineCount: lines.length };
}

/** Cheap summary of a heading for the search: track pieces and their total length. */
export function summarizeTracks(mainland: PathsD, directionRadians: number, widthMeters: number): { pieces: number; lengthMeters: number } {
  const { lines } = scanlines(mainland, directionRadians, widthMeters);
  let pieces = 0, lengthMeters = 0;
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
