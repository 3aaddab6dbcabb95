/**
 * A variant: one set of the settings a call may be planned with, as data. The call's variants
 * (choice/planVariants.ts) are planned one by one through the same straight pipeline
 * (choice/planVariant.ts) and the one with the least objective (objective.ts) is kept.
 */
import type { PlanChoiceVariant } from '../types.js';
import type { LeftOverGround, StripMode } from '../tracks/planTracks.js';

/** Why a variant is tried. */
export type VariantReason =
  /** The request as asked. */
  | 'asked'
  /** The exterior headland the forward turns need (tracks/widenHeadland.ts). */
  | 'turns-need'
  /** Halfway between the passes asked and those the turns need: the widened plan left passes out. */
  | 'halfway'
  /** The passes asked after all, for a field of few tracks or one the passes would fill. */
  | 'passes-asked'
  /** One heading in every cell, where cells got headings of their own. */
  | 'one-heading'
  /** No strip passes, where the route's faults may come from them. */
  | 'no-strips'
  /** Strips driven along their centre line (tracks/centreLine.ts), where the planning has strip passes. */
  | 'centre-lines'
  /** The best planning again, with passes over the ground its route left (tracks/planTracks.ts `leftOver`). */
  | 'left-over'
  /** The best planning again, its headland passes driven between two of its tracks (route/passesBetween.ts). */
  | 'passes-between'
  /** The centre-line planning again, its tours a bend cut started the other way round (tracks/centreLineTour.ts). */
  | 'tours-turned';

export interface Variant {
  /** Exterior headland passes planned. */
  headlandPasses: number;
  strips: StripMode;
  /** Whether cells may take headings of their own. */
  cellHeadings: boolean;
  /** Whether strips may be driven along their centre line. */
  centreLines: boolean;
  /** The ground another planning of the same passes left: its strips kept, the rest given passes. */
  leftOver?: LeftOverGround;
  /** Whether centre-line tours that start on a branch with no dead end start it the other way round. */
  toursTurned?: boolean;
  /** Whether the headland passes may be driven between two of the tracks (route/passesBetween.ts). */
  passesBetween?: boolean;
  /** Headland passes (indices) the route leaves out from the start: those another planning's route left out. */
  withoutPasses?: readonly number[];
  why: VariantReason;
  /**
   * Ordering time the per-cell planning of the same passes and strips spent, ms (the one-heading
   * one gets the rest).
   */
  orderingSpentMilliseconds: number;
}

/** How a variant ended. */
export type VariantStatus =
  /** Planned, and kept. */
  | 'kept'
  /** Planned; another was better. */
  | 'planned'
  /** Routed; its route alone costs more than the kept plan (its coverage never measured). */
  | 'bound'
  /** Not routed: its tracks showed the turns need a deeper headland (the widened variants replace it). */
  | 'replaced';

/** What the plan reports of a variant tried (`plan.choice.variants`). */
export type VariantReport = PlanChoiceVariant;
