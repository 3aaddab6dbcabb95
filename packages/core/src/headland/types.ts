/** The headland stage's data: the passes round the field and what they leave for tracks. */
import type { PathD, PathsD } from '../geometry/clipper.js';

export interface HeadlandPass {
  type: 'ExteriorHeadland' | 'InteriorHeadland';
  /** 1 = outermost. */
  passIndex: number;
  /** Closed ring (first point not repeated), local frame, in driving direction. */
  ring: PathD;
}

export interface Headlands {
  passes: HeadlandPass[];
  /** Area left for tracks: shells counter-clockwise, holes clockwise. */
  mainland: PathsD;
  /** Turn-only headlands: the band at the track ends the passes work (the plan's `headlandAreas`). */
  band?: PathsD;
}
