/**
 * Headland passes as route pieces, their corners shaped.
 *
 * Every pass (full perimeter or turn-only) is a closed ring, a loop piece: the connect stage
 * enters it where it is nearest and drives it round once. `restore` drives the square corners
 * of the connected route as corner turns (headland/corners.ts).
 */
import type { HeadlandStyle } from '../request/normalizeRequest.js';
import type { LocalSegment, Piece } from '../turns/path.js';
import { makeLoop } from '../turns/connectorRings.js';
import { passToFlat } from './generateHeadlands.js';
import type { HeadlandPass, Headlands } from './generateHeadlands.js';
import { insertCornerTurns, shapeCorners } from './corners.js';
import { loopCorners } from './cornerLoops.js';
import { Region } from '../geometry/region.js';
import { sameRingAs } from '../geometry/swaths.js';
import type { PathsD } from '../geometry/clipper.js';
import type { TurnOptions } from '../turns/types.js';

export type { HeadlandStyle } from '../request/normalizeRequest.js';

/** Square corners kept on the passes and what is needed to drive them as corner turns. */
export interface CornerTurns {
  squareCorners: { x: number; y: number }[];
  region: Region;
  turnOptions: TurnOptions;
}

/**
 * Applies `headland.corners` to the passes (rounded: arcs of radius R; square: kept where a corner
 * turn fits, else rounded). Without a corner style the passes are as the offset made them, but for
 * a machine of at least 2R + 2 m width the outermost full pass drives the field's convex corners
 * as corner loops (headland/cornerLoops.ts).
 */
export function shapeHeadlandCorners(
  headlands: Headlands,
  style: HeadlandStyle,
  field: PathsD,
  turnOptions: TurnOptions,
  widthMeters: number,
): { headlands: Headlands; cornerTurns?: CornerTurns; roundedCount: number; cornerLoops: number } {
  if (headlands.passes.length === 0) return { headlands, roundedCount: 0, cornerLoops: 0 };
  if (!style.corners) {
    if (style.mode !== 'full') return { headlands, roundedCount: 0, cornerLoops: 0 };
    const looped = loopCorners(headlands.passes, field, widthMeters, turnOptions.turnRadiusMeters);
    return {
      headlands: looped.loops > 0 ? { ...headlands, passes: looped.passes } : headlands,
      roundedCount: 0,
      cornerLoops: looped.loops,
    };
  }
  const region = new Region(field);
  const r = shapeCorners(headlands.passes, style.corners, turnOptions.turnRadiusMeters, region, turnOptions);
  return {
    headlands: { ...headlands, passes: r.passes },
    roundedCount: r.roundedCount,
    cornerLoops: 0,
    ...(r.squareCorners.length > 0 ? { cornerTurns: { squareCorners: r.squareCorners, region, turnOptions } } : {}),
  };
}

export interface HeadlandRoutePieces {
  /** Loop pieces in the order given. */
  pieces: Piece[];
  /** The connected route with the square corners driven as corner turns. */
  restore(segments: LocalSegment[]): LocalSegment[];
}

/** Route pieces for the headland passes, in the order given (`order` lists passes of `passes`). */
export function headlandRoutePieces(
  passes: HeadlandPass[],
  order: HeadlandPass[],
  cornerTurns?: CornerTurns,
): HeadlandRoutePieces {
  const pieces: Piece[] = [];
  for (const p of order) {
    const loop = makeLoop(passToFlat(p), Infinity);
    // the pass the tracks stage swept (tracks/strips.ts): the route drives this ring
    sameRingAs(loop.xy, passToFlat(p));
    pieces.push({ kind: 'headland', type: p.type, headlandIndex: passes.indexOf(p), loop });
  }
  return {
    pieces,
    restore(segments) {
      return cornerTurns
        ? insertCornerTurns(segments, cornerTurns.squareCorners, cornerTurns.region, cornerTurns.turnOptions)
        : segments;
    },
  };
}
