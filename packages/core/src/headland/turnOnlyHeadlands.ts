/**
 * Turn-only headlands (`headland.mode: 'turnOnly'`): headland passes only where the tracks
 * end, so the machine has room to turn there, while the sides the tracks run along are worked
 * by the tracks up to the boundary.
 *
 * Where tracks end is a property of the heading: a point of the field is in the turning band
 * when the track line through it leaves the field within `s` along the track direction u. Each
 * boundary edge (shell and holes) is swept along ±u by s = min(D / sin φ, 2D), D = passes × w,
 * φ = the angle between the edge and u: an edge the tracks run into (φ ≥ 30°) gets a band of the
 * full depth D measured square to it, like a full headland; an edge at a shallow angle gets a
 * band that thins out with sin φ, and an edge parallel to the tracks (a side) none. Every track
 * end therefore keeps at least D of room ahead of it along u. The mainland is the field minus
 * the band; pass i is the full-perimeter pass ring at (i − ½)·w clipped to the band, so it runs
 * along the ends only (with a short hook round each corner into the side, working the corner
 * the side tracks stop short of). A ring lying wholly in the band (a small hole in a track end)
 * stays a closed pass; the others are open passes.
 */
import { ClipType, ClipperD, FillRule } from 'clipper2-ts';
import { areaOf, differencePolygons, intersectPolygons, offsetPolygons, PRECISION, unionPolygons } from '../geometry/clipper.js';
import type { PathD, PathsD } from '../geometry/clipper.js';
import type { HeadlandPass, Headlands } from './generateHeadlands.js';
import { passableCore } from './generateHeadlands.js';
import { Region } from '../geometry/region.js';

/** Working passes need no fine arcs (1 cm from the true circle). */
const PASS_ARC_TOLERANCE_METERS = 0.01;
/** Edges closer than this to parallel with the tracks (sin φ) are sides: no band. */
const SIDE_SIN = 1e-3;
/** Pass edges within 20° of the tracks run along a side (the hook round a corner): not a turn-only pass. */
const HOOK_SIN = Math.sin((20 * Math.PI) / 180);

/** The turning band at the track ends for tracks along `directionRadians`, `depthMeters` deep (local frame). */
export function turnOnlyBand(field: PathsD, directionRadians: number, depthMeters: number): PathsD {
  const ux = Math.cos(directionRadians), uy = Math.sin(directionRadians);
  const quads: PathsD = [];
  for (const ring of field) {
    const n = ring.length;
    for (let i = 0; i < n; i++) {
      const a = ring[i], b = ring[(i + 1) % n];
      const ex = b.x - a.x, ey = b.y - a.y;
      const len = Math.hypot(ex, ey);
      if (len === 0) continue;
      const sin = Math.abs(ex * uy - ey * ux) / len;
      if (sin < SIDE_SIN) continue;
      const s = Math.min(depthMeters / sin, 2 * depthMeters);
      const dx = s * ux, dy = s * uy;
      const q: PathD = [
        { x: a.x - dx, y: a.y - dy }, { x: b.x - dx, y: b.y - dy },
        { x: b.x + dx, y: b.y + dy }, { x: a.x + dx, y: a.y + dy },
      ];
      if (areaOf([q]) < 0) q.reverse();
      quads.push(q);
    }
  }
  if (quads.length === 0) return [];
  return intersectPolygons(field, unionPolygons(quads));
}

/** Open-path clip: the parts of `lines` inside `polygons`. */
function clipLines(lines: PathsD, polygons: PathsD): PathsD {
  const c = new ClipperD(PRECISION);
  c.addOpenSubjectPaths(lines);
  c.addClipPaths(polygons);
  const closed: PathsD = [], open: PathsD = [];
  c.execute(ClipType.Intersection, FillRule.NonZero, closed, open);
  return open;
}

function near(a: { x: number; y: number }, b: { x: number; y: number }): boolean {
  return Math.abs(a.x - b.x) < 1e-6 && Math.abs(a.y - b.y) < 1e-6;
}

/** Joins pieces cut at the ring's own start point back together (end of one = start of the other). */
function joinPieces(pieces: PathsD): PathsD {
  const out = pieces.map((p) => p.slice());
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++) {
      for (let j = 0; j < out.length && !merged; j++) {
        if (i === j) continue;
        const a = out[i], b = out[j];
        if (near(a[a.length - 1], b[0])) {
          out[i] = [...a, ...b.slice(1)];
          out.splice(j, 1);
          merged = true;
        }
      }
    }
  }
  return out;
}

/** Ramer-Douglas-Peucker on an open polyline: indices of the kept vertices. */
function simplifyIndices(p: PathD, tol: number): number[] {
  const keep = new Uint8Array(p.length);
  keep[0] = 1;
  keep[p.length - 1] = 1;
  const stack: [number, number][] = [[0, p.length - 1]];
  while (stack.length > 0) {
    const [i0, i1] = stack.pop()!;
    const a = p[i0], b = p[i1];
    const dx = b.x - a.x, dy = b.y - a.y;
    const L = Math.hypot(dx, dy);
    let worst = -1, worstD = tol;
    for (let i = i0 + 1; i < i1; i++) {
      const d = L > 0 ? Math.abs((p[i].x - a.x) * dy - (p[i].y - a.y) * dx) / L : Math.hypot(p[i].x - a.x, p[i].y - a.y);
      if (d > worstD) { worstD = d; worst = i; }
    }
    if (worst >= 0) {
      keep[worst] = 1;
      stack.push([i0, worst], [worst, i1]);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < p.length; i++) if (keep[i]) out.push(i);
  return out;
}

/** How far the ray from (x, y) along (dx, dy) runs inside `region` (0 when it starts outside), at most `cap`. */
function rayReach(region: PathsD, inside: Region, x: number, y: number, dx: number, dy: number, cap: number): number {
  if (!inside.contains(x + 0.01 * dx, y + 0.01 * dy)) return 0;
  let best = cap;
  for (const ring of region) {
    const n = ring.length;
    for (let i = 0; i < n; i++) {
      const a = ring[i], b = ring[(i + 1) % n];
      const ex = b.x - a.x, ey = b.y - a.y;
      const den = dx * ey - dy * ex;
      if (Math.abs(den) < 1e-12) continue;
      const t = ((a.x - x) * ey - (a.y - y) * ex) / den;
      const u = ((a.x - x) * dy - (a.y - y) * dx) / den;
      if (t > 0.01 && t < best && u >= 0 && u <= 1) best = t;
    }
  }
  return best;
}

/** Straight lines of a pass piece: hooks along the sides dropped, bends split (trimmed so a turn of radius R fits), ends extended to w/2 from the boundary. */
function straightRuns(piece: PathD, ux: number, uy: number, w: number, R: number, reach: PathsD, reachRegion: Region, capMeters: number, field: PathsD, fieldRegion: Region): { x0: number; y0: number; x1: number; y1: number }[] {
  // Runs of edges the tracks run into (the hooks round the corners run along the sides).
  const runs: PathD[] = [];
  let cur: PathD = [];
  for (let i = 1; i < piece.length; i++) {
    const a = piece[i - 1], b = piece[i];
    const ex = b.x - a.x, ey = b.y - a.y;
    const len = Math.hypot(ex, ey);
    if (len === 0) continue;
    const side = Math.abs(ex * uy - ey * ux) / len < HOOK_SIN;
    if (side) {
      if (cur.length >= 2) runs.push(cur);
      cur = [];
      continue;
    }
    if (cur.length === 0) cur.push(a);
    cur.push(b);
  }
  if (cur.length >= 2) runs.push(cur);
  const out: { x0: number; y0: number; x1: number; y1: number }[] = [];
  for (const run of runs) {
    const idx = simplifyIndices(run, w / 4);
    const pts = idx.map((i) => ({ x: run[i].x, y: run[i].y }));
    const m = pts.length;
    // Extend the run's two ends along their own direction while inside the field shrunk by w/2 and the band.
    {
      const a = pts[0], b = pts[1];
      const L = Math.hypot(b.x - a.x, b.y - a.y);
      const dx = (a.x - b.x) / L, dy = (a.y - b.y) / L;
      const t = rayReach(reach, reachRegion, a.x, a.y, dx, dy, capMeters);
      pts[0] = { x: a.x + t * dx, y: a.y + t * dy };
    }
    {
      const a = pts[m - 1], b = pts[m - 2];
      const L = Math.hypot(b.x - a.x, b.y - a.y);
      const dx = (a.x - b.x) / L, dy = (a.y - b.y) / L;
      const t = rayReach(reach, reachRegion, a.x, a.y, dx, dy, capMeters);
      pts[m - 1] = { x: a.x + t * dx, y: a.y + t * dy };
    }
    // One straight line per segment, shortened at each bend by the tangent length R·tan(Δ/2), and at
    // the run's ends so that R + 0.3 m of field lies ahead of them: room for a forward turn on or off.
    const trim = new Float64Array(m);
    const room = R + 0.3;
    {
      const a = pts[0], b = pts[1];
      const L = Math.hypot(b.x - a.x, b.y - a.y);
      trim[0] = Math.max(0, room - rayReach(field, fieldRegion, a.x, a.y, (a.x - b.x) / L, (a.y - b.y) / L, room));
    }
    {
      const a = pts[m - 1], b = pts[m - 2];
      const L = Math.hypot(b.x - a.x, b.y - a.y);
      trim[m - 1] = Math.max(0, room - rayReach(field, fieldRegion, a.x, a.y, (a.x - b.x) / L, (a.y - b.y) / L, room));
    }
    for (let k = 1; k < m - 1; k++) {
      const h1 = Math.atan2(pts[k].y - pts[k - 1].y, pts[k].x - pts[k - 1].x);
      const h2 = Math.atan2(pts[k + 1].y - pts[k].y, pts[k + 1].x - pts[k].x);
      let d = Math.abs(h2 - h1);
      if (d > Math.PI) d = 2 * Math.PI - d;
      trim[k] = R * Math.tan(Math.min(d, 2.6) / 2) + 0.05;
    }
    for (let k = 0; k < m - 1; k++) {
      const a = pts[k], b = pts[k + 1];
      const L = Math.hypot(b.x - a.x, b.y - a.y);
      const t0 = trim[k], t1 = trim[k + 1];
      if (L - t0 - t1 < w) continue;
      const dx = (b.x - a.x) / L, dy = (b.y - a.y) / L;
      out.push({ x0: a.x + t0 * dx, y0: a.y + t0 * dy, x1: b.x - t1 * dx, y1: b.y - t1 * dy });
    }
  }
  return out;
}

/**
 * Headland passes only where the tracks along `directionRadians` end, and the mainland that
 * reaches the boundary elsewhere. Open passes are straight lines with `open: true`.
 */
export function generateTurnOnlyHeadlands(field: PathsD, passCount: number, widthMeters: number, directionRadians: number, turnRadiusMeters: number): Headlands {
  const w = widthMeters;
  const core = passableCore(field, w);
  if (passCount <= 0) return { passes: [], mainland: core };
  const band = turnOnlyBand(field, directionRadians, passCount * w);
  // The mainland reaches the boundary along the sides, but not into corridors narrower than w.
  const mainland = band.length > 0 ? differencePolygons(core, band) : core;
  const passes: HeadlandPass[] = [];
  if (band.length === 0) return { passes, mainland };
  const ux = Math.cos(directionRadians), uy = Math.sin(directionRadians);
  const halfIn = offsetPolygons(field, -w / 2, PASS_ARC_TOLERANCE_METERS);
  const reach = halfIn.length > 0 ? intersectPolygons(halfIn, offsetPolygons(band, 1e-3, PASS_ARC_TOLERANCE_METERS)) : [];
  const reachRegion = new Region(reach);
  const fieldRegion = new Region(field);
  for (let i = 1; i <= passCount; i++) {
    const rings = offsetPolygons(field, -(i - 0.5) * w, PASS_ARC_TOLERANCE_METERS);
    for (const ring of rings) {
      if (ring.length < 3) continue;
      const a = areaOf([ring]);
      if (Math.abs(a) < w * w * 0.25) continue;
      const type = a > 0 ? 'ExteriorHeadland' : 'InteriorHeadland';
      const pieces = joinPieces(clipLines([[...ring, ring[0]]], band));
      for (const p of pieces) {
        if (p.length < 2) continue;
        if (p.length > 3 && near(p[0], p[p.length - 1])) {
          // The whole ring lies in the band: a closed pass.
          passes.push({ type, passIndex: i, ring: p.slice(0, -1) });
          continue;
        }
        for (const r of straightRuns(p, ux, uy, w, turnRadiusMeters, reach, reachRegion, passCount * w, field, fieldRegion)) {
          passes.push({ type, passIndex: i, ring: [{ x: r.x0, y: r.y0 }, { x: r.x1, y: r.y1 }], open: true });
        }
      }
    }
  }
  return { passes, mainland, band };
}
