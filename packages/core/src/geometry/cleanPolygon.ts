/**
 * Input hygiene for one polygon (shell + holes) in the local frame: every ring cleaned by
 * `cleanRing`; holes that collapse or are hairline slivers are dropped (they hold no area
 * to avoid); a shell that collapses is rejected with a `PlanError` naming the ring.
 */
import { PlanError } from '../errors.js';
import type { Position } from '../types.js';
import type { PathsD } from './clipper.js';
import { CLEAN_TOLERANCE_METERS, cleanRing, isSliver } from './cleanRing.js';

export interface CleanedPolygon {
  /** Kept rings, shell first. */
  rings: PathsD;
  /** Input ring index of every kept ring. */
  ringIds: number[];
  /** Per kept ring: input vertex index of every kept vertex. */
  sources: number[][];
  /** Counts of what was removed. */
  removed: { duplicates: number; spikes: number; collinear: number; sliverHoles: number };
}

export function cleanPolygon(
  rings: PathsD,
  path: string,
  lonLatOf: (ring: number, index: number) => Position,
  toleranceMeters: number = CLEAN_TOLERANCE_METERS,
): CleanedPolygon {
  const out: CleanedPolygon = {
    rings: [],
    ringIds: [],
    sources: [],
    removed: { duplicates: 0, spikes: 0, collinear: 0, sliverHoles: 0 },
  };
  for (let r = 0; r < rings.length; r++) {
    const c = cleanRing(rings[r], toleranceMeters);
    out.removed.duplicates += c.removed.duplicates;
    out.removed.spikes += c.removed.spikes;
    out.removed.collinear += c.removed.collinear;
    // A shell with 3+ corners left goes on to the crossing checks (a bow-tie has zero signed area too).
    if (c.ring.length < 3 || (r > 0 && isSliver(c.ring, toleranceMeters))) {
      if (r > 0) {
        out.removed.sliverHoles++;
        continue;
      }
      const p = lonLatOf(0, 0);
      const message =
        `ring has zero area: within ${toleranceMeters} m it collapses to a line or a point (near ` +
        `[${p[0]}, ${p[1]}])`;
      throw new PlanError('invalid-boundary', `${path}[0]: ${message}`, [{ path: `${path}[0]`, message }]);
    }
    out.rings.push(c.ring);
    out.ringIds.push(r);
    out.sources.push(c.source);
  }
  return out;
}
