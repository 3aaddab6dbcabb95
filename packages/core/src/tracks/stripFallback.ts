/**
 * The strip fallback: a plan with strip passes (tracks/strips.ts) whose route left out a pass or a
 * track, or has a join nothing fits, where that may come from its strip passes, is planned again
 * without them; the one with fewer joins the machine cannot drive is kept, then the one with fewer faults,
 * on a tie the one that leaves less unworked.
 * Faults are read off the routes as joined: only a tie measures the two plannings' coverage.
 */
import type { SafetyCap } from '../clock.js';
import type { Plan } from '../types.js';
import type { Planning } from './cellHeadingChoice.js';
import { isPlanError } from '../errors.js';
import type { LocalSegment, LocalWarning } from '../turns/path.js';
import type { Track } from './generateTracks.js';
import type { StripMode } from './planTracks.js';
import { isRouteFault, routeFaults } from './routeFaults.js';

/** One planning of the field with strip passes as `strips` says (its `stripsFaulted`: whether its faults may come from them, `stripFaults`). */
export type PlanWithStrips = (strips: StripMode) => Planning;

/**
 * The plan with strip passes, or the one without them where that has fewer route faults. Past the
 * call's wall-clock cap (clock.ts) the plan with them is kept as it is (`cap.stripsSkipped`).
 */
export function planWithStripFallback(planWith: PlanWithStrips, cap?: SafetyCap): Plan {
  const withStrips = planWith('all');
  if (!withStrips.stripsFaulted) return withStrips.plan;
  if (cap?.over()) {
    cap.stripsSkipped = true;
    return withStrips.plan;
  }
  // a field narrower than the machine has nothing to drive without them: one pass per strip then
  const without = withoutStrips(planWith) ?? planWith('single');
  // A join the machine cannot drive weighs more than any number of parts left out (said so).
  const a = routeFaults(withStrips.routeWarnings),
    b = routeFaults(without.routeWarnings);
  const better =
    b.undrivable !== a.undrivable
      ? b.undrivable < a.undrivable
      : b.all !== a.all
        ? b.all < a.all
        : without.uncoveredRatio() < withStrips.uncoveredRatio();
  return (better ? without : withStrips).plan;
}

/** The planning without strip passes, or undefined where nothing else is left to drive. */
function withoutStrips(planWith: PlanWithStrips): Planning | undefined {
  try {
    return planWith('none');
  } catch (e) {
    if (isPlanError(e) && e.code === 'no-workable-area') return undefined;
    throw e;
  }
}

/**
 * Whether the route's faults may come from its strip passes (tracks from `firstStrip` on): a join
 * not fitted or a track left out at a strip pass's end or middle, or headland passes left out
 * right after the last track (before the first, with headlands first) when that is a strip pass,
 * unless the field's shape alone leaves them out (`shapeOnly`: no junction a forward path can join
 * and leave, so no planning joins them from a track; all tracks strip passes, one may start the route).
 */
export function stripFaults(
  warnings: LocalWarning[],
  segments: LocalSegment[],
  tracks: Track[],
  firstStrip: number,
  headlandsFirst: boolean,
): boolean {
  const near = (x: number | undefined, y: number | undefined): boolean =>
    x !== undefined &&
    y !== undefined &&
    tracks.slice(firstStrip).some((t) =>
      [
        [t.x0, t.y0],
        [t.x1, t.y1],
        [(t.x0 + t.x1) / 2, (t.y0 + t.y1) / 2],
      ].some(([px, py]) => Math.hypot(px - x, py - y) < 2),
    );
  // a join not fitted names where it goes to in its message: "to (x, y) heading"
  const goal = (wn: LocalWarning): boolean => {
    const m = / to \((-?[\d.]+), (-?[\d.]+)\) heading/.exec(wn.message);
    return m !== null && near(Number(m[1]), Number(m[2]));
  };
  if (warnings.some((wn) => wn.code !== 'headland-pass-skipped' && isRouteFault(wn) && (near(wn.x, wn.y) || goal(wn))))
    return true;
  // A pass the field's shape leaves out is left out with or without them, unless nothing but
  // headland passes is left without them: the route then starts on one, joined from nowhere.
  if (!warnings.some((wn) => wn.code === 'headland-pass-skipped' && (!wn.shapeOnly || firstStrip === 0))) return false;
  const driven = segments.filter((sg) => sg.type === 'Track');
  const next = headlandsFirst ? driven[0] : driven[driven.length - 1];
  return next?.trackIndex !== undefined && next.trackIndex >= firstStrip;
}
