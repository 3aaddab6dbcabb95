/**
 * Connections already made in one plan, for `connectTracks` to reuse: `planRoute` plans a field
 * twice when cells got their own headings (most of the two routes' connectors are the same), and
 * route ordering connects the same ends again. A far connection or a headland-pass entry depends
 * only on its two ends, on the field's region, rings and waypoints (shared by the whole plan) and
 * on the failed searches still allowed in that `connectTracks` call (`searchFailuresLeft`): a
 * connection made with n failures left that failed k searches and still had some left is the same
 * with any budget above k (every "may I search" saw a positive count), and leaves k fewer; one that
 * ran out is reused only with the same budget. A connection that pushed a warning (its message
 * names tracks, whose numbers differ between the two plannings) or that a deadline cut short is
 * not kept.
 */

export interface ConnectionMemo {
  entries: Map<string, { value: unknown; budget: number; failed: number }>;
  /** Object (loop) → small number, for keys. */
  ids: WeakMap<object, number>;
  nextId: number;
}

export function createConnectionMemo(): ConnectionMemo {
  return { entries: new Map(), ids: new WeakMap(), nextId: 0 };
}

/** What of `RouteContext` the memo reads and restores. */
interface MemoContext {
  warnings: unknown[];
  searchFailuresLeft?: number;
  aborted?: boolean;
}

/** Key part for a pose: exact (number → string round-trips). */
export function poseKey(p: { x: number; y: number; headingRadians: number }): string {
  return `${p.x},${p.y},${p.headingRadians}`;
}

/** Key part for an object (a loop): its number in this memo. */
export function objectKey(memo: ConnectionMemo, o: object): number {
  let id = memo.ids.get(o);
  if (id === undefined) memo.ids.set(o, (id = memo.nextId++));
  return id;
}

/**
 * `make()`, or the value it gave for the same key before where the search budget allows (above).
 * `fullBudget` is what an unset `searchFailuresLeft` stands for.
 */
export function remember<T>(memo: ConnectionMemo | undefined, ctx: MemoContext, key: string, fullBudget: number, make: () => T): T {
  if (!memo) return make();
  const budget = ctx.searchFailuresLeft ?? fullBudget;
  const hit = memo.entries.get(key);
  if (hit && (hit.budget > hit.failed ? budget > hit.failed : budget === hit.budget)) {
    if (hit.failed > 0) ctx.searchFailuresLeft = budget - hit.failed;
    return hit.value as T;
  }
  const warned = ctx.warnings.length;
  const value = make();
  const failed = budget - (ctx.searchFailuresLeft ?? fullBudget);
  // A value that never ran out of searches replaces one that did.
  if (ctx.warnings.length === warned && !ctx.aborted && (!hit || budget > failed)) memo.entries.set(key, { value, budget, failed });
  return value;
}
