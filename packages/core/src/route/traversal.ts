/**
 * Connections onto connector rings: a direct manoeuvre inside the field (`tryDirect`), a headland
 * traversal (onto a ring, along it, off again: `tryTraversal`) and a traversal bridged between two
 * rings (`tryBridgedTraversal`), with the junctions checked for curvature and curvature rate.
 */
import { candidateInside, turnCandidates } from '../turns/index.js';
import type { Pose } from '../turns/types.js';
import { Region } from '../geometry/region.js';
import { polylineLength, hypot } from '../geometry/vec.js';
import { worstCurvatureRatio } from '../geometry/curvature.js';
import {
  junctionOnLoop,
  kinksWithinRadius,
  loopDefects,
  loopSideFits,
  nearestOnLoop,
  poseOnLoop,
  rateFitsPolyline,
  rateLimitedLoop,
  sliceHasDefect,
  sliceLoop,
} from '../turns/connectorRings.js';
import { limitCurvatureRate } from '../turns/rateLimit.js';
import { checkKinematics } from '../turns/kinematics.js';
import type { LoopPath } from '../turns/connectorRings.js';
import { hurried, timeIsUp } from './connectContext.js';
import type { RouteContext, Conn } from './connectContext.js';

/**
 * First turn candidate (shortest first) that stays inside the field. `forwardOnly`: no reversing
 * candidate even where the machine may reverse — for the pieces of a joined connector (onto and
 * off a ring, waypoint legs), which are measured as one forward path (a reversing candidate,
 * often the shortest, would be rejected there and hide the forward one).
 */
export function tryDirect(
  from: Pose,
  to: Pose,
  ctx: RouteContext,
  maxCandidates = 8,
  forwardOnly = false,
): Conn | undefined {
  let cands;
  try {
    cands = turnCandidates(
      from,
      to,
      forwardOnly && ctx.turnOptions.reverseAllowed ? { ...ctx.turnOptions, reverseAllowed: false } : ctx.turnOptions,
      maxCandidates,
    );
  } catch {
    return undefined;
  }
  for (const c of cands) {
    if (candidateInside(c, ctx.region)) {
      return { xy: c.points, turnType: c.turnType, kind: 'direct', reverse: c.cusps.length > 0 || c.startsReversed };
    }
  }
  return undefined;
}

/**
 * The junction of a manoeuvre with the loop, as the route's kinematic check sees it (about a
 * meter either side): no kink beyond the turning radius, no three-point bend tighter than R.
 */
function junctionFits(
  loop: LoopPath,
  s: number,
  dir: 1 | -1,
  role: 'enter' | 'leave',
  conn: ArrayLike<number>,
  R: number,
  sigma?: number,
): boolean {
  const reach = JUNCTION_CONTEXT_METERS;
  const xy: number[] = [];
  if (role === 'enter') {
    const tail = tailOf(conn, reach);
    for (let i = 0; i < tail.length; i++) xy.push(tail[i]);
    const side = sliceLoop(loop, s, reach, dir);
    for (let i = 2; i < side.length; i++) xy.push(side[i]);
  } else {
    const side = sliceLoop(loop, s - dir * reach, reach, dir);
    for (let i = 0; i < side.length; i++) xy.push(side[i]);
    const head = headOf(conn, reach);
    for (let i = 2; i < head.length; i++) xy.push(head[i]);
  }
  return (
    kinksWithinRadius(xy, R) &&
    worstCurvatureRatio(xy, R).ratio <= 1.04 &&
    (sigma === undefined || rateFitsPolyline(xy, R, sigma))
  );
}

/** The connector rings as driven: with a curvature-rate limit, with clothoid transitions (`rateLimitedLoop`). */
function ringsOf(ctx: RouteContext): LoopPath[] {
  // Past the call's wall-clock cap rings not built yet are not built: offsetting the field for them
  // costs more than all the cheap joins of a large field together.
  if (ctx.loopsBuilt?.() === false && hurried(ctx)) return [];
  const sigma = rateLimitOf(ctx);
  const loops = ctx.loops();
  return sigma === undefined ? loops : loops.map((l) => rateLimitedLoop(l, ctx.turnOptions.turnRadiusMeters, sigma));
}

/** Joined traversals examined per connection with a rate limit (shortest first). */
const MAX_RATE_LIMITED_CANDIDATES = 6;

/** The machine's curvature-rate limit σ, 1/m², when it has one (finite, > 0). */
export function rateLimitOf(ctx: RouteContext): number | undefined {
  const sigma = ctx.turnOptions.maxCurvatureRatePerSquareMeter;
  return sigma !== undefined && sigma > 0 && Number.isFinite(sigma) ? sigma : undefined;
}

/**
 * A joined connector (a traversal, a waypoint chain, a searched path) made drivable under the
 * curvature-rate limit: as it is when it already is (measured with a meter of straight track
 * before and after, as `checkPlan` reads its junctions), else redrawn with clothoid transitions
 * (`limitCurvatureRate`) and checked again — inside the field, within the radius, under σ.
 * Undefined when neither fits. Without a rate limit: the polyline unchanged.
 */
export function rateLimited(
  xy: ArrayLike<number>,
  ctx: RouteContext,
  redraw: boolean,
  from: Pose,
  to: Pose,
): ArrayLike<number> | undefined {
  const sigma = rateLimitOf(ctx);
  if (sigma === undefined) return xy;
  const R = ctx.turnOptions.turnRadiusMeters;
  // Measured with a meter of straight along the end poses (the pieces it joins continue so).
  if (
    rateFitsPolyline(withStraightEnds(xy, from, to), R, sigma) &&
    kinksWithinRadius(withStraightEnds(xy, from, to), R)
  )
    return xy;
  if (!redraw) return undefined;
  // A redrawn connector may move further than a ring (1 m: a searched path of short arcs either
  // way becomes smoother); it is checked against the field below.
  const smooth = limitCurvatureRate(xy, {
    maxCurvatureRatePerSquareMeter: sigma,
    maxCurvaturePerMeter: 1 / R,
    startHeadingRadians: from.headingRadians,
    endHeadingRadians: to.headingRadians,
    maxDeviationMeters: 1,
  });
  if (
    !smooth ||
    !kinksWithinRadius(smooth, R) ||
    !drivableWithin(withStraightEnds(smooth, from, to), R, sigma) ||
    !ctx.region.containsPolyline(smooth)
  )
    return undefined;
  return smooth;
}

/** No violation of any kind (curvature, rate, kink) with a little less margin than checkPlan. */
function drivableWithin(xy: Float64Array, R: number, sigma: number): boolean {
  return (
    checkKinematics(xy, {
      turnRadiusMeters: R,
      maxCurvatureRatePerSquareMeter: sigma,
      curvatureTolerance: 0.04,
      rateTolerance: 0.03,
      minLegMeters: 0.4,
    }).length === 0
  );
}

/** The polyline with a meter of straight added before and after (every 0.25 m) along the end poses' headings. */
function withStraightEnds(xy: ArrayLike<number>, from: Pose, to: Pose): Float64Array {
  const n = xy.length;
  if (n < 4) return Float64Array.from(xy);
  const h0 = from.headingRadians,
    h1 = to.headingRadians;
  const out = new Float64Array(n + 16);
  for (let k = 0; k < 4; k++) {
    const d = 1 - 0.25 * k;
    out[2 * k] = xy[0] - d * Math.cos(h0);
    out[2 * k + 1] = xy[1] - d * Math.sin(h0);
  }
  out.set(xy as ArrayLike<number>, 8);
  for (let k = 1; k <= 4; k++) {
    out[n + 8 + 2 * (k - 1)] = xy[n - 2] + 0.25 * k * Math.cos(h1);
    out[n + 8 + 2 * (k - 1) + 1] = xy[n - 1] + 0.25 * k * Math.sin(h1);
  }
  return out;
}

/** Context each side of a junction that must be smooth, meters (the kinematic check reads 1 m). */
const JUNCTION_CONTEXT_METERS = 1.2;

/** Points of the polyline from where `meters` remain to its end (whole points, at least two). */
function tailOf(xy: ArrayLike<number>, meters: number): ArrayLike<number> {
  const n = xy.length >> 1;
  let acc = 0,
    i = n - 1;
  while (i > 0 && acc < meters) {
    acc += hypot(xy[2 * i] - xy[2 * i - 2], xy[2 * i + 1] - xy[2 * i - 1]);
    i--;
  }
  return Array.prototype.slice.call(xy, 2 * i) as number[];
}

/** Points of the polyline up to `meters` from its start (whole points, at least two). */
function headOf(xy: ArrayLike<number>, meters: number): ArrayLike<number> {
  const n = xy.length >> 1;
  let acc = 0,
    i = 0;
  while (i < n - 1 && acc < meters) {
    acc += hypot(xy[2 * i + 2] - xy[2 * i], xy[2 * i + 3] - xy[2 * i + 1]);
    i++;
  }
  return Array.prototype.slice.call(xy, 0, 2 * i + 2) as number[];
}

/** Shortest contained manoeuvre from `from` onto the loop near arc length s0, searching along dir. */
export function ontoLoop(
  from: Pose,
  loop: LoopPath,
  s0: number,
  dir: 1 | -1,
  ctx: RouteContext,
  reverseSearch: boolean,
  longEdgesOnly = false,
  accept?: (j: { s: number; pose: Pose }) => boolean,
): { conn: Conn; s: number } | undefined {
  const step = 2;
  const R = ctx.turnOptions.turnRadiusMeters;
  let last = NaN;
  for (let k = 0; k <= 14; k++) {
    const role = reverseSearch ? 'leave' : 'enter';
    const j = junctionOnLoop(loop, s0 + (reverseSearch ? -dir : dir) * k * step, dir, role);
    if (j.s === last || (longEdgesOnly && !j.onLongEdge)) continue;
    last = j.s;
    if (!loopSideFits(loop, j, dir, role, R, rateLimitOf(ctx)) || (accept && !accept(j))) continue;
    const c = reverseSearch ? tryDirect(j.pose, from, ctx, 4, true) : tryDirect(from, j.pose, ctx, 4, true);
    if (c && junctionFits(loop, j.s, dir, role, c.xy, R, rateLimitOf(ctx))) return { conn: c, s: j.s };
  }
  return undefined;
}

function wrapDistance(loop: LoopPath, d: number): number {
  const L = loop.lengthMeters;
  d %= L;
  return d < 0 ? d + L : d;
}

/**
 * Curvature ratio a joined connector may reach (1 = exactly the minimum radius): the three-point
 * measure reads a Dubins arc of radius R at 1 + 1e-13 or so, which must not reject it.
 */
export const JOINED_CURVATURE_RATIO = 1 + 1e-6;

/** Headland traversal: a manoeuvre onto a connector ring, along it, and off to `to`. */
export function tryTraversal(from: Pose, to: Pose, ctx: RouteContext): Conn | undefined {
  if (timeIsUp(ctx)) return undefined;
  const R = ctx.turnOptions.turnRadiusMeters;
  const reach = ctx.maxRingReachMeters;
  // Every ring and direction costed first (cheap); the joined geometry is built and checked only
  // for the shortest ones, in order, until one passes.
  const cands: {
    len: number;
    loop: LoopPath;
    dir: 1 | -1;
    along: number;
    on: { conn: Conn; s: number };
    off: { conn: Conn; s: number };
  }[] = [];
  for (const loop of ringsOf(ctx)) {
    const a = nearestOnLoop(loop, from.x, from.y, reach);
    if (!(a.distance <= reach)) continue;
    const b = nearestOnLoop(loop, to.x, to.y, reach);
    if (!(b.distance <= reach)) continue;
    for (const dir of [1, -1] as const) {
      // a candidate on a long ring takes tens of ms: past the caller's deadline, stop (aborted)
      if (timeIsUp(ctx)) return undefined;
      const on = ontoLoop(from, loop, a.s, dir, ctx, false);
      if (!on) continue;
      const off = ontoLoop(to, loop, b.s, dir, ctx, true);
      if (!off) continue;
      const along = wrapDistance(loop, (off.s - on.s) * dir);
      if (sliceHasDefect(loop, loopDefects(loop, R), on.s, along, dir)) continue;
      cands.push({ len: polylineLength(on.conn.xy) + along + polylineLength(off.conn.xy), loop, dir, along, on, off });
    }
  }
  cands.sort((p, q) => p.len - q.len);
  // Redrawing a long joined path under the rate limit costs; only the two shortest get it.
  let redraws = 2,
    examined = 0;
  const sigma = rateLimitOf(ctx);
  for (const c of cands) {
    // With a rate limit many joined paths fail it; the few shortest are examined, not all.
    if (sigma !== undefined && ++examined > MAX_RATE_LIMITED_CANDIDATES) break;
    const mid = sliceLoop(c.loop, c.on.s, c.along, c.dir);
    const xy: number[] = Array.from(c.on.conn.xy);
    for (let i = 2; i < mid.length; i++) xy.push(mid[i]);
    const offXy = c.off.conn.xy;
    for (let i = 2; i < offXy.length; i++) xy.push(offXy[i]);
    // The ring is smooth by construction; measure anyway, as checkPlan will.
    if (
      worstCurvatureRatio(xy, R).ratio > JOINED_CURVATURE_RATIO ||
      !kinksWithinRadius(xy, R) ||
      !ctx.region.containsPolyline(xy)
    )
      continue;
    const drivable = rateLimited(xy, ctx, redraws-- > 0, from, to);
    if (!drivable) continue;
    return { xy: drivable, kind: 'headlandTraversal', turnType: 'HeadlandTraversal' };
  }
  return undefined;
}

export interface RingPair {
  s1: number;
  s2: number;
  d: number;
}

/**
 * What two connector rings share, whatever the connector: their closest point pairs and the
 * crossings between them (a crossing depends only on the pair, the two directions and the lead).
 * Rings are made once per plan, so this is keyed on the ring objects.
 */
interface RingPairCache {
  pairs: RingPair[];
  crossings: Map<number, Conn | null>;
}
const ringPairCaches = new WeakMap<LoopPath, Map<LoopPath, RingPairCache>>();

function ringPairCache(l1: LoopPath, l2: LoopPath, region: Region): RingPairCache {
  let inner = ringPairCaches.get(l1);
  if (!inner) ringPairCaches.set(l1, (inner = new Map()));
  let c = inner.get(l2);
  if (!c) inner.set(l2, (c = { pairs: closestPairs(l1, l2, 3, region), crossings: new Map() }));
  return c;
}

/** Loops nearer than this are searched within a radius (one box query), farther ones by nearest neighbour first. */
const NEAR_LOOP_METERS = 30;
/** Rounding slack on the radius (a distance recomputed from other sums), far below any step. */
const NEAREST_SLACK_METERS = 1e-6;

/**
 * Closest point pairs between two loops: samples every 5 m on the shorter one, in order of their
 * distance to the longer (a stable sort: the first sample among equals); of those, the first
 * `count` in sight of their nearest point and at least 10 m apart along the first loop.
 */
export function closestPairs(l1: LoopPath, l2: LoopPath, count: number, region: Region): RingPair[] {
  const swap = l2.lengthMeters < l1.lengthMeters;
  const small = swap ? l2 : l1,
    big = swap ? l1 : l2;
  // Keep pairs in sight of each other (the straight line between them inside the field),
  // at least 10 m apart along the first loop.
  const kept: RingPair[] = [];
  for (const m of samplesByDistance(small, big)) {
    const c = swap ? { s1: m.onBig, s2: m.onSmall, d: m.d } : { s1: m.onSmall, s2: m.onBig, d: m.d };
    const p = poseOnLoop(l1, c.s1, 1),
      q = poseOnLoop(l2, c.s2, 1);
    if (!region.segmentClear(p.x, p.y, q.x, q.y)) continue;
    if (kept.every((k) => Math.abs(k.s1 - c.s1) > 10)) kept.push(c);
    if (kept.length >= count) break;
  }
  return kept;
}

/** A sample of the shorter loop (at `onSmall`) and the point of the longer nearest to it (`onBig`), `d` apart. */
interface LoopSample {
  onSmall: number;
  onBig: number;
  d: number;
}

/**
 * The samples of `closestPairs`, by distance, per (shorter, longer) loop: a traversal asked both
 * ways round (from ring 1 to ring 2, and back) measures them once. Loops are made once per plan.
 */
const sampleCaches = new WeakMap<LoopPath, WeakMap<LoopPath, LoopSample[]>>();
function samplesByDistance(small: LoopPath, big: LoopPath): LoopSample[] {
  let inner = sampleCaches.get(small);
  if (!inner) sampleCaches.set(small, (inner = new WeakMap()));
  let out = inner.get(big);
  if (out) return out;
  out = [];
  const n = Math.max(4, Math.ceil(small.lengthMeters / 5));
  // The next sample is no farther from the big loop than the last one's distance plus the step
  // between them: where that is short, the nearest point is looked for within it (the same point).
  let last: { x: number; y: number; d: number } | undefined;
  for (let i = 0; i < n; i++) {
    const ss = (small.lengthMeters * i) / n;
    const p = poseOnLoop(small, ss, 1);
    const reach = last ? last.d + hypot(p.x - last.x, p.y - last.y) + NEAREST_SLACK_METERS : Infinity;
    let q = reach <= NEAR_LOOP_METERS ? nearestOnLoop(big, p.x, p.y, reach) : undefined;
    if (!q || q.distance === Infinity) q = nearestOnLoop(big, p.x, p.y);
    last = { x: p.x, y: p.y, d: q.distance };
    out.push({ onSmall: ss, onBig: q.s, d: q.distance });
  }
  out.sort((a, b) => a.d - b.d);
  inner.set(big, out);
  return out;
}

/** A way over two rings: onto ring i, leaving it at s1, across to ring j at s2, off it; `len`: its length, m. */
interface BridgeCandidate {
  len: number;
  i: number;
  j: number;
  d1: 1 | -1;
  d2: 1 | -1;
  s1: number;
  s2: number;
  cross: Conn;
  on: { conn: Conn; s: number };
  off: { conn: Conn; s: number };
}

/**
 * Headland traversal over two connector rings (e.g. the outer ring and the ring around a
 * hole, or the two halves of a field pinched by a neck): onto ring 1, along it, across to
 * ring 2 by a direct manoeuvre inside the field, along ring 2, off to `to`.
 */
export function tryBridgedTraversal(from: Pose, to: Pose, ctx: RouteContext): Conn | undefined {
  if (timeIsUp(ctx)) return undefined;
  const R = ctx.turnOptions.turnRadiusMeters;
  const reach = ctx.maxRingReachMeters;
  const loops = ringsOf(ctx);
  const sigma = rateLimitOf(ctx);
  const starts = loops.map((l) => nearestOnLoop(l, from.x, from.y, reach));
  const ends = loops.map((l) => nearestOnLoop(l, to.x, to.y, reach));
  // Manoeuvres onto ring i (direction d) from `from`, and off ring j to `to`: computed once each.
  type Onto = { conn: Conn; s: number } | null;
  const onto = new Map<number, Onto>(),
    offOf = new Map<number, Onto>();
  const ontoFor = (i: number, d: 1 | -1): Onto => {
    const k = 2 * i + (d === 1 ? 0 : 1);
    let v = onto.get(k);
    if (v === undefined) onto.set(k, (v = ontoLoop(from, loops[i], starts[i].s, d, ctx, false) ?? null));
    return v;
  };
  const offFor = (j: number, d: 1 | -1): Onto => {
    const k = 2 * j + (d === 1 ? 0 : 1);
    let v = offOf.get(k);
    if (v === undefined) offOf.set(k, (v = ontoLoop(to, loops[j], ends[j].s, d, ctx, true) ?? null));
    return v;
  };
  // Every combination is costed first (cheap); the joined geometry is built and checked only
  // for the shortest ones, in order, until one passes.
  const cands: BridgeCandidate[] = [];
  for (let i = 0; i < loops.length; i++) {
    if (!(starts[i].distance <= reach)) continue;
    const l1 = loops[i];
    for (let j = 0; j < loops.length; j++) {
      if (j === i || !(ends[j].distance <= reach)) continue;
      const l2 = loops[j];
      const cache = ringPairCache(l1, l2, ctx.region);
      const pairs = cache.pairs;
      for (let pi = 0; pi < pairs.length; pi++) {
        const pair = pairs[pi];
        for (const d1 of [1, -1] as const) {
          const on = ontoFor(i, d1);
          if (!on) continue;
          for (const d2 of [1, -1] as const) {
            const off = offFor(j, d2);
            if (!off) continue;
            // Leave ring 1 a little before the closest point, join ring 2 a little after it.
            for (let li = 0; li < 2; li++) {
              const lead = (li + 1) * 2 * R;
              const j1 = junctionOnLoop(l1, pair.s1 - d1 * lead, d1, 'leave'),
                j2 = junctionOnLoop(l2, pair.s2 + d2 * lead, d2, 'enter');
              // With a rate limit, leave and join the rings where they run straight (CC turns start and end so).
              if (
                sigma !== undefined &&
                (!loopSideFits(l1, j1, d1, 'leave', R, sigma) || !loopSideFits(l2, j2, d2, 'enter', R, sigma))
              )
                continue;
              const key = ((pi * 2 + (d1 === 1 ? 0 : 1)) * 2 + (d2 === 1 ? 0 : 1)) * 2 + li;
              let cross = cache.crossings.get(key);
              if (cross === undefined)
                cache.crossings.set(key, (cross = tryDirect(j1.pose, j2.pose, ctx, 6, true) ?? null));
              if (!cross) continue;
              const along1 = wrapDistance(l1, (j1.s - on.s) * d1);
              const along2 = wrapDistance(l2, (off.s - j2.s) * d2);
              if (
                sliceHasDefect(l1, loopDefects(l1, R), on.s, along1, d1) ||
                sliceHasDefect(l2, loopDefects(l2, R), j2.s, along2, d2)
              )
                continue;
              const len =
                polylineLength(on.conn.xy) + along1 + polylineLength(cross.xy) + along2 + polylineLength(off.conn.xy);
              cands.push({ len, i, j, d1, d2, s1: j1.s, s2: j2.s, cross, on, off });
            }
          }
        }
      }
    }
  }
  cands.sort((a, b) => a.len - b.len);
  return firstDrivableBridge(cands, loops, from, to, ctx);
}

/**
 * Of the candidates, shortest first, the first whose joined path (onto ring 1, along it, across, along ring 2, off)
 * is drivable inside the field.
 */
function firstDrivableBridge(
  cands: BridgeCandidate[],
  loops: LoopPath[],
  from: Pose,
  to: Pose,
  ctx: RouteContext,
): Conn | undefined {
  const R = ctx.turnOptions.turnRadiusMeters;
  const sigma = rateLimitOf(ctx);
  // Redrawing a long joined path under the rate limit costs; only the two shortest get it.
  let redraws = 2,
    examined = 0;
  for (const c of cands) {
    if (sigma !== undefined && ++examined > MAX_RATE_LIMITED_CANDIDATES) break;
    const l1 = loops[c.i],
      l2 = loops[c.j];
    const xy: number[] = Array.from(c.on.conn.xy);
    const append = (part: ArrayLike<number>): void => {
      for (let k = 2; k < part.length; k++) xy.push(part[k]);
    };
    append(sliceLoop(l1, c.on.s, wrapDistance(l1, (c.s1 - c.on.s) * c.d1), c.d1));
    append(c.cross.xy);
    append(sliceLoop(l2, c.s2, wrapDistance(l2, (c.off.s - c.s2) * c.d2), c.d2));
    append(c.off.conn.xy);
    if (
      worstCurvatureRatio(xy, R).ratio > JOINED_CURVATURE_RATIO ||
      !kinksWithinRadius(xy, R) ||
      !ctx.region.containsPolyline(xy)
    )
      continue;
    const drivable = rateLimited(xy, ctx, redraws-- > 0, from, to);
    if (!drivable) continue;
    return { xy: drivable, kind: 'headlandTraversal', turnType: 'HeadlandTraversal' };
  }
  return undefined;
}
