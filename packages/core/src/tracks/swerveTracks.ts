/**
 * Tracks past small no-go zones (headland/smallObstacles.ts: zones that get no headland rounds):
 * each track whose centre line would pass within `CLEARANCE_METERS` of one swerves round it — two
 * arcs of radius ≥ R out to the side that needs the shorter shift, straight past it, two arcs
 * back — while the implement works on with its sections off over the zone. Where no swerve fits
 * (the field's edge or another no-go zone in the way), the track is cut in two at the zone.
 */
import type { PathsD } from '../geometry/clipper.js';
import type { Region } from '../geometry/region.js';
import { CLEARANCE_METERS } from '../headland/smallObstacles.js';
import { ARC_MARGIN, clearOf, extentOf, sCurveLength, sideShifts, swerveProfile, toXY } from '../geometry/swerve.js';
import type { Extent } from '../geometry/swerve.js';
import type { Track } from './generateTracks.js';

/**
 * The tracks with swerves round the small obstacles their centre lines pass within
 * `CLEARANCE_METERS` of. `region` is the field with every no-go zone (what the swerve must stay in,
 * with the clearance); `directionRadians` the tracks' direction where a track has none of its own.
 */
export function swerveTracks(
  tracks: Track[],
  small: PathsD,
  region: Region,
  directionRadians: number,
  turnRadiusMeters: number,
): Track[] {
  if (small.length === 0) return tracks;
  const out: Track[] = [];
  for (const t of tracks) {
    if (t.xy) {
      out.push(t);
      continue;
    }
    const d = t.directionRadians ?? directionRadians;
    const c = Math.cos(d),
      s = Math.sin(d);
    const u0 = c * t.x0 + s * t.y0,
      u1 = c * t.x1 + s * t.y1,
      v = -s * t.x0 + c * t.y0;
    const hits = small
      .map((h) => extentOf(h, c, s))
      .filter((e) => e.va - CLEARANCE_METERS < v && e.vb + CLEARANCE_METERS > v && e.ub > u0 && e.ua < u1);
    if (hits.length === 0) {
      out.push(t);
      continue;
    }
    const swerved = swerve(t, hits, { c, s, u0, u1, v }, region, turnRadiusMeters);
    for (const piece of swerved) out.push(piece);
  }
  return out;
}

/** Runs of obstacles whose swerves would overlap along the track, merged into one extent each. */
function mergeAlong(hits: Extent[], reach: number): Extent[] {
  const sorted = hits.slice().sort((a, b) => a.ua - b.ua);
  const out: Extent[] = [];
  for (const e of sorted) {
    const last = out[out.length - 1];
    if (last && e.ua - reach <= last.ub + reach) {
      last.ub = Math.max(last.ub, e.ub);
      last.va = Math.min(last.va, e.va);
      last.vb = Math.max(last.vb, e.vb);
    } else out.push({ ...e });
  }
  return out;
}

/**
 * The track with a swerve round each merged run of obstacles (the side with the shorter shift
 * first, the other if that one leaves the region), or cut in two where neither fits.
 */
function swerve(
  t: Track,
  hits: Extent[],
  f: { c: number; s: number; u0: number; u1: number; v: number },
  region: Region,
  R: number,
): Track[] {
  const r = R * ARC_MARGIN;
  // Along-track length of an S of two arcs shifting the line sideways by `shift` (< 2r).
  const lengthOf = (shift: number): number => sCurveLength(shift, r);
  const runs = mergeAlong(hits, lengthOf(hits.reduce((m, e) => Math.max(m, e.vb - e.va), 0) + 2 * CLEARANCE_METERS));
  // Profile of the centre line across the track: (u, v) points from u0 to u1.
  const pts: number[] = [f.u0, f.v];
  const pieces: Track[] = [];
  let startU = f.u0;
  // Where the S before (after) the obstacle does not fit between it and the track's start (end), the
  // track starts (ends) already shifted: the swerve reaches the track's end, as a driver does by a pole
  // near the headland.
  let shiftedEnd = false;
  for (const e of runs) {
    const options = sideShifts(e, f.v, CLEARANCE_METERS);
    let done = false;
    const from = pts[pts.length - 2],
      fresh = pts.length === 2;
    for (const shift of options) {
      if (Math.abs(shift) >= 2 * r) continue;
      const L = lengthOf(shift);
      let a = e.ua - CLEARANCE_METERS - L,
        b = e.ub + CLEARANCE_METERS + L;
      // the S before the obstacle needs room after the last point; only a piece's first point may be shifted instead
      if (a <= from && !fresh) continue;
      const atStart = a <= from,
        atEnd = b >= f.u1;
      // an S next to a shifted end may lie past the obstacle, never before the end
      if (atStart) b = Math.max(b, from + L);
      if (atEnd) a = Math.min(a, f.u1 - L);
      if (!atStart && atEnd && a <= from) continue;
      const profile = swerveProfile(a, b, f.v, shift, r, L, atStart ? from : undefined, atEnd ? f.u1 : undefined);
      const xy = toXY(profile, f.c, f.s);
      if (!region.containsPolyline(xy) || !clearOf(xy, region, CLEARANCE_METERS)) continue;
      if (atStart) pts.length = 0;
      for (const p of profile) pts.push(p);
      shiftedEnd = atEnd;
      done = true;
      break;
    }
    if (done) {
      if (shiftedEnd) break;
      continue;
    }
    // No swerve fits: the track stops before the obstacle and starts again after it.
    const cutA = e.ua - CLEARANCE_METERS,
      cutB = e.ub + CLEARANCE_METERS;
    if (cutA - startU >= 1) pieces.push(pieceOf(t, [...pts, cutA, f.v], f));
    pts.length = 0;
    pts.push(cutB, f.v);
    startU = cutB;
  }
  if (!shiftedEnd) pts.push(f.u1, f.v);
  if (pts[pts.length - 2] - pts[0] >= 1) pieces.push(pieceOf(t, pts, f));
  return pieces;
}

/** A track from a (u, v) profile; straight pieces stay two-point tracks. */
function pieceOf(t: Track, profile: number[], f: { c: number; s: number }): Track {
  const xy = toXY(profile, f.c, f.s);
  const n = xy.length;
  const straight = profile.every((_, i) => i % 2 === 0 || Math.abs(profile[i] - profile[1]) < 1e-9);
  const ends = { u0: profile[0], u1: profile[profile.length - 2], x0: xy[0], y0: xy[1], x1: xy[n - 2], y1: xy[n - 1] };
  const { xy: _curve, ...rest } = t;
  void _curve;
  return straight ? { ...rest, ...ends } : { ...rest, ...ends, xy };
}
