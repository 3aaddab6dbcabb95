/**
 * Time in the planner: a deterministic work budget, the wall clock as the limit of the call.
 *
 * - The work budget: the ordering is bounded by counted work, not by a clock — moves of the
 *   optimizer (kicks of its local search), rounds of re-ordering on the real connectors and the
 *   route stage's geometric checks (`WORK_UNITS_PER_SECOND`), all derived from maxOptimizerTime at
 *   a fixed rate (`workBudget`, docs/route-orders.md). The same
 *   request gives the same plan, byte for byte, on an idle or a loaded machine — as long as the
 *   machine does that work within the limit below.
 * - The wall clock (`runtime.now`, else `performance.now()` — the one clock core reads) limits the
 *   whole call to SAFETY_CAP_FACTOR × maxOptimizerTime, counted from its start. The cap fires a
 *   little before that (FINISH_SHARE, at most FINISH_MAX_MILLISECONDS) so that what follows fits:
 *   past it, no optional work starts or goes on — the optimizer's kicks and the ordering on the
 *   real connectors stop where they are, the second planning (cells with headings of their own,
 *   choice/planVariants.ts) and the planning without strip passes (the same)
 *   are not made — and what every plan needs takes the cheap way (`SafetyCap.hurry`): no headings
 *   per cell (read before each cell is weighed), no strip passes, joins not made yet by a turn or a chain of waypoints
 * only (no   headland traversal but on rings built before, no search; what they do not fit drawn straight, warned), no
 * join refitted,   the coverage metric on at most 2,000 vertices of curved passes (metrics/measureRoute.ts), the
 * unworked patches not   listed, the narrow corridors not looked for (output/planExtras.ts). The plan says what was cut
 * in a warning `time-limit` (`capCall`, `addTimeLimitWarning`);   only such a plan may depend on the machine.
 */
import type { PlanWarning } from './types.js';

/**
 * The wall-clock cap is this many times maxOptimizerTime: the limit is a limit on the call. The
 * work budget is sized so that an idle machine spends well under maxOptimizerTime on it (the
 * corpus: docs/route-orders.md), so the cap fires on fields whose fixed work alone is slow, or on
 * a machine far slower or busier than that — and only then may a plan depend on the load.
 */
export const SAFETY_CAP_FACTOR = 1;

/**
 * What of the cap is kept for what every plan needs: the optional work stops, and the cheap way is
 * taken (`SafetyCap.hurry`), FINISH_SHARE of the cap before it, at most FINISH_MAX_MILLISECONDS,
 * so that connecting and measuring the route fit in the rest (maxOptimizerTime 1: at 0.6 s; the
 * default 10: at 9 s).
 */
export const FINISH_SHARE = 0.4;
export const FINISH_MAX_MILLISECONDS = 1000;

/** Optimizer kicks (perturbation + descent of the local search) per second of maxOptimizerTime. */
export const KICKS_PER_SECOND = 400;
/**
 * The route stage's counted work per second of maxOptimizerTime: elementary geometric checks in the
 * field's region (a point located, a segment tested, each point of a polyline tested: Region.work),
 * which is where joining tracks spends its time. The ordering on the real connectors, refitting the
 * joins nothing fits and the searches inside them are bounded on this work clock (route/budget.ts),
 * not on the wall clock; docs/route-orders.md gives the rate's calibration.
 */
export const WORK_UNITS_PER_SECOND = 1_000_000;
/** Rounds of re-ordering on the real connectors per second of maxOptimizerTime (at least 1, at most 3). */
export const ROUNDS_PER_SECOND = 0.3;
const MAX_ROUNDS = 3;

export interface WorkBudget {
  /** Kicks the optimizer may make. */
  kicks: number;
  /** Rounds of re-ordering on the real connectors. */
  rounds: number;
}

/** The work maxOptimizerTime buys (each planning of a call gets it in full). */
export function workBudget(maxOptimizerTimeSeconds: number): WorkBudget {
  const s = Math.max(0, maxOptimizerTimeSeconds);
  return {
    kicks: Math.round(KICKS_PER_SECOND * s),
    rounds: Math.min(MAX_ROUNDS, Math.max(1, Math.round(ROUNDS_PER_SECOND * s))),
  };
}

export type Clock = () => number;

/** `performance.now()` where the platform has it (Node, browsers, workers); undefined elsewhere. */
export function defaultClock(): Clock | undefined {
  const p = (globalThis as { performance?: { now?: () => number } }).performance;
  return p && typeof p.now === 'function' ? () => p.now!() : undefined;
}

export interface SafetyCap {
  /** Whether the wall clock has passed the limit (once true, stays true). */
  over(): boolean;
  /** Whether `over()` has ever answered true. */
  fired(): boolean;
  /** Set when the cap kept the field from being planned a second time with one heading in every cell. */
  secondSkipped: boolean;
  /** Set when the cap kept the field from being planned again without strip passes. */
  stripsSkipped?: boolean;
  /** Set when the cap kept the field from being planned with other headland depths than the turns need. */
  headlandsSkipped?: boolean;
  /**
   * Past the cap: true, and `what` (the work cut, said in the `time-limit` warning) recorded; the
   * caller then takes the cheap way. Before it: false, nothing recorded. Without `what` (a cut that
   * says itself, e.g. `coverage-approximate`): only whether the cap has passed. `late`: past the
   * call's last moment for such work instead (`lateAt`, later than the cap): a unit of work that
   * even its cheap way might not finish in time (a join, whose cheap way still tries dozens of
   * turns) is then not started.
   */
  hurry(what?: string, late?: boolean): boolean;
  /** What `hurry` cut, in the order first cut. */
  readonly cut: readonly string[];
}

/**
 * The wall-clock cap of one call: `limitMilliseconds` from now on `clock`; `lateAt` (default: the
 * same) from now, the last moment for the work `hurry(what, true)` asks about.
 */
export function safetyCap(clock: Clock, limitMilliseconds: number, lateMilliseconds = limitMilliseconds): SafetyCap {
  const start = clock();
  const deadline = start + limitMilliseconds;
  const lateAt = start + Math.max(limitMilliseconds, lateMilliseconds);
  let fired = false,
    late = false;
  const cut: string[] = [];
  const over = (): boolean => fired || (fired = clock() >= deadline);
  return {
    over,
    fired: () => fired,
    secondSkipped: false,
    hurry: (what, pastLate) => {
      if (!over()) return false;
      if (pastLate && !(late ||= clock() >= lateAt)) return false;
      if (what !== undefined && !cut.includes(what)) cut.push(what);
      return true;
    },
    cut,
  };
}

/**
 * The most wall time a call may take: max(LATE_LIMIT_FACTOR × maxOptimizerTime, maxOptimizerTime +
 * LATE_LIMIT_EXTRA_MILLISECONDS). Work past the cap that could still overrun it (the joins of a
 * route whose every join fails, each trying dozens of turns in the cheap way) stops at this bound
 * less the same reserve the cap keeps (`hurry(what, true)`).
 */
export const LATE_LIMIT_FACTOR = 2;
export const LATE_LIMIT_EXTRA_MILLISECONDS = 1000;
/** The late moment keeps at least this share of the call's most wall time for what follows (metrics, output). */
export const LATE_RESERVE_SHARE = 0.4;

/**
 * What every plan needs after the cap grows with the field: its joins, the coverage metric and the
 * output all scale with the tracks' length. The cap keeps at least this many milliseconds per
 * kilometre of tracks (field area / working width) for it: the 1,000 ha scale field at W 3 m (3,340 km,
 * 1,955 tracks) spent about 2.4 s of CPU after the cap on a shared machine — re-planned with a wider
 * headland, joined, measured, output — so the cap fires at the start of a 2 s call there rather
 * than at 1.2 s, and the cell headings and strip passes it would have weighed first are cut.
 */
export const FINISH_MILLISECONDS_PER_TRACK_KILOMETER = 0.6;
/** However large the field, the cap fires no earlier than this share of the limit (a frozen clock never reaches it). */
export const MIN_CAP_SHARE = 0.1;

/**
 * Kilometres of tracks a field of these lon/lat polygons (shells, holes) gives at `widthMeters`:
 * its area (an equirectangular estimate, ample for sizing the cap) over the width.
 */
export function trackKilometres(
  polygons: readonly (readonly (readonly (readonly number[])[])[])[],
  widthMeters: number,
): number {
  let area = 0;
  for (const rings of polygons) {
    for (const ring of rings) {
      if (ring.length < 3) continue;
      const k = 111_320 * Math.cos((ring[0][1] * Math.PI) / 180);
      let a2 = 0;
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
        a2 += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
      area += (a2 / 2) * k * 111_320;
    }
  }
  return widthMeters > 0 ? Math.abs(area) / widthMeters / 1000 : 0;
}

/**
 * The cap of one `planRoute` call: SAFETY_CAP_FACTOR × maxOptimizerTime on the caller's clock,
 * else on `performance.now()`; none where the platform has no clock. It fires the larger of the
 * fixed reserve (FINISH_SHARE, at most FINISH_MAX_MILLISECONDS) and the field's
 * (FINISH_MILLISECONDS_PER_TRACK_KILOMETER × `trackKm`) before the limit, not before MIN_CAP_SHARE of it;
 * its late moment keeps that reserve, at least LATE_RESERVE_SHARE, of the call's most wall time (LATE_LIMIT_FACTOR).
 */
export function capCall(now: Clock | undefined, maxOptimizerTimeSeconds: number, trackKm = 0): SafetyCap | undefined {
  const clock = now ?? defaultClock();
  const limit = SAFETY_CAP_FACTOR * maxOptimizerTimeSeconds * 1000;
  const reserve = Math.max(
    Math.min(FINISH_SHARE * limit, FINISH_MAX_MILLISECONDS),
    FINISH_MILLISECONDS_PER_TRACK_KILOMETER * trackKm,
  );
  const capAt = Math.max(MIN_CAP_SHARE * limit, limit - reserve);
  const most = Math.max(LATE_LIMIT_FACTOR * limit, limit + LATE_LIMIT_EXTRA_MILLISECONDS);
  return clock ? safetyCap(clock, capAt, most - Math.max(reserve, LATE_RESERVE_SHARE * most)) : undefined;
}

/** Past the cap, the plan says what the cap cut short in a warning `time-limit`. */
export function addTimeLimitWarning(plan: { warnings: PlanWarning[] }, cap: SafetyCap | undefined): void {
  if (!cap?.fired()) return;
  const cut = [
    'the ordering on the real connectors stopped where it was, as did the optimizer',
    ...(cap.secondSkipped ? ['the field was not planned a second time with one heading in every cell'] : []),
    ...(cap.stripsSkipped ? ['the field was not planned again without strip passes'] : []),
    ...(cap.headlandsSkipped
      ? ['the field was not planned again with fewer headland passes than its turns need (or as many as asked)']
      : []),
    ...cap.cut,
  ];
  const rest =
    cap.cut.length > 0
      ? 'the rest of the route was connected and measured in full'
      : 'the route was then connected and measured in full';
  plan.warnings.push({
    code: 'time-limit',
    message:
      `maxOptimizerTime passed on the wall clock before the work budget was spent: ${cut.join('; ')}; ` +
      `${rest}. This plan may differ from one made on a less loaded machine.`,
  });
}
