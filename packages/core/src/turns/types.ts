import type { SmoothingStrategyType, TurnType } from '../types.js';

/** One piece of a turn: a line, an arc or a clothoid, driven forward or backward. */
export interface TurnSegment {
  /** Arc length of the piece, meters (> 0). */
  lengthMeters: number;
  /** Signed steering curvature at the start of the piece, 1/m (+ = left). */
  startCurvaturePerMeter: number;
  /** Signed steering curvature at the end of the piece, 1/m; differs from the start on clothoids. */
  endCurvaturePerMeter: number;
  /** True when this piece is driven backwards. */
  reverse: boolean;
}

/** A machine pose in the local metric frame: position in meters, heading in radians CCW from +x. */
export interface Pose {
  x: number;
  y: number;
  headingRadians: number;
}

export interface TurnOptions {
  /** Minimum turning radius, meters. */
  turnRadiusMeters: number;
  /** Curvature-rate (steering-rate) limit, 1/m²; absent or Infinity = curvature may jump. */
  maxCurvatureRatePerSquareMeter?: number;
  /** Allow reversing (fishtail, Reeds-Shepp). Default false. */
  reverseAllowed?: boolean;
  /** None / Arcs / Clothoids. Default: Clothoids when a curvature-rate limit is given, else Arcs. */
  smoothing?: SmoothingStrategyType;
  /** Maximum distance between output points, meters (default 0.5). */
  sampleStepMeters?: number;
}

/** A curvature-limited manoeuvre from one pose to another. */
export interface TurnPath {
  turnType: TurnType;
  lengthMeters: number;
  /** Dense polyline x0,y0,x1,y1,… from the start pose to the end pose, a point at least every sampleStepMeters. */
  points: Float64Array;
  /** Point indices where the driving direction flips (reverse turns); empty for forward-only paths. */
  cusps: number[];
  /** Direction of the first piece: false = forward. Pieces alternate at each cusp. */
  startsReversed: boolean;
  /** Word of the manoeuvre, e.g. 'LSL', 'RLR', 'LS-L' (S- = straight in reverse), 'L+R-L+'. */
  word?: string;
  /** The exact pieces (lines, arcs, clothoids) the points were sampled from. */
  segments?: TurnSegment[];
}
