/**
 * Curved tracks (`tracks.trackType: 'curved'`): offset curves of a reference edge chain
 * of the boundary, one width apart, smoothed to the turning radius.
 *
 * 1. Reference chain (`referenceChain`): the boundary's outer rings cut at corners (a turn of
 *    more than `CORNER_DEGREES` at a vertex) and wherever a chain has turned by more than
 *    `MAX_CHAIN_TURN_DEGREES` in all; the longest chain wins. It is resampled and smoothed
 *    until no bend is tighter than the turning radius.
 * 2. Offsets: the chain's ends are extended straight along their tangents past the field, so the
 *    chain divides the field; tracks are the level sets d = d0 + k·w of the signed distance d to
 *    the chain, placed as the straight tracks' scanlines are: ⌈extent / w⌉ levels over the
 *    mainland's range of d, centred in it (so the swaths reach the mainland's edge on both
 *    sides, overlapping the headland by the same amount). Level sets of a distance are exact offset curves where
 *    they are smooth; where they fold (the concave side, past a centre of curvature) they have
 *    corners. The distance is sampled on a grid (`GRID_CELL_METERS`, at most w / 3) and the
 *    levels traced by marching squares (terrain/contours.ts).
 * 3. Each level line is clipped exactly to the mainland (Clipper open paths), resampled every
 *    `RESAMPLE_METERS`, smoothed (Laplacian, ends fixed) while any bend is tighter than
 *    `CURVATURE_MARGIN` × 1/R, then cut where a bend is still too tight (a fold), and clipped
 *    again (smoothing moves points a little towards their centre of curvature). Pieces shorter
 *    than 2·w are dropped; the rest keep the points that hold them within `SIMPLIFY_METERS`.
 *
 * Tracks carry their polyline (`Track.xy`) and, for the order and connect stages, `line` = the
 * level's index, `v` = its distance, u0 < u1 = where the ends project on the chain (arc length),
 * so that the boustrophedon cells and the order estimates work on curved tracks as on straight.
 */
import { pointCurvatures } from '../geometry/curvature.js';
import Flatbush from 'flatbush';
import type { PathD, PathsD } from '../geometry/clipper.js';
import { Region } from '../geometry/region.js';
import { contourLines } from '../terrain/contours.js';
import { modelFromArray } from '../terrain/grid.js';
import type { Track, TrackSet } from './generateTracks.js';
import { hypot, polylineLength, segmentParameter } from '../geometry/vec.js';
import { douglasPeuckerKeep } from '../geometry/douglasPeucker.js';

/** A vertex turning by more than this ends a chain (a corner of the field). */
export const CORNER_DEGREES = 30;
/** A chain ends once it has turned this much in all (it would wrap round the field). */
export const MAX_CHAIN_TURN_DEGREES = 150;
/** Spacing of the resampled chain and tracks, meters. */
export const RESAMPLE_METERS = 1;
/** Largest grid cell for the distance field, meters (at most a third of the width). */
export const GRID_CELL_METERS = 2;
/** Tracks keep the points that hold them within this of the smoothed curve, meters. */
export const SIMPLIFY_METERS = 0.01;
/** Tracks are smoothed until every bend is at least 1 / this wider than the turning radius. */
export const CURVATURE_MARGIN = 0.95;

export interface CurvedTrackSet extends TrackSet {
  /** The smoothed reference chain, flat xy, local frame (before its straight extensions). */
  referenceChain: Float64Array;
}

function ringArea2(r: PathD): number {
  let a = 0;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) a += (r[j].x - r[i].x) * (r[j].y + r[i].y);
  return a;
}

/**
 * The longest smooth chain of the outer rings (counter-clockwise, so the field is on its left),
 * flat xy. A ring without corners is cut where its turning budget runs out.
 */
export function referenceChain(field: PathsD): Float64Array {
  const corner = (CORNER_DEGREES * Math.PI) / 180,
    budget = (MAX_CHAIN_TURN_DEGREES * Math.PI) / 180;
  let best: number[] = [],
    bestLen = -1;
  for (const ring of field) {
    if (ring.length < 3 || ringArea2(ring) <= 0) continue;
    const n = ring.length;
    const turnAt = (i: number): number => {
      const a = ring[(i - 1 + n) % n],
        b = ring[i],
        c = ring[(i + 1) % n];
      const t = Math.atan2(c.y - b.y, c.x - b.x) - Math.atan2(b.y - a.y, b.x - a.x);
      return Math.atan2(Math.sin(t), Math.cos(t));
    };
    const turns = Array.from({ length: n }, (_, i) => turnAt(i));
    // Start at a corner when there is one (chains then never straddle a corner).
    let start = 0;
    for (let i = 0; i < n; i++)
      if (Math.abs(turns[i]) > corner) {
        start = i;
        break;
      }
    let chain: number[] = [ring[start].x, ring[start].y];
    let turned = 0;
    const flush = (): void => {
      const len = polylineLength(chain);
      if (chain.length >= 4 && len > bestLen) {
        bestLen = len;
        best = chain;
      }
    };
    for (let k = 1; k <= n; k++) {
      const i = (start + k) % n;
      chain.push(ring[i].x, ring[i].y);
      const t = turns[i];
      turned += Math.abs(t);
      if (k === n || Math.abs(t) > corner || turned > budget) {
        flush();
        chain = [ring[i].x, ring[i].y];
        turned = 0;
      }
    }
  }
  return Float64Array.from(best);
}

/** Points every `step` meters along a polyline, both ends kept. */
export function resample(xy: ArrayLike<number>, step: number): Float64Array {
  const L = polylineLength(xy);
  const m = Math.max(1, Math.round(L / step));
  const out = new Float64Array(2 * (m + 1));
  let seg = 2,
    acc = 0;
  for (let k = 0; k <= m; k++) {
    const s = (L * k) / m;
    while (seg < xy.length - 2 && acc + hypot(xy[seg] - xy[seg - 2], xy[seg + 1] - xy[seg - 1]) < s) {
      acc += hypot(xy[seg] - xy[seg - 2], xy[seg + 1] - xy[seg - 1]);
      seg += 2;
    }
    const l = hypot(xy[seg] - xy[seg - 2], xy[seg + 1] - xy[seg - 1]);
    const t = l > 0 ? Math.min(1, Math.max(0, (s - acc) / l)) : 0;
    out[2 * k] = xy[seg - 2] + (xy[seg] - xy[seg - 2]) * t;
    out[2 * k + 1] = xy[seg - 1] + (xy[seg + 1] - xy[seg - 1]) * t;
  }
  return out;
}

/**
 * Douglas-Peucker: the points of the polyline that keep it within `toleranceMeters` (ends kept).
 * The kept points lie on the curve, so three consecutive ones still span the curve's own radius.
 */
export function simplifyPolyline(xy: Float64Array, toleranceMeters: number): Float64Array {
  const n = xy.length / 2;
  if (n <= 2) return xy;
  const keep = douglasPeuckerKeep(xy, toleranceMeters);
  let m = 0;
  for (let i = 0; i < n; i++) m += keep[i];
  const out = new Float64Array(2 * m);
  for (let i = 0, k = 0; i < n; i++)
    if (keep[i]) {
      out[k++] = xy[2 * i];
      out[k++] = xy[2 * i + 1];
    }
  return out;
}

/** Laplacian smoothing (ends fixed) until every bend is within `maxCurvature` or `iterations` run out. */
export function smoothToCurvature(xy: Float64Array, maxCurvature: number, iterations = 60): Float64Array {
  let cur = xy;
  const n = xy.length / 2;
  if (n < 3) return cur;
  for (let it = 0; it < iterations; it++) {
    const k = pointCurvatures(cur, Infinity);
    let worst = 0;
    for (let i = 1; i + 1 < n; i++) if (k[i] > worst) worst = k[i];
    if (worst <= maxCurvature) break;
    const next = Float64Array.from(cur);
    for (let i = 1; i + 1 < n; i++) {
      next[2 * i] = 0.5 * cur[2 * i] + 0.25 * (cur[2 * i - 2] + cur[2 * i + 2]);
      next[2 * i + 1] = 0.5 * cur[2 * i + 1] + 0.25 * (cur[2 * i - 1] + cur[2 * i + 3]);
    }
    cur = next;
  }
  return cur;
}

/** Pieces of the polyline between points bending tighter than `maxCurvature` (the folds). */
function cutAtFolds(xy: Float64Array, maxCurvature: number): Float64Array[] {
  const k = pointCurvatures(xy, Infinity);
  const out: Float64Array[] = [];
  let startPt = 0;
  const n = xy.length / 2;
  for (let i = 1; i < n; i++) {
    if (i + 1 < n && k[i] <= maxCurvature) continue;
    // i is a fold (or the last point): the piece runs to the point before a fold, to the end otherwise.
    const end = i + 1 < n ? i - 1 : i;
    if (end - startPt >= 1) out.push(xy.slice(2 * startPt, 2 * end + 2));
    startPt = i + 1;
  }
  return out;
}

/**
 * Open polylines clipped to polygons, exactly: every crossing of a segment with a polygon edge
 * (flatbush over the edges) toggles inside / outside from the first point's side. (clipper2-ts
 * 2.0's open-path intersection returned wrong or empty paths here.)
 */
export function clipPolylines(lines: Float64Array[], polygons: PathsD): Float64Array[] {
  if (lines.length === 0) return [];
  const region = new Region(polygons);
  const e = region.edges;
  const m = e.length / 4;
  const index = new Flatbush(Math.max(1, m));
  for (let k = 0; k < m; k++)
    index.add(
      Math.min(e[4 * k], e[4 * k + 2]),
      Math.min(e[4 * k + 1], e[4 * k + 3]),
      Math.max(e[4 * k], e[4 * k + 2]),
      Math.max(e[4 * k + 1], e[4 * k + 3]),
    );
  if (m === 0) index.add(0, 0, 0, 0);
  index.finish();
  const out: Float64Array[] = [];
  const ts: number[] = [];
  for (const l of lines) {
    // The side just after the first point (a first point on an edge, as a clipped line's is, counts for the side the
    // line runs into).
    let inside = region.contains(l[0] + 1e-6 * (l[2] - l[0]), l[1] + 1e-6 * (l[3] - l[1]));
    let run: number[] = inside ? [l[0], l[1]] : [];
    for (let i = 2; i < l.length; i += 2) {
      const ax = l[i - 2],
        ay = l[i - 1],
        bx = l[i],
        by = l[i + 1];
      const dx = bx - ax,
        dy = by - ay;
      ts.length = 0;
      for (const k of index.search(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by))) {
        const cx = e[4 * k],
          cy = e[4 * k + 1],
          ex = e[4 * k + 2] - cx,
          ey = e[4 * k + 3] - cy;
        const den = dx * ey - dy * ex;
        if (den === 0) continue;
        const t = ((cx - ax) * ey - (cy - ay) * ex) / den;
        const u = ((cx - ax) * dy - (cy - ay) * dx) / den;
        // Half-open on the edge (u in [0, 1)) so a crossing at a shared vertex counts once.
        if (t > (i === 2 ? 1e-6 : 0) && t <= 1 && u >= 0 && u < 1) ts.push(t);
      }
      ts.sort((p, q) => p - q);
      for (const t of ts) {
        const x = ax + t * dx,
          y = ay + t * dy;
        if (inside) {
          run.push(x, y);
          if (run.length >= 4) out.push(Float64Array.from(run));
          run = [];
        } else run = [x, y];
        inside = !inside;
      }
      if (inside && (ts.length === 0 || ts[ts.length - 1] < 1)) run.push(bx, by);
    }
    if (inside && run.length >= 4) out.push(Float64Array.from(run));
  }
  return out;
}

/** Arc length along `chain` of the point of the chain nearest to (x, y). */
function chainParameter(chain: Float64Array, cum: Float64Array, x: number, y: number): number {
  let best = Infinity,
    at = 0;
  for (let i = 2; i < chain.length; i += 2) {
    const ax = chain[i - 2],
      ay = chain[i - 1],
      dx = chain[i] - ax,
      dy = chain[i + 1] - ay;
    const l2 = dx * dx + dy * dy;
    const t = segmentParameter(x, y, ax, ay, dx, dy);
    const qx = ax + t * dx - x,
      qy = ay + t * dy - y;
    const d2 = qx * qx + qy * qy;
    if (d2 < best) {
      best = d2;
      at = cum[i / 2 - 1] + t * Math.sqrt(l2);
    }
  }
  return at;
}

/** The chain extended straight along its end tangents by `diag`, so that it divides the field. */
function extendedChain(chain: Float64Array, diag: number): Float64Array {
  const n = chain.length;
  const ext = (i: number, j: number): [number, number] => {
    const dx = chain[i] - chain[j],
      dy = chain[i + 1] - chain[j + 1],
      l = hypot(dx, dy) || 1;
    return [chain[i] + (dx / l) * diag, chain[i + 1] + (dy / l) * diag];
  };
  const head = ext(0, 2),
    tail = ext(n - 2, n - 4);
  const line = new Float64Array(n + 4);
  line.set(head, 0);
  line.set(chain, 2);
  line.set(tail, n + 2);
  return line;
}

/** Signed distance from (x, y) to the polyline `line` (negative on its right), m. */
function signedDistanceToLine(line: Float64Array, x: number, y: number): number {
  let best = Infinity,
    side = 0;
  for (let i = 2; i < line.length; i += 2) {
    const ax = line[i - 2],
      ay = line[i - 1],
      dx = line[i] - ax,
      dy = line[i + 1] - ay;
    // Cheapest rejection first: the segment's box is farther than the best so far.
    const lo = dx < 0 ? dx : 0,
      hi = dx > 0 ? dx : 0,
      lo2 = dy < 0 ? dy : 0,
      hi2 = dy > 0 ? dy : 0;
    const px = x - ax,
      py = y - ay;
    const bx = px < lo ? lo - px : px > hi ? px - hi : 0;
    const by = py < lo2 ? lo2 - py : py > hi2 ? py - hi2 : 0;
    if (bx * bx + by * by >= best) continue;
    const len2 = dx * dx + dy * dy;
    let t = len2 > 0 ? (px * dx + py * dy) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const qx = t * dx - px,
      qy = t * dy - py;
    const d2 = qx * qx + qy * qy;
    if (d2 < best) {
      best = d2;
      side = dx * py - dy * px;
    }
  }
  return side < 0 ? -Math.sqrt(best) : Math.sqrt(best);
}

/** A piece of offset line as a track, driven the way the chain runs (u along the chain, v its offset). */
function trackAlongChain(line: Float64Array, cum: Float64Array, xy: Float64Array, lineIndex: number, v: number): Track {
  const m = xy.length;
  let ua = chainParameter(line, cum, xy[0], xy[1]),
    ub = chainParameter(line, cum, xy[m - 2], xy[m - 1]);
  let pts = xy;
  if (ua > ub) {
    pts = new Float64Array(m);
    for (let i = 0; i < m; i += 2) {
      pts[i] = xy[m - 2 - i];
      pts[i + 1] = xy[m - 1 - i];
    }
    [ua, ub] = [ub, ua];
  }
  return {
    line: lineIndex,
    u0: ua,
    u1: ub,
    v,
    x0: pts[0],
    y0: pts[1],
    x1: pts[m - 2],
    y1: pts[m - 1],
    xy: pts,
  };
}

/**
 * Curved tracks over `mainland`, offsets of the reference chain of `field` one width apart.
 * `directionRadians` of the set is the chain's chord (for the plan's heading).
 */
export function generateCurvedTracks(
  field: PathsD,
  mainland: PathsD,
  widthMeters: number,
  turnRadiusMeters: number,
): CurvedTrackSet {
  const w = widthMeters,
    R = turnRadiusMeters;
  const kMax = CURVATURE_MARGIN / R;
  const raw = referenceChain(field);
  if (raw.length < 4 || mainland.length === 0)
    return { directionRadians: 0, tracks: [], lineCount: 0, referenceChain: raw };
  const chain = smoothToCurvature(resample(raw, Math.min(RESAMPLE_METERS * 2, w / 2)), kMax, 200);
  const n = chain.length;
  let dir = Math.atan2(chain[n - 1] - chain[1], chain[n - 2] - chain[0]) % Math.PI;
  if (dir < 0) dir += Math.PI;

  // Grid over the mainland.
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const r of mainland)
    for (const p of r) {
      if (p.x < minX) minX = p.x;
      if (p.x > maxX) maxX = p.x;
      if (p.y < minY) minY = p.y;
      if (p.y > maxY) maxY = p.y;
    }
  const diag =
    hypot(maxX - minX, maxY - minY) +
    hypot(chain[0] - minX, chain[1] - minY) +
    hypot(chain[n - 2] - minX, chain[n - 1] - minY);
  const line = extendedChain(chain, diag);
  const cum = new Float64Array(line.length / 2);
  for (let i = 1; i < cum.length; i++)
    cum[i] = cum[i - 1] + hypot(line[2 * i] - line[2 * i - 2], line[2 * i + 1] - line[2 * i - 1]);

  let cell = Math.min(GRID_CELL_METERS, w / 3);
  const pad = 2 * cell;
  while (((maxX - minX + 2 * pad) / cell) * ((maxY - minY + 2 * pad) / cell) > 1_500_000) cell *= 1.25;
  const columns = Math.ceil((maxX - minX + 2 * pad) / cell) + 1,
    rows = Math.ceil((maxY - minY + 2 * pad) / cell) + 1;
  const ox = minX - pad,
    oy = maxY + pad;
  const signedDistance = (x: number, y: number): number => signedDistanceToLine(line, x, y);
  const d = new Float64Array(columns * rows);
  for (let r = 0; r < rows; r++) {
    const y = oy - (r + 0.5) * cell;
    for (let c = 0; c < columns; c++) d[r * columns + c] = signedDistance(ox + (c + 0.5) * cell, y);
  }
  const model = modelFromArray(ox, oy, cell, cell, columns, rows, d);
  // Levels as the straight tracks' scanlines: count = ⌈extent / w⌉ over the mainland's distances
  // (at its vertices), centred, so the swaths reach both sides of the mainland.
  let dMin = Infinity,
    dMax = -Infinity;
  for (const r of mainland)
    for (const p of r) {
      const v = signedDistance(p.x, p.y);
      if (v < dMin) dMin = v;
      if (v > dMax) dMax = v;
    }
  const extent = dMax - dMin;
  const count = Math.max(1, Math.ceil(extent / w - 1e-9));
  const d0 = dMin + (extent - (count - 1) * w) / 2;
  const kLo = 0,
    kHi = count - 1;
  const pieces: { k: number; xy: Float64Array }[] = [];
  for (let k = kLo; k <= kHi; k++) {
    const level = d0 + k * w;
    const cl = contourLines(model, level);
    for (const clipped of clipPolylines(cl, mainland)) {
      if (polylineLength(clipped) < 2 * w) continue;
      const smooth = smoothToCurvature(resample(clipped, RESAMPLE_METERS), kMax);
      for (const part of clipPolylines(cutAtFolds(smooth, kMax / CURVATURE_MARGIN), mainland)) {
        if (polylineLength(part) >= 2 * w) pieces.push({ k, xy: simplifyPolyline(part, SIMPLIFY_METERS) });
      }
    }
  }
  const tracks: Track[] = pieces.map(({ k, xy }) => trackAlongChain(line, cum, xy, k - kLo, d0 + k * w));
  tracks.sort((a, b) => a.line - b.line || a.u0 - b.u0);
  return { directionRadians: dir, tracks, lineCount: kHi - kLo + 1, referenceChain: chain };
}
