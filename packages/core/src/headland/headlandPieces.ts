/**
 * Headland passes as route pieces, and the request's headland style.
 *
 * Every pass (full perimeter or turn-only) is a closed ring, a loop piece: the connect stage
 * enters it where it is nearest and drives it round once. `restore` drives the square corners
 * of the connected route as corner turns (headland/corners.ts).
 */
import { PlanError } from '../errors.js';
import type { PathPlanRequest } from '../types.js';
import type { LocalSegment, Piece } from '../turns/path.js';
import { makeLoop } from '../turns/connectorRings.js';
import { passToFlat } from './generateHeadlands.js';
import type { HeadlandPass, Headlands } from './generateHeadlands.js';
import { insertCornerTurns, shapeCorners } from './corners.js';
import { Region } from '../geometry/region.js';
import type { PathsD } from '../geometry/clipper.js';
import type { TurnOptions } from '../turns/types.js';

export type HeadlandMode = 'full' | 'turnOnly' | 'none';
export type HeadlandCorners = 'rounded' | 'square';

export interface HeadlandStyle {
  mode: HeadlandMode;
  /** Absent = the offset's own corners (as before the option existed). */
  corners?: HeadlandCorners;
}

/** `headland.mode` and `headland.corners` of a request, checked (unknown values are an `invalid-request`). */
export function readHeadlandStyle(request: PathPlanRequest): HeadlandStyle {
  const h = request.headland as { mode?: unknown; corners?: unknown } | undefined;
  const mode = h?.mode ?? 'full';
  if (mode !== 'full' && mode !== 'turnOnly' && mode !== 'none')
    throw new PlanError('invalid-request', `headland.mode must be "full", "turnOnly" or "none" (got ${JSON.stringify(mode)})`, [{ path: 'headland.mode', message: 'unknown headland mode' }]);
  const corners = h?.corners;
  if (corners !== undefined && corners !== 'rounded' && corners !== 'square')
    throw new PlanError('invalid-request', `headland.corners must be "rounded" or "square" (got ${JSON.stringify(corners)})`, [{ path: 'headland.corners', message: 'unknown corner style' }]);
  return corners ? { mode, corners } : { mode };
}

/** Square corners kept on the passes and what is needed to drive them as corner turns. */
export interface CornerTurns {
  squareCorners: { x: number; y: number }[];
  region: Region;
  turnOptions: TurnOptions;
}

/**
 * Applies `headland.corners` to the passes (rounded: arcs of radius R; square: kept where a corner
 * turn fits, else rounded). Without a corner style the passes are returned as the offset made them.
 */
export function shapeHeadlandCorners(headlands: Headlands, style: HeadlandStyle, field: PathsD, turnOptions: TurnOptions): { headlands: Headlands; cornerTurns?: CornerTurns; roundedCount: number } {
  if (!style.corners || headlands.passes.length === 0) return { headlands, roundedCount: 0 };
  const region = new Region(field);
  const r = shapeCorners(headlands.passes, style.corners, turnOptions.turnRadiusMeters, region, turnOptions);
  return {
    headlands: { ...headlands, passes: r.passes },
    roundedCount: r.roundedCount,
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
export function headlandRoutePieces(passes: HeadlandPass[], order: HeadlandPass[], cornerTurns?: CornerTurns): HeadlandRoutePieces {
  const pieces: Piece[] = [];
  for (const p of order) {
    pieces.push({ kind: 'headland', type: p.type, headlandIndex: passes.indexOf(p), loop: makeLoop(passToFlat(p), Infinity) });
  }
  return {
    pieces,
    restore(segments) {
      return cornerTurns ? insertCornerTurns(segments, cornerTurns.squareCorners, cornerTurns.region, cornerTurns.turnOptions) : segments;
    },
  };
}
