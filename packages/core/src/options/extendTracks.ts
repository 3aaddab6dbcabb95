/**
 * `extendTracks` (options, spec 2.2): where the headland meets the tracks at an angle, a
 * track clipped at its centre line leaves a wedge of the mainland unworked on one side of
 * its swath. Each track end is pushed out until the swath's edges (the lines at ±w/2)
 * reach the mainland's edge too, but never so far that the swath leaves the field: the
 * centre line stays inside the field shrunk by w/2 (and short of the track's own
 * headroom: `maxExtensionMeters`).
 */
import { offsetPolygons } from '../geometry/clipper.js';
import type { PathsD } from '../geometry/clipper.js';
import type { Track, TrackSet } from '../tracks/generateTracks.js';
import { crossingsAt, intervalContaining, rotateEdges } from './scanLine.js';
import type { RotatedEdges } from './scanLine.js';

export interface TrackExtension {
  /** Tracks with at least one end moved. */
  tracksExtended: number;
  /** Sum of the added lengths, meters. */
  addedLengthMeters: number;
}

/**
 * Returns the extended track list (new objects; the input is not changed) and a summary.
 * `field` is the whole field (holes included as clockwise rings), `mainland` the area the tracks were clipped to.
 */
export function extendTracks(set: TrackSet, mainland: PathsD, field: PathsD, widthMeters: number, maxExtensionMeters: number): { tracks: Track[]; extension: TrackExtension } {
  const w = widthMeters;
  const roomPolygon = offsetPolygons(field, -w / 2, 0.01);
  // Per track direction (cells may have headings of their own): rotated edges and a cache of scanlines.
  const frames = new Map<number, { c: number; s: number; land: RotatedEdges; room: RotatedEdges; cache: Map<number, number[]> }>();
  const frameOf = (dir: number) => {
    let f = frames.get(dir);
    if (!f) frames.set(dir, (f = { c: Math.cos(dir), s: Math.sin(dir), land: rotateEdges(mainland, dir), room: rotateEdges(roomPolygon, dir), cache: new Map() }));
    return f;
  };
  let tracksExtended = 0, addedLengthMeters = 0;
  const tracks = set.tracks.map((t) => {
    if (t.xy) return t;
    const { c, s, land, room, cache } = frameOf(t.directionRadians ?? set.directionRadians);
    const landAt = (v: number): number[] => {
      const key = Math.round(v * 1e6);
      let x = cache.get(key);
      if (!x) cache.set(key, (x = crossingsAt(land, v)));
      return x;
    };
    let lo = t.u0, hi = t.u1;
    for (const dv of [-w / 2, w / 2]) {
      const xs = landAt(t.v + dv);
      for (let i = 0; i + 1 < xs.length; i += 2) {
        // Neighbour-line intervals overlapping the track's own stretch.
        if (xs[i + 1] <= t.u0 || xs[i] >= t.u1) continue;
        if (xs[i] < lo) lo = xs[i];
        if (xs[i + 1] > hi) hi = xs[i + 1];
      }
    }
    if (lo >= t.u0 && hi <= t.u1) return t;
    const cap = intervalContaining(crossingsAt(room, t.v), (t.u0 + t.u1) / 2);
    if (cap) {
      lo = Math.max(lo, cap[0] + 1e-3);
      hi = Math.min(hi, cap[1] - 1e-3);
    } else {
      lo = t.u0;
      hi = t.u1;
    }
    lo = Math.max(Math.min(lo, t.u0), t.u0 - maxExtensionMeters);
    hi = Math.min(Math.max(hi, t.u1), t.u1 + maxExtensionMeters);
    const added = t.u0 - lo + (hi - t.u1);
    if (!(added > 1e-3)) return t;
    tracksExtended++;
    addedLengthMeters += added;
    return { ...t, u0: lo, u1: hi, x0: c * lo - s * t.v, y0: s * lo + c * t.v, x1: c * hi - s * t.v, y1: s * hi + c * t.v };
  });
  return { tracks, extension: { tracksExtended, addedLengthMeters } };
}
