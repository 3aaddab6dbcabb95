/**
 * The swerve round a small obstacle, as a profile in a line's own frame (u along it, v across): out
 * sideways by `shift` with an S of two arcs of radius r, straight past the obstacle, and back with
 * another S. Tracks (tracks/swerveTracks.ts) and headland passes (headland/swervePasses.ts) swerve so.
 */
import type { PathD } from './clipper.js';
import type { Region } from './region.js';

/** Arcs of a swerve are this much wider than the turning radius (their polygons stay within it). */
export const ARC_MARGIN = 1.05;
/** Spacing of the points of a swerve's arcs, m. */
const ARC_STEP_METERS = 0.5;

/** A zone's extent in the frame of direction (c, s) = (cos, sin): along [ua, ub], across [va, vb]. */
export interface Extent {
  ua: number;
  ub: number;
  va: number;
  vb: number;
}

export function extentOf(zone: PathD, c: number, s: number): Extent {
  let ua = Infinity,
    ub = -Infinity,
    va = Infinity,
    vb = -Infinity;
  for (const p of zone) {
    const u = c * p.x + s * p.y,
      v = -s * p.x + c * p.y;
    if (u < ua) ua = u;
    if (u > ub) ub = u;
    if (v < va) va = v;
    if (v > vb) vb = v;
  }
  return { ua, ub, va, vb };
}

/** The two sideways shifts that take a line at v past the extent with `clearanceMeters` to spare, the shorter first. */
export function sideShifts(e: Extent, v: number, clearanceMeters: number): [number, number] {
  const up = e.vb + clearanceMeters - v,
    down = e.va - clearanceMeters - v;
  return Math.abs(up) <= Math.abs(down) ? [up, down] : [down, up];
}

/** Along-line length of an S of two arcs of radius r shifting the line sideways by `shift` (at most 2r). */
export function sCurveLength(shift: number, r: number): number {
  return 2 * r * Math.sin(Math.acos(1 - Math.min(Math.abs(shift), 2 * r) / (2 * r)));
}

/** The centre line keeps `clearanceMeters` from every edge of the region (sampled at its points). */
export function clearOf(xy: Float64Array, region: Region, clearanceMeters: number): boolean {
  for (let i = 0; i < xy.length; i += 2)
    if (region.distanceToEdge(xy[i], xy[i + 1]) < clearanceMeters - 1e-6) return false;
  return true;
}

/**
 * (u, v) points of a swerve from u = a to u = b: out by `shift` with two arcs of radius r, straight,
 * back (L: one S's length). With `startU` the points start at (startU, v + shift), already out (no S
 * before); with `endU` they end at (endU, v + shift), still out (no S after).
 */
export function swerveProfile(
  a: number,
  b: number,
  v: number,
  shift: number,
  r: number,
  L: number,
  startU?: number,
  endU?: number,
): number[] {
  const out: number[] = [];
  const sgn = Math.sign(shift),
    abs = Math.abs(shift);
  const sCurve = (from: number, v0: number, dir: 1 | -1): void => {
    // two arcs, each turning by theta: lateral r(1 − cos θ) each, along r sin θ each
    const theta = Math.acos(1 - abs / (2 * r));
    const n = Math.max(2, Math.ceil((r * theta) / ARC_STEP_METERS));
    for (let k = 1; k <= n; k++) {
      const phi = (theta * k) / n;
      out.push(from + r * Math.sin(phi), v0 + dir * sgn * r * (1 - Math.cos(phi)));
    }
    const midU = from + r * Math.sin(theta),
      midV = v0 + dir * sgn * r * (1 - Math.cos(theta));
    for (let k = 1; k <= n; k++) {
      const phi = theta - (theta * k) / n;
      out.push(midU + r * (Math.sin(theta) - Math.sin(phi)), midV + dir * sgn * r * (Math.cos(phi) - Math.cos(theta)));
    }
  };
  if (startU !== undefined) out.push(startU, v + shift);
  else {
    out.push(a, v);
    sCurve(a, v, 1);
  }
  if (endU !== undefined) {
    out.push(endU, v + shift);
    return out;
  }
  out.push(b - L, v + shift);
  sCurve(b - L, v + shift, -1);
  return out;
}

/** A (u, v) profile in the frame of direction (c, s) = (cos, sin), as flat xy. */
export function toXY(profile: number[], c: number, s: number): Float64Array {
  const xy = new Float64Array(profile.length);
  for (let i = 0; i < profile.length; i += 2) {
    const u = profile[i],
      v = profile[i + 1];
    xy[i] = c * u - s * v;
    xy[i + 1] = s * u + c * v;
  }
  return xy;
}
