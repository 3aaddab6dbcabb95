/**
 * The route's vocabulary in the local frame, shared by the stages that build it: the working
 * pieces to drive (tracks, headland passes as loops) and the segments driven (passes, turns,
 * connectors), with the warnings raised on the way.
 */
import type { RouteSegmentType, TurnType } from '../types.js';
import type { LoopPath } from './connectorRings.js';

export interface LocalSegment {
  type: RouteSegmentType;
  /** Flat xy, local frame. */
  xy: Float64Array;
  turnType?: TurnType;
  trackIndex?: number;
  headlandIndex?: number;
  /** Connector kind: 'direct' | 'headlandTraversal' | 'unfitted'. */
  connector?: string;
  reverse?: boolean;
}

export interface LocalWarning {
  code: string;
  message: string;
  x?: number;
  y?: number;
  /**
   * Made by the field's shape alone, whatever the order or the tracks are (a headland pass no forward path can join and
   * leave).
   */
  shapeOnly?: true;
  /**
   * A strip pass (tracks/strips.ts) the route leaves out on its own account: its strip is left as a plan without strip
   * passes leaves it.
   */
  stripPass?: true;
  /** The headland pass (index in the planning's passes) a `headland-pass-skipped` leaves out. */
  headlandIndex?: number;
}

/** A working piece to drive. Tracks carry their (mutable) ends; headland passes a loop. */
export type Piece =
  | {
      kind: 'track';
      trackIndex: number;
      line: number;
      cell: number;
      sx: number;
      sy: number;
      ex: number;
      ey: number;
      xy?: Float64Array;
    }
  | { kind: 'headland'; type: 'ExteriorHeadland' | 'InteriorHeadland'; headlandIndex: number; loop: LoopPath };
