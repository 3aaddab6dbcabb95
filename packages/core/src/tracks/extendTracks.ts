/**
 * `extendTracks` (options, spec 2.2): where the headland meets the tracks at an angle, a
 * track clipped at its centre line leaves a wedge of the mainland unworked on one side of
 * its swath. Each track end is pushed out until the swath's edges (the lines at ±w/2)
 * reach the mainland's edge too, but never so far that the swath leaves the field: the
 * centre line stays inside the field shrunk by w/2, and within `maxExtensionMeters` of the
 * mainland (the track's own headroom: an end goes no deeper into the headland band than that,
 * measured from the mainland's edge, however shallow the angle at which the track meets it — a
 * track nearly parallel to the edge may run on for tens of meters, its uncovered wedge being as
 * long). `fraction` < 1 moves each end that share of the way only.
 */
import { sharedOffset } from '../geometry/clipper.js';
import type { PathsD } from '../geometry/clipper.js';
import { simplificationTolerance, simplifyBoundary } from '../geometry/simplifyBoundary.js';
import type { Track, TrackSet } from './generateTracks.js';
import { crossingsAt, intervalContaining, rotateEdges } from '../geometry/scanLine.js';
import type { RotatedEdges } from '../geometry/scanLine.js';

export interface TrackExtension {
  /** Tracks with at least one end moved. */
  tracksExtended: number;
  /** Sum of the added lengths, meters. */
  addedLengthMeters: number;
}

type DirectionFrame = {
  c: number;
  s: number;
  land: RotatedEdges;
  room: RotatedEdges;
  reach: RotatedEdges;
  cache: Map<number, number[]>;
};

/** Per track direction (cells may have headings of their own): rotated edges and a cache of scanlines. */
function directionFrames(mainland: PathsD, roomPolygon: PathsD, reachPolygon: PathsD): (dir: number) => DirectionFrame {
  const frames = new Map<number, DirectionFrame>();
  return (dir: number) => {
    let f = frames.get(dir);
    if (!f)
      frames.set(
        dir,
        (f = {
          c: Math.cos(dir),
          s: Math.sin(dir),
          land: rotateEdges(mainland, dir),
          room: rotateEdges(roomPolygon, dir),
          reach: rotateEdges(reachPolygon, dir),
          cache: new Map(),
        }),
      );
    return f;
  };
}

/**
 * Returns the extended track list (new objects; the input is not changed) and a summary.
 * `field` is the whole field (holes included as clockwise rings), `mainland` the area the tracks were clipped to.
 */
export function extendTracks(
  set: TrackSet,
  mainland: PathsD,
  field: PathsD,
  widthMeters: number,
  maxExtensionMeters: number,
  fraction = 1,
): { tracks: Track[]; extension: TrackExtension } {
  const w = widthMeters;
  // A dense (logged) boundary is offset simplified (geometry/simplifyBoundary.ts), its tolerance
  // further in: the room stays inside the real field shrunk by w/2, at a fraction of the sweep's cost.
  const roomField = simplifyBoundary(field);
  const roomPolygon = sharedOffset(roomField, -w / 2 - simplificationTolerance(roomField), 0.01);
  // The mainland is the call's (headland/ is planned once per call): its reach is offset once for all plannings.
  const reachPolygon = sharedOffset(mainland, maxExtensionMeters, 0.01);
  const frameOf = directionFrames(mainland, roomPolygon, reachPolygon);
  let tracksExtended = 0,
    addedLengthMeters = 0;
  const tracks = set.tracks.map((t) => {
    if (t.xy) return t;
    const { c, s, land, room, reach, cache } = frameOf(t.directionRadians ?? set.directionRadians);
    const landAt = (v: number): number[] => {
      const key = Math.round(v * 1e6);
      let x = cache.get(key);
      if (!x) cache.set(key, (x = crossingsAt(land, v)));
      return x;
    };
    let lo = t.u0,
      hi = t.u1;
    // The swath's edges taken 5 % of the width inside: an edge running along the mainland's edge or
    // grazing it by centimetres (a short track in the headland band parallel to that edge, about w/2
    // away, as at the inner corner of an L whose arms have their own headings) works next to none of
    // it, and must not carry the track tens of meters along the headland pass.
    const edge = w / 2 - 0.05 * w;
    for (const dv of [-edge, edge]) {
      const xs = landAt(t.v + dv);
      for (let i = 0; i + 1 < xs.length; i += 2) {
        // Neighbour-line intervals overlapping the track's own stretch.
        if (xs[i + 1] <= t.u0 || xs[i] >= t.u1) continue;
        if (xs[i] < lo) lo = xs[i];
        if (xs[i + 1] > hi) hi = xs[i + 1];
      }
    }
    if (lo >= t.u0 && hi <= t.u1) return t;
    const mid = (t.u0 + t.u1) / 2;
    const cap = intervalContaining(crossingsAt(room, t.v), mid);
    const depth = intervalContaining(crossingsAt(reach, t.v), mid);
    if (cap && depth) {
      lo = Math.max(lo, cap[0] + 1e-3, depth[0] + 1e-3);
      hi = Math.min(hi, cap[1] - 1e-3, depth[1] - 1e-3);
    } else {
      lo = t.u0;
      hi = t.u1;
    }
    // Ends inside the mainland (a cell with its own heading ends on its neighbour's side) stay where they are.
    const line = landAt(t.v);
    const own = intervalContaining(line, (t.u0 + t.u1) / 2);
    if (own && t.u0 > own[0] + 1e-6) lo = t.u0;
    if (own && t.u1 < own[1] - 1e-6) hi = t.u1;
    // Nor past the middle of the gap to the next stretch of mainland on the track's own line (a
    // line passing a pole: the swath's edges pass it, the track must not run on over the track
    // beyond it).
    if (own) {
      const k = line.indexOf(own[0]);
      if (k >= 2) lo = Math.max(lo, (line[k - 1] + own[0]) / 2);
      if (k + 2 < line.length) hi = Math.min(hi, (own[1] + line[k + 2]) / 2);
    }
    lo = t.u0 - fraction * (t.u0 - Math.min(lo, t.u0));
    hi = t.u1 + fraction * (Math.max(hi, t.u1) - t.u1);
    const added = t.u0 - lo + (hi - t.u1);
    if (!(added > 1e-3)) return t;
    tracksExtended++;
    addedLengthMeters += added;
    return {
      ...t,
      u0: lo,
      u1: hi,
      x0: c * lo - s * t.v,
      y0: s * lo + c * t.v,
      x1: c * hi - s * t.v,
      y1: s * hi + c * t.v,
    };
  });
  return { tracks, extension: { tracksExtended, addedLengthMeters } };
}
