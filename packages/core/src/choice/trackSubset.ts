/**
 * A planning of part of a field's tracks, for a caller that shares the field among machines (planFleet's pair
 * route, fleet/pairRoute.ts): the tracks are laid as for the whole field (the whole field's headland, the same
 * lane grid), then only those whose middle `keep` accepts are routed, and with `withoutHeadland` no headland pass
 * is worked (the machine still turns on the headland). The rest of the field is another machine's: the plan's
 * coverage is its part's, and no variant that would give passes to the ground left (`left-over`,
 * `passes-between`) is planned.
 */
import type { LocalFrame } from '../geometry/projection.js';
import type { PlannedTracks } from '../tracks/planTracks.js';
import type { Position } from '../types.js';

export interface TrackSubset {
  /** Whether a track (its middle, [lon, lat]) is this planning's. */
  keep: (middle: Position) => boolean;
  /** No headland pass is worked. */
  withoutHeadland: boolean;
}

/** `planned` with only the tracks `subset` keeps (their cells and strip count with them). */
export function subsetTracks(planned: PlannedTracks, subset: TrackSubset, frame: LocalFrame): PlannedTracks {
  const tracks = planned.trackSet.tracks;
  const kept: number[] = [];
  for (let i = 0; i < tracks.length; i++) {
    const t = tracks[i];
    if (subset.keep(frame.toLonLat((t.x0 + t.x1) / 2, (t.y0 + t.y1) / 2))) kept.push(i);
  }
  const firstStrip = tracks.length - planned.stripCount;
  const out: PlannedTracks = {
    ...planned,
    trackSet: { ...planned.trackSet, tracks: kept.map((i) => tracks[i]) },
    cellOf: Int32Array.from(kept.map((i) => planned.cellOf[i])),
    stripCount: kept.filter((i) => i >= firstStrip).length,
  };
  // The extension's record is of every track: a subset keeps none (extendTracks's report only).
  delete out.fullExtension;
  return out;
}
