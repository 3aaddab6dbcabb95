/**
 * The typed cache of one `planRoute` call: the work that depends on the field alone (prepared
 * field, simplified boundary) and, per number of exterior headland passes, what every planning
 * with that many passes shares (headlands, the route's field, the connections made: sharedWork.ts).
 * Plannings read it; none of them changes the call or another planning's settings.
 */
import type { SharedWork } from '../sharedWork.js';
import { createConnectionMemo } from '../route/connectionMemo.js';
import type { TurnHeadland } from '../tracks/widenHeadland.js';

export interface PlanCache {
  /** The headland passes the request asked for: its entry is made first and holds the field-only work. */
  readonly askedPasses: number;
  readonly byPasses: Map<number, SharedWork>;
}

export function createPlanCache(askedPasses: number): PlanCache {
  return { askedPasses, byPasses: new Map([[askedPasses, { memo: createConnectionMemo() }]]) };
}

/** The work shared by the plannings with the passes asked. */
export function askedWork(cache: PlanCache): SharedWork {
  return cache.byPasses.get(cache.askedPasses)!;
}

/**
 * The work shared by the plannings with `passes` exterior passes, made on first ask from the
 * field-only work of the passes asked, with `turnHeadland` as the headland the turns need.
 */
export function workFor(cache: PlanCache, passes: number, turnHeadland: TurnHeadland): SharedWork {
  let work = cache.byPasses.get(passes);
  if (!work) {
    const asked = askedWork(cache);
    work = {
      memo: createConnectionMemo(),
      ...(asked.prepared ? { prepared: asked.prepared } : {}),
      ...(asked.simple ? { simple: asked.simple } : {}),
      turnHeadland,
    };
    cache.byPasses.set(passes, work);
  }
  return work;
}
