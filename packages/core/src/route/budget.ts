/**
 * The route stage's budget, built once per planning: the ordering's share of maxOptimizerTime
 * (with a clock) and the budget of refitting joins nothing fits (shortened tracks, a thorough
 * search). With a clock, refitting may take a fifth of maxOptimizerTime (at least 1 s) from its
 * first use; without one, a number of joins. What the budget does not reach stays
 * `turn-not-fitted`, reported.
 */
import type { ShorteningBudget } from './connectTracks.js';

const REFIT_MIN_MILLISECONDS = 1000;
const REFIT_SHARE_OF_LIMIT = 0.2;
const MAX_SHORTENED_JOINS = 24;

export interface RouteBudget {
  /** The caller's clock, ms; absent = no time limit, counted budgets only. */
  now?: () => number;
  /** When the ordering started (0 without a clock). */
  startedAt: number;
  /** maxOptimizerTime of the whole call, ms. */
  fullLimitMilliseconds: number;
  /** What this planning may spend ordering, ms. */
  limitMilliseconds: number;
  /** The budget of shortening tracks at joins nothing fits. */
  shortening: ShorteningBudget;
  /** Starts the refit clock on first use (no-op without a clock or once started). */
  startRefitClock(): void;
  /** Whether the refit budget is used up. */
  refitExhausted(): boolean;
}

/**
 * maxOptimizerTime bounds the ordering of the whole `planRoute` call: a planning followed by a
 * second one (cells with headings of their own) takes half; the second takes what is left.
 */
export function routeBudget(maxOptimizerTimeSeconds: number, now: (() => number) | undefined, secondFollows: boolean, spentMilliseconds: number): RouteBudget {
  const startedAt = now ? now() : 0;
  const fullLimitMilliseconds = maxOptimizerTimeSeconds * 1000;
  const limitMilliseconds = Math.max(0, (secondFollows ? fullLimitMilliseconds / 2 : fullLimitMilliseconds) - spentMilliseconds);
  const refitMilliseconds = Math.max(REFIT_MIN_MILLISECONDS, REFIT_SHARE_OF_LIMIT * fullLimitMilliseconds);
  let refitUntil: number | undefined;
  let joinsLeft = MAX_SHORTENED_JOINS;
  const refitExhausted = (): boolean => (now ? refitUntil !== undefined && now() >= refitUntil : joinsLeft <= 0);
  const startRefitClock = (): void => {
    if (now) refitUntil ??= now() + refitMilliseconds;
  };
  const shortening: ShorteningBudget = {
    start: () => {
      startRefitClock();
      if (refitExhausted()) return false;
      joinsLeft--;
      return true;
    },
    over: () => now !== undefined && refitExhausted(),
  };
  return { ...(now ? { now } : {}), startedAt, fullLimitMilliseconds, limitMilliseconds, shortening, startRefitClock, refitExhausted };
}
