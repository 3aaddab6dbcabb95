/**
 * Heading search. Cost of a heading (meters of estimated non-working travel):
 *
 *   cost(θ) = pieces(θ) × (π·R + 2·w)
 *
 * where pieces(θ) is the number of tracks the scanline cuts at θ (every track end costs one
 * turn of about a half circle plus the skip spacing). Fewer, longer tracks win; headings that
 * cut a concave field into many pieces lose. Candidates: the directions of the five longest
 * boundary edges (farmers' favourites, and the optimum for convex cells by rotating calipers)
 * plus a coarse-to-fine search over all headings (5°, then 0.5°, then 0.1° around the best).
 */
import type { PathD, PathsD } from '../geometry/clipper.js';
import { summarizeTracks } from './generateTracks.js';
import { hypot } from '../geometry/vec.js';

export interface HeadingChoice {
  /** Track direction, radians CCW from +x, in [0, π). */
  directionRadians: number;
  costMeters: number;
}

export function headingCost(
  mainland: PathsD,
  directionRadians: number,
  widthMeters: number,
  turnRadiusMeters: number,
): number {
  const { pieces, lengthMeters } = summarizeTracks(mainland, directionRadians, widthMeters);
  if (pieces === 0) return Infinity;
  // Tie-break on length (longer worked length = better coverage), 1e-6 per meter.
  return pieces * (Math.PI * turnRadiusMeters + 2 * widthMeters) - lengthMeters * 1e-6;
}

function normalizeDirection(a: number): number {
  a = a % Math.PI;
  return a < 0 ? a + Math.PI : a;
}

/**
 * Directions of the `count` longest edges of the rings (longest first; on equal length the smaller
 * direction, then the earlier edge). Kept by insertion into the few best: a logged boundary has
 * thousands of edges, and sorting them all was most of the search's set-up.
 */
export function longEdgeDirections(field: PathsD, count: number): number[] {
  const lens: number[] = [],
    dirs: number[] = [];
  // whether edge (len, dir) goes before the kept edge k
  const before = (len: number, dir: number, k: number): boolean => len > lens[k] || (len === lens[k] && dir < dirs[k]);
  for (const ring of field as PathD[]) {
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i],
        b = ring[(i + 1) % ring.length];
      const len = hypot(b.x - a.x, b.y - a.y);
      const full = lens.length === count;
      if (count <= 0 || (full && len < lens[count - 1])) continue;
      const dir = normalizeDirection(Math.atan2(b.y - a.y, b.x - a.x));
      if (full && !before(len, dir, count - 1)) continue;
      let j = full ? count - 1 : lens.length;
      if (!full) {
        lens.push(len);
        dirs.push(dir);
      }
      while (j > 0 && before(len, dir, j - 1)) {
        lens[j] = lens[j - 1];
        dirs[j] = dirs[j - 1];
        j--;
      }
      lens[j] = len;
      dirs[j] = dir;
    }
  }
  return dirs;
}

export function searchHeading(
  field: PathsD,
  mainland: PathsD,
  widthMeters: number,
  turnRadiusMeters: number,
): HeadingChoice {
  const cost = (a: number): number => headingCost(mainland, a, widthMeters, turnRadiusMeters);
  const scored: HeadingChoice[] = [];
  const seen = new Set<number>();
  const add = (a: number): void => {
    a = normalizeDirection(a);
    const key = Math.round(a * 1e6);
    if (seen.has(key)) return;
    seen.add(key);
    scored.push({ directionRadians: a, costMeters: cost(a) });
  };
  for (const d of longEdgeDirections(field, 5)) add(d);
  const deg = Math.PI / 180;
  for (let d = 0; d < 180; d += 5) add(d * deg);
  const best = (): HeadingChoice[] =>
    [...scored].sort((p, q) => p.costMeters - q.costMeters || p.directionRadians - q.directionRadians);
  for (const step of [0.5, 0.1]) {
    const span = step === 0.5 ? 2.5 : 0.5;
    for (const c of best().slice(0, 3)) {
      for (let o = -span; o <= span + 1e-9; o += step) add(c.directionRadians + o * deg);
    }
  }
  return best()[0];
}
