/**
 * The route stage's budget, built once per planning on a clock in milliseconds: in `planRoute` the
 * work clock (counted geometric work at `WORK_UNITS_PER_SECOND`, route/routeTracks.ts: the same on
 * any machine), or a caller's clock (lower-level calls, tests). The ordering's share of
 * maxOptimizerTime, and the budget of refitting joins nothing fits (shortened tracks, a thorough
 * search): a fifth of maxOptimizerTime (at least 1 s) from its first use. What the budget does not
 * reach stays `turn-not-fitted`, reported.
 */
import type { ShorteningBudget } from './connectTracks.js';

const REFIT_MIN_MILLISECONDS = 1000;
const REFIT_SHARE_OF_LIMIT = 0.2;

export interface RouteBudget {
  /** The clock the budget is kept on, ms. */
  now: () => number;
  /** When the ordering started. */
  startedAt: number;
  /** maxOptimizerTime of the whole call, ms. */
  fullLimitMilliseconds: number;
  /** What this planning may spend ordering, ms. */
  limitMilliseconds: number;
  /** The budget of shortening tracks at joins nothing fits. */
  shortening: ShorteningBudget;
  /** Starts the refit clock on first use (no-op once started). */
  startRefitClock(): void;
  /** Whether the refit budget is used up. */
  refitExhausted(): boolean;
}

/**
 * maxOptimizerTime bounds the ordering of the whole `planRoute` call: a planning followed by a
 * second one (cells with headings of their own) takes half; what earlier plannings spent
 * (`spentMilliseconds`) is gone.
 */
export function routeBudget(
  maxOptimizerTimeSeconds: number,
  now: () => number,
  secondFollows: boolean,
  spentMilliseconds: number,
): RouteBudget {
  const startedAt = now();
  const fullLimitMilliseconds = maxOptimizerTimeSeconds * 1000;
  const limitMilliseconds = Math.max(
    0,
    (secondFollows ? fullLimitMilliseconds / 2 : fullLimitMilliseconds) - spentMilliseconds,
  );
  const refitMilliseconds = Math.max(REFIT_MIN_MILLISECONDS, REFIT_SHARE_OF_LIMIT * fullLimitMilliseconds);
  let refitUntil: number | undefined;
  const refitExhausted = (): boolean => refitUntil !== undefined && now() >= refitUntil;
  const startRefitClock = (): void => {
    refitUntil ??= now() + refitMilliseconds;
  };
  const shortening: ShorteningBudget = {
    start: () => {
      startRefitClock();
      return !refitExhausted();
    },
    over: refitExhausted,
  };
  return { now, startedAt, fullLimitMilliseconds, limitMilliseconds, shortening, startRefitClock, refitExhausted };
}
