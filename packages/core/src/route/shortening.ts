/**
 * Joins between tracks: neighbouring tracks of a cell (a turn, the ends pulled back if it needs
 * room), far joins (traversal, direct, search), and joins nothing fits retried with the tracks
 * shortened (`connectShortened`, within the planning's shortening budget).
 */
import type { Pose } from '../turns/types.js';
import { polylineLength, hypot } from '../geometry/vec.js';
import type { Piece } from '../turns/path.js';
import {
  MAX_FAILED_SEARCHES,
  hurried,
  timeIsUp,
  MIN_TRACK_AFTER_TRIM_METERS,
  trackHeading,
  curveParameter,
  poseNearVertex,
  trackStart,
  trackEnd,
  pieceLength,
  pulledBackEnd,
  pushedInStart,
} from './connectContext.js';
import type { RouteContext, Conn } from './connectContext.js';
import {
  tryNeckTransport,
  transport,
  tryWaypointChain,
  trySearch,
  straightFallback,
  reverseLastResort,
} from './connectors.js';
import { tryDirect, tryTraversal, tryBridgedTraversal } from './traversal.js';
import { enterHeadland } from './headlandEntry.js';
import { objectKey, poseKey, remember } from './connectionMemo.js';

/**
 * Share of a track's length one shortening may take off one end: the other end may lose as much
 * to its own join, and something of the track is still driven.
 */
const MAX_SHORTENING_SHARE = 0.45;

/** Shortenings tried (meters, each end), up to `MAX_SHORTENING_RADII` turning radii. */
const SHORTENING_STEPS_METERS = [1, 2, 4, 8, 12, 16, 24, 32, 48, 64];
const MAX_SHORTENING_RADII = 6;

/**
 * A join nothing fits (a track end in a pocket: a narrow bay, a corner, next to a hole): the end
 * of track `a` (the piece driven before, when it is a track) and / or the start of track `b` are
 * pulled back progressively, the shorter pull first, and a turn, a headland traversal or a
 * waypoint chain retried from the new ends. On success the tracks are shortened (their ends
 * moved) and a `track-shortened` warning names them and the meters left out (the strip counts as
 * uncovered in the metrics). Where no shortening within the limits lets anything fit, a more
 * thorough search of the unshortened join (`shotEveryExpansions` 1), then searches from both ends
 * pulled back by 2R and 4R (a neck off the tracks' line: de-bb-075 at W 36 m); undefined when those fail too.
 */
export function connectShortened(
  a: Extract<Piece, { kind: 'track' }> | undefined,
  from: Pose,
  b: Extract<Piece, { kind: 'track' }>,
  ctx: RouteContext,
): Conn | undefined {
  const R = ctx.turnOptions.turnRadiusMeters;
  const maxA = a ? MAX_SHORTENING_SHARE * pieceLength(a) : 0;
  const maxB = MAX_SHORTENING_SHARE * pieceLength(b);
  const cap = Math.max(8, MAX_SHORTENING_RADII * R);
  for (const d of SHORTENING_STEPS_METERS) {
    if (d > cap || (d > maxA && d > maxB)) break;
    for (const [da, db] of [
      [d, 0],
      [0, d],
      [d, d],
    ]) {
      if (da > maxA || db > maxB) continue;
      if (timeIsUp(ctx)) return undefined;
      const f = a && da > 0 ? pulledBackEnd(a, da) : from;
      const t = pushedInStart(b, db);
      const c = tryDirect(f, t, ctx, 16) ?? tryTraversal(f, t, ctx) ?? tryWaypointChain(f, t, ctx);
      if (c) return shortened(c, a, da, f, b, db, t, ctx);
    }
  }
  // No shortening helps: a searched path with a direct manoeuvre to the goal tried at every step
  // (the way out of a pocket may need a full turn where the bay widens, far from the goal).
  const searched = trySearch(from, trackStart(b), ctx, undefined, 1);
  if (searched) return searched;
  // The way may lead through a neck off the tracks' line, which the machine must already be
  // bending into where the track ends: searched from both ends pulled back.
  for (const k of SEARCH_PULLBACK_RADII) {
    const d = k * R;
    if (d > maxA && d > maxB) break;
    if (timeIsUp(ctx)) return undefined;
    const da = a && d <= maxA ? d : 0,
      db = d <= maxB ? d : 0;
    const f = a && da > 0 ? pulledBackEnd(a, da) : from;
    const t = pushedInStart(b, db);
    const c = trySearch(f, t, ctx);
    if (c) return shortened(c, a, da, f, b, db, t, ctx);
  }
  return undefined;
}

/** Pull-backs (× R, both ends) from which a searched path is tried when nothing else fits. */
const SEARCH_PULLBACK_RADII = [2, 4];

/**
 * The join `c` from the ends of `a` pulled back by `da` (to `f`) and of `b` pushed in by `db` (to `t`): the tracks
 * shortened, and a `track-shortened` warning.
 */
function shortened(
  c: Conn,
  a: Extract<Piece, { kind: 'track' }> | undefined,
  da: number,
  f: Pose,
  b: Extract<Piece, { kind: 'track' }>,
  db: number,
  t: Pose,
  ctx: RouteContext,
): Conn {
  const parts: string[] = [];
  if (a && da > 0) {
    a.ex = f.x;
    a.ey = f.y;
    parts.push(`track ${a.trackIndex} by ${da} m at its end`);
  }
  if (db > 0) {
    b.sx = t.x;
    b.sy = t.y;
    parts.push(`track ${b.trackIndex} by ${db} m at its start`);
  }
  warnShortened(
    ctx,
    `between the end of ${a ? `track ${a.trackIndex}` : 'the previous piece'} and the start of track ${b.trackIndex}`,
    parts,
    f,
  );
  return c;
}

/**
 * The `track-shortened` warning: no manoeuvre fits `where`, so `parts` (which track, by how much, at which end) are
 * left out; placed at `at`.
 */
function warnShortened(ctx: RouteContext, where: string, parts: string[], at: Pose): void {
  ctx.warnings.push({
    code: 'track-shortened',
    message:
      `no manoeuvre within the turning radius (${ctx.turnOptions.turnRadiusMeters} m) fits inside the field ` +
      `${where}: ${parts.join(' and ')} ${parts.length > 1 ? 'are' : 'is'} left out so that one does; the strip ` +
      `left out (machine width × meters) counts as uncovered`,
    x: at.x,
    y: at.y,
  });
}

/**
 * A headland pass the end of the track before cannot reach — the track ends in a pocket, e.g. in
 * the middle of a strip too narrow to turn round in before the boundary — is joined with that end
 * pulled back (4 m, 8 m, … as for `connectShortened`), and a `track-shortened` warning names the
 * track and the meters left out; undefined where no pull within the limits lets the pass be joined.
 */
export function enterFromShortened(
  a: Extract<Piece, { kind: 'track' }>,
  p: Extract<Piece, { kind: 'headland' }>,
  ctx: RouteContext,
): ReturnType<typeof enterHeadland> {
  const R = ctx.turnOptions.turnRadiusMeters;
  const most = Math.min(MAX_SHORTENING_SHARE * pieceLength(a), Math.max(8, MAX_SHORTENING_RADII * R));
  for (const d of SHORTENING_STEPS_METERS) {
    if (d < 4) continue;
    if (d > most || timeIsUp(ctx)) return undefined;
    const f = pulledBackEnd(a, d);
    // the same end pulled back by the same meters, the same pass: as before in this call
    // (the route connected again, another planning)
    const entered = ctx.memo
      ? remember(
          ctx.memo,
          ctx,
          `pulled pass ${objectKey(ctx.memo, p.loop)} ${poseKey(f)}`,
          MAX_FAILED_SEARCHES,
          () => enterHeadland(f, p, ctx),
          undefined,
          ctx.region,
        )
      : enterHeadland(f, p, ctx);
    if (!entered) continue;
    a.ex = f.x;
    a.ey = f.y;
    warnShortened(
      ctx,
      `from the end of track ${a.trackIndex} onto headland pass ${p.headlandIndex}`,
      [`track ${a.trackIndex} by ${d} m at its end`],
      f,
    );
    return entered;
  }
  return undefined;
}

/**
 * Runs `fn` on a context whose deadline is also the end of the shortening budget: a search cut
 * short by the budget gives up (its join stays unfitted) without marking the route connection
 * itself `aborted`. The search-failure budgets spent inside are kept.
 */
export function withShorteningBudget<T>(ctx: RouteContext, fn: (budgeted: RouteContext) => T): T {
  const budget = ctx.shortenUnfitted!;
  const outer = ctx.abort;
  const budgeted: RouteContext = { ...ctx, abort: () => budget.over() || (outer?.() ?? false), aborted: false };
  try {
    return fn(budgeted);
  } finally {
    ctx.searchFailuresLeft = budgeted.searchFailuresLeft;
    ctx.reverseSearchFailuresLeft = budgeted.reverseSearchFailuresLeft;
    if (outer?.()) ctx.aborted = true;
  }
}

/** Connects two consecutive tracks of one cell, pulling their ends back if a turn needs room. */
export function connectNeighbours(
  a: Extract<Piece, { kind: 'track' }>,
  b: Extract<Piece, { kind: 'track' }>,
  ctx: RouteContext,
): Conn {
  const direct = tryDirect(trackEnd(a), trackStart(b), ctx);
  if (direct) return direct;
  const la = hypot(a.ex - a.sx, a.ey - a.sy),
    lb = hypot(b.ex - b.sx, b.ey - b.sy);
  const ha = trackHeading(a),
    hb = trackHeading(b);
  const tryTrim = (d: number): Conn | undefined => {
    if (la - d < MIN_TRACK_AFTER_TRIM_METERS || lb - d < MIN_TRACK_AFTER_TRIM_METERS) return undefined;
    const from: Pose = a.xy
      ? poseNearVertex(a.xy, curveParameter(a.xy, a.ex, a.ey) - d, 'end')
      : { x: a.ex - d * Math.cos(ha), y: a.ey - d * Math.sin(ha), headingRadians: ha };
    const to: Pose = b.xy
      ? poseNearVertex(b.xy, curveParameter(b.xy, b.sx, b.sy) + d, 'start')
      : { x: b.sx + d * Math.cos(hb), y: b.sy + d * Math.sin(hb), headingRadians: hb };
    const c = tryDirect(from, to, ctx);
    if (c) {
      a.ex = from.x;
      a.ey = from.y;
      b.sx = to.x;
      b.sy = to.y;
    }
    return c;
  };
  for (const d of [1, 2, 4]) {
    const c = tryTrim(d);
    if (c) return c;
  }
  const what = `the turn from track ${a.trackIndex} to track ${b.trackIndex}`;
  if (hurried(ctx)) return straightFallback(trackEnd(a), trackStart(b), ctx, what);
  // A traversal, unless it is a long detour: then pull the ends back further first.
  const t = tryTraversal(trackEnd(a), trackStart(b), ctx);
  if (t && lengthOf(t) <= detourLimitMeters(trackEnd(a), trackStart(b), undefined, ctx)) return t;
  for (const d of [8, 16, 32]) {
    const c = tryTrim(d);
    if (c) return c;
  }
  if (t) return t;
  const found = trySearch(trackEnd(a), trackStart(b), ctx) ?? reverseLastResort(trackEnd(a), trackStart(b), ctx);
  if (found) return found;
  return straightFallback(trackEnd(a), trackStart(b), ctx, what);
}

/**
 * How long a headland traversal may be before a manoeuvre inside the field is preferred to it:
 * `TRAVERSAL_DETOUR_RATIO` times the straight distance (or the direct manoeuvre, if longer), plus
 * the way onto and off the ring (two half turns). A traversal round the whole field to reach a
 * track 70 m away across a neck is not what a driver does.
 */
const TRAVERSAL_DETOUR_RATIO = 3;

function detourLimitMeters(from: Pose, to: Pose, direct: Conn | undefined, ctx: RouteContext): number {
  const d = hypot(to.x - from.x, to.y - from.y);
  const base = direct ? Math.max(d, polylineLength(direct.xy)) : d;
  return TRAVERSAL_DETOUR_RATIO * base + 2 * Math.PI * ctx.turnOptions.turnRadiusMeters;
}

function lengthOf(c: Conn | undefined): number {
  return c ? polylineLength(c.xy) : Infinity;
}

/**
 * Connects two poses far apart (other cell, headland pass, more than 3 widths). A headland
 * traversal (one ring, or two rings bridged) is preferred to a direct manoeuvre across the
 * field unless it is a long detour (`detourLimitMeters`); with `headlandDrivethrough` the
 * shorter of the two is taken. Then a waypoint chain; what still does not fit is reported.
 */
export function connectFar(from: Pose, to: Pose, ctx: RouteContext, what: string): Conn {
  const d = hypot(to.x - from.x, to.y - from.y);
  if (d <= 3 * ctx.widthMeters) {
    const c = tryDirect(from, to, ctx);
    if (c) return c;
  }
  if (ctx.partOf) {
    const pa = ctx.partOf(from.x, from.y),
      pb = ctx.partOf(to.x, to.y);
    if (pa !== pb) {
      const tr = transport(from, to, ctx);
      if (tr) return tr;
    }
  }
  const direct = tryDirect(from, to, ctx, 16);
  if (hurried(ctx)) return direct ?? tryWaypointChain(from, to, ctx) ?? straightFallback(from, to, ctx, what);
  const limit = detourLimitMeters(from, to, direct, ctx);
  let t = tryTraversal(from, to, ctx);
  if (lengthOf(t) > limit) {
    const b = tryBridgedTraversal(from, to, ctx);
    if (lengthOf(b) < lengthOf(t)) t = b;
  }
  if (direct && (ctx.headlandDrivethrough ? lengthOf(direct) < lengthOf(t) : lengthOf(t) > limit)) return direct;
  if (t && lengthOf(t) <= limit) return t;
  const w = tryWaypointChain(from, to, ctx);
  if (w && lengthOf(w) < lengthOf(t)) return w;
  if (t) return t;
  const found = trySearch(from, to, ctx) ?? tryNeckTransport(from, to, ctx) ?? reverseLastResort(from, to, ctx);
  if (found) return found;
  return straightFallback(from, to, ctx, what);
}
