/**
 * Centre-line passes: a narrow part of the field (a strip the headland passes leave, a bent strip
 * of a field, the arms of a Y) driven along its own centre line rather than across it.
 *
 * 1. The part's medial axis (geometry/medialAxis.ts), leaf branches shorter than the working width
 *    pruned. Where it has junctions (or rings round holes), tours (tracks/centreLineTour.ts): one
 *    path drives branch after branch, the straightest on at each junction, until a dead end;
 *    otherwise, at a junction the two branches that continue each other best (deflection under
 *    `MAX_JOIN_DEFLECTION_DEGREES`) are one path. Every branch left is a path of its own, driven to
 *    its end (the route turns there: a K-turn where reversing is allowed, a loop where there is room).
 * 2. Each path is resampled, smoothed to a curvature of at most `CURVATURE_MARGIN` / R (and to the
 *    machine's curvature-rate limit when it has one), its ends run on along their tangents to the
 *    part's edge. Where the field's edge or a bend still tighter than R would cut it, it is fitted
 *    within the field's room (tracks/centreLineCorridor.ts: the bend driven wide). Where the part is
 *    wider than the machine (up to `MAX_PASSES` widths), the path's parallel offsets spread the
 *    passes evenly across it.
 * 3. Each pass is clipped to the field and carries its active width along its length
 *    (`Track.activeLeftMeters` / `activeRightMeters`): the sections of the boom over the part's
 *    unworked ground are on, the others off (`sections` equal sections; none: sections of any
 *    width). Paths whose swaths would add less than `MIN_NEW_SHARE` of their own area to what the
 *    part's earlier passes work (the second branch round a thin hole) are dropped. A tour that comes
 *    back over its own work has its sections set stretch by stretch (`sequentialBands`).
 */
import type { PathsD } from '../geometry/clipper.js';
import { areaOf, differencePolygons, intersectPolygons, unionPolygons } from '../geometry/clipper.js';
import { medialAxis } from '../geometry/medialAxis.js';
import type { MedialBranch } from '../geometry/medialAxis.js';
import { hypot, polylineLength, reversedPolyline } from '../geometry/vec.js';
import { activeSwath, leftNormals } from '../geometry/activeSwath.js';
import { filletPolyline } from '../geometry/fillet.js';
import { resample, smoothToCurvature } from './curvedTracks.js';
import type { Track } from './generateTracks.js';
import { fitInCorridor } from './centreLineCorridor.js';
import { tightBends } from './centreLineBends.js';
import { drivablePieces, sequentialBands, STEP_METERS, type Ground } from './centreLinePieces.js';
import { tourPaths, type TourPath } from './centreLineTour.js';

import { CURVATURE_MARGIN, outward, type CentreLineOptions } from './centreLineBasics.js';
import { EdgeIndex, edgeIndex, crossings, containsPoint, activeBands, workingRange } from './centreLineGround.js';

/** Two branches at a junction are one path when the second turns off the first by less than this. */
export const MAX_JOIN_DEFLECTION_DEGREES = 50;
/** Parts up to this many working widths wide get parallel offsets of their centre line; wider ones none. */
export const MAX_PASSES = 3;
/** A path is kept when the ground it works anew is at least this share of its length × the width. */
const MIN_NEW_SHARE = 0.1;
/** A pass fitted into the field's room keeps this far inside its edges, m. */
const CORRIDOR_MARGIN_METERS = 0.05;
/** How much more than the margin corners of the field are held off, in the fits tried in turn, m. */
const VERTEX_EXTRAS_METERS = [0.05, 0];
/** Curvature a pass fitted into the field's room aims under, × 1/R. */
const CORRIDOR_CURVATURE = 0.9;
/** Share of a path's length whose local width decides the number of passes (the rest: bulges). */
const WIDTH_QUANTILE = 0.8;

/** Width of the part: twice the clearance along the axis, at WIDTH_QUANTILE of its length. */
export function partWidthMeters(branches: MedialBranch[]): number {
  const rs: number[] = [];
  for (const b of branches) for (const r of b.radiusMeters) rs.push(2 * r);
  if (rs.length === 0) return 0;
  rs.sort((a, b) => a - b);
  return rs[Math.min(rs.length - 1, Math.floor(WIDTH_QUANTILE * rs.length))];
}

/**
 * The axis' branches joined into paths: at each junction the pair of branches that continue each
 * other best (least deflection, under MAX_JOIN_DEFLECTION_DEGREES) is joined. Flat xy each.
 */
export function joinBranches(branches: MedialBranch[], degree: Map<number, number>): Float64Array[] {
  const ends = new Map<number, { b: number; atStart: boolean }[]>();
  branches.forEach((b, i) => {
    for (const [node, atStart] of [
      [b.startNode, true],
      [b.endNode, false],
    ] as const) {
      if ((degree.get(node) ?? 0) < 3) continue;
      let l = ends.get(node);
      if (!l) ends.set(node, (l = []));
      l.push({ b: i, atStart });
    }
  });
  // pairing: key `${branch}:${start|end}` → the other branch end it continues into
  const next = new Map<string, { b: number; atStart: boolean }>();
  const cosMax = Math.cos(Math.PI - (MAX_JOIN_DEFLECTION_DEGREES * Math.PI) / 180);
  for (const node of [...ends.keys()].sort((a, b) => a - b)) {
    const list = ends.get(node)!;
    const used = new Set<number>();
    const pairs: { i: number; j: number; c: number }[] = [];
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        if (list[i].b === list[j].b) continue;
        const [ax, ay] = outward(branches[list[i].b], list[i].atStart),
          [bx, by] = outward(branches[list[j].b], list[j].atStart);
        pairs.push({ i, j, c: ax * bx + ay * by });
      }
    pairs.sort((p, q) => p.c - q.c);
    for (const p of pairs) {
      if (p.c > cosMax || used.has(p.i) || used.has(p.j)) continue;
      used.add(p.i);
      used.add(p.j);
      next.set(`${list[p.i].b}:${list[p.i].atStart}`, list[p.j]);
      next.set(`${list[p.j].b}:${list[p.j].atStart}`, list[p.i]);
    }
  }
  const done = new Uint8Array(branches.length);
  const paths: Float64Array[] = [];
  const order = branches
    .map((_, i) => i)
    .sort((a, b) => polylineLength(branches[b].xy) - polylineLength(branches[a].xy));
  for (const start of order) {
    if (done[start]) continue;
    // walk back to the path's first branch, then forward
    let b = start,
      atStart = true;
    for (let guard = 0; guard < branches.length; guard++) {
      const prev = next.get(`${b}:${atStart}`);
      if (!prev || done[prev.b] || prev.b === start) break;
      b = prev.b;
      atStart = !prev.atStart;
    }
    const parts: Float64Array[] = [];
    for (let guard = 0; guard <= branches.length && !done[b]; guard++) {
      done[b] = 1;
      parts.push(atStart ? branches[b].xy : reversedPolyline(branches[b].xy));
      const nx = next.get(`${b}:${!atStart}`);
      if (!nx) break;
      b = nx.b;
      atStart = nx.atStart;
    }
    let n = 0;
    for (const p of parts) n += p.length;
    const xy = new Float64Array(n);
    let o = 0;
    for (const p of parts) {
      xy.set(p, o);
      o += p.length;
    }
    paths.push(xy);
  }
  return paths;
}

/** The polyline offset by `d` to its left. */
function offsetLine(xy: Float64Array, d: number): Float64Array {
  if (d === 0) return xy;
  const nv = leftNormals(xy);
  const out = new Float64Array(xy.length);
  for (let i = 0; i < xy.length; i++) out[i] = xy[i] + d * nv[i];
  return out;
}

/** The polyline with both ends run on straight along their tangents by `meters`. */
function extendEnds(xy: Float64Array, meters: number): Float64Array {
  const n = xy.length;
  if (n < 4) return xy;
  const out = new Float64Array(n + 4);
  const run = (ax: number, ay: number, bx: number, by: number): [number, number] => {
    const l = hypot(ax - bx, ay - by) || 1;
    return [ax + ((ax - bx) / l) * meters, ay + ((ay - by) / l) * meters];
  };
  const j = Math.min(n - 2, 2 * Math.max(1, Math.round(3 / STEP_METERS)));
  out.set(run(xy[0], xy[1], xy[j], xy[j + 1]), 0);
  out.set(xy, 2);
  out.set(run(xy[n - 2], xy[n - 1], xy[n - 2 - j], xy[n - 1 - j]), n + 2);
  return out;
}

/** One pass along `line`: smoothed, clipped to the field, trimmed to where its sections work. */
function makePasses(line: Float64Array, o: CentreLineOptions, ground: Ground, kMax: number): Track[] {
  const out: Track[] = [];
  const minMeters = Math.max(2, o.widthMeters / 4);
  const long = (ps: Float64Array[]): number => ps.filter((p) => polylineLength(p) >= minMeters).length;
  let pieces = drivablePieces(line, o, kMax);
  // cut by the field's edge or a bend too tight for R: the line driven wide within the field's room
  // (corners held off a little more first; on a bend the chords pass nearer them than the points)
  for (const vertexExtraMeters of VERTEX_EXTRAS_METERS) {
    if (long(pieces) <= 1) break;
    const fitted = fitInCorridor(line, o.fieldIndex ?? edgeIndex(o.field), {
      maxCurvature: CORRIDOR_CURVATURE / o.turnRadiusMeters,
      marginMeters: CORRIDOR_MARGIN_METERS,
      maxOffsetMeters: 0.8 * o.turnRadiusMeters,
      vertexExtraMeters,
    });
    const wide = drivablePieces(fitted, o, kMax);
    if (long(wide) < long(pieces)) pieces = wide;
  }
  for (const xy of pieces) {
    const { lo, hi } = ground.rings
      ? sequentialBands(xy, ground.rings, o)
      : activeBands(xy, ground.index, o.widthMeters, o.sectionWidthsMeters);
    const range = workingRange(lo, hi);
    if (!range) continue;
    const [a, b] = range;
    const kept = xy.slice(2 * a, 2 * b + 2);
    if (polylineLength(kept) < minMeters) continue;
    // every point kept (1 m apart): the band's edges follow the ground's between them
    out.push(passTrack(kept, lo.slice(a, b + 1), hi.slice(a, b + 1)));
  }
  // the bends no pass of radius R gets round, told by every pass of the line
  const bends = pieces.length > 1 ? tightBends(pieces, o.fieldIndex ?? edgeIndex(o.field), o.turnRadiusMeters) : [];
  if (bends.length > 0) for (const t of out) t.tightBends = bends;
  return out;
}

function passTrack(xy: Float64Array, lo: Float64Array, hi: Float64Array): Track {
  const m = xy.length;
  let width = 0;
  for (let i = 0; i < lo.length; i++) width = Math.max(width, hi[i] - lo[i]);
  return {
    line: 0,
    u0: 0,
    u1: polylineLength(xy),
    v: 0,
    x0: xy[0],
    y0: xy[1],
    x1: xy[m - 2],
    y1: xy[m - 1],
    xy,
    widthMeters: width,
    activeLeftMeters: hi,
    activeRightMeters: lo,
  };
}

/** What the centre-line passes of a part work: their swaths' union within the part, m², and the passes. */
export interface CentreLinePlan {
  tracks: Track[];
  /** Ground of the part the passes work, m². */
  workedSquareMeters: number;
  /** Width of the part (twice its clearance at WIDTH_QUANTILE of the axis), m. */
  partWidthMeters: number;
}

/**
 * Centre-line passes over one part (`rings`: its polygon, shell + holes), or undefined where the
 * part is wider than MAX_PASSES working widths or has no axis.
 */
export function centreLinePasses(rings: PathsD, o: CentreLineOptions): CentreLinePlan | undefined {
  // the plannings of a call ask again for the same strips: answered from the last few asked
  const key = cacheKey(rings, o);
  const hit = recent.get(key);
  if (hit) {
    recent.delete(key);
    recent.set(key, hit);
    return hit.plan && { ...hit.plan, tracks: hit.plan.tracks.map((t) => ({ ...t })) };
  }
  const plan = planCentreLines(rings, o);
  recent.set(key, { plan: plan && { ...plan, tracks: plan.tracks.map((t) => ({ ...t })) } });
  if (recent.size > RECENT_PLANS) recent.delete(recent.keys().next().value!);
  return plan;
}

/** Strips answered from memory (a planning call plans the same strips several times). */
const RECENT_PLANS = 16;
const recent = new Map<string, { plan: CentreLinePlan | undefined }>();

/** Digest of a polygon's vertices (count, sums and a position-weighted sum), exact to the bit. */
function digest(rings: PathsD): string {
  let n = 0,
    sx = 0,
    sy = 0,
    wx = 0;
  for (const r of rings)
    for (const p of r) {
      n++;
      sx += p.x;
      sy += p.y;
      wx += n * p.x - p.y * (n % 7);
    }
  return `${rings.length}:${n}:${sx}:${sy}:${wx}`;
}

function cacheKey(rings: PathsD, o: CentreLineOptions): string {
  return [
    digest(rings),
    digest(o.field),
    o.widthMeters,
    o.turnRadiusMeters,
    o.maxCurvatureRatePerSquareMeter ?? '',
    (o.sectionWidthsMeters ?? []).join(','),
    o.firstLine,
    o.maxPasses ?? '',
    o.minNewSquareMeters ?? '',
    o.toursTurned === true,
  ].join('|');
}

function planCentreLines(rings: PathsD, o: CentreLineOptions): CentreLinePlan | undefined {
  const w = o.widthMeters,
    R = o.turnRadiusMeters;
  let area = 0,
    perimeter = 0;
  for (const r of rings)
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      area += (r[j].x - r[i].x) * (r[j].y + r[i].y);
      perimeter += hypot(r[i].x - r[j].x, r[i].y - r[j].y);
    }
  area = Math.abs(area) / 2;
  // cheapest rejection first: a part's mean width is at most 2·area / perimeter... ×2 for a round one
  if (!(perimeter > 0) || (4 * area) / perimeter > 2 * MAX_PASSES * w) return undefined;
  const step = Math.max(0.5, Math.min(2, w / 8));
  const axis = medialAxis(rings, step, w);
  const width = partWidthMeters(axis.branches);
  if (!(width > 0) || width > MAX_PASSES * w) return undefined;
  const kMax = CURVATURE_MARGIN / R;
  o = o.fieldIndex ? o : { ...o, fieldIndex: edgeIndex(o.field) };
  // round holes and through junctions, tours; a plain strip, its branches joined where they continue each other
  const junctions = [...axis.degree.values()].some((d) => d >= 3);
  const paths: TourPath[] = junctions
    ? tourPaths(axis.branches, o.toursTurned === true)
    : joinBranches(axis.branches, axis.degree).map((xy) => ({ xy, revisits: false, turnable: false }));
  const tracks: Track[] = [];
  let worked: PathsD = [],
    workedArea = 0;
  let line = o.firstLine;
  for (const path of paths) {
    // each path's sections work only the ground the part's earlier paths leave
    const left = worked.length > 0 ? differencePolygons(rings, worked) : rings;
    if (!(areaOf(left) >= (o.minNewSquareMeters ?? 0))) break;
    const ground: Ground = { index: edgeIndex(left), ...(path.revisits ? { rings: left } : {}) };
    const passes = offsetPasses(path.xy, axis.branches, o, ground, width, line, kMax, step);
    if (passes.length === 0) continue;
    // a tour a bend cut that may start the other way round: said on its passes (choice/ `tours-turned`)
    if (path.turnable && passes.length > 1) for (const t of passes) t.tourTurnable = true;
    const swaths = passes.flatMap((t) => activeSwath(t.xy!, t.activeRightMeters!, t.activeLeftMeters!));
    const mine = intersectPolygons(unionPolygons(swaths, 4), left);
    const fresh = areaOf(mine);
    // worth driving: new ground of at least the part's threshold, and sections on over a share of the way
    let driven = 0;
    for (const t of passes) driven += polylineLength(t.xy!) * w;
    if (!(fresh >= (o.minNewSquareMeters ?? 0)) || fresh < MIN_NEW_SHARE * driven) continue;
    worked = worked.length > 0 ? unionPolygons([...worked, ...mine], 4) : mine;
    workedArea += fresh;
    for (const t of passes) tracks.push(t);
    line += passes.reduce((m, t) => Math.max(m, t.line), line) - line + 5;
    if (o.maxPasses !== undefined && tracks.length >= o.maxPasses) break;
  }
  if (tracks.length === 0) return undefined;
  if (o.maxPasses !== undefined && tracks.length > o.maxPasses) {
    // the passes that work most; what they work, measured again
    const kept = tracks
      .map((t) => ({ t, a: bandArea([t]) }))
      .sort((p, q) => q.a - p.a)
      .slice(0, o.maxPasses)
      .map((e) => e.t);
    const swaths = kept.flatMap((t) => activeSwath(t.xy!, t.activeRightMeters!, t.activeLeftMeters!));
    return {
      tracks: kept,
      workedSquareMeters: areaOf(intersectPolygons(unionPolygons(swaths, 4), rings)),
      partWidthMeters: width,
    };
  }
  return {
    tracks,
    workedSquareMeters: workedArea,
    partWidthMeters: width,
  };
}

/** The passes along one path: its parallel offsets, as many as the part's width there needs (MAX_PASSES at most). */
function offsetPasses(
  path: Float64Array,
  branches: MedialBranch[],
  o: CentreLineOptions,
  ground: Ground,
  width: number,
  line: number,
  kMax: number,
  step: number,
): Track[] {
  const w = o.widthMeters;
  const radii = radiiAlong(path, branches);
  const local = radii.length > 0 ? quantile(radii, WIDTH_QUANTILE) * 2 : width;
  const count = Math.max(1, Math.min(MAX_PASSES, Math.ceil(local / w - 0.1)));
  const share = local / count;
  const base = resample(
    // the pruned axis stops about its clearance short of a square end: run on past it to the edge
    extendEnds(path, 1.5 * Math.max(step, radii[0] ?? 0, radii[radii.length - 1] ?? 0) + 2),
    STEP_METERS,
  );
  const passes: Track[] = [];
  for (let k = 0; k < count; k++) {
    const d = (k + 0.5) * share - local / 2;
    let made = makePasses(smoothPath(offsetLine(base, d), kMax), o, ground, kMax);
    if (count === 1) {
      // moved to the middle of the ground its boom reaches, where that works more
      const shifted = centred(base, ground.index, o.fieldIndex ?? edgeIndex(o.field), w, o.turnRadiusMeters);
      const other = makePasses(smoothPath(shifted, kMax), o, ground, kMax);
      // (fewer pieces first: each cut is a join the route must fit, or a pass left out)
      if (other.length < made.length || (other.length === made.length && bandArea(other) > bandArea(made)))
        made = other;
    }
    for (const t of made) {
      // sections over the neighbouring pass's half of the ground off
      if (k + 1 < count) for (let i = 0; i < t.activeLeftMeters!.length; i++) clampBand(t, i, -Infinity, share / 2);
      if (k > 0) for (let i = 0; i < t.activeLeftMeters!.length; i++) clampBand(t, i, -share / 2, Infinity);
      passes.push({ ...t, line: line + k, v: d });
    }
  }
  return passes;
}

/** A pass keeps this far from the field's edges and holes when it is moved across, m. */
const CLEARANCE_METERS = 1.5;

/**
 * The path moved across, point by point, to the middle of the ground its boom reaches (a path
 * beside a thin hole moves towards it, so the boom reaches the far side too), staying in the field
 * CLEARANCE_METERS off its edges; the moves are averaged over a stretch of R on each side.
 */
function centred(xy: Float64Array, ground: EdgeIndex, field: EdgeIndex, w: number, R: number): Float64Array {
  const n = xy.length / 2,
    h = w / 2;
  const nv = leftNormals(xy);
  const want = new Float64Array(n),
    lo = new Float64Array(n),
    hi = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const px = xy[2 * i],
      py = xy[2 * i + 1],
      nx = nv[2 * i],
      ny = nv[2 * i + 1];
    // room in the field on either side of the point
    const fs = crossings(field, px, py, nx, ny, h + CLEARANCE_METERS);
    let a = -h,
      b = h;
    for (const t of fs) {
      if (t <= 0) a = Math.max(a, t);
      else b = Math.min(b, t);
    }
    lo[i] = Math.min(0, a + CLEARANCE_METERS);
    hi[i] = Math.max(0, b - CLEARANCE_METERS);
    // the ground's extent across the boom
    const gs = crossings(ground, px, py, nx, ny, h + CLEARANCE_METERS);
    let g0 = Infinity,
      g1 = -Infinity;
    if (containsPoint(ground, px - (h + CLEARANCE_METERS) * nx, py - (h + CLEARANCE_METERS) * ny)) g0 = -h;
    if (containsPoint(ground, px + (h + CLEARANCE_METERS) * nx, py + (h + CLEARANCE_METERS) * ny)) g1 = h;
    for (const t of gs) {
      g0 = Math.min(g0, t);
      g1 = Math.max(g1, t);
    }
    want[i] = g0 <= g1 ? Math.max(lo[i], Math.min(hi[i], (g0 + g1) / 2)) : 0;
  }
  // averaged along the path, then held within the room again
  const half = Math.max(1, Math.round(R / STEP_METERS));
  const pre = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) pre[i + 1] = pre[i] + want[i];
  const out = new Float64Array(xy.length);
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - half),
      b = Math.min(n, i + half + 1);
    const d = Math.max(lo[i], Math.min(hi[i], (pre[b] - pre[a]) / (b - a)));
    out[2 * i] = xy[2 * i] + d * nv[2 * i];
    out[2 * i + 1] = xy[2 * i + 1] + d * nv[2 * i + 1];
  }
  return out;
}

/** Corners closer than this to the line through their neighbours are not corners (a jagged axis), m. */
const SIMPLIFY_TOLERANCE_METERS = 0.2;

/**
 * The line bent no tighter than 1 / `kMax`: tangent arcs at its corners (geometry/fillet.ts), then,
 * where two corners left too little room between them, Laplacian smoothing.
 */
function smoothPath(xy: Float64Array, kMax: number): Float64Array {
  const f = resample(filletPolyline(xy, 1 / kMax, SIMPLIFY_TOLERANCE_METERS, STEP_METERS / 2), STEP_METERS);
  return smoothToCurvature(f, kMax * 1.02, 400);
}

/** Σ over the passes of their active width × length (trapezoids), m². */
export function bandArea(passes: Track[]): number {
  let a = 0;
  for (const t of passes) {
    const xy = t.xy!,
      l = t.activeLeftMeters!,
      r = t.activeRightMeters!;
    for (let i = 1; i < l.length; i++)
      a += (hypot(xy[2 * i] - xy[2 * i - 2], xy[2 * i + 1] - xy[2 * i - 1]) * (l[i] - r[i] + l[i - 1] - r[i - 1])) / 2;
  }
  return a;
}

/** The pass's active band at point i held within [lo, hi] (nothing where that leaves nothing). */
function clampBand(t: Track, i: number, lo: number, hi: number): void {
  const l = t.activeLeftMeters!,
    r = t.activeRightMeters!;
  const a = Math.max(r[i], lo),
    b = Math.min(l[i], hi);
  r[i] = a < b ? a : 0;
  l[i] = a < b ? b : 0;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** Clearances of the axis points on `path` (the branches it is made of). */
function radiiAlong(path: Float64Array, branches: MedialBranch[]): number[] {
  const byPoint = new Map<string, number>();
  for (const b of branches)
    for (let i = 0; i < b.radiusMeters.length; i++) byPoint.set(`${b.xy[2 * i]},${b.xy[2 * i + 1]}`, b.radiusMeters[i]);
  const out: number[] = [];
  for (let i = 0; i < path.length; i += 2) {
    const r = byPoint.get(`${path[i]},${path[i + 1]}`);
    if (r !== undefined) out.push(r);
  }
  return out;
}
