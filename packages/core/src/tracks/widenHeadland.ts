/**
 * The planner's hook for the headland the turns need (headlandForTurns.ts): where the request's
 * exterior headland is shallower than the forward skip turns reach, the field is planned with as
 * many passes as they need and a `headland-widened` warning gives the figures (not for a shortfall
 * of a few decimetres: `HEADLAND_SHORTFALL_TOLERANCE_METERS`). Without it the
 * turns would not fit: the tracks are shortened at every end (a strip left unworked) or joined by
 * loops of several times a U turn's length. With `headland.fitTurns: false` the passes asked are
 * kept and a `headland-too-narrow` warning says how many the turns need. Machines that may
 * reverse turn in less (K-turns) and keep the passes asked.
 */
import type { PathsD } from '../geometry/clipper.js';
import { headlandMainland } from '../headland/generateHeadlands.js';
import type { PlanSettings } from '../request/normalizeRequest.js';
import type { LocalWarning } from '../turns/path.js';
import type { Track } from './generateTracks.js';
import { HEADLAND_SHORTFALL_TOLERANCE_METERS, headlandNeedForTurns } from './headlandForTurns.js';

export interface TurnHeadland {
  /** Whether the plan uses `passes` (false: the request keeps its own, `headland.fitTurns: false`). */
  widened: boolean;
  /** Passes asked for. */
  asked: number;
  /** Passes the turns need. */
  passes: number;
  /**
   * Passes planned, where fewer than `passes` (the inner ones of those could not all be joined): the
   * halfway variant (choice/planVariants.ts).
   */
  planned?: number;
  /** Depth the turns need, meters. */
  depthMeters: number;
  skipLines: number;
  /** Fewer track lines than a U turn spans (headlandForTurns.ts): the depth of a U between level ends. */
  fewTracks: boolean;
  /** That many passes leave no ground for tracks: the field is driven in headland passes only. */
  roundOnly: boolean;
  /** A track end where the turns need that depth (local meters). */
  x: number;
  y: number;
}

/**
 * The passes the turns need when that is more than `input.headlandPasses` (null: they fit, or
 * need at most HEADLAND_SHORTFALL_TOLERANCE_METERS more depth than those passes give).
 * Widened only for full exterior headlands of straight tracks, machines that do not reverse, at
 * least one pass asked and `fitHeadlandToTurns` — also where that many passes leave no ground for
 * tracks (a strip narrower than twice the depth: driven round in headland passes, not in tracks
 * joined by loops).
 */
export function turnHeadlandPasses(input: PlanSettings, tracks: readonly Track[], field: PathsD): TurnHeadland | null {
  const m = input.machine,
    smoothing = input.smoothingStrategy;
  if (input.headland.mode !== 'full' || m.reverseAllowed || input.headlandPasses < 1 || tracks.length === 0)
    return null;
  const need = headlandNeedForTurns(tracks, m.widthMeters, {
    turnRadiusMeters: m.turnRadiusMeters,
    ...(m.maxCurvatureRatePerSquareMeter !== undefined
      ? { maxCurvatureRatePerSquareMeter: m.maxCurvatureRatePerSquareMeter }
      : {}),
    ...(smoothing ? { smoothing } : {}),
  });
  if (!need || need.depthMeters <= input.headlandPasses * m.widthMeters + HEADLAND_SHORTFALL_TOLERANCE_METERS + 1e-9)
    return null;
  const widened = input.fitHeadlandToTurns;
  const roundOnly = widened && headlandMainland(field, need.passes, m.widthMeters).length === 0;
  return {
    widened,
    asked: input.headlandPasses,
    passes: need.passes,
    depthMeters: need.depthMeters,
    skipLines: need.skipLines,
    fewTracks: need.joins === 0,
    roundOnly,
    x: need.x,
    y: need.y,
  };
}

/** The warning (widened or too narrow), placed at a track end whose turn needs the depth. */
export function headlandWidenedWarning(t: TurnHeadland, widthMeters: number, turnRadiusMeters: number): LocalWarning {
  return {
    code: t.widened ? 'headland-widened' : 'headland-too-narrow',
    message: headlandMessage(t, widthMeters, turnRadiusMeters),
    x: t.x,
    y: t.y,
  };
}

/** The widened / too-narrow warning's words. */
function headlandMessage(t: TurnHeadland, widthMeters: number, turnRadiusMeters: number): string {
  const m = (v: number): string => `${Math.round(v * 10) / 10} m`;
  const loops = t.fewTracks
    ? '; the field has fewer track lines than that, so its tracks could only be joined by loops'
    : '';
  const need =
    `the turns need a headland ${m(t.depthMeters)} deep (a forward U turn at R ${turnRadiusMeters} m to the ` +
    `track ${t.skipLines} over reaches that far past the track ends${loops}): ${t.passes} headland passes of ` +
    `${widthMeters} m, not the ${t.asked} asked (${m(t.asked * widthMeters)}); `;
  const kept = 'are kept: tracks are shortened where a turn does not fit, or joined by longer manoeuvres';
  if (!t.widened) return `${need}the ${t.asked} ${kept}`;
  const why =
    t.planned !== undefined
      ? ` (with ${t.passes}, headland passes that cannot be joined at R would be left out)`
      : t.roundOnly
        ? ', which leave no ground for tracks: the field is driven in headland passes only'
        : '';
  return `${need}planned with ${t.planned ?? t.passes}${why}`;
}
