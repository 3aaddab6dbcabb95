/**
 * What the route's manoeuvres cost beyond their length: a reversing manoeuvre (K-turn, fishtail,
 * a reversing search between tracks) is a turn wherever the route stage typed it, and every cusp
 * (a change of gear between forward and reverse) is a stop.
 */
import type { RouteSegmentType } from '../types.js';

interface Driven {
  type: RouteSegmentType;
  xy: Float64Array;
  reverse?: boolean;
}

/** Chords shorter than this are noise for the direction of travel (checkKinematics' rule). */
const CUSP_CHORD_METERS = 0.01;

/** Whether a route piece counts in `metrics.turns`: a turn, or a connector that reverses. */
export function countsAsTurn(s: Driven): boolean {
  return s.type === 'Turn' || (s.type === 'Connector' && s.reverse === true);
}

/**
 * Cusps along the whole route: reversals of more than 90° between successive chords of at least
 * 1 cm, counted across the joints between pieces too (a K-turn that backs out of a track flips
 * the direction where the track ends).
 */
export function countCusps(segments: readonly Driven[]): number {
  let cusps = 0;
  for (const n of cuspsPerSegment(segments)) cusps += n;
  return cusps;
}

/** The cusps of each segment, in order (a cusp at a joint counts on the segment after it). */
export function cuspsPerSegment(segments: readonly Pick<Driven, 'xy'>[]): number[] {
  const out: number[] = [];
  let px = NaN,
    py = NaN,
    dx = 0,
    dy = 0;
  for (const s of segments) {
    let n = 0;
    const xy = s.xy;
    for (let i = 0; i + 1 < xy.length; i += 2) {
      const x = xy[i],
        y = xy[i + 1];
      if (Number.isNaN(px)) {
        px = x;
        py = y;
        continue;
      }
      const cx = x - px,
        cy = y - py;
      if (Math.hypot(cx, cy) < CUSP_CHORD_METERS) continue;
      if (dx * cx + dy * cy < 0) n++;
      dx = cx;
      dy = cy;
      px = x;
      py = y;
    }
    out.push(n);
  }
  return out;
}
