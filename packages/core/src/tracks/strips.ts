/**
 * Strips and slivers: what the headland passes and tracks leave unworked where a pass of the
 * machine would not fit (a centre stripe between headland passes, the narrow end of a tapering
 * field, a whole field narrower than the machine).
 *
 * `generateStripTracks` gives each such leftover that is worth driving (at least
 * `minStripArea` of ground) passes along its own long axis through its middle, with a reduced
 * working width (`Track.widthMeters`, the strip's width ÷ the number of passes it needs): what a
 * machine with section control drives with part of its sections off. `unworkedPatches` lists what
 * a route leaves unworked, patch by patch, for the plan's warnings.
 */
import type { PathD, PathsD } from '../geometry/clipper.js';
import { hypot, sortAscending } from '../geometry/vec.js';
import { unworkedPatches } from '../geometry/unworked.js';
import { ringPass } from '../geometry/swaths.js';
import type { SwathPass } from '../geometry/unworked.js';
import { acrossExtent } from './generateTracks.js';
import type { Track } from './generateTracks.js';
import { centreLinePasses } from './centreLine.js';
import { joinableWithoutReversing } from './centreLineJoins.js';
import { areaOf, intersectPolygons, unionPolygons } from '../geometry/clipper.js';
import { rectangleSwath } from '../geometry/swaths.js';
import { Clipper } from 'clipper2-ts';

/** A strip narrower than this is not worth a pass (sections of real machines are about this wide), m. */
export const MIN_STRIP_WIDTH_METERS = 1;
/** A strip pass shorter than this is not driven, m. */
const MIN_STRIP_LENGTH_METERS = 2;

/** Convex hull (monotone chain) of the polygon's vertices, counter-clockwise. */
function convexHull(rings: PathsD): PathD {
  const pts = rings
    .flat()
    .slice()
    .sort((p, q) => p.x - q.x || p.y - q.y);
  if (pts.length < 3) return pts;
  const cross = (o: { x: number; y: number }, a: { x: number; y: number }, b: { x: number; y: number }): number =>
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: PathD = [],
    upper: PathD = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/**
 * The direction along which the polygon is longest for its width: the one parallel to the edge of
 * its convex hull that gives the smallest width across (rotating calipers), radians in [0, π),
 * with that width.
 */
export function stripAxis(rings: PathsD): { directionRadians: number; widthMeters: number } {
  const hull = convexHull(rings);
  let best = { directionRadians: 0, widthMeters: Infinity };
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i],
      b = hull[(i + 1) % hull.length];
    const l = hypot(b.x - a.x, b.y - a.y);
    if (!(l > 1e-9)) continue;
    const ux = (b.x - a.x) / l,
      uy = (b.y - a.y) / l;
    let lo = Infinity,
      hi = -Infinity;
    for (const p of hull) {
      const v = -uy * (p.x - a.x) + ux * (p.y - a.y);
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (hi - lo < best.widthMeters) {
      let d = Math.atan2(uy, ux);
      if (d < 0) d += Math.PI;
      if (d >= Math.PI) d -= Math.PI;
      best = { directionRadians: d, widthMeters: hi - lo };
    }
  }
  return best;
}

export interface StripOptions {
  widthMeters: number;
  /**
   * Room a turn needs past a strip pass's end, m: ends nearer the field's edge (along the pass)
   * are pulled back so the machine can turn there (unless the pass is all there is to drive).
   */
  turnRoomMeters: number;
  /** The field (its rings): what lies ahead of a strip pass's ends. */
  field: PathsD;
  /**
   * Whether headland passes are driven: the machine must then turn from a strip pass onto them
   * (a join the route's shortening of tracks does not refit). Without them, ends stay.
   */
  othersDriven: boolean;
  /** Leftovers of at least this area get passes, m². */
  minStripArea: number;
  /** At most this many passes per strip (a wider strip gets one pass of the machine's width through its middle). */
  maxPassesPerStrip?: number;
  /** At most this many strips get passes (the largest first). */
  maxStrips?: number;
  /** First scanline number free for the strips' tracks (they get lines of their own). */
  firstLine: number;
  /**
   * Centre-line passes (tracks/centreLine.ts) where a strip is at most three widths wide and they
   * work more of it than straight passes (default true).
   */
  centreLines?: boolean;
  /** Centre-line tours started the other way round (tracks/centreLineTour.ts `turned`). */
  toursTurned?: boolean;
  /** The boom's sections, left to right, m (machine.sections; absent: sections of any width). */
  sectionWidthsMeters?: readonly number[];
  /** The machine's curvature-rate limit, 1/m². */
  maxCurvatureRatePerSquareMeter?: number;
  /** Whether the machine may reverse (else centre-line passes it cannot join forward are left out). */
  reverseAllowed?: boolean;
  /** Headland passes and tracks the route drives besides the strips (default: 1 when othersDriven). */
  othersCount?: number;
}

/** Centre-line passes with more passes replace straight ones where they work more by this share of the strip. */
const CENTRE_LINE_MARGIN = 0.05;

/** Directions tried for a leftover besides its hull's long axis: those of its longest edges. */
const EDGE_DIRECTIONS = 6;

/**
 * Passes over the leftovers of `workable` that the headland passes and tracks (`passes`) do not
 * work: each leftover of at least `minStripArea` and `MIN_STRIP_WIDTH_METERS` across gets
 * ⌈width ÷ machine width⌉ passes, evenly spread, each working its share of the width
 * (`widthMeters`), along the direction (its hull's long axis or one of its longest edges) that
 * works most of it for the passes' turns (each piece costs a stretch of R of its width). Each
 * leftover's passes are lines of their own, numbered from `firstLine` with a gap of 4 between
 * leftovers (so no two leftovers look like neighbours).
 */
export function generateStripTracks(
  workable: PathsD,
  passes: SwathPass[],
  o: StripOptions & { turnRadiusMeters: number },
): Track[] {
  const out: Track[] = [];
  let line = o.firstLine;
  // (a dense boundary's leftovers are swept against it simplified: geometry/computeCoverage.ts sweepPasses)
  for (const patch of unworkedPatches(workable, passes, o.minStripArea)) {
    let best: { tracks: Track[]; score: number; count: number } | undefined;
    for (const d of candidateDirections(patch.rings)) {
      const tried = linesAt(patch.rings, d, o.widthMeters, line, o.maxPassesPerStrip ?? Infinity);
      if (!tried) continue;
      let score = 0;
      for (const t of tried.tracks) score += (t.u1 - t.u0 - o.turnRadiusMeters) * (t.widthMeters ?? o.widthMeters);
      if (!best || score > best.score) best = { ...tried, score };
    }
    const centre =
      o.centreLines === false
        ? undefined
        : centreLineChoice(
            patch.rings,
            o,
            line,
            best ? workedScore(best.tracks, patch.rings, o) : 0,
            best?.tracks.length ?? 0,
          );
    if (centre) best = centre;
    if (!best || best.tracks.length === 0 || !(best.score > 0)) continue;
    for (const t of best.tracks) out.push(t);
    line += best.count + 4;
    if (line - o.firstLine >= 5 * (o.maxStrips ?? Infinity)) break;
  }
  // without reversing, centre-line passes only where the route can join them
  const joinable = o.reverseAllowed
    ? out
    : joinableWithoutReversing(out, o.field, o.turnRadiusMeters, o.othersCount ?? (o.othersDriven ? 1 : 0));
  if (!o.othersDriven) return joinable;
  // (centre-line passes keep their ends: the route turns at a branch's end, or leaves it out, said so)
  return joinable
    .map((t) => (t.xy ? t : withTurnRoom(t, o.field, o.turnRoomMeters)))
    .filter((t): t is Track => t !== undefined);
}

/** What straight strip passes work of their strip (their rectangles' union in it), less R × width per pass. */
function workedScore(tracks: Track[], rings: PathsD, o: StripOptions & { turnRadiusMeters: number }): number {
  const rects: PathsD = [];
  let turns = 0;
  for (const t of tracks) {
    const w = t.widthMeters ?? o.widthMeters;
    for (const r of rectangleSwath(t.x0, t.y0, t.x1, t.y1, w / 2)) rects.push(r);
    turns += o.turnRadiusMeters * w;
  }
  return rects.length > 0 ? areaOf(intersectPolygons(unionPolygons(rects, 4), rings)) - turns : 0;
}

/**
 * Centre-line passes over a strip (tracks/centreLine.ts) when they work more of it than the straight
 * passes' `straightScore` (both less a stretch of R at the width worked per pass, for its turns).
 */
function centreLineChoice(
  rings: PathsD,
  o: StripOptions & { turnRadiusMeters: number },
  line: number,
  straightScore: number,
  straightCount: number,
): { tracks: Track[]; score: number; count: number } | undefined {
  const plan = centreLinePasses(rings, {
    widthMeters: o.widthMeters,
    turnRadiusMeters: o.turnRadiusMeters,
    field: o.field,
    firstLine: line,
    minNewSquareMeters: o.minStripArea,
    ...(o.sectionWidthsMeters !== undefined ? { sectionWidthsMeters: o.sectionWidthsMeters } : {}),
    ...(o.maxCurvatureRatePerSquareMeter !== undefined
      ? { maxCurvatureRatePerSquareMeter: o.maxCurvatureRatePerSquareMeter }
      : {}),
    ...(o.maxPassesPerStrip !== undefined ? { maxPasses: o.maxPassesPerStrip } : {}),
    ...(o.toursTurned ? { toursTurned: true } : {}),
  });
  if (!plan) return undefined;
  let score = plan.workedSquareMeters;
  for (const t of plan.tracks) score -= o.turnRadiusMeters * (t.widthMeters ?? o.widthMeters);
  // with more passes than the straight ones, kept only where they win by a margin: curved passes
  // cost the route more to join than straight ones
  let area = 0;
  for (const r of rings) area += Math.abs(Clipper.area(r));
  const margin = plan.tracks.length > straightCount ? Math.max(o.minStripArea, CENTRE_LINE_MARGIN * area) : 0;
  if (!(score > straightScore + margin)) return undefined;
  const lines = plan.tracks.reduce((m, t) => Math.max(m, t.line), line) - line + 1;
  return { tracks: plan.tracks, score, count: lines };
}

/** The hull's long axis, then the directions of the polygon's longest edges (distinct by 1°). */
function candidateDirections(rings: PathsD): number[] {
  const out = [stripAxis(rings).directionRadians];
  const edges: { d: number; l: number }[] = [];
  for (const r of rings) {
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const l = hypot(r[i].x - r[j].x, r[i].y - r[j].y);
      let d = Math.atan2(r[i].y - r[j].y, r[i].x - r[j].x);
      if (d < 0) d += Math.PI;
      if (d >= Math.PI) d -= Math.PI;
      edges.push({ d, l });
    }
  }
  edges.sort((p, q) => q.l - p.l);
  for (const e of edges) {
    if (out.length > EDGE_DIRECTIONS) break;
    if (out.every((d) => Math.abs(Math.sin(d - e.d)) > Math.sin(Math.PI / 180))) out.push(e.d);
  }
  return out;
}

/** The passes over a leftover along direction `d`: ⌈width across ÷ machine width⌉ lines. */
function linesAt(
  rings: PathsD,
  d: number,
  widthMeters: number,
  line: number,
  maxCount: number,
): { tracks: Track[]; count: number } | undefined {
  const c = Math.cos(d),
    s = Math.sin(d);
  const { vmin, vmax } = acrossExtent(rings, d);
  const across = vmax - vmin;
  if (!(across >= MIN_STRIP_WIDTH_METERS)) return undefined;
  const count = Math.max(1, Math.min(maxCount, Math.ceil(across / widthMeters - 1e-9)));
  const share = across / count;
  const tracks: Track[] = [];
  for (let k = 0; k < count; k++) {
    const v = vmin + (k + 0.5) * share;
    const us = crossingsAcross(rings, c, s, v);
    for (let i = 0; i + 1 < us.length; i += 2) {
      const u0 = us[i],
        u1 = us[i + 1];
      if (u1 - u0 < MIN_STRIP_LENGTH_METERS) continue;
      // One pass: centred on the strip's middle and as wide as most of it (the extent across
      // counts the bulges at its ends); passes sharing a strip split its width.
      const fit = count === 1 ? fitAcross(rings, c, s, u0, u1, v) : { v, widthMeters: share };
      // re-centred, the pass stays within the strip: its ends where the new line leaves it
      const span = fit.v === v ? [u0, u1] : spanAround(crossingsAcross(rings, c, s, fit.v), (u0 + u1) / 2);
      const vv = span ? fit.v : v;
      const [a, b] = span ?? [u0, u1];
      if (b - a < MIN_STRIP_LENGTH_METERS) continue;
      tracks.push({
        line: line + k,
        u0: a,
        u1: b,
        v: vv,
        x0: c * a - s * vv,
        y0: s * a + c * vv,
        x1: c * b - s * vv,
        y1: s * b + c * vv,
        directionRadians: d,
        widthMeters: Math.min(widthMeters, fit.widthMeters),
      });
    }
  }
  return { tracks, count };
}

/** The interval of sorted crossings `us` (pairs) that holds `u`, clipped to nothing else; undefined if none. */
function spanAround(us: number[], u: number): [number, number] | undefined {
  for (let i = 0; i + 1 < us.length; i += 2) if (us[i] <= u && u <= us[i + 1]) return [us[i], us[i + 1]];
  return undefined;
}

/** Share of a strip's length a single pass's width covers in full (the rest: the widest spots). */
const FIT_QUANTILE = 0.8;
const FIT_SAMPLES = 15;

/**
 * The strip's cross-sections at FIT_SAMPLES points along [u0, u1] (the piece of each section that
 * holds line v): the median of their middles and the FIT_QUANTILE quantile of their widths.
 */
function fitAcross(
  rings: PathsD,
  c: number,
  s: number,
  u0: number,
  u1: number,
  v: number,
): { v: number; widthMeters: number } {
  const mids: number[] = [],
    widths: number[] = [];
  for (let k = 0; k < FIT_SAMPLES; k++) {
    const u = u0 + ((k + 0.5) / FIT_SAMPLES) * (u1 - u0);
    // The line u = const, as a line of the frame turned a quarter turn further: its along-coordinate is v.
    const vs = crossingsAcross(rings, -s, c, -u);
    for (let i = 0; i + 1 < vs.length; i += 2) {
      if (vs[i] > v + 1e-9 || vs[i + 1] < v - 1e-9) continue;
      mids.push((vs[i] + vs[i + 1]) / 2);
      widths.push(vs[i + 1] - vs[i]);
    }
  }
  if (widths.length === 0) return { v, widthMeters: Infinity };
  mids.sort((a, b) => a - b);
  widths.sort((a, b) => a - b);
  return {
    v: mids[Math.floor(mids.length / 2)],
    widthMeters: widths[Math.min(widths.length - 1, Math.floor(FIT_QUANTILE * widths.length))],
  };
}

/**
 * The strip pass with its ends pulled back to `room` from the field's edge ahead of them; undefined if too short then.
 */
function withTurnRoom(t: Track, field: PathsD, room: number): Track | undefined {
  const d = t.directionRadians ?? 0;
  const c = Math.cos(d),
    s = Math.sin(d);
  const us = crossingsAcross(field, c, s, t.v);
  const mid = (t.u0 + t.u1) / 2;
  let u0 = t.u0,
    u1 = t.u1;
  for (let i = 0; i + 1 < us.length; i += 2) {
    if (us[i] > mid || us[i + 1] < mid) continue;
    u0 = Math.max(u0, us[i] + room);
    u1 = Math.min(u1, us[i + 1] - room);
  }
  if (u1 - u0 < MIN_STRIP_LENGTH_METERS) return undefined;
  return { ...t, u0, u1, x0: c * u0 - s * t.v, y0: s * u0 + c * t.v, x1: c * u1 - s * t.v, y1: s * u1 + c * t.v };
}

/** Sorted along-track coordinates where the line v = const (frame turned by (c, s)) crosses the rings. */
function crossingsAcross(rings: PathsD, c: number, s: number, v: number): number[] {
  const us: number[] = [];
  for (const r of rings) {
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const p = r[j],
        q = r[i];
      const vp = -s * p.x + c * p.y,
        vq = -s * q.x + c * q.y;
      if (vp > v === vq > v) continue;
      const up = c * p.x + s * p.y,
        uq = c * q.x + s * q.y;
      us.push(up + ((v - vp) * (uq - up)) / (vq - vp));
    }
  }
  return sortAscending(us);
}

/** The swaths the headland passes (closed rings) and tracks of a plan work before routing. */
export function plannedPasses(passRings: PathsD, tracks: Track[], widthMeters: number): SwathPass[] {
  const out: SwathPass[] = [];
  for (const r of passRings) {
    if (r.length < 2) continue;
    out.push({ xy: ringPass(r), widthMeters });
  }
  for (const t of tracks) out.push({ xy: t.xy ?? [t.x0, t.y0, t.x1, t.y1], widthMeters: t.widthMeters ?? widthMeters });
  return out;
}

/**
 * `cellOf` of the tracks followed by the strip tracks: each leftover's passes (runs of lines
 * less than 4 apart) form a cell of their own, numbered after the tracks' cells.
 */
export function withStripCells(cellOf: Int32Array, strips: Track[]): Int32Array {
  const out = new Int32Array(cellOf.length + strips.length);
  out.set(cellOf);
  let cell = cellOf.reduce((m, c) => Math.max(m, c), -1);
  strips.forEach((t, i) => {
    if (i === 0 || t.line - strips[i - 1].line >= 4) cell++;
    out[cellOf.length + i] = cell;
  });
  return out;
}
