/**
 * Connections already made in one plan, for `connectTracks` to reuse: `planRoute` plans a field
 * twice when cells got their own headings (most of the two routes' connectors are the same), and
 * route ordering connects the same ends again. A far connection or a headland-pass entry depends
 * only on its two ends, on the field's region, rings and waypoints (shared by the whole plan) and
 * on the failed searches still allowed in that `connectTracks` call (`searchFailuresLeft`): a
 * connection made with n failures left that failed k searches and still had some left is the same
 * with any budget above k (every "may I search" saw a positive count), and leaves k fewer; one that
 * ran out is reused only with the same budget. A connection that a deadline cut short is not
 * kept. One that pushed a warning (its message names tracks, whose numbers may differ between the
 * plannings) is kept only where the caller names what the warning says (`warnedAs`: the same two
 * ends and the same words give the same warning), and its warnings are pushed again when it is
 * reused: a join nothing fits is searched once per plan, not once per planning.
 */

export interface ConnectionMemo {
  entries: Map<string, { value: unknown; budget: number; failed: number; warnings?: unknown[]; work?: number }>;
  /**
   * Connector searches run to the end (connectors.ts `trySearch`), found or failed, by what they
   * depend on: the region searched, the two poses, the search's limits. A search asked again — by a
   * later planning (strip fallback, cell headings), a fixed order connected again, a track end
   * pulled back by the same meters — is not run again; the geometric work it did is counted again
   * (`work`), so the work budget, and the plan, are the same as when it ran.
   */
  searches: Map<string, { xy: ArrayLike<number> | undefined; work: number }>;
  /**
   * Searches that failed, by region, limits and the two poses rounded to the metre (`failureBucket`):
   * a later planning whose track ends moved by a rounding error (a centre line laid again, a strip
   * cut again) asks the same search from poses that differ in the last digits; it fails the same way
   * (its nodes are cells of a metre and classes of a few degrees) and is not run again
   * (`nearFailure`).
   */
  failures: Map<string, { from: PoseLike; to: PoseLike; work: number }[]>;
  /**
   * The last few failed searches as they ran (`SearchTrace`), by region, limits but the shots, and the two
   * poses: the thorough search of a join nothing fits (a shot at every expansion, after the same search with
   * fewer shots failed) replays one instead of driving its expansions again (`replaySearch`).
   */
  traces: Map<string, SearchTrace>;
  /** Object (loop) → small number, for keys. */
  ids: WeakMap<object, number>;
  nextId: number;
}

export function createConnectionMemo(): ConnectionMemo {
  return {
    entries: new Map(),
    searches: new Map(),
    failures: new Map(),
    traces: new Map(),
    ids: new WeakMap(),
    nextId: 0,
  };
}

/** Traces kept at once (each up to a few MB for the largest searches; one is asked for soon after it is made). */
const MAX_TRACES = 4;

/** Keeps a failed search's trace for `traces`, the oldest dropped past `MAX_TRACES`. */
export function keepTrace(memo: ConnectionMemo, key: string, trace: SearchTrace): void {
  memo.traces.delete(key);
  memo.traces.set(key, trace);
  if (memo.traces.size > MAX_TRACES) memo.traces.delete(memo.traces.keys().next().value!);
}

import type { SearchTrace } from './connectSearch.js';

interface PoseLike {
  x: number;
  y: number;
  headingRadians: number;
}

/** How far two poses may lie apart for a failed search from one to stand for the other: 1 cm, 0.001 rad. */
const SAME_POSE_METERS = 0.01;
const SAME_POSE_RADIANS = 0.001;

function samePose(a: PoseLike, b: PoseLike): boolean {
  const dh = Math.abs(a.headingRadians - b.headingRadians) % (2 * Math.PI);
  return (
    Math.abs(a.x - b.x) <= SAME_POSE_METERS &&
    Math.abs(a.y - b.y) <= SAME_POSE_METERS &&
    Math.min(dh, 2 * Math.PI - dh) <= SAME_POSE_RADIANS
  );
}

function failureBucket(limits: string, from: PoseLike, to: PoseLike): string {
  const r = (v: number): number => Math.round(v);
  return `${limits} ${r(from.x)},${r(from.y)} ${r(to.x)},${r(to.y)}`;
}

/**
 * The work of a failed search with the same limits from within a centimetre of `from` to within a
 * centimetre of `to`, if one was made.
 */
export function nearFailure(memo: ConnectionMemo, limits: string, from: PoseLike, to: PoseLike): number | undefined {
  for (const f of memo.failures.get(failureBucket(limits, from, to)) ?? [])
    if (samePose(f.from, from) && samePose(f.to, to)) return f.work;
  return undefined;
}

/** Keeps a failed search for `nearFailure`. */
export function keepFailure(memo: ConnectionMemo, limits: string, from: PoseLike, to: PoseLike, work: number): void {
  const key = failureBucket(limits, from, to);
  const list = memo.failures.get(key);
  const entry = { from: { ...from }, to: { ...to }, work };
  if (list) list.push(entry);
  else memo.failures.set(key, [entry]);
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
 * `fullBudget` is what an unset `searchFailuresLeft` stands for. `charged` (the region, whose `work`
 * the route stage's budget reads): the work `make()` did is kept with the value and counted again on
 * each reuse, so that reusing it leaves the work budget, and the plan, as making it again would.
 */
export function remember<T>(
  memo: ConnectionMemo | undefined,
  ctx: MemoContext,
  key: string,
  fullBudget: number,
  make: () => T,
  warnedAs?: string,
  charged?: { work: number },
): T {
  if (!memo) return make();
  const budget = ctx.searchFailuresLeft ?? fullBudget;
  const usable = (e: { budget: number; failed: number } | undefined): boolean =>
    e !== undefined && (e.budget > e.failed ? budget > e.failed : budget === e.budget);
  const plain = memo.entries.get(key);
  const warnedKey = warnedAs !== undefined ? `${key}\u0000${warnedAs}` : undefined;
  const hit = usable(plain)
    ? plain
    : warnedKey !== undefined && usable(memo.entries.get(warnedKey))
      ? memo.entries.get(warnedKey)
      : undefined;
  if (hit) {
    if (charged && hit.work !== undefined) charged.work += hit.work;
    if (hit.failed > 0) ctx.searchFailuresLeft = budget - hit.failed;
    for (const w of hit.warnings ?? []) ctx.warnings.push(copyOf(w));
    return hit.value as T;
  }
  const warned = ctx.warnings.length;
  const workBefore = charged?.work;
  const value = make();
  const failed = budget - (ctx.searchFailuresLeft ?? fullBudget);
  // A value that never ran out of searches replaces one that did.
  if (ctx.aborted || !(!plain || budget > failed)) return value;
  const work = workBefore !== undefined ? { work: charged!.work - workBefore } : {};
  if (ctx.warnings.length === warned) memo.entries.set(key, { value, budget, failed, ...work });
  else if (warnedKey !== undefined)
    memo.entries.set(warnedKey, { value, budget, failed, ...work, warnings: ctx.warnings.slice(warned).map(copyOf) });
  return value;
}

/** A warning kept or replayed: a copy of its own (the plannings' warnings are not shared). */
function copyOf(w: unknown): unknown {
  return typeof w === 'object' && w !== null ? { ...w } : w;
}
