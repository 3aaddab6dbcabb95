/**
 * Last-resort connections: transports between field parts (through necks), chains of manoeuvres
 * through waypoints, searched connectors (forward and reversing), and the straight fallback that
 * is reported as `turn-not-fitted`.
 */
import { candidateInside, turnCandidates } from '../turns/index.js';
import type { Pose } from '../turns/types.js';
import { segmentsEndPose } from '../turns/segments.js';
import type { TurnSegment } from '../turns/types.js';
import { Region } from '../geometry/region.js';
import { areaOf, differencePolygons, groupPolygons, offsetPolygons } from '../geometry/clipper.js';
import { densify } from '../geometry/vec.js';
import { worstCurvatureRatio } from '../geometry/curvature.js';
import { kinksWithinRadius } from '../turns/connectorRings.js';
import { shortestWaypointPath, waypointPoses } from '../turns/waypointPath.js';
import { canLeave, replaySearch, searchConnector } from './connectSearch.js';
import type { SearchLimits, SearchTrace, Shot } from './connectSearch.js';
import { drivableReversing, searchReversingConnector } from './reverseSearch.js';
import { timeIsUp, MAX_FAILED_SEARCHES, searchAllowed, searchFailed } from './connectContext.js';
import { keepFailure, keepTrace, nearFailure, objectKey, poseKey } from './connectionMemo.js';
import type { RouteContext, Conn } from './connectContext.js';
import { tryDirect, rateLimitOf, rateLimited, JOINED_CURVATURE_RATIO } from './traversal.js';

/**
 * Parts of a one-polygon field joined only by necks narrower than the machine (a ditch that
 * nearly cuts the field in two): the field eroded by half the width (less 25 cm) falls apart
 * there. Between such parts no in-field path exists for the machine; as a last resort it leaves
 * the field (a `transport` connector, with a warning), within 2R of the boundary and never
 * through a hole. Built on first need, once per field.
 */
interface NeckParts {
  partOf: (x: number, y: number) => number;
  transportRegion: Region;
}
const neckPartsCache = new WeakMap<Region, NeckParts | null>();

function neckParts(ctx: RouteContext): NeckParts | undefined {
  let np = neckPartsCache.get(ctx.region);
  if (np === undefined) {
    np = null;
    const rings = ctx.region.rings();
    const eroded = offsetPolygons(rings, -Math.max(0.1, ctx.widthMeters / 2 - 0.25), 0.05);
    const parts = groupPolygons(eroded);
    if (parts.length >= 2) {
      // Parts too small to be worth leaving the field for (under 5 % of the field's core) are
      // not joined by transports: their passes are left out instead (with their warning).
      const areas = parts.map((p) => areaOf(p));
      const total = areas.reduce((a, b) => a + b, 0);
      const regions = parts.map((p) => new Region(p));
      const shells = rings.filter((r) => areaOf([r]) > 0);
      const holes = rings.filter((r) => areaOf([r]) < 0).map((r) => r.slice().reverse());
      const grown = offsetPolygons(shells, 2 * ctx.turnOptions.turnRadiusMeters, 0.05);
      np = {
        partOf: (x, y) => {
          const k = regions.findIndex((r) => r.contains(x, y));
          return k >= 0 && areas[k] >= 0.05 * total ? k : -1;
        },
        transportRegion: new Region(holes.length > 0 ? differencePolygons(grown, holes) : grown),
      };
    }
    neckPartsCache.set(ctx.region, np);
  }
  return np ?? undefined;
}

/**
 * Last resort between parts joined by necks: a forward path that may leave the field by up to 2R, never through a hole.
 */
export function tryNeckTransport(from: Pose, to: Pose, ctx: RouteContext): Conn | undefined {
  if (ctx.partOf) return undefined; // a multi-part field: `transport` handles it
  const np = neckParts(ctx);
  if (!np) return undefined;
  const pa = np.partOf(from.x, from.y),
    pb = np.partOf(to.x, to.y);
  if (pa < 0 || pb < 0 || pa === pb) return undefined;
  const rate = ctx.turnOptions.maxCurvatureRatePerSquareMeter;
  if (rate !== undefined && Number.isFinite(rate)) return undefined;
  const R = ctx.turnOptions.turnRadiusMeters;
  const region = np.transportRegion;
  const shot = (a: Pose, b: Pose): ArrayLike<number> | undefined => {
    let cands;
    try {
      cands = turnCandidates(
        a,
        b,
        ctx.turnOptions.reverseAllowed ? { ...ctx.turnOptions, reverseAllowed: false } : ctx.turnOptions,
      );
    } catch {
      return undefined;
    }
    for (let i = 0; i < cands.length && i < 4; i++)
      if (cands[i].cusps.length === 0 && !cands[i].startsReversed && candidateInside(cands[i], region))
        return cands[i].points;
    return undefined;
  };
  // A fine heuristic raster around the two ends: a ditch a meter wide must not vanish in it.
  const m = 300;
  const window = {
    minX: Math.min(from.x, to.x) - m,
    minY: Math.min(from.y, to.y) - m,
    maxX: Math.max(from.x, to.x) + m,
    maxY: Math.max(from.y, to.y) + m,
    cellMeters: 0.5,
  };
  let xy = shot(from, to);
  if (!xy && !timeIsUp(ctx) && searchAllowed(ctx)) {
    xy = searchConnector(from, to, region, shot, {
      turnRadiusMeters: R,
      sampleStepMeters: ctx.turnOptions.sampleStepMeters ?? 0.5,
      maxExpansions: 20000,
      window,
      ...(ctx.abort ? { abort: ctx.abort } : {}),
    });
    if (!xy && !timeIsUp(ctx)) searchFailed(ctx);
  }
  if (!xy || worstCurvatureRatio(xy, R).ratio > JOINED_CURVATURE_RATIO || !kinksWithinRadius(xy, R)) return undefined;
  // A transit leg between two zones: warned with its place by route/zones.ts.
  return { xy: Float64Array.from(xy), kind: 'transport', turnType: 'Dubins' };
}

/**
 * Transport between separate parts of a multi-part field: the shortest forward manoeuvre,
 * which necessarily leaves the field (connector kind `transport`; checkPlan allows it).
 */
export function transport(from: Pose, to: Pose, ctx: RouteContext): Conn | undefined {
  let cands;
  try {
    cands = turnCandidates(from, to, ctx.turnOptions);
  } catch {
    return undefined;
  }
  const c = cands[0];
  return c ? { xy: c.points, kind: 'transport', turnType: c.turnType } : undefined;
}

/** Last resort: a chain of manoeuvres through waypoints along the shortest path inside the field. */
export function tryWaypointChain(from: Pose, to: Pose, ctx: RouteContext): Conn | undefined {
  if (timeIsUp(ctx)) return undefined;
  if (!ctx.waypoints) return undefined;
  const pts = shortestWaypointPath(ctx.waypoints(), ctx.region, from.x, from.y, to.x, to.y);
  if (!pts || pts.length === 0) return undefined;
  const poses = [from, ...waypointPoses(from, to, pts), to];
  const xy: number[] = [from.x, from.y];
  for (let i = 1; i < poses.length; i++) {
    const leg = tryDirect(poses[i - 1], poses[i], ctx, 8, true);
    if (!leg) return undefined;
    for (let k = 2; k < leg.xy.length; k++) xy.push(leg.xy[k]);
  }
  // Legs meet tangentially (shared poses); measure as checkPlan does, with a little margin.
  if (
    worstCurvatureRatio(xy, ctx.turnOptions.turnRadiusMeters).ratio > 1.04 ||
    !kinksWithinRadius(xy, ctx.turnOptions.turnRadiusMeters) ||
    !ctx.region.containsPolyline(xy)
  )
    return undefined;
  const drivable = rateLimited(xy, ctx, true, from, to);
  return drivable ? { xy: drivable, kind: 'waypoints', turnType: 'Dubins' } : undefined;
}

/** The shortest manoeuvres a shot tries. */
const SHOT_CANDIDATES = 4;

/** Forward-only direct manoeuvre inside the field, as a polyline (the search's analytic expansion). */
function forwardShot(from: Pose, to: Pose, ctx: RouteContext): ArrayLike<number> | undefined {
  let cands;
  try {
    cands = turnCandidates(
      from,
      to,
      ctx.turnOptions.reverseAllowed ? { ...ctx.turnOptions, reverseAllowed: false } : ctx.turnOptions,
      SHOT_CANDIDATES,
    );
  } catch {
    return undefined;
  }
  for (let i = 0; i < cands.length && i < SHOT_CANDIDATES; i++) {
    const c = cands[i];
    if (
      c.cusps.length === 0 &&
      !c.startsReversed &&
      !(c.segments && pieceOutside(from, c.segments, ctx.region)) &&
      candidateInside(c, ctx.region)
    )
      return c.points;
  }
  return undefined;
}

/**
 * Whether the middle of a piece of the manoeuvre, or the end of any piece but the last, lies
 * outside the region: a few point checks in closed form, before the whole manoeuvre is sampled
 * and tested (a shot of the search from far off usually leaves the field, and sampling it was
 * most of the search's time). A manoeuvre that passes still gets the full test. Clothoid pieces
 * are stepped over unchecked.
 */
function pieceOutside(from: Pose, segments: readonly TurnSegment[], region: Region): boolean {
  let x = from.x,
    y = from.y,
    h = from.headingRadians;
  for (let i = 0; i < segments.length; i++) {
    const sg = segments[i];
    const k = sg.startCurvaturePerMeter,
      d = sg.reverse ? -1 : 1;
    if (k !== sg.endCurvaturePerMeter) {
      ({ x, y, headingRadians: h } = segmentsEndPose({ x, y, headingRadians: h }, [sg]));
      continue;
    }
    // the piece's middle, then its end, in closed form (no closure: this runs at every shot of every search)
    const straight = Math.abs(k) < 1e-12;
    const c0 = Math.cos(h),
      s0 = Math.sin(h);
    const half = sg.lengthMeters / 2;
    let mx: number, my: number;
    if (straight) {
      mx = x + d * c0 * half;
      my = y + d * s0 * half;
    } else {
      const hm = h + d * k * half;
      mx = x + (Math.sin(hm) - s0) / k;
      my = y - (Math.cos(hm) - c0) / k;
    }
    if (!region.contains(mx, my)) return true;
    if (straight) {
      x += d * c0 * sg.lengthMeters;
      y += d * s0 * sg.lengthMeters;
    } else {
      const h1 = h + d * k * sg.lengthMeters;
      x += (Math.sin(h1) - s0) / k;
      y -= (Math.cos(h1) - c0) / k;
      h = h1;
    }
    if (i < segments.length - 1 && !region.contains(x, y)) return true;
  }
  return false;
}

/**
 * Last resort before reporting: a searched forward path of bounded curvature through the field
 * (`connectSearch.ts`). With a curvature-rate limit its arcs (no clothoids) are redrawn with
 * transitions (`rateLimited`) or the path is not used.
 */
export function trySearch(
  from: Pose,
  to: Pose,
  ctx: RouteContext,
  maxExpansions?: number,
  shotEveryExpansions?: number,
): Conn | undefined {
  const R = ctx.turnOptions.turnRadiusMeters;
  // A start no forward path leaves, or a goal none reaches (pockets): no search can succeed.
  if (timeIsUp(ctx) || !searchAllowed(ctx) || !canLeave(from, ctx.region, R) || !canLeave(to, ctx.region, R, true))
    return undefined;
  // With a rate limit the search's shots are plain Dubins arcs (cheap to sample; the clothoids come
  // with the redrawing of the whole path below).
  const sigma = rateLimitOf(ctx);
  const shotCtx: RouteContext =
    sigma === undefined
      ? ctx
      : { ...ctx, turnOptions: { ...ctx.turnOptions, maxCurvatureRatePerSquareMeter: undefined, smoothing: 'Arcs' } };
  const shot: Shot = (a, b) => forwardShot(a, b, shotCtx);
  const limits: SearchLimits = {
    turnRadiusMeters: R,
    sampleStepMeters: ctx.turnOptions.sampleStepMeters ?? 0.5,
    ...(maxExpansions ? { maxExpansions } : {}),
    ...(shotEveryExpansions ? { shotEveryExpansions } : {}),
    ...(ctx.abort ? { abort: ctx.abort } : {}),
    ...lengthLimit(ctx),
  };
  // a search with shots at more expansions than one that failed between the same poses replays that one; a far
  // join's search (default limits) leaves its trace where the join may be shortened, and so searched again (a search
  // its length budget cut leaves none)
  const traceable = !maxExpansions && !shotEveryExpansions && ctx.shortenUnfitted !== undefined;
  const search = (traced?: { trace?: SearchTrace; keep: (t: SearchTrace) => void }): ArrayLike<number> | undefined =>
    traced?.trace
      ? replaySearch(traced.trace, from, to, ctx.region, shot, limits)
      : searchConnector(from, to, ctx.region, shot, limits, traceable ? traced?.keep : undefined);
  const xy = rememberedSearch(ctx, from, to, `${maxExpansions ?? 0}`, `${shotEveryExpansions ?? 0}`, search);
  if (!xy) {
    if (!timeIsUp(ctx)) searchFailed(ctx);
    return undefined;
  }
  if (
    worstCurvatureRatio(xy, R).ratio > JOINED_CURVATURE_RATIO ||
    !kinksWithinRadius(xy, R) ||
    !ctx.region.containsPolyline(xy)
  )
    return undefined;
  // With a rate limit: the search's arcs redrawn with clothoid transitions between them.
  const drivable = rateLimited(xy, ctx, true, from, to);
  return drivable ? { xy: drivable, kind: 'search', turnType: 'Dubins' } : undefined;
}

/** A search's bound from the connection's length budget: past it, the budget is spent (the connection aborted). */
function lengthLimit(ctx: RouteContext): Pick<SearchLimits, 'maxPathMeters' | 'onPathTooLong'> {
  const b = ctx.lengthBudget;
  if (!b) return {};
  return {
    maxPathMeters: Math.max(0, b.leftMeters),
    onPathTooLong: () => {
      b.spent = true;
    },
  };
}

/**
 * A search's result as before in this call (the memo's `searches`: same region, poses and limits),
 * its work counted again; a failure as before from and to poses within a centimetre (`nearFailure`:
 * a later planning's track ends moved by rounding); else `search()` run, and kept unless the caller's
 * deadline cut it short.
 */
function rememberedSearch(
  ctx: RouteContext,
  from: Pose,
  to: Pose,
  expansionLimit: string,
  shotLimit: string,
  search: (traced?: { trace?: SearchTrace; keep: (t: SearchTrace) => void }) => ArrayLike<number> | undefined,
): ArrayLike<number> | undefined {
  const memo = ctx.memo;
  if (!memo) return search();
  const o = ctx.turnOptions;
  const region = objectKey(memo, ctx.region);
  const step = o.sampleStepMeters ?? 0.5;
  const butShots = `${region} ${o.turnRadiusMeters} ${step} ${rateLimitOf(ctx) ?? 0} ${expansionLimit}`;
  const limits = `${butShots} ${shotLimit}`;
  const poses = `${poseKey(from)} ${poseKey(to)}`;
  const full = `${limits} ${poses}`;
  const known = memo.searches.get(full);
  if (known) {
    ctx.region.work += known.work;
    return known.xy;
  }
  const failedWork = nearFailure(memo, limits, from, to);
  if (failedWork !== undefined) {
    ctx.region.work += failedWork;
    return undefined;
  }
  const before = ctx.region.work;
  const traceKey = `${butShots} ${poses}`;
  const xy = search({ trace: memo.traces.get(traceKey), keep: (t) => keepTrace(memo, traceKey, t) });
  if (!ctx.abort?.()) {
    const work = ctx.region.work - before;
    memo.searches.set(full, { xy, work });
    if (!xy) keepFailure(memo, limits, from, to, work);
  }
  return xy;
}

/**
 * Nothing drivable fits: the join is reported (`turn-not-fitted`, where and why) and drawn as the
 * shortest way inside the field — a straight line where it stays inside, else the shortest path
 * round the boundary's corners and the holes (`shortestWaypointPath`) — never through the boundary
 * when a way inside exists. checkPlan reads it as not drivable (kinks), which is what it is.
 */
export function straightFallback(from: Pose, to: Pose, ctx: RouteContext, what: string): Conn {
  const straight = densify([from.x, from.y, to.x, to.y], 0.5);
  let xy: Float64Array = straight;
  let drawn = 'a straight connector was drawn instead';
  if (!ctx.region.containsPolyline(straight)) {
    const pts = ctx.waypoints
      ? shortestWaypointPath(ctx.waypoints(), ctx.region, from.x, from.y, to.x, to.y)
      : undefined;
    const inside = pts ? densify([from.x, from.y, ...pts, to.x, to.y], 0.5) : undefined;
    if (inside && ctx.region.containsPolyline(inside)) {
      xy = inside;
      drawn = 'the shortest way inside the field (not drivable at this radius) was drawn instead';
    } else drawn = 'a straight connector, which leaves the field (no way inside it was found), was drawn instead';
  }
  const o = ctx.turnOptions;
  const sigma = rateLimitOf(ctx);
  const deg = (r: number): string => (((((r * 180) / Math.PI) % 360) + 360) % 360).toFixed(0);
  ctx.warnings.push({
    code: 'turn-not-fitted',
    message:
      `no manoeuvre within the turning radius (${o.turnRadiusMeters} m` +
      `${sigma !== undefined ? `, curvature rate ${sigma} 1/m²` : ''}` +
      `${o.reverseAllowed ? ', reversing allowed' : ', no reversing'}) fits inside the field for ${what}, from (` +
      `${from.x.toFixed(1)}, ${from.y.toFixed(1)}) heading ${deg(from.headingRadians)}° to (${to.x.toFixed(1)}, ` +
      `${to.y.toFixed(1)}) heading ${deg(to.headingRadians)}° (local meters): no turn, headland traversal, ` +
      `waypoint chain or searched path fits; ${drawn}`,
    x: from.x,
    y: from.y,
  });
  return { xy, kind: 'unfitted' };
}

/**
 * A join whose shortest turn does not fit, made when the call's time was up (clock.ts `hurry(what,
 * true)`): nothing else is tried. Drawn straight and reported as `turn-not-fitted`, as
 * `straightFallback` does, with the reason.
 */
export function lateFallback(from: Pose, to: Pose, ctx: RouteContext, what: string): Conn {
  ctx.warnings.push({
    code: 'turn-not-fitted',
    message:
      `${what} from (${from.x.toFixed(1)}, ${from.y.toFixed(1)}) to (${to.x.toFixed(1)}, ${to.y.toFixed(1)}) ` +
      '(local meters) was tried by the shortest turn only, which does not fit: ' +
      "the call's time limit (maxOptimizerTime) was up; a straight connector was drawn instead",
    x: from.x,
    y: from.y,
  });
  return { xy: densify([from.x, from.y, to.x, to.y], 0.5), kind: 'unfitted' };
}

/**
 * Where the machine may reverse: every Reeds-Shepp / fishtail candidate (not only the shortest
 * few) before the join is reported as not fitted.
 */
export function reverseLastResort(from: Pose, to: Pose, ctx: RouteContext): Conn | undefined {
  return ctx.turnOptions.reverseAllowed
    ? (tryDirect(from, to, ctx, 64) ?? tryReversingSearch(from, to, ctx))
    : undefined;
}

/**
 * Where the machine may reverse and nothing else fits: a searched path driven forward and
 * backward (K-turns, reverseSearch.ts), drivable piece by piece between its cusps under the
 * machine's limits, inside the field. Failed searches have their own budget per `connectTracks`
 * call (`reverseSearchFailuresLeft`), so that forward searches failing first do not use it up.
 */
export function tryReversingSearch(from: Pose, to: Pose, ctx: RouteContext, maxExpansions?: number): Conn | undefined {
  if (timeIsUp(ctx) || (ctx.reverseSearchFailuresLeft ?? MAX_FAILED_SEARCHES) <= 0) return undefined;
  const R = ctx.turnOptions.turnRadiusMeters;
  const found = searchReversingConnector(from, to, ctx.region, {
    turnRadiusMeters: R,
    sampleStepMeters: ctx.turnOptions.sampleStepMeters ?? 0.5,
    ...(maxExpansions ? { maxExpansions } : {}),
    ...(ctx.abort ? { abort: ctx.abort } : {}),
  });
  if (!found) {
    if (!timeIsUp(ctx)) ctx.reverseSearchFailuresLeft = (ctx.reverseSearchFailuresLeft ?? MAX_FAILED_SEARCHES) - 1;
    return undefined;
  }
  const xy = drivableReversing(found, from, to, ctx.region, R, rateLimitOf(ctx));
  const reverse = found.cusps.length > 0 || found.startsReversed;
  return xy
    ? { xy, kind: 'search', turnType: reverse ? 'ReedsShepp' : 'Dubins', ...(reverse ? { reverse } : {}) }
    : undefined;
}
