/**
 * The chosen route put together from its connections (route/order/connectedOrder.ts chooses it): the route's parts
 * joined, and the tracks whose joins nothing fits taken out.
 */
import type { OrderVisit } from './fieldOrder.js';
import { visitEntry, visitExit } from './fieldOrder.js';
import { hypot, polylineLength } from '../../geometry/vec.js';

/** A route segment as the connect stage makes it (structurally). */
export interface PartSegment {
  type: string;
  xy: Float64Array;
  trackIndex?: number;
}

/** What connecting a few pieces gave: the segments (tracks included) and the warnings raised. */
export interface RouteParts<S extends PartSegment, W> {
  segs: S[];
  warnings: W[];
}

/** The first `keep` meters of a polyline. */
function cutPolyline(xy: Float64Array, keep: number): Float64Array {
  const out: number[] = [xy[0], xy[1]];
  let walked = 0;
  for (let i = 2; i + 1 < xy.length; i += 2) {
    const seg = hypot(xy[i] - xy[i - 2], xy[i + 1] - xy[i - 1]);
    if (walked + seg >= keep - 1e-9) {
      const t = seg > 0 ? Math.max(0, Math.min(1, (keep - walked) / seg)) : 1;
      out.push(xy[i - 2] + t * (xy[i] - xy[i - 2]), xy[i - 1] + t * (xy[i + 1] - xy[i - 1]));
      return Float64Array.from(out);
    }
    out.push(xy[i], xy[i + 1]);
    walked += seg;
  }
  return Float64Array.from(out);
}

/** The connections of a route by track ends (`2 · track + (0 forward | 1 backward)`): links, head, tail. */
export interface RoutePartsSource<S extends PartSegment, W> {
  link(fromEnd: number, toEnd: number): RouteParts<S, W> | undefined;
  head(end: number): RouteParts<S, W> | undefined;
  tail(end: number): RouteParts<S, W> | undefined;
}

/**
 * The route of `visits` put together from the connectors costed one by one (no second
 * connection): head, then each track followed by its link, then tail. A track's geometry combines
 * the start its incoming turn left (the link before it) with the end its outgoing turn left (the
 * link after it): the track as the link before gives it, cut short by what the link after trimmed
 * off its end. `fullLengthMeters(k)` is the untrimmed length of the k-th track driven. Returns
 * undefined when a part is missing or does not have the expected shape, or the result is not
 * continuous within 1 mm: the caller then connects the route in full.
 */
export function assembleRoute<S extends PartSegment, W>(
  visits: OrderVisit[],
  parts: RoutePartsSource<S, W>,
  fullLengthMeters: (k: number) => number,
): RouteParts<S, W> | undefined {
  const n = visits.length;
  if (n === 0) return undefined;
  const entry = (k: number): number => visitEntry(visits[k]);
  const exit = (k: number): number => visitExit(visits[k]);
  const links: RouteParts<S, W>[] = [];
  for (let k = 0; k + 1 < n; k++) {
    const l = parts.link(exit(k), entry(k + 1));
    if (!l || l.segs.length < 2) return undefined;
    const a = l.segs[0],
      b = l.segs[l.segs.length - 1];
    if (
      a.type !== 'Track' ||
      a.trackIndex !== visits[k].trackIndex ||
      b.type !== 'Track' ||
      b.trackIndex !== visits[k + 1].trackIndex
    )
      return undefined;
    links.push(l);
  }
  const head = parts.head(entry(0));
  const tail = parts.tail(exit(n - 1));
  const isTrack = (s: S | undefined, k: number): boolean =>
    s !== undefined && s.type === 'Track' && s.trackIndex === visits[k].trackIndex;
  if (head && !isTrack(head.segs[head.segs.length - 1], 0)) return undefined;
  if (tail && !isTrack(tail.segs[0], n - 1)) return undefined;
  const segs: S[] = [];
  const warnings: W[] = [];
  if (head) {
    for (let i = 0; i + 1 < head.segs.length; i++) segs.push(head.segs[i]);
    warnings.push(...head.warnings);
  }
  for (let k = 0; k < n; k++) {
    // the track with its start as the link before left it (or as it is), ...
    const startSide =
      k > 0 ? links[k - 1].segs[links[k - 1].segs.length - 1] : head ? head.segs[head.segs.length - 1] : undefined;
    const endSide = k + 1 < n ? links[k].segs[0] : tail ? tail.segs[0] : undefined;
    const base = startSide ?? endSide;
    if (!base) return undefined;
    let xy = base.xy;
    if (startSide && endSide) {
      // ... cut short by what the link after trimmed off its end
      const endTrim = fullLengthMeters(k) - polylineLength(endSide.xy);
      if (endTrim > 1e-9) xy = cutPolyline(startSide.xy, polylineLength(startSide.xy) - endTrim);
    }
    segs.push({ ...base, xy });
    if (k + 1 < n) {
      const l = links[k];
      for (let i = 1; i + 1 < l.segs.length; i++) segs.push(l.segs[i]);
      warnings.push(...l.warnings);
    }
  }
  if (tail) {
    for (let i = 1; i < tail.segs.length; i++) segs.push(tail.segs[i]);
    warnings.push(...tail.warnings);
  }
  for (let i = 1; i < segs.length; i++) {
    const p = segs[i - 1].xy,
      q = segs[i].xy;
    if (p.length < 2 || q.length < 2) continue;
    if (hypot(p[p.length - 2] - q[0], p[p.length - 1] - q[1]) > 1e-3) return undefined;
  }
  return { segs, warnings };
}

/** A visit `skipUnjoinable` left out, and the join that could not be made without leaving it out. */
export interface SkippedVisit {
  visit: OrderVisit;
  /** 'into': nothing reaches the track from the one before it; 'out of': nothing leaves it for the one after it. */
  join: 'into' | 'out of';
}

/**
 * The visits with the tracks moved or left out whose joins nothing fits (`fits` false, even with
 * the tracks shortened). Where the join from the last track kept to the next visit does not fit,
 * that visit is taken out if the one after it can be joined instead (or the route can end where
 * it is); else the last track kept is taken out if the one before it (or the route's start) joins
 * the visit. A track is taken out only for a join that then fits, so one pocket costs one track,
 * not a cascade. A track taken out is driven last instead (either way) where it can be joined
 * there and the route can end after it — a track whose end is in a pocket may well be the way
 * into the headland passes — and left out otherwise. Where nothing helps the join stays as it is
 * (and is reported by the connect stage). `parts` is as for `assembleRoute`: a missing part (no
 * head or tail to drive) fits. A head or tail taken instead of another must fit and have no more
 * `defects` (e.g. headland passes left out) than the one it replaces. A join `unknown` says was
 * not made (out of budget) is kept as it is: it is neither a reason to take a track out nor a way
 * round one (taking tracks out for joins nobody tried emptied whole fields).
 */
export function skipUnjoinable<S extends PartSegment, W>(
  visits: OrderVisit[],
  parts: RoutePartsSource<S, W>,
  fits: (r: RouteParts<S, W>) => boolean,
  defects: (r: RouteParts<S, W>) => number,
  unknown: (r: RouteParts<S, W>) => boolean = () => false,
): { visits: OrderVisit[]; skipped: SkippedVisit[] } {
  const n = visits.length;
  const entry = visitEntry,
    exit = visitExit;
  const ok = (r: RouteParts<S, W> | undefined): boolean => r === undefined || (!unknown(r) && fits(r));
  // as it stands: fits, or was never tried
  const stands = (r: RouteParts<S, W> | undefined): boolean => r === undefined || unknown(r) || fits(r);
  // A head or tail in place of another: it fits, and has no more defects (passes left out, ...).
  const noWorse = (r: RouteParts<S, W> | undefined, than: RouteParts<S, W> | undefined): boolean =>
    ok(r) && (r === undefined ? 0 : defects(r)) <= (than === undefined ? 0 : defects(than));
  const kept: OrderVisit[] = [];
  const out: SkippedVisit[] = [];
  for (let k = 0; k < n; k++) {
    const v = visits[k];
    if (kept.length === 0) {
      // The route's start: a first track the start cannot reach gives way to the next one.
      if (k + 1 < n && !stands(parts.head(entry(v))) && noWorse(parts.head(entry(visits[k + 1])), parts.head(entry(v))))
        out.push({ visit: v, join: 'into' });
      else kept.push(v);
      continue;
    }
    const last = kept[kept.length - 1];
    if (stands(parts.link(exit(last), entry(v)))) {
      kept.push(v);
      continue;
    }
    const next = k + 1 < n ? visits[k + 1] : undefined;
    if (next ? ok(parts.link(exit(last), entry(next))) : noWorse(parts.tail(exit(last)), parts.tail(exit(v)))) {
      out.push({ visit: v, join: 'into' });
      continue;
    }
    const before = kept.length >= 2 ? kept[kept.length - 2] : undefined;
    if (before ? ok(parts.link(exit(before), entry(v))) : noWorse(parts.head(entry(v)), parts.head(entry(last)))) {
      kept.pop();
      out.push({ visit: last, join: 'out of' });
    }
    kept.push(v);
  }
  // The route's end: a last track the end cannot be reached from gives way to the one before it.
  if (
    kept.length >= 2 &&
    !stands(parts.tail(exit(kept[kept.length - 1]))) &&
    noWorse(parts.tail(exit(kept[kept.length - 2])), parts.tail(exit(kept[kept.length - 1])))
  ) {
    out.push({ visit: kept.pop()!, join: 'out of' });
  }
  // Tracks taken out: driven last where they fit there (either way), in the order taken out.
  const skipped: SkippedVisit[] = [];
  for (const o of out) {
    const last = kept[kept.length - 1];
    let placed = false;
    for (const forward of [o.visit.forward, !o.visit.forward]) {
      const v = { ...o.visit, forward };
      if (last && ok(parts.link(exit(last), entry(v))) && noWorse(parts.tail(exit(v)), parts.tail(exit(last)))) {
        kept.push(v);
        placed = true;
        break;
      }
    }
    if (!placed) skipped.push(o);
  }
  return { visits: kept, skipped };
}
