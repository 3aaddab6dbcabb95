/**
 * Entering a headland pass: where to join the loop and in which direction, so that the pass can
 * be left again towards open ground.
 */
import type { Pose } from '../turns/types.js';
import { polylineLength } from '../geometry/vec.js';
import { junctionOnLoop, loopSideFits, nearestOnLoop, poseOnLoop, sliceLoop } from '../turns/connectorRings.js';
import type { LoopPath } from '../turns/connectorRings.js';
import { canLeave, shutIn } from './connectSearch.js';
import { nearestByFieldDistance } from './fieldRaster.js';
import type { Piece } from '../turns/path.js';
import { timeIsUp, searchAllowed, loopDirections, hurried, tooLateForPassExits } from './connectContext.js';
import type { RouteContext, Conn } from './connectContext.js';
import { tryNeckTransport, transport, tryWaypointChain, trySearch, tryReversingSearch } from './connectors.js';
import { tryDirect, rateLimitOf, ontoLoop, tryTraversal, tryBridgedTraversal } from './traversal.js';

/**
 * Where to join a headland pass near s: the nearest straight stretch within 30 m (see `ontoLoop`),
 * else the nearest junction smooth on both sides; undefined where none is (a pass round a small
 * obstacle can bend tighter than R all the way round).
 */
function headlandJunction(
  loop: LoopPath,
  s: number,
  dir: 1 | -1,
  R: number,
  sigma?: number,
): { s: number; pose: Pose } | undefined {
  for (const longEdgesOnly of [true, false]) {
    for (let k = 0; k <= 30; k++) {
      for (const sign of k === 0 ? [1] : [1, -1]) {
        const j = junctionOnLoop(loop, s + sign * k, dir, 'enter');
        if (
          (j.onLongEdge || !longEdgesOnly) &&
          loopSideFits(loop, j, dir, 'enter', R, sigma) &&
          loopSideFits(loop, j, dir, 'leave', R, sigma)
        )
          return j;
      }
    }
  }
  return undefined;
}

/** Enters a headland pass from `from`: picks start point and direction, returns connector + pass. */
export function enterHeadland(
  from: Pose | undefined,
  p: Extract<Piece, { kind: 'headland' }>,
  ctx: RouteContext,
): { conn?: Conn; ring: number[] } | undefined {
  // A pass with no junction smooth on both sides that a forward path could leave at all (round
  // a pole) is not worth any search.
  if (from && !passHasJunction(p.loop, loopDirections(p.loop, ctx.headlandWinding), ctx, false)) return undefined;
  return enterHeadlandRound(from, p, ctx, true) ?? (from ? enterHeadlandRound(from, p, ctx, false) : undefined);
}

/** Where along the loop the middle of its longest edge lies, m. */
function middleOfLongestEdge(loop: LoopPath): number {
  let bestI = 0,
    bestL = -1;
  for (let i = 1; i < loop.s.length; i++) {
    const l = loop.s[i] - loop.s[i - 1];
    if (l > bestL) {
      bestL = l;
      bestI = i - 1;
    }
  }
  return loop.s[bestI] + bestL / 2;
}

/**
 * The first way onto the loop `connect` finds, trying each direction in turn: to the junction 2R on from `nearS`
 * (the point nearest the machine), where the pass can be left again.
 */
function viaJunction(
  loop: LoopPath,
  nearS: number,
  dirs: readonly (1 | -1)[],
  ctx: RouteContext,
  leavableAt: (s: number, dir: 1 | -1, pose: Pose) => boolean,
  connect: (pose: Pose) => Conn | undefined,
): { conn: Conn; s: number; dir: 1 | -1 } | undefined {
  const R = ctx.turnOptions.turnRadiusMeters;
  for (const dir of dirs) {
    const j = headlandJunction(loop, nearS + dir * 2 * R, dir, R, rateLimitOf(ctx));
    const t = j && leavableAt(j.s, dir, j.pose) ? connect(j.pose) : undefined;
    if (j && t) return { conn: t, s: j.s, dir };
  }
  return undefined;
}

function enterHeadlandRound(
  from: Pose | undefined,
  p: Extract<Piece, { kind: 'headland' }>,
  ctx: RouteContext,
  strictExit: boolean,
): { conn?: Conn; ring: number[] } | undefined {
  const loop = p.loop;
  const dirs = loopDirections(loop, ctx.headlandWinding);
  if (!from) {
    // Start of the route: the middle of the longest edge, in the ring's own direction, where the pass
    // is smooth enough on both sides to be left there when driven round (else the nearest junction
    // that is).
    const s = middleOfLongestEdge(loop);
    const R = ctx.turnOptions.turnRadiusMeters,
      sigma = rateLimitOf(ctx);
    const middle = { s, pose: poseOnLoop(loop, s, dirs[0]) };
    const smooth =
      loopSideFits(loop, middle, dirs[0], 'enter', R, sigma) && loopSideFits(loop, middle, dirs[0], 'leave', R, sigma);
    const start = smooth ? s : headlandJunction(loop, s, dirs[0], R, sigma)?.s;
    // None anywhere (a pass bending tighter than R all round): not driven first; tried later from where
    // the machine is, it is left out with its warning, as anywhere else in the route.
    return start === undefined ? undefined : { ring: sliceLoop(loop, start, loop.lengthMeters, dirs[0]) };
  }
  const near = nearestOnLoop(loop, from.x, from.y);
  let best: { conn: Conn; s: number; dir: 1 | -1 } | undefined;
  let bestLen = Infinity;
  // The pass is a closed loop: the machine leaves it where it joined it, heading the same way, so
  // the junction must be one a forward path can leave (not a pocket of a thin strip).
  const R = ctx.turnOptions.turnRadiusMeters;
  // First round: junctions from which the machine reaches open ground (room to turn round) or
  // gets 150 m away; second round (a pass wholly in narrow ground): any that it can leave at all.
  const strict = strictExit;
  // Past the call's late moment the exit is not searched for (dozens of junctions, a search each): the pass is joined
  // where a turn reaches it, and the join off it, if it does not fit, is drawn straight and warned as any late join.
  const late = tooLateForPassExits(ctx);
  const leavable = (pose: Pose): boolean =>
    late ||
    leavableMemo(loop, ctx, `${strict ? 1 : 0} ${pose.x},${pose.y},${pose.headingRadians}`, () =>
      strict ? canLeave(pose, ctx.region, R, false, PASS_EXIT_METERS, 600, true) : canLeave(pose, ctx.region, R),
    );
  // ...and, being a closed loop, left at the same junction: its arriving side must be smooth too.
  const leavableAt = (s: number, dir: 1 | -1, pose: Pose): boolean =>
    loopSideFits(loop, { s, pose }, dir, 'leave', R, rateLimitOf(ctx)) && leavable(pose);
  // Shut in (a forward path inside the field, searched to its end, reaches neither open ground nor 150 m away):
  // no junction of a pass that runs further than that is in reach inside the field, since the pass joined would
  // take the machine there. Only a transport leg may get it out.
  const inside = ctx.turnOptions.reverseAllowed || !reachesBeyond(loop, from, PASS_EXIT_METERS) || !shutInAt(from, ctx);
  // A headland pass is a working piece: join it on a straight stretch (no corner within a meter
  // of the junction) where one is in reach, anywhere smooth enough otherwise.
  for (const longEdgesOnly of inside ? [true, false] : []) {
    for (const dir of dirs) {
      const on = ontoLoop(from, loop, near.s, dir, ctx, false, longEdgesOnly, (j) => leavableAt(j.s, dir, j.pose));
      if (on) {
        const len = polylineLength(on.conn.xy);
        if (len < bestLen) {
          bestLen = len;
          best = { conn: on.conn, s: on.s, dir };
        }
      }
    }
    if (best) break;
  }
  // past the call's wall-clock cap: one ring's traversal or a chain of waypoints, no search (a pass
  // left out costs its whole area)
  const cheap = !best && hurried(ctx);
  if (!best && inside) best = viaJunction(loop, near.s, dirs, ctx, leavableAt, (pose) => tryTraversal(from, pose, ctx));
  if (!best && ctx.partOf && ctx.partOf(from.x, from.y) !== ctx.partOf(loop.xy[0], loop.xy[1])) {
    const j = headlandJunction(
      loop,
      near.s + dirs[0] * 2 * ctx.turnOptions.turnRadiusMeters,
      dirs[0],
      ctx.turnOptions.turnRadiusMeters,
      rateLimitOf(ctx),
    );
    const tr = j ? transport(from, j.pose, ctx) : undefined;
    if (j && tr) best = { conn: tr, s: j.s, dir: dirs[0] };
  }
  if (!best && !cheap && inside)
    best = viaJunction(loop, near.s, dirs, ctx, leavableAt, (pose) => tryBridgedTraversal(from, pose, ctx));
  if (!best && inside)
    best = viaJunction(loop, near.s, dirs, ctx, leavableAt, (pose) => tryWaypointChain(from, pose, ctx));
  if (!best && strict && !cheap && inside) best = enterFarAlongLoop(from, loop, dirs, ctx, leavableAt);
  if (!best && !cheap)
    best = viaJunction(loop, near.s, dirs, ctx, leavableAt, (pose) => tryNeckTransport(from, pose, ctx));
  // Where the machine may reverse: out of a pocket (a track end facing the boundary) by K-turns,
  // onto the pass nearby (a small search: most passes that get here are out of reach anyway).
  if (!best && !cheap && ctx.turnOptions.reverseAllowed && !canLeave(from, ctx.region, R))
    best = viaJunction(loop, near.s, dirs, ctx, leavableAt, (pose) =>
      tryReversingSearch(from, pose, ctx, PASS_ENTRY_EXPANSIONS),
    );
  // Nothing fits: the caller leaves the pass out (and says so).
  if (!best) return undefined;
  return { conn: best.conn, ring: sliceLoop(loop, best.s, loop.lengthMeters, best.dir) };
}

/** Expansions of the search that finds a machine shut in (`shutIn`): a pocket's whole ground is searched within it. */
const SHUT_IN_EXPANSIONS = 600;

/** Whether some point of the loop lies more than `meters` from `from`. */
function reachesBeyond(loop: LoopPath, from: Pose, meters: number): boolean {
  const xy = loop.xy,
    m2 = meters * meters;
  for (let i = 0; i < xy.length; i += 2) {
    const dx = xy[i] - from.x,
      dy = xy[i + 1] - from.y;
    if (dx * dx + dy * dy > m2) return true;
  }
  return false;
}

/** Whether the machine at `from` is shut in (see `shutIn`), by region, radius and pose. */
function shutInAt(from: Pose, ctx: RouteContext): boolean {
  const R = ctx.turnOptions.turnRadiusMeters;
  let byPose = shutInCache.get(ctx.region);
  if (!byPose) shutInCache.set(ctx.region, (byPose = new Map()));
  const key = `${R} ${from.x},${from.y},${from.headingRadians}`;
  let v = byPose.get(key);
  if (v === undefined) byPose.set(key, (v = shutIn(from, ctx.region, R, PASS_EXIT_METERS, SHUT_IN_EXPANSIONS)));
  return v;
}
const shutInCache = new WeakMap<RouteContext['region'], Map<string, boolean>>();

/**
 * How far a forward path must get from where a headland pass is joined (and left), meters, unless
 * it reaches open ground first (room for a full circle of radius R): a thin arm of the field that
 * ends in a point lets the machine drive on for a while but not out again.
 */
const PASS_EXIT_METERS = 150;

/**
 * Whether a machine at `pose` (where a headland pass left it) is in a pocket: no forward path gets
 * 4 R away, or none reaches open ground (room for a full circle) or gets `PASS_EXIT_METERS` away.
 * Both tests: a bay with room to circle in but no way out passes the second alone.
 */
export function inPocket(pose: Pose, region: RouteContext['region'], R: number): boolean {
  return !canLeave(pose, region, R) || !canLeave(pose, region, R, false, PASS_EXIT_METERS, 600, true);
}

/** Expansions of a reversing search onto a headland pass from a pocket (a K-turn or two nearby). */
const PASS_ENTRY_EXPANSIONS = 3000;

/**
 * Whether the pass has anywhere a junction that is smooth on both sides and that a forward path
 * can reach and leave: a pass that bends tighter than R all round (round a pole) has none.
 */
export function passHasJunction(loop: LoopPath, dirs: (1 | -1)[], ctx: RouteContext, toOpenGround = true): boolean {
  const cache = toOpenGround ? passJunctionCache : passLeavableCache;
  const cached = cache.get(loop);
  if (cached !== undefined) return cached;
  const R = ctx.turnOptions.turnRadiusMeters;
  let found = false;
  // Every metre along the pass, smoothness first (cheap); the two small searches at no more
  // than 8 smooth junctions at least 20 m apart.
  let searched = 0,
    lastSearched = -Infinity;
  for (let s = 0; s < loop.lengthMeters && !found && searched < 8; s += 1) {
    for (const dir of dirs) {
      const j = junctionOnLoop(loop, s, dir, 'enter');
      if (
        !loopSideFits(loop, j, dir, 'enter', R, rateLimitOf(ctx)) ||
        !loopSideFits(loop, j, dir, 'leave', R, rateLimitOf(ctx))
      )
        continue;
      if (j.s - lastSearched < 20) continue;
      lastSearched = j.s;
      searched++;
      const ok = toOpenGround
        ? canLeave(j.pose, ctx.region, R, false, PASS_EXIT_METERS, 300, true) &&
          canLeave(j.pose, ctx.region, R, true, PASS_EXIT_METERS, 300, true)
        : canLeave(j.pose, ctx.region, R) && canLeave(j.pose, ctx.region, R, true);
      if (ok) {
        found = true;
        break;
      }
    }
  }
  cache.set(loop, found);
  return found;
}
const passJunctionCache = new WeakMap<LoopPath, boolean>();
/**
 * Whether a forward path leaves a junction of a pass (a small search, `canLeave`), by pass and
 * junction pose: every track end that enters the pass asks it of the same junctions again.
 */
const junctionLeavableCache = new WeakMap<
  LoopPath,
  { region: RouteContext['region']; R: number; leaves: Map<string, boolean> }
>();
function leavableMemo(loop: LoopPath, ctx: RouteContext, key: string, find: () => boolean): boolean {
  let c = junctionLeavableCache.get(loop);
  if (!c || c.region !== ctx.region || c.R !== ctx.turnOptions.turnRadiusMeters)
    junctionLeavableCache.set(
      loop,
      (c = { region: ctx.region, R: ctx.turnOptions.turnRadiusMeters, leaves: new Map() }),
    );
  let v = c.leaves.get(key);
  if (v === undefined) c.leaves.set(key, (v = find()));
  return v;
}
const passLeavableCache = new WeakMap<LoopPath, boolean>();

/**
 * The pass's nearest point may be cut off from `from` (across a bay, behind a neck): try entry
 * points along the whole pass: the nearest by distance inside the field, with a waypoint chain
 * or a searched path.
 */
function enterFarAlongLoop(
  from: Pose,
  loop: LoopPath,
  dirs: (1 | -1)[],
  ctx: RouteContext,
  leavableAt: (s: number, dir: 1 | -1, pose: Pose) => boolean,
): { conn: Conn; s: number; dir: 1 | -1 } | undefined {
  const R = ctx.turnOptions.turnRadiusMeters;
  if (timeIsUp(ctx) || !searchAllowed(ctx) || !canLeave(from, ctx.region, R)) return undefined;
  // The sample of the pass nearest to `from` by distance inside the field.
  const step = Math.max(5, Math.min(20, loop.lengthMeters / 40));
  const at: number[] = [],
    xy: number[] = [];
  for (let s = 0; s < loop.lengthMeters; s += step) {
    const q = poseOnLoop(loop, s, 1);
    at.push(s);
    xy.push(q.x, q.y);
  }
  const nearest = nearestByFieldDistance(ctx.region, from.x, from.y, xy);
  const picked = nearest >= 0 ? [at[nearest]] : [];
  for (const s of picked) {
    for (const dir of dirs) {
      const j = headlandJunction(loop, s, dir, R, rateLimitOf(ctx));
      if (!j || !leavableAt(j.s, dir, j.pose)) continue;
      // A smaller search here: the pass is optional (left out, with its warning, if not reached).
      const t =
        tryDirect(from, j.pose, ctx, 8) ?? tryWaypointChain(from, j.pose, ctx) ?? trySearch(from, j.pose, ctx, 1500);
      if (t) return { conn: t, s: j.s, dir };
    }
  }
  return undefined;
}
