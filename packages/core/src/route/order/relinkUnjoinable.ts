/**
 * Re-ordering the route locally around a join nothing fits, where neither driving the track after
 * it the other way nor taking out a short run of tracks mends it (dropUnjoinable.ts). The join is
 * often the way out of a pocket (the short tracks in the tip of a wedge, between a pole's headland
 * and an obstacle's): the track before it leaves the machine where it cannot turn towards the
 * track after it, while other ends of the same tracks join fine. So the join is taken out by
 * changing which ends meet there:
 *
 * - a stretch of at most `MAX_STRETCH` consecutive tracks ending at the join (or starting at it)
 *   driven the other way round, in reverse order (the join then meets the stretch's other end);
 * - or that stretch moved, either way round, to another place in the route (between two tracks
 *   the route already drives one after the other), the route closed where it was.
 *
 * Every candidate is ranked by the estimate of the ordering (the change of its estimated connector
 * cost, route/order/fieldOrder.ts), cheapest first, and the first whose new joins all fit (and leave
 * the tracks beside them something to drive) is kept. Connections are made through `parts` as
 * asked, so the caller bounds them by count (not by time or work: the same plan on any machine).
 * Every change kept removes a join that does not fit and adds none, so repeated use ends.
 *
 * The candidates looked at are counted (`RelinkLimit.candidatesLeft`, shared by a planning's calls):
 * on a route of a thousand tracks with hundreds of joins nothing fits, every call ranks some 24 × n
 * candidates and (once the connections it may make are spent) finds none that fits — 35 million
 * looked at, 50 s, for W 1.5 m R 15 m on a star-shaped field. The count is the same on any machine;
 * the wall-clock cap (`stop`) ends the search at the next candidate.
 */
import { visitEntry as entryOf, visitExit as exitOf, type OrderVisit } from './fieldOrder.js';

/** The longest stretch of consecutive tracks turned round or moved for one join. */
export const MAX_STRETCH = 6;

/** A sequence of visits by index (undefined past either end). */
export type Seq = (k: number) => OrderVisit | undefined;

/**
 * In a sequence: whether the join before `seq(j)` fits and leaves the track before it something (`at`); whether the
 * joins around `seq(k)` leave it something (`leftAt`).
 */
export interface Fits {
  at: (seq: Seq, j: number) => boolean;
  leftAt: (seq: Seq, k: number) => boolean;
}

/** Estimated cost of the connector leaving a track through end `fromEnd` and entering the next through `toEnd`. */
export type Estimate = (fromEnd: number, toEnd: number) => number;

/** What a planning's calls may still look at: candidates (counted down), and the wall-clock cap. */
export interface RelinkLimit {
  candidatesLeft: number;
  /** True once the call's time is up: no candidate is looked at after it. */
  stop?: () => boolean;
}

const turned = (vs: OrderVisit[]): OrderVisit[] => vs.map((v) => ({ ...v, forward: !v.forward })).reverse();

/**
 * One way of changing the route: the stretch [s, e) turned round in place (p = -1), or moved, as it
 * is or turned round (`turn`), to before the p-th visit of the route without it. `delta`: the change
 * of the route's estimated connector cost.
 */
interface Candidate {
  delta: number;
  s: number;
  e: number;
  p: number;
  turn: boolean;
}

/**
 * A candidate as the route it makes (`seq`, which differs from the route's in [lo, hi) only), and the joins (index of
 * the visit after each) it makes anew.
 */
interface Change {
  lo: number;
  hi: number;
  seq: Seq;
  joins: number[];
}

/**
 * Re-orders `kept` (in place) so that the bad join before `kept[j]` (j = 0: the route's start, j =
 * kept.length: its end) is gone and every join made instead fits. Returns the first index from
 * which the route changed, or -1 when no candidate fits or `limit` ends the search (`kept` unchanged).
 */
export function relinkUnjoinable(
  kept: OrderVisit[],
  j: number,
  fits: Fits,
  estimate: Estimate,
  limit?: RelinkLimit,
): number {
  const n = kept.length;
  if (n < 2 || (limit && (limit.candidatesLeft <= 0 || limit.stop?.()))) return -1;
  const est = (a: OrderVisit | undefined, b: OrderVisit | undefined): number =>
    a === undefined || b === undefined ? 0 : estimate(exitOf(a), entryOf(b));
  const candidates: Candidate[] = [];
  // The stretches [s, e) next to the join: ending at it (e = j) or starting at it (s = j).
  for (let s = Math.max(0, j - MAX_STRETCH); s < j; s++) stretch(s, j);
  for (let e = j + 1; e <= Math.min(n, j + MAX_STRETCH); e++) stretch(j, e);
  candidates.sort(
    (p, q) => p.delta - q.delta || p.s - q.s || p.e - q.e || p.p - q.p || Number(p.turn) - Number(q.turn),
  );
  for (const c of candidates) {
    if (limit && (limit.candidatesLeft-- <= 0 || limit.stop?.())) return -1;
    const { lo, hi, seq, joins } = changeOf(c);
    if (!joins.every((x) => fits.at(seq, x) && fits.leftAt(seq, x))) continue;
    const mid: OrderVisit[] = [];
    for (let k = lo; k < hi; k++) mid.push(seq(k)!);
    kept.splice(lo, hi - lo, ...mid);
    return lo;
  }
  return -1;

  function stretch(s: number, e: number): void {
    if (s === 0 && e === n) return;
    const before = kept[s - 1],
      after = kept[e];
    const first = kept[s],
      last = kept[e - 1];
    const S = kept.slice(s, e),
      R = turned(S);
    const L = e - s;
    let inside = 0,
      insideTurned = 0;
    for (let k = 1; k < L; k++) {
      inside += est(S[k - 1], S[k]);
      insideTurned += est(R[k - 1], R[k]);
    }
    const out = est(before, first) + est(last, after);
    // turned round in place: the stretch's ends swap places
    candidates.push({
      delta: est(before, R[0]) + est(R[L - 1], after) - out + insideTurned - inside,
      s,
      e,
      p: -1,
      turn: true,
    });
    // moved: the route closed where it was, the stretch put between two visits driven one after the other
    const closed = est(before, after) - out;
    const rest = (q: number): OrderVisit => kept[q < s ? q : q + L];
    for (let p = 1; p < n - L; p++) {
      if (p === s) continue;
      const a = rest(p - 1),
        b = rest(p);
      const gap = closed - est(a, b);
      candidates.push({ delta: gap + est(a, first) + est(last, b), s, e, p, turn: false });
      candidates.push({ delta: gap + est(a, R[0]) + est(R[L - 1], b) + insideTurned - inside, s, e, p, turn: true });
    }
  }

  function changeOf(c: Candidate): Change {
    const { s, e, p } = c;
    const L = e - s;
    const S = c.turn ? turned(kept.slice(s, e)) : kept.slice(s, e);
    const inner = (from: number): number[] => (c.turn ? Array.from({ length: L - 1 }, (_, k) => from + 1 + k) : []);
    const view =
      (at: (k: number) => OrderVisit | undefined): Seq =>
      (k) =>
        k < 0 ? undefined : at(k);
    if (p < 0)
      return {
        lo: s,
        hi: e,
        seq: view((k) => (k >= s && k < e ? S[k - s] : kept[k])),
        joins: Array.from({ length: L + 1 }, (_, k) => s + k),
      };
    // before the p-th visit of the route without the stretch (p < s: back, p > s: forward); the
    // join closing the route where it was first, as every place the stretch goes shares it
    if (p < s)
      return {
        lo: p,
        hi: e,
        seq: view((k) => (k < p || k >= e ? kept[k] : k < p + L ? S[k - p] : kept[k - L])),
        joins: [e, p, ...inner(p), p + L],
      };
    return {
      lo: s,
      hi: p + L,
      seq: view((k) => (k < s || k >= p + L ? kept[k] : k < p ? kept[k + L] : S[k - p])),
      joins: [s, p, ...inner(p), p + L],
    };
  }
}
