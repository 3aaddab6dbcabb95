/**
 * What the centre-line files (centreLine.ts, centreLinePieces.ts, centreLineTour.ts) share: the
 * options of a planning, the curvature margin and the direction into a branch of the medial axis.
 */
import type { PathsD } from '../geometry/clipper.js';
import type { MedialBranch } from '../geometry/medialAxis.js';
import { hypot } from '../geometry/vec.js';
import type { EdgeIndex } from './centreLineGround.js';

/** Bends are smoothed to at most this share of 1/R. */
export const CURVATURE_MARGIN = 0.9;
export interface CentreLineOptions {
  widthMeters: number;
  turnRadiusMeters: number;
  /** The machine's curvature-rate limit, 1/m² (absent: none). */
  maxCurvatureRatePerSquareMeter?: number;
  /** The boom's sections, left to right, m (absent: sections of any width, the band follows the ground exactly). */
  sectionWidthsMeters?: readonly number[];
  /** The field's rings: passes stay inside them. */
  field: PathsD;
  /** First scanline number free for the passes. */
  firstLine: number;
  /** At most this many passes (the longest paths first). */
  maxPasses?: number;
  /** The field's edges (made from `field` when absent). */
  fieldIndex?: EdgeIndex;
  /** A path is driven when it works at least this much ground anew, m² (default 0). */
  minNewSquareMeters?: number;
  /** Tours that start on a branch with no dead end start it the other way round (tracks/centreLineTour.ts). */
  toursTurned?: boolean;
}

/** Unit direction from a branch's end at `node` into the branch (over its first ~10 m). */
export function outward(b: MedialBranch, atStart: boolean): [number, number] {
  const n = b.xy.length / 2;
  let k = 1;
  const i0 = atStart ? 0 : n - 1,
    dir = atStart ? 1 : -1;
  const x0 = b.xy[2 * i0],
    y0 = b.xy[2 * i0 + 1];
  let x = x0,
    y = y0;
  for (; k < n; k++) {
    const i = i0 + dir * k;
    x = b.xy[2 * i];
    y = b.xy[2 * i + 1];
    if (hypot(x - x0, y - y0) >= 10) break;
  }
  const l = hypot(x - x0, y - y0) || 1;
  return [(x - x0) / l, (y - y0) / l];
}
