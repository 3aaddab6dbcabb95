/**
 * Thin wrappers over Clipper2: offsets, buffers and booleans on its C++ build (clipperWasm.ts), areas
 * on clipper2-ts. Polygons are `PathsD`: outer rings counter-clockwise (positive area), holes
 * clockwise, evaluated with the NonZero rule.
 */
import { Clipper } from 'clipper2-ts';
import type { PathD, PathsD } from 'clipper2-ts';
import * as W from './clipperWasm.js';

export type { PathD, PathsD } from 'clipper2-ts';

/** 4 decimals (0.1 mm): offsets here need no more, and finer precisions cost time. */
export const PRECISION = 4;
/** Max deviation of offset arcs from true circles, meters: keeps chords short (≈0.3 m at R = 6 m)
 * where curvature is measured (connector rings); working passes use a coarser one. */
export const ARC_TOLERANCE_METERS = 0.002;

/** Offsets closed polygons by `deltaMeters` (negative = inwards) with round joins. */
export function offsetPolygons(
  paths: PathsD,
  deltaMeters: number,
  arcToleranceMeters: number = ARC_TOLERANCE_METERS,
): PathsD {
  if (deltaMeters === 0) return paths.map((p) => p.slice());
  return W.inflate(paths, deltaMeters, 'polygon', PRECISION, arcToleranceMeters);
}

/**
 * `offsetPolygons(polygon, delta)` (delta > 0) of one shell and its holes, made as the shell grown and
 * each hole shrunk on its own: the holes lie apart inside the shell, and a disc that fits in the
 * outside of the polygon fits outside the shell or in one hole, so the rings are the same (within the
 * sweep's rounding). Clipper2's one sweep over a shell with many holes full of arcs costs far more
 * than its parts (bg-009's eroded field for the connector rings, 14 holes: 55 ms together, 10 ms
 * apart). Anything else (several shells: an island in a hole grows across it) is offset whole.
 */
export function grownByParts(
  polygon: PathsD,
  deltaMeters: number,
  arcToleranceMeters: number = ARC_TOLERANCE_METERS,
): PathsD {
  const shells = polygon.filter((r) => Clipper.areaD(r) > 0);
  if (shells.length !== 1 || polygon.length < 3) return offsetPolygons(polygon, deltaMeters, arcToleranceMeters);
  const out = offsetPolygons(shells, deltaMeters, arcToleranceMeters);
  for (const r of polygon)
    if (r !== shells[0]) for (const h of offsetPolygons([r], -deltaMeters, arcToleranceMeters)) out.push(h);
  return out;
}

/** Offsets made once per field object, by delta and arc tolerance (`sharedOffset`). */
const sharedOffsets = new WeakMap<PathsD, Map<string, PathsD>>();

/**
 * `offsetPolygons` of a field that several stages offset alike — the field shrunk by half the
 * machine's width is the outermost headland pass, the tracks' room and the narrow corridors'
 * erosion — made once per field object (the same object through a call). Read-only: callers
 * never change the result or its rings.
 */
export function sharedOffset(paths: PathsD, deltaMeters: number, arcToleranceMeters: number): PathsD {
  let byKey = sharedOffsets.get(paths);
  if (!byKey) sharedOffsets.set(paths, (byKey = new Map()));
  const key = `${deltaMeters} ${arcToleranceMeters}`;
  let out = byKey.get(key);
  if (!out) byKey.set(key, (out = offsetPolygons(paths, deltaMeters, arcToleranceMeters)));
  return out;
}

/** Buffers open polylines by `halfWidthMeters` with flat (butt) ends and round joins: the swaths. */
export function bufferPolylines(
  paths: PathsD,
  halfWidthMeters: number,
  closed = false,
  arcToleranceMeters = 0.01,
): PathsD {
  return W.inflate(paths, halfWidthMeters, closed ? 'joined' : 'butt', PRECISION, arcToleranceMeters);
}

/** The union, on a grid of `precision` decimals (2, Clipper's default, unless asked). */
export function unionPolygons(paths: PathsD, precision = 2): PathsD {
  return W.boolean('union', paths, [], precision);
}

export function intersectPolygons(a: PathsD, b: PathsD): PathsD {
  return W.boolean('intersection', a, b, PRECISION);
}

export function differencePolygons(a: PathsD, b: PathsD): PathsD {
  return W.boolean('difference', a, b, PRECISION);
}

/** Signed area sum (holes negative). */
export function areaOf(paths: PathsD): number {
  return Clipper.areaPathsD(paths);
}

/**
 * Rings of positive area (shells) in a clean polygon set (a Clipper result, a validated field): `groupPolygons`' count,
 * without its sweep.
 */
export function shellCount(paths: PathsD): number {
  let n = 0;
  for (const r of paths) if (Clipper.areaD(r) > 0) n++;
  return n;
}

/** Groups outer rings with their holes: one entry per polygon, shell first. */
export function groupPolygons(paths: PathsD): PathsD[] {
  return W.booleanGrouped('union', paths, [], PRECISION);
}

/** `a` minus `b`, grouped as `groupPolygons` groups (one sweep: the difference's own tree). */
export function differenceGrouped(a: PathsD, b: PathsD, precision = PRECISION): PathsD[] {
  return W.booleanGrouped('difference', a, b, precision);
}

/** Closed ring (PathD) → flat xy array, first point repeated at the end. */
export function ringToFlat(ring: PathD): Float64Array {
  const n = ring.length;
  const out = new Float64Array(2 * n + 2);
  for (let i = 0; i < n; i++) {
    out[2 * i] = ring[i].x;
    out[2 * i + 1] = ring[i].y;
  }
  out[2 * n] = ring[0].x;
  out[2 * n + 1] = ring[0].y;
  return out;
}

/** Flat xy polyline → PathD. */
export function flatToPath(xy: ArrayLike<number>): PathD {
  const out: PathD = new Array(xy.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = { x: xy[2 * i], y: xy[2 * i + 1] };
  return out;
}
