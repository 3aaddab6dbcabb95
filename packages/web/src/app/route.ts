/**
 * Reading a route: the driving direction and number of each pass, the heading the planner chose
 * in words, and a timeline that places the machine on the route at a given time (playback).
 * Pure functions over plan GeoJSON route features (sorted by sequence), no DOM: unit-tested in Node.
 */
import type { Feature, Geometry, Position } from './geo.js';
import { featureType, WORKING_TYPES } from './layers.js';

const EARTH_RADIUS_METERS = 6_371_008.8;
const DEG_TO_RAD = Math.PI / 180;

/** Planar distance in meters between two lon/lat positions (equirectangular: exact enough at field scale). */
export function distanceMeters(a: Position, b: Position): number {
  const kx = Math.cos(((a[1] + b[1]) / 2) * DEG_TO_RAD);
  const dx = (b[0] - a[0]) * kx;
  const dy = b[1] - a[1];
  return Math.hypot(dx, dy) * DEG_TO_RAD * EARTH_RADIUS_METERS;
}

/** Bearing from a to b, degrees clockwise from north in [0, 360). */
export function bearingDegrees(a: Position, b: Position): number {
  const kx = Math.cos(((a[1] + b[1]) / 2) * DEG_TO_RAD);
  const deg = Math.atan2((b[0] - a[0]) * kx, b[1] - a[1]) / DEG_TO_RAD;
  return (deg + 360) % 360;
}

const COMPASS_16 = [
  'north',
  'north-northeast',
  'northeast',
  'east-northeast',
  'east',
  'east-southeast',
  'southeast',
  'south-southeast',
  'south',
  'south-southwest',
  'southwest',
  'west-southwest',
  'west',
  'west-northwest',
  'northwest',
  'north-northwest',
];

/** The 16-point compass name of a bearing ("north-northeast"). */
export function compassName(bearing: number): string {
  const i = Math.round((((bearing % 360) + 360) % 360) / 22.5) % 16;
  return COMPASS_16[i];
}

/** Tracks are driven both ways: "Tracks run north-northeast to south-southwest (bearing 22°)". */
export function headingInWords(headingDegrees: number): string {
  const axis = (((headingDegrees % 180) + 180) % 180) as number;
  const rounded = Math.round(axis) % 180;
  return `Tracks run ${compassName(axis)} to ${compassName(axis + 180)} (bearing ${rounded}°)`;
}

/** Lines of a line geometry (LineString or MultiLineString). */
export function linesOf(g: Geometry | null): Position[][] {
  if (!g) return [];
  if (g.type === 'LineString') return [g.coordinates as Position[]];
  if (g.type === 'MultiLineString') return g.coordinates as Position[][];
  return [];
}

/**
 * The heading of the tracks, degrees in [0, 180): the length-weighted mean axis of the Track
 * features' segments (doubled angles, so 1° and 179° average to 0°). Undefined without tracks.
 */
export function trackHeadingDegrees(route: readonly Feature[]): number | undefined {
  let sx = 0;
  let sy = 0;
  for (const f of route) {
    if (featureType(f) !== 'Track') continue;
    for (const line of linesOf(f.geometry)) {
      for (let i = 1; i < line.length; i++) {
        const len = distanceMeters(line[i - 1], line[i]);
        const a = 2 * bearingDegrees(line[i - 1], line[i]) * DEG_TO_RAD;
        sx += len * Math.cos(a);
        sy += len * Math.sin(a);
      }
    }
  }
  if (sx === 0 && sy === 0) return undefined;
  const deg = Math.atan2(sy, sx) / DEG_TO_RAD / 2;
  return (deg + 180) % 180;
}

/** A direction arrow on a working pass: where, which way, and the pass's number in driving order. */
export interface PassArrow {
  position: Position;
  bearingDegrees: number;
  /** 1-based number of the pass among passes of its kind, in driving order. */
  number: number;
  /** 'track' for tracks, 'headland' for headland passes. */
  kind: 'track' | 'headland';
  sequence: number;
}

/** The point halfway along a polyline and the bearing there. */
export function midpointOf(line: readonly Position[]): { position: Position; bearingDegrees: number } | undefined {
  if (line.length < 2) return undefined;
  let total = 0;
  for (let i = 1; i < line.length; i++) total += distanceMeters(line[i - 1], line[i]);
  let left = total / 2;
  for (let i = 1; i < line.length; i++) {
    const d = distanceMeters(line[i - 1], line[i]);
    if (d > 0 && (left <= d || i === line.length - 1)) {
      const t = Math.min(left / d, 1);
      const a = line[i - 1];
      const b = line[i];
      return { position: [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t], bearingDegrees: bearingDegrees(a, b) };
    }
    left -= d;
  }
  return undefined;
}

/**
 * One arrow per working pass at its middle, numbered in driving order (tracks 1, 2, …; headland
 * passes H1, H2, … separately). With more passes than `maxArrows`, every k-th pass keeps its arrow.
 */
export function passArrows(route: readonly Feature[], maxArrows = 600): PassArrow[] {
  const all: PassArrow[] = [];
  let tracks = 0;
  let headlands = 0;
  for (const f of route) {
    const type = featureType(f);
    if (!WORKING_TYPES.has(type)) continue;
    const kind = type === 'Track' ? 'track' : 'headland';
    const number = kind === 'track' ? ++tracks : ++headlands;
    const longest = linesOf(f.geometry).sort((a, b) => b.length - a.length)[0];
    const mid = longest ? midpointOf(longest) : undefined;
    const seq = f.properties?.['sequence'];
    if (mid) all.push({ ...mid, number, kind, sequence: typeof seq === 'number' ? seq : all.length });
  }
  if (all.length <= maxArrows) return all;
  const step = Math.ceil(all.length / maxArrows);
  return all.filter((_, i) => i % step === 0);
}

/** Machine speeds for the playback clock, m/s. */
export interface PlaybackSpeeds {
  workingSpeedMetersPerSecond: number;
  turningSpeedMetersPerSecond: number;
}

/** The planner's defaults (docs/api.md): 2.5 m/s working, 1.5 m/s in turns and connectors. */
export const DEFAULT_SPEEDS: PlaybackSpeeds = { workingSpeedMetersPerSecond: 2.5, turningSpeedMetersPerSecond: 1.5 };

/** The route as one timed polyline: vertices with their time from the start, seconds. */
export interface Timeline {
  positions: Position[];
  timesSeconds: number[];
  /** Index into the route of the piece each vertex ends. */
  pieceIndex: number[];
  totalSeconds: number;
}

/**
 * The timeline of a route driven at `speeds`; when the plan states its total time
 * (`totalSecondsHint`, metrics.timeSeconds) the clock is scaled to it, so the slider's end reads
 * the plan's time.
 */
export function buildTimeline(
  route: readonly Feature[],
  speeds: PlaybackSpeeds = DEFAULT_SPEEDS,
  totalSecondsHint?: number,
): Timeline {
  const positions: Position[] = [];
  const times: number[] = [];
  const pieceIndex: number[] = [];
  let t = 0;
  route.forEach((f, index) => {
    const speed = WORKING_TYPES.has(featureType(f))
      ? speeds.workingSpeedMetersPerSecond
      : speeds.turningSpeedMetersPerSecond;
    for (const line of linesOf(f.geometry)) {
      for (let i = 0; i < line.length; i++) {
        const prev = positions[positions.length - 1];
        if (prev) t += distanceMeters(prev, line[i]) / speed;
        positions.push(line[i]);
        times.push(t);
        pieceIndex.push(index);
      }
    }
  });
  if (totalSecondsHint !== undefined && totalSecondsHint > 0 && t > 0) {
    const k = totalSecondsHint / t;
    for (let i = 0; i < times.length; i++) times[i] *= k;
    t = totalSecondsHint;
  }
  return { positions, timesSeconds: times, pieceIndex, totalSeconds: t };
}

/** Where the machine is at `seconds` on the timeline, which way it heads, and on which route piece. */
export function positionAt(
  tl: Timeline,
  seconds: number,
): { position: Position; bearingDegrees: number; pieceIndex: number } | undefined {
  const n = tl.positions.length;
  if (n === 0) return undefined;
  const s = Math.min(Math.max(seconds, 0), tl.totalSeconds);
  // Binary search for the first vertex at or after s.
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tl.timesSeconds[mid] < s) lo = mid + 1;
    else hi = mid;
  }
  const i = Math.max(lo, 1);
  const a = tl.positions[Math.min(i - 1, n - 1)];
  const b = tl.positions[Math.min(i, n - 1)];
  const ta = tl.timesSeconds[i - 1] ?? 0;
  const tb = tl.timesSeconds[i] ?? ta;
  const u = tb > ta ? (s - ta) / (tb - ta) : 1;
  const position: Position = [a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u];
  // Heading of the nearest segment that has a length.
  let j = Math.min(i, n - 1);
  while (j > 0 && tl.positions[j - 1][0] === tl.positions[j][0] && tl.positions[j - 1][1] === tl.positions[j][1]) j--;
  const bearing = j > 0 ? bearingDegrees(tl.positions[j - 1], tl.positions[j]) : 0;
  return { position, bearingDegrees: bearing, pieceIndex: tl.pieceIndex[Math.min(i, n - 1)] };
}

/** A clock reading of seconds: "1:02:05" or "12:05". */
export function clockText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${r}` : `${m}:${r}`;
}
