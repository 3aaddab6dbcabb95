/**
 * Plane helpers of the AgOpenGPS writer: ring orientation and area, densifying, headings along a
 * line, offsets of a ring (clipper2-ts), point in ring.
 */
import { Clipper, EndType, JoinType } from 'clipper2-ts';
import type { Position } from '@furrow/core';
import { headingRadians, type LocalPoint } from './localPlane.js';

const PRECISION = 4;

/** Twice the signed area of a ring of local points (> 0 = counter-clockwise, east right and north up). */
export function signedAreaTwice(ring: readonly LocalPoint[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += ring[j].eastingMeters * ring[i].northingMeters - ring[i].eastingMeters * ring[j].northingMeters;
  }
  return sum;
}

/** The ring (without its closing point) turned clockwise or counter-clockwise. */
export function oriented(ring: LocalPoint[], clockwise: boolean): LocalPoint[] {
  const ccw = signedAreaTwice(ring) > 0;
  return ccw === clockwise ? ring.slice().reverse() : ring;
}

/** A closed ring (no closing point) with no edge longer than `spacingMeters`. */
export function densifyRing(ring: readonly LocalPoint[], spacingMeters: number): LocalPoint[] {
  const out: LocalPoint[] = [];
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % ring.length];
    appendSplit(out, a, b, spacingMeters);
  }
  return out;
}

/** An open line with no segment longer than `spacingMeters` and at least `minPoints` points. */
export function densifyLine(line: readonly LocalPoint[], spacingMeters: number, minPoints = 2): LocalPoint[] {
  let total = 0;
  for (let i = 1; i < line.length; i++) total += distance(line[i - 1], line[i]);
  const spacing = Math.min(spacingMeters, total / Math.max(1, minPoints - 1));
  const out: LocalPoint[] = [];
  for (let i = 1; i < line.length; i++) appendSplit(out, line[i - 1], line[i], spacing);
  out.push(line[line.length - 1]);
  return out;
}

function appendSplit(out: LocalPoint[], a: LocalPoint, b: LocalPoint, spacingMeters: number): void {
  const n = Math.max(1, Math.ceil(distance(a, b) / spacingMeters - 1e-9));
  for (let k = 0; k < n; k++) {
    out.push({
      eastingMeters: a.eastingMeters + ((b.eastingMeters - a.eastingMeters) * k) / n,
      northingMeters: a.northingMeters + ((b.northingMeters - a.northingMeters) * k) / n,
    });
  }
}

export function distance(a: LocalPoint, b: LocalPoint): number {
  return Math.hypot(b.eastingMeters - a.eastingMeters, b.northingMeters - a.northingMeters);
}

/** Headings of a closed ring's points: from the previous point to the next (AgOpenGPS's fence headings). */
export function ringHeadings(ring: readonly LocalPoint[]): number[] {
  const n = ring.length;
  return ring.map((_, i) => headingRadians(ring[(i - 1 + n) % n], ring[(i + 1) % n]));
}

/** Headings of an open line's points: previous to next inside, the end segments at the ends. */
export function lineHeadings(line: readonly LocalPoint[]): number[] {
  const n = line.length;
  if (n < 2) return line.map(() => 0);
  return line.map((_, i) => headingRadians(line[Math.max(0, i - 1)], line[Math.min(n - 1, i + 1)]));
}

/** The mean of headings (radians), as AgOpenGPS averages a curve's heading, in [0, 2π). */
export function meanHeading(headings: readonly number[]): number {
  let x = 0;
  let y = 0;
  for (const h of headings) {
    x += Math.cos(h);
    y += Math.sin(h);
  }
  const h = Math.atan2(y, x);
  return h < 0 ? h + 2 * Math.PI : h;
}

/** True if every point lies within `toleranceMeters` of the chord from the first to the last. */
export function isStraight(line: readonly LocalPoint[], toleranceMeters = 0.05): boolean {
  const a = line[0];
  const b = line[line.length - 1];
  const len = distance(a, b);
  if (len === 0) return false;
  for (const p of line) {
    const cross =
      (b.eastingMeters - a.eastingMeters) * (p.northingMeters - a.northingMeters) -
      (b.northingMeters - a.northingMeters) * (p.eastingMeters - a.eastingMeters);
    if (Math.abs(cross / len) > toleranceMeters) return false;
  }
  return true;
}

/**
 * The ring, as a polygon of its own, grown by `deltaMeters` (shrunk when negative), the largest
 * piece kept; undefined when nothing is left.
 */
export function offsetRing(ring: readonly LocalPoint[], deltaMeters: number): LocalPoint[] | undefined {
  const path = ring.map((p) => ({ x: p.eastingMeters, y: p.northingMeters }));
  const out = Clipper.inflatePathsD([path], deltaMeters, JoinType.Round, EndType.Polygon, 2, PRECISION);
  let best: LocalPoint[] | undefined;
  let bestArea = 0;
  for (const piece of out) {
    const pts = piece.map((q) => ({ eastingMeters: q.x, northingMeters: q.y }));
    const area = Math.abs(signedAreaTwice(pts));
    if (area > bestArea) {
      bestArea = area;
      best = pts;
    }
  }
  return best;
}

/** Point in ring (lon/lat, even-odd crossing test). */
export function inRing(p: Position, ring: readonly Position[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
