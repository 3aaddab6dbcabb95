/**
 * The last resort for joins nothing fits, after `skipUnjoinable` (connectedOrder.ts) has moved or
 * left out the single tracks whose neighbours' join then fits and the connect stage has tried
 * shortened tracks and a thorough search. What is left is a run of tracks that cannot be joined
 * to each other at one of their ends — the short tracks in the tip of a wedge, whose every other
 * join falls in the tip: taking one track out joins two tracks the same end apart, which does not
 * fit either.
 *
 * `dropUnjoinable` re-plans each such join, the first in driving order first: it drives the track
 * after it the other way round where both its joins then fit, else takes out the run of at most
 * `MAX_RUN` consecutive tracks next to the join (the one before it, the one after it, or both
 * sides) whose neighbours can then be joined, the fewest working meters first. A run taken out is
 * never the whole route, and a new start or end of the route (head, tail) must fit with no more
 * defects (headland passes left out, ...) than the route's own. Where neither mends it, the route is
 * re-ordered round the join (`relinkUnjoinable`: a stretch of tracks at it turned round or moved to
 * where its ends join). A join that no such change fixes stays as it is and is reported.
 *
 * The route's own joins are looked at through `scan` (as the route needs them anyway), the ones
 * tried instead through `parts` and `relink.parts`, which the caller bounds by count: looking at
 * the route's own joins through the bounded source used the bound up on the first few dozen joins
 * of a route whose ordering had not made them, and the bad joins past those were never looked at.
 *
 * A join also counts as not fitting where the track before it keeps nothing between the joins on
 * its two sides (`trackLeft`): each join, made on its own, pulled that end of the track back, and
 * together they take more than the whole track (a short track between two joins that both need
 * room), so the route cannot be put together from them and would be connected anew, the second
 * join then without the room it needed.
 */
import { visitEntry as entry, visitExit as exit, type OrderVisit } from './fieldOrder.js';
import type { PartSegment, RouteParts, RoutePartsSource, SkippedVisit } from './connectedOrder.js';
import { relinkUnjoinable } from './relinkUnjoinable.js';
import type { Estimate, Fits, RelinkLimit, Seq } from './relinkUnjoinable.js';

/** The longest run of consecutive tracks taken out for one join. */
export const MAX_RUN = 4;

export interface DropOptions<S extends PartSegment, W> {
  /** Whether a connection made fits (no straight `unfitted` connector). A missing part fits. */
  fits: (r: RouteParts<S, W>) => boolean;
  /**
   * Defects of a connection (warnings: headland passes left out, ...): a new head or tail may not have more than the
   * route's.
   */
  defects: (r: RouteParts<S, W>) => number;
  /** Working meters of a track (what taking it out leaves unworked). */
  meters: (trackIndex: number) => number;
  /**
   * Whether something of the track `v` is left to drive between the join into it (`into`, the
   * head where it starts the route) and the join out of it (`out`, the tail where it ends it);
   * missing: always.
   */
  trackLeft?: (into: RouteParts<S, W> | undefined, v: OrderVisit, out: RouteParts<S, W> | undefined) => boolean;
  /**
   * Where neither fixes a join: the route re-ordered around it (relinkUnjoinable.ts), ranked by
   * `estimate`, its connections made through `parts` (the caller bounds them by count).
   */
  relink?: { parts: RoutePartsSource<S, W>; estimate: Estimate; limit?: RelinkLimit };
  /**
   * The wall-clock cap: true once the call's time is up. The joins not looked at yet then stay as
   * they are (reported); checked before each join and, in the re-ordering, each candidate.
   */
  stop?: () => boolean;
  /**
   * The route's own joins, looked for the bad ones (default `parts`): made as the route needs them
   * anyway, so that a bound on `parts` only bounds the joins tried instead.
   */
  scan?: RoutePartsSource<S, W>;
}

/**
 * The visits with the joins nothing fits re-planned as described above, and the tracks taken out
 * (each named with the join it was taken out for: `into` for a track nothing reached from the
 * piece before it, `out of` for one nothing left for the piece after it).
 */
export function dropUnjoinable<S extends PartSegment, W>(
  visits: OrderVisit[],
  parts: RoutePartsSource<S, W>,
  opts: DropOptions<S, W>,
): { visits: OrderVisit[]; skipped: SkippedVisit[] } {
  const ok = (r: RouteParts<S, W> | undefined): boolean => r === undefined || opts.fits(r);
  const kept = visits.slice();
  const skipped: SkippedVisit[] = [];
  if (kept.length === 0) return { visits: kept, skipped };
  const defects = (r: RouteParts<S, W> | undefined): number => (r === undefined ? 0 : opts.defects(r));
  const own = opts.scan ?? parts;
  const headDefects = defects(own.head(entry(kept[0]))),
    tailDefects = defects(own.tail(exit(kept[kept.length - 1])));
  const end = (r: RouteParts<S, W> | undefined, most: number): boolean => ok(r) && defects(r) <= most;
  // Whether joins made through `source` fit (a join before seq(j), j = 0: the route's start, j = its length: its end),
  // and leave the tracks beside them something.
  const fitsVia = (source: RoutePartsSource<S, W>): Fits => {
    // The join between two visits (before undefined: the route's head; after undefined: its tail).
    const join = (before: OrderVisit | undefined, after: OrderVisit | undefined): RouteParts<S, W> | undefined =>
      before === undefined
        ? after === undefined
          ? undefined
          : source.head(entry(after))
        : after === undefined
          ? source.tail(exit(before))
          : source.link(exit(before), entry(after));
    // Something of track v is left between the joins on its two sides.
    const left = (before: OrderVisit | undefined, v: OrderVisit | undefined, after: OrderVisit | undefined): boolean =>
      v === undefined || opts.trackLeft === undefined || opts.trackLeft(join(before, v), v, join(v, after));
    const joinFits = (before: OrderVisit | undefined, after: OrderVisit | undefined): boolean =>
      before === undefined
        ? after === undefined || end(join(before, after), headDefects)
        : after === undefined
          ? end(join(before, after), tailDefects)
          : ok(join(before, after));
    // ... and the track before it kept (a join is bad, too, where it and the join before that track leave nothing of
    // it).
    return {
      at: (seq, j) => joinFits(seq(j - 1), seq(j)) && left(seq(j - 2), seq(j - 1), seq(j)),
      leftAt: (seq, k) => left(seq(k - 1), seq(k), seq(k + 1)),
    };
  };
  const fits = fitsVia(parts);
  const scanFits = opts.scan ? fitsVia(own) : fits;
  const relinkFits = opts.relink && fitsVia(opts.relink.parts);
  const firstBad = (from: number): number => {
    const seq = viewOf(kept);
    for (let j = from; j <= kept.length; j++) if (!scanFits.at(seq, j)) return j;
    return -1;
  };
  let j = firstBad(0);
  // Every change below removes a bad join or a track, so this ends; the bound is a guard.
  for (let guard = 0; j >= 0 && guard < 2 * visits.length + 2; guard++) {
    if (opts.stop?.()) break;
    if (reversed(kept, j, fits)) {
      j = firstBad(j);
      continue;
    }
    const run = cheapestRun(kept, j, fits, opts.meters);
    if (!run) {
      const from = relinkFits ? relinkUnjoinable(kept, j, relinkFits, opts.relink!.estimate, opts.relink!.limit) : -1;
      j = firstBad(from >= 0 ? from : j + 1);
      continue;
    }
    const [a, b] = run;
    for (let k = a; k < b; k++) skipped.push({ visit: kept[k], join: k < j ? 'out of' : 'into' });
    kept.splice(a, b - a);
    j = firstBad(Math.max(0, a));
  }
  return { visits: kept, skipped };
}

/** The visits of `kept` as index → visit, with `change` applied over them (undefined past either end). */
function viewOf(kept: OrderVisit[], change: (k: number) => OrderVisit | undefined = (k) => kept[k]): Seq {
  return (k) => (k >= 0 ? change(k) : undefined);
}

/** Drives kept[j] the other way round where its joins (and the tracks around it) then fit (in place). */
function reversed(kept: OrderVisit[], j: number, fits: Fits): boolean {
  if (j >= kept.length) return false;
  const flipped = { ...kept[j], forward: !kept[j].forward };
  const seq = viewOf(kept, (k) => (k === j ? flipped : kept[k]));
  if (!fits.at(seq, j) || !fits.at(seq, j + 1) || !fits.leftAt(seq, j + 1)) return false;
  kept[j] = flipped;
  return true;
}

/**
 * The run [a, b) of at most MAX_RUN visits next to the bad join before kept[j] (it holds kept[j − 1]
 * or kept[j]) whose neighbours then join, the fewest meters first; undefined when none does, or
 * when it would be the whole route.
 */
function cheapestRun(
  kept: OrderVisit[],
  j: number,
  fits: Fits,
  meters: (trackIndex: number) => number,
): [number, number] | undefined {
  const n = kept.length;
  const runs: { a: number; b: number; m: number }[] = [];
  for (let a = Math.max(0, j - MAX_RUN); a <= j; a++) {
    for (let b = Math.max(a + 1, j); b <= Math.min(n, a + MAX_RUN); b++) {
      if ((a === 0 && b === n) || !(a <= j - 1 || b > j)) continue;
      let m = 0;
      for (let k = a; k < b; k++) m += meters(kept[k].trackIndex);
      runs.push({ a, b, m });
    }
  }
  runs.sort((p, q) => p.m - q.m || p.b - p.a - (q.b - q.a) || p.a - q.a);
  // With [a, b) out: the join there fits and leaves the tracks on both sides something.
  for (const r of runs) {
    const seq = viewOf(kept, (k) => (k < r.a ? kept[k] : kept[k + r.b - r.a]));
    if (fits.at(seq, r.a) && fits.leftAt(seq, r.a)) return [r.a, r.b];
  }
  return undefined;
}
