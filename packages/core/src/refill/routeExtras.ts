/**
 * Route extras the planner adds after connecting: entry and exit legs to a staging area and the
 * refill points along the route (routeOptions.stagingArea, calculateRefillPoints,
 * refillStrategyType). Structural types only, so the planner's segment type fits as is.
 */
import { PlanError } from '../errors.js';
import type { Position, RefillStrategyType, RouteApiOptions } from '../types.js';
import type { RefillCapacity, ResolvedRouteOptions } from '../request/normalizeRequest.js';
import { planRefills, type RefillPointLocal, type XY } from './refill.js';
import { legLengthMeters, routeLeg, type LegRouter } from './legs.js';
import { hypot, polylineLength } from '../geometry/vec.js';

export interface ExtrasSegment {
  type: string;
  /** Flat local xy. */
  xy: Float64Array;
  connector?: string;
}

export interface ExtrasFrame {
  toLocal(lon: number, lat: number): [number, number];
  toLonLat(x: number, y: number): Position;
}

/** The staging area in the local frame, validated; undefined when not given. */
export function stagingPointLocal(frame: ExtrasFrame, routeOptions: RouteApiOptions): XY | undefined {
  const s = routeOptions.stagingArea as unknown;
  if (s === undefined || s === null) return undefined;
  if (
    !Array.isArray(s) ||
    s.length < 2 ||
    !s.slice(0, 2).every((v) => typeof v === 'number' && Number.isFinite(v)) ||
    Math.abs(s[0]) > 180 ||
    Math.abs(s[1]) > 90
  ) {
    throw new PlanError('invalid-request', 'routeOptions.stagingArea: must be [lon, lat] in WGS84 degrees', [
      { path: 'routeOptions.stagingArea', message: 'must be [lon, lat]' },
    ]);
  }
  return frame.toLocal(s[0] as number, s[1] as number);
}

export interface StagingLegOptions {
  /** Add the leg from the staging area to the route's start (default true). */
  legIn?: boolean;
  /** Add the leg from the route's end back to the staging area (default true). */
  legOut?: boolean;
  /** Route the legs inside the field (refill/legs.ts); absent = straight lines. */
  router?: LegRouter;
}

/**
 * Prepends the leg from the staging area and appends the leg back to it: routed inside the field
 * when a router is given (straight otherwise), a point every 0.5 m.
 */
export function withStagingLegs<T extends ExtrasSegment>(
  segments: T[],
  staging: XY,
  make: (xy: Float64Array) => T,
  options: StagingLegOptions = {},
): T[] {
  if (segments.length === 0) return segments;
  const first = segments[0].xy;
  const last = segments[segments.length - 1].xy;
  const out: T[] = [];
  if (options.legIn !== false) out.push(make(straightLeg(routeLeg(options.router, staging, [first[0], first[1]]))));
  for (const s of segments) out.push(s);
  if (options.legOut !== false)
    out.push(make(straightLeg(routeLeg(options.router, [last[last.length - 2], last[last.length - 1]], staging))));
  return out;
}

export type { RefillCapacity };

/** A refill point as the plan carries it (lon/lat). */
export interface PlanRefillPoint {
  index: number;
  /** Where the machine leaves the route and later resumes. */
  position: Position;
  /** Where it leaves the field towards the staging area. */
  exitPosition: Position;
  /**
   * Sequence number of the route segment it leaves from (not `sequence`: that names route pieces), and how far along
   * it.
   */
  routeSequence: number;
  alongMeters: number;
  /** Out-and-back detour, meters (counted in the plan's non-working distance). */
  detourMeters: number;
  /** Tank contents when leaving. */
  remainingBefore: number;
  strategy: RefillStrategyType;
}

const WORKING = new Set(['Track', 'ExteriorHeadland', 'InteriorHeadland']);

/** Nearest point on a set of closed rings (flat xy, local). */
export function nearestOnRings(rings: ArrayLike<number>[], at: XY): XY {
  let best: XY = at;
  let bestD = Infinity;
  for (const r of rings) {
    for (let i = 2; i + 1 < r.length; i += 2) {
      const ax = r[i - 2],
        ay = r[i - 1],
        bx = r[i],
        by = r[i + 1];
      const dx = bx - ax,
        dy = by - ay;
      const l2 = dx * dx + dy * dy;
      const t = l2 > 0 ? Math.max(0, Math.min(1, ((at[0] - ax) * dx + (at[1] - ay) * dy) / l2)) : 0;
      const px = ax + t * dx,
        py = ay + t * dy;
      const d = (px - at[0]) ** 2 + (py - at[1]) ** 2;
      if (d < bestD) {
        bestD = d;
        best = [px, py];
      }
    }
  }
  return best;
}

/**
 * Refill points along the connected route. The depot is the staging area, or the route's start
 * when none is given. Exterior headland rings (closed, flat xy) serve ClosestExternalHeadland.
 */
export function routeRefillPoints(
  segments: ExtrasSegment[],
  capacity: RefillCapacity,
  widthMeters: number,
  strategy: RefillStrategyType,
  depot: XY,
  frame: ExtrasFrame,
  exteriorRings: ArrayLike<number>[],
  router?: LegRouter,
): { points: PlanRefillPoint[]; detourMeters: number; local: RefillPointLocal[] } {
  const result = planRefills({
    ...(router ? { travelMeters: (a: XY, b: XY) => legLengthMeters(routeLeg(router, a, b)) } : {}),
    pieces: segments.map((s) => ({ points: s.xy, working: WORKING.has(s.type), widthMeters })),
    tankCapacity: capacity.tankCapacity,
    applicationRatePerHectare: capacity.applicationRatePerHectare,
    strategy,
    staging: depot,
    ...(exteriorRings.length > 0
      ? { nearestExteriorHeadlandPoint: (at: XY) => nearestOnRings(exteriorRings, at) }
      : {}),
  });
  const round = (v: number): number => Math.round(v * 1000) / 1000;
  const points = result.points.map((p, index) => ({
    index,
    position: frame.toLonLat(p.at[0], p.at[1]),
    exitPosition: frame.toLonLat(p.exitAt[0], p.exitAt[1]),
    routeSequence: p.pieceIndex,
    alongMeters: round(p.alongMeters),
    detourMeters: round(p.detourMeters),
    remainingBefore: round(p.remainingBefore),
    strategy: p.strategy,
  }));
  return { points, detourMeters: result.detourMeters, local: result.points };
}

/** The route options refills read (resolved by `normalizeRequest`). */
export type RefillOptions = Pick<ResolvedRouteOptions, 'calculateRefillPoints' | 'refillStrategyType'>;

/** Straight polyline a → b with a point at least every `stepMeters` (route connectors are checked for density). */
export function straightLeg(points: XY[], stepMeters = 0.5): Float64Array {
  const out: number[] = [points[0][0], points[0][1]];
  for (let i = 1; i < points.length; i++) {
    const [ax, ay] = points[i - 1];
    const [bx, by] = points[i];
    const len = hypot(bx - ax, by - ay);
    const steps = Math.max(1, Math.ceil(len / stepMeters));
    for (let k = 1; k <= steps; k++) out.push(ax + ((bx - ax) * k) / steps, ay + ((by - ay) * k) / steps);
  }
  return Float64Array.from(out);
}

/** Splits a polyline at increasing distances along it. */
function splitAt(xy: Float64Array, cuts: number[]): Float64Array[] {
  const parts: Float64Array[] = [];
  let cur: number[] = [xy[0], xy[1]];
  let walked = 0;
  let c = 0;
  for (let i = 2; i + 1 < xy.length; i += 2) {
    const ax = xy[i - 2],
      ay = xy[i - 1],
      bx = xy[i],
      by = xy[i + 1];
    const seg = hypot(bx - ax, by - ay);
    while (c < cuts.length && cuts[c] <= walked + seg) {
      const t = seg > 0 ? Math.max(0, Math.min(1, (cuts[c] - walked) / seg)) : 0;
      const px = ax + t * (bx - ax),
        py = ay + t * (by - ay);
      cur.push(px, py);
      parts.push(Float64Array.from(cur));
      cur = [px, py];
      c++;
    }
    cur.push(bx, by);
    walked += seg;
  }
  while (c++ < cuts.length) {
    parts.push(Float64Array.from(cur));
    cur = [cur[cur.length - 2], cur[cur.length - 1]];
  }
  parts.push(Float64Array.from(cur));
  return parts;
}

/**
 * Plans refills (when `calculateRefillPoints` is set) and writes their detours into the route:
 * the working piece is split where the machine leaves, and two `Connector` pieces
 * (`connector: 'refill'`) go to the depot and back (via the exterior headland point for
 * ClosestExternalHeadland), so the route stays continuous and its metrics count the detours.
 * The depot is the staging area, or the route's start. Returns undefined when not requested.
 */
export function withRefillDetours<T extends ExtrasSegment>(
  segments: T[],
  capacity: RefillCapacity | undefined,
  routeOptions: RefillOptions,
  widthMeters: number,
  staging: XY | undefined,
  frame: ExtrasFrame,
  exteriorRings: ArrayLike<number>[],
  makeConnector: (xy: Float64Array) => T,
  router?: LegRouter,
): { segments: T[]; points: PlanRefillPoint[]; detourMeters: number } | undefined {
  if (!routeOptions.calculateRefillPoints || !capacity || segments.length === 0) return undefined;
  const depot: XY = staging ?? [segments[0].xy[0], segments[0].xy[1]];
  const closed = exteriorRings.map((r) => {
    const a = Array.from(r);
    if (a.length >= 4 && (a[0] !== a[a.length - 2] || a[1] !== a[a.length - 1])) a.push(a[0], a[1]);
    return a;
  });
  const planned = routeRefillPoints(
    segments,
    capacity,
    widthMeters,
    routeOptions.refillStrategyType,
    depot,
    frame,
    closed,
    router,
  );
  const byPiece = new Map<number, number[]>();
  planned.local.forEach((p, i) => {
    const list = byPiece.get(p.pieceIndex);
    if (list) list.push(i);
    else byPiece.set(p.pieceIndex, [i]);
  });
  const out: T[] = [];
  segments.forEach((seg, k) => {
    const ids = byPiece.get(k);
    if (!ids) {
      out.push(seg);
      return;
    }
    const parts = splitAt(
      seg.xy,
      ids.map((i) => planned.local[i].alongMeters),
    );
    parts.forEach((part, j) => {
      if (part.length >= 4 && polylineLength(part) > 1e-9) out.push({ ...seg, xy: part });
      if (j < ids.length) {
        const p = planned.local[ids[j]];
        // out to the depot (via the exterior headland point for ClosestExternalHeadland), routed inside the field, and
        // back the same way
        let via: XY[] = [p.at];
        if (hypot(p.exitAt[0] - p.at[0], p.exitAt[1] - p.at[1]) > 1e-9) via = routeLeg(router, p.at, p.exitAt);
        via = [...via, ...routeLeg(router, via[via.length - 1], depot).slice(1)];
        planned.points[ids[j]].routeSequence = out.length;
        out.push(makeConnector(straightLeg(via)));
        out.push(makeConnector(straightLeg([...via].reverse())));
      }
    });
  });
  return { segments: out, points: planned.points, detourMeters: planned.detourMeters };
}
