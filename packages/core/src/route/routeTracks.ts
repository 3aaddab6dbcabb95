/**
 * The route stage: the tracks ordered (route/order/, route/optimize/) and then re-ordered on the
 * real connectors (route/order/connectedOrder.ts), joined to each other, to the headland passes
 * and to the staging area by turns and connectors (route/connectTracks.ts). Every connection
 * made while costing is kept: the chosen route is put together from them.
 *
 * Joins nothing fits (connector `unfitted`): the order is chosen on them as they are; those the
 * route uses are connected again with the tracks shortened there (warning `track-shortened`), and
 * a track that is still not joined is driven last or left out (warning `track-skipped`).
 */
import type { PathsD } from '../geometry/clipper.js';
import { groupPolygons, ringToFlat, shellCount } from '../geometry/clipper.js';
import { simplificationTolerance } from '../geometry/simplifyBoundary.js';
import { Region } from '../geometry/region.js';
import type { LocalFrame } from '../geometry/projection.js';
import { polylineLength, hypot } from '../geometry/vec.js';
import { buildWaypoints } from '../turns/waypointPath.js';
import type { Waypoints } from '../turns/waypointPath.js';
import { buildConnectorRings, buildNarrowConnectorRings } from '../turns/connectorRings.js';
import type { LoopPath } from '../turns/connectorRings.js';
import type { TurnOptions } from '../turns/types.js';
import type { LocalSegment, LocalWarning, Piece } from '../turns/path.js';
import type { HeadlandPass } from '../headland/generateHeadlands.js';
import type { HeadlandRoutePieces } from '../headland/headlandPieces.js';
import type { Track } from '../tracks/generateTracks.js';
import { stagingPointLocal, withStagingLegs } from '../refill/routeExtras.js';
import type { LegRouter } from '../refill/legs.js';
import type { ResolvedMachine, ResolvedRouteOptions } from '../request/normalizeRequest.js';
import { connectTracks, trackPieces } from './connectTracks.js';
import type { RouteContext, ShorteningBudget } from './connectTracks.js';
import type { ConnectionMemo } from './connectionMemo.js';
import { LARGE_FIELD_TRACKS, orderFieldTracks, tightestBendRatio, trackOrderingProblem } from './order/fieldOrder.js';
import type { FieldOrderInput, FieldOrderResult } from './order/fieldOrder.js';
import { assembleRoute, refineOrderOnConnectors, skipUnjoinable } from './order/connectedOrder.js';
import { dropUnjoinable } from './order/dropUnjoinable.js';
import type { RealCostModel, RefineResult } from './order/connectedOrder.js';
import { objectiveRates } from './optimize/objective.js';
import type { ObjectiveRates } from './optimize/objective.js';
import { routeBudget } from './budget.js';
import { workBudget, WORK_UNITS_PER_SECOND } from '../clock.js';
import { MIN_TRACK_AFTER_TRIM_METERS } from './connectContext.js';
import type { TrackVisit } from './connectContext.js';
import type { RouteBudget } from './budget.js';

export type { RouteBudget } from './budget.js';

/** What the route stage needs of the field (built once per `planRoute` call, reused by a second planning). */
export interface RouteField {
  field: PathsD;
  frame: LocalFrame;
  region: Region;
  waypoints: () => Waypoints;
  partOf?: (x: number, y: number) => number;
  loops: () => LoopPath[];
  /** Whether `loops` has built the rings. */
  loopsBuilt: () => boolean;
  memo: ConnectionMemo;
  /** Counted work (milliseconds of the work clock) the route stages of the call's earlier plannings spent. */
  spentWorkMilliseconds: number;
}

export interface RouteStageInput {
  routeField: RouteField;
  machine: ResolvedMachine;
  headlandPasses: number;
  routeOptions: ResolvedRouteOptions;
  turnOptions: TurnOptions;
  tracks: Track[];
  cellOf: Int32Array;
  directionRadians: number;
  /** Passes in driving order, and their pieces. */
  passOrder: HeadlandPass[];
  headlandRoute: HeadlandRoutePieces;
  /** A clock, milliseconds, bounding the ordering instead of the work budget (clock.ts); plan.ts gives none. */
  now?: () => number;
  /** The wall-clock cap of the call: true once it has passed (the ordering stops where it is). */
  outOfTime?: () => boolean;
  /** The same cap as the cheap way is taken past it (clock.ts `SafetyCap.hurry`): joins not costed yet are connected cheaply, none refitted or tried anew. */
  hurry?: (what: string, late?: boolean) => boolean;
  /** Whether a second planning follows this one (it then takes half of maxOptimizerTime). */
  secondFollows: boolean;
  /** Ordering time an earlier planning of the same call spent, ms. */
  orderingSpentMilliseconds: number;
  /** The field's access points (gates), local: the route starts at the first (ends at it when it is the only one). */
  gates?: { x: number; y: number }[];
}

export interface RoutedTracks {
  /** The route in the local frame, headland corners restored. */
  segments: LocalSegment[];
  warnings: LocalWarning[];
  staging?: [number, number];
  legRouter: LegRouter;
  ordered: FieldOrderResult;
  refined: RefineResult;
  assembled: boolean;
  /** Time the ordering took (with a clock), ms. */
  routeOrderMilliseconds?: number;
}

/** A connection as made: its segments and warnings. */
type Parts = { segs: LocalSegment[]; warnings: LocalWarning[] };
/** A connection not made (out of budget): counts as a join nothing fits. */
const UNJOINED: Parts = { segs: [{ type: 'Connector', xy: new Float64Array(0), connector: 'unfitted' }], warnings: [] };
/** What the wall-clock cap cuts here (the `time-limit` warning). */
const CUT_REFIT = 'joins nothing fitted were not tried again with the tracks shortened';
const CUT_NEW_CONNECTIONS = 'no track was taken out of the route for a join not costed before it';
const CUT_LAST_RESORT = 'joins nothing fits were left as they were, not re-planned as a last resort';
/** Connections `skipUnjoinable` may make beyond the ordering's, per planning. */
const MAX_NEW_CONNECTIONS = 48;
/** Connections the last resort for joins still not fitted (`dropUnjoinable`) may make, per planning. */
const MAX_LAST_RESORT_CONNECTIONS = 64;
/** Connections re-ordering the route round a join that taking tracks out does not mend (`relinkUnjoinable`) may make, per planning. */
const MAX_RELINK_CONNECTIONS = 64;
/**
 * Candidates (a stretch of tracks turned round or moved) that re-ordering round such joins may look
 * at, per planning: each costs a few microseconds once its connections are spent, and a route of
 * n tracks offers 24 × n of them per join (relinkUnjoinable.ts).
 */
const MAX_RELINK_CANDIDATES = 4096; /**
 * Counted work (Region.work units) after which a link tried instead of the route's own (by either of
 * the two above) is given up as not fitting: on sk-083 and it-tus-033 (W 3 m, R 12 m) every such link
 * that fits is found within 2.2 × 10⁵, one that does not searches 3-5 × 10⁶ before it says so.
 */
const TRIED_LINK_WORK_UNITS = 1_000_000;

/**
 * With access points and no other start asked for: the route enters the tracks at the track end
 * nearest the first gate (`startPointNodeIndex`: node 2i is track i's (x0, y0), 2i + 1 its (x1, y1)).
 */
function gateStartNode(
  gates: { x: number; y: number }[],
  tracks: Track[],
  ro: ResolvedRouteOptions,
  otherStart: boolean,
): { startPointNodeIndex?: number } {
  if (gates.length === 0 || otherStart || ro.startPointNodeIndex !== undefined || tracks.length === 0) return {};
  let best = 0,
    bestD = Infinity;
  tracks.forEach((t, i) => {
    const d0 = Math.hypot(t.x0 - gates[0].x, t.y0 - gates[0].y),
      d1 = Math.hypot(t.x1 - gates[0].x, t.y1 - gates[0].y);
    if (d0 < bestD) {
      bestD = d0;
      best = 2 * i;
    }
    if (d1 < bestD) {
      bestD = d1;
      best = 2 * i + 1;
    }
  });
  return { startPointNodeIndex: best };
}

/** Orders the tracks on their real connectors and connects the chosen route. */
export function routeTracks(inp: RouteStageInput): RoutedTracks {
  const { routeField, machine: m, routeOptions, passOrder } = inp;
  const headlandsFirst = routeOptions.headlandsFirst;
  // Without a caller's clock (planRoute): the route stage's work clock, counted geometric work in
  // milliseconds at WORK_UNITS_PER_SECOND, the same on any machine; what earlier plannings of the
  // call spent counts against this one's share of maxOptimizerTime.
  const region = routeField.region;
  const workClock = (): number => (region.work * 1000) / WORK_UNITS_PER_SECOND;
  const workAtStart = workClock();
  const budget = routeBudget(
    routeOptions.maxOptimizerTimeSeconds,
    inp.now ?? workClock,
    inp.secondFollows,
    inp.now ? inp.orderingSpentMilliseconds : routeField.spentWorkMilliseconds,
  );
  const staging = stagingPointLocal(routeField.frame, routeOptions);
  const rates = objectiveRates(m, routeOptions.objective);
  const headlandsAfter = !headlandsFirst && passOrder.length > 0;
  const lastPass = headlandsFirst ? passOrder[passOrder.length - 1] : undefined;
  const gates = inp.gates ?? [];
  const orderInput: FieldOrderInput = {
    tracks: inp.tracks,
    cellOf: inp.cellOf,
    directionRadians: inp.directionRadians,
    widthMeters: m.widthMeters,
    turnRadiusMeters: m.turnRadiusMeters,
    rates,
    routeOptions: {
      ...routeOptions,
      ...(budget.limitMilliseconds !== budget.fullLimitMilliseconds
        ? { maxOptimizerTimeSeconds: budget.limitMilliseconds / 1000 }
        : {}),
      ...gateStartNode(gates, inp.tracks, routeOptions, staging !== undefined || lastPass !== undefined),
    },
    ...(lastPass
      ? { startPoint: lastPass.ring[0] }
      : staging
        ? { startPoint: { x: staging[0], y: staging[1] }, startIsStaging: true }
        : gates.length > 0
          ? { startPoint: gates[0] }
          : {}),
    ...(staging && !headlandsAfter
      ? { endPoint: { x: staging[0], y: staging[1] }, endIsStaging: true }
      : !staging && gates.length === 1 && !headlandsAfter
        ? { endPoint: gates[0] }
        : {}),
    ...(inp.now ? { now: inp.now } : {}),
    workBudgetSeconds: routeOptions.maxOptimizerTimeSeconds,
    ...(inp.outOfTime ? { outOfTime: inp.outOfTime } : {}),
  };
  const ordered = orderFieldTracks(orderInput);
  const ctx = connectorContext(inp);
  // Staging and refill legs go round holes and bays inside the field (refill/legs.ts).
  const legRouter: LegRouter = {
    region: ctx.region,
    rings: routeField.field.map(ringToFlat),
    waypoints: ctx.waypoints!,
    turnRadiusMeters: m.turnRadiusMeters,
  };
  const conns = connections(inp, ctx, rates, staging, legRouter, budget, ordered.alternatives.length > 1);
  const now = inp.now;
  const clock = budget.now;
  const refined = refineOrderOnConnectors(orderInput, ordered, conns.model, {
    outOfTime: () => clock() - budget.startedAt >= budget.limitMilliseconds || (inp.outOfTime?.() ?? false),
    remainingMilliseconds: () => budget.limitMilliseconds - (clock() - budget.startedAt),
    // with the caller's clock a time limit; else the work clock and the work budget's rounds (clock.ts), one on large fields
    ...(now
      ? { now }
      : {
          workClock,
          maxRounds:
            inp.tracks.length > LARGE_FIELD_TRACKS ? 1 : workBudget(routeOptions.maxOptimizerTimeSeconds).rounds,
        }),
  });
  // Without the caller's clock, an ordering cut short before the wall-clock cap fired (it stays fired) ran out of counted work.
  if (!now && refined.stoppedBy === 'time-limit' && !inp.outOfTime?.()) refined.stoppedBy = 'work-limit';
  const routeOrderMilliseconds = now ? now() - budget.startedAt : undefined;
  // The chosen route is put together from its connections; a fixed order (nothing costed) is
  // connected now, as is any route whose parts do not fit together. For `optimized`, connectors
  // not costed yet (the clock ran out) are built now, the ones costed reused.
  const assembling = Number.isFinite(refined.nonWorkingCost) || conns.costMore;
  const kept = assembling
    ? skipUnjoinable(
        refined.visits,
        conns.partsVia(conns.within),
        (r) => !unfitted(r),
        (r) => r.warnings.length,
        (r) => r === UNJOINED,
      )
    : { visits: refined.visits, skipped: [] };
  // What still does not fit: the track after the join driven the other way, or a run of tracks next to it taken out
  // (not past the wall-clock cap: joins are then drawn cheaply, straight where nothing was tried, and warned).
  const stopLastResort = (): boolean => inp.hurry?.(CUT_LAST_RESORT) ?? inp.outOfTime?.() ?? false;
  const dropped =
    assembling && !inp.outOfTime?.()
      ? dropUnjoinable(kept.visits, conns.partsVia(conns.lastResort), {
          fits: (r) => !unfitted(r),
          defects: (r) => r.warnings.length,
          meters: (i) => trackMeters(inp.tracks[i]),
          trackLeft: (into, v, out) => trackLeft(into, v.trackIndex, out, trackMeters(inp.tracks[v.trackIndex])),
          relink: {
            parts: conns.partsVia(conns.relink),
            estimate: trackOrderingProblem(orderInput).transitionCost,
            limit: { candidatesLeft: MAX_RELINK_CANDIDATES, stop: stopLastResort },
          },
          scan: conns.partsVia(conns.reuse),
          stop: stopLastResort,
        })
      : { visits: kept.visits, skipped: [] };
  const routeVisits = dropped.visits;
  const assembled = assembling
    ? assembleRoute(routeVisits, conns.partsVia(conns.reuse), (k) => trackMeters(inp.tracks[routeVisits[k].trackIndex]))
    : undefined;
  const headlandPieces = inp.headlandRoute.pieces;
  const connectFixed = (visits: TrackVisit[]): Parts =>
    conns.connectPieces(
      headlandsFirst
        ? [...headlandPieces, ...trackPieces(inp.tracks, visits, inp.cellOf)]
        : [...trackPieces(inp.tracks, visits, inp.cellOf), ...headlandPieces],
      true,
      true,
      undefined,
      conns.shortening,
    );
  const fixed = assembled ? undefined : withoutUnreachableStrips(routeVisits, inp.tracks, connectFixed);
  const final = assembled ?? fixed!.parts;
  const lastResort = new Set(dropped.skipped);
  for (const sk of [...kept.skipped, ...dropped.skipped]) {
    const t = inp.tracks[sk.visit.trackIndex];
    const len = trackMeters(t);
    const why = lastResort.has(sk)
      ? ' or the track after the join driven the other way: taken out as a last resort, with any tracks next to it whose joins do not fit either'
      : '';
    final.warnings.push({
      code: 'track-skipped',
      message: `track ${sk.visit.trackIndex} (${Math.round(len)} m) is left out of the route: no manoeuvre within the turning radius (${m.turnRadiusMeters} m) fits inside the field ${sk.join === 'into' ? 'into it from the piece before it' : 'out of it to the piece after it'}, even with the tracks shortened${why}; its area counts as uncovered`,
      x: (t.x0 + t.x1) / 2,
      y: (t.y0 + t.y1) / 2,
    });
  }
  for (const v of fixed?.left ?? []) {
    const t = inp.tracks[v.trackIndex];
    final.warnings.push({
      code: 'track-skipped',
      message: `strip pass ${v.trackIndex} (${Math.round(trackMeters(t))} m at ${t.widthMeters!.toFixed(1)} m, sections off) is left out of the route: no manoeuvre within the turning radius (${m.turnRadiusMeters} m) fits inside the field to join it to the route; its strip counts as uncovered`,
      x: (t.x0 + t.x1) / 2,
      y: (t.y0 + t.y1) / 2,
      stripPass: true,
    });
  }
  if (!inp.now) routeField.spentWorkMilliseconds += workClock() - workAtStart;
  return {
    segments: inp.headlandRoute.restore(final.segs),
    warnings: final.warnings,
    ...(staging ? { staging } : {}),
    legRouter,
    ordered,
    refined,
    assembled: assembled !== undefined,
    ...(routeOrderMilliseconds !== undefined ? { routeOrderMilliseconds } : {}),
  };
}

/** What the plan reports of the ordering: the optimizer's report and how the real connectors chose. */
export function optimizerReport(routed: RoutedTracks): { [key: string]: unknown; timeSpentMilliseconds?: number } {
  const { ordered, refined } = routed;
  return {
    ...ordered.report,
    ...(routed.routeOrderMilliseconds !== undefined
      ? {
          timeSpentMilliseconds: routed.routeOrderMilliseconds,
          estimateMilliseconds: ordered.report.timeSpentMilliseconds,
        }
      : {}),
    chosen: refined.algorithm,
    realNonWorkingCost: refined.nonWorkingCost,
    realCostRounds: refined.rounds,
    connectorsEvaluated: refined.connectorsEvaluated,
    refineStoppedBy: refined.stoppedBy,
    assembled: routed.assembled,
    connected: refined.evaluated,
  };
}

function trackMeters(t: Track): number {
  return t.xy ? polylineLength(t.xy) : hypot(t.x1 - t.x0, t.y1 - t.y0);
}

/**
 * Whether the joins into and out of track `i` (`full` meters) leave something of it to drive: each,
 * made on its own, may have pulled its end of the track back (connectNeighbours, connectShortened);
 * a short track between two joins that both need room can lose more than its length to them.
 */
function trackLeft(into: Parts | undefined, i: number, out: Parts | undefined, full: number): boolean {
  const driven = (s: LocalSegment | undefined): number =>
    s && s.type === 'Track' && s.trackIndex === i ? polylineLength(s.xy) : full;
  const trimmed = full - driven(into?.segs[into.segs.length - 1]) + (full - driven(out?.segs[0]));
  return trimmed <= 1e-9 || full - trimmed >= MIN_TRACK_AFTER_TRIM_METERS;
}

/** Times a fixed order is connected again without the strip passes its joins that nothing fits lead into or out of. */
const STRIP_DROP_ROUNDS = 2;

/**
 * A fixed order (nothing costed, connected as it stands) whose join nothing fits leads into a strip
 * pass (tracks/strips.ts), or out of one, is connected again without that pass (the one after the
 * join, else the one before): a strip left, said so, rather than a join the machine cannot drive.
 * Full-width tracks stay; a route of strip passes alone keeps them (nothing else is left to drive).
 */
function withoutUnreachableStrips(
  visits: TrackVisit[],
  tracks: Track[],
  connect: (v: TrackVisit[]) => Parts,
): { parts: Parts; left: TrackVisit[] } {
  let parts = connect(visits);
  const left: TrackVisit[] = [];
  const isStrip = (i: number | undefined): boolean => i !== undefined && tracks[i].widthMeters !== undefined;
  if (!visits.some((v) => !isStrip(v.trackIndex))) return { parts, left };
  for (let round = 0; round < STRIP_DROP_ROUNDS; round++) {
    const drop = new Set<number>();
    const segs = parts.segs;
    for (let k = 0; k < segs.length; k++) {
      if (segs[k].connector !== 'unfitted') continue;
      let before: number | undefined, after: number | undefined;
      for (let j = k - 1; j >= 0 && before === undefined; j--)
        if (segs[j].type === 'Track') before = segs[j].trackIndex;
      for (let j = k + 1; j < segs.length && after === undefined; j++)
        if (segs[j].type === 'Track') after = segs[j].trackIndex;
      if (isStrip(after)) drop.add(after!);
      else if (isStrip(before)) drop.add(before!);
    }
    if (drop.size === 0) break;
    left.push(...visits.filter((v) => drop.has(v.trackIndex)));
    visits = visits.filter((v) => !drop.has(v.trackIndex));
    parts = connect(visits);
  }
  return { parts, left };
}

function unfitted(r: Parts): boolean {
  return r.segs.some((sg) => sg.connector === 'unfitted');
}

/** What `connectTracks` needs to join pieces in this field with this machine. */
function connectorContext(inp: RouteStageInput): RouteContext {
  const { routeField: rf, machine: m, routeOptions } = inp;
  const R = m.turnRadiusMeters,
    w = m.widthMeters;
  const { ringOffset } = connectorRingSizes(R, w, inp.headlandPasses);
  return {
    region: rf.region,
    waypoints: rf.waypoints,
    ...(rf.partOf ? { partOf: rf.partOf } : {}),
    loops: rf.loops,
    loopsBuilt: rf.loopsBuilt,
    memo: rf.memo,
    maxRingReachMeters: Math.max(inp.headlandPasses * w, ringOffset) + 2 * R,
    turnOptions: inp.turnOptions,
    widthMeters: w,
    warnings: [],
    ...(routeOptions.forcedDirection ? { headlandWinding: routeOptions.forcedDirection } : {}),
    ...(inp.hurry ? { hurry: inp.hurry } : {}),
    ...(routeOptions.enableHeadlandDrivethrough ? { headlandDrivethrough: true } : {}),
  };
}

/**
 * Connector rings' radius and offset from the field's edge. The rings keep a 15 % margin on the
 * turning radius: their arcs are polygons.
 */
export function connectorRingSizes(
  turnRadiusMeters: number,
  widthMeters: number,
  headlandPasses: number,
): { ringRadius: number; ringOffset: number } {
  const ringRadius = 1.15 * turnRadiusMeters;
  return { ringRadius, ringOffset: Math.max(ringRadius, (headlandPasses * widthMeters) / 2) };
}

/** The field as the route stage sees it, its costly parts built on first use. */
/** `ringField`: the field the connector rings are offset from (the simplified boundary, geometry/simplifyBoundary.ts); containment stays on `field`. */
export function routeFieldOf(
  field: PathsD,
  frame: LocalFrame,
  memo: ConnectionMemo,
  machine: ResolvedMachine,
  headlandPasses: number,
  ringField: PathsD = field,
): RouteField {
  const R = machine.turnRadiusMeters,
    w = machine.widthMeters;
  const { ringRadius, ringOffset } = connectorRingSizes(R, w, headlandPasses);
  let waypoints: Waypoints | undefined;
  let loops: LoopPath[] | undefined;
  return {
    field,
    frame,
    region: new Region(field),
    // a dense boundary's waypoints from the simplified one, its tolerance further in (legs are checked on `field`)
    waypoints: () => (waypoints ??= buildWaypoints(ringField, 1.5 * R + simplificationTolerance(ringField))),
    ...partLookup(field),
    loops: () =>
      (loops ??= [
        ...buildConnectorRings(ringField, ringOffset, ringRadius),
        ...buildNarrowConnectorRings(ringField, w / 2, ringRadius),
      ]),
    loopsBuilt: () => loops !== undefined,
    memo,
    spentWorkMilliseconds: 0,
  };
}

/** For multi-part fields: which part a point lies in (transport connectors join parts). */
function partLookup(field: PathsD): { partOf?: (x: number, y: number) => number } {
  if (shellCount(field) < 2) return {};
  const parts = groupPolygons(field);
  const regions = parts.map((p) => new Region(p));
  return { partOf: (x, y) => regions.findIndex((r) => r.contains(x, y)) };
}

type Lookup = (store: Map<number, Parts>, key: number, make: (abort?: () => boolean) => void) => Parts | undefined;

/**
 * The connections of one planning: made while costing (`model`, each kept), looked up when the
 * route is put together (`partsVia`), refitted with the tracks shortened where nothing fits, all
 * within the refit budget.
 */
function connections(
  inp: RouteStageInput,
  ctx: RouteContext,
  rates: ObjectiveRates,
  staging: [number, number] | undefined,
  legRouter: LegRouter,
  budget: RouteBudget,
  costMore: boolean,
) {
  const { tracks, cellOf } = inp;
  const headlandsFirst = inp.routeOptions.headlandsFirst;
  const R = inp.machine.turnRadiusMeters;
  const headlandPieces = inp.headlandRoute.pieces;
  const connectorCost = (segs: LocalSegment[], warningCount: number): { cost: number; defects: number } => {
    let cost = 0;
    let defects = warningCount;
    for (const s of segs) {
      if (s.type !== 'Turn' && s.type !== 'Connector') continue;
      cost += polylineLength(s.xy) * (s.connector === 'staging' ? rates.transportPerMeter : rates.turningPerMeter);
      if (
        s.connector !== 'staging' &&
        s.connector !== 'unfitted' &&
        s.connector !== 'transport' &&
        (tightestBendRatio(s.xy, R) > 1.05 || !ctx.region.containsPolyline(s.xy))
      )
        defects++;
    }
    return { cost, defects };
  };
  const stagingLeg = (xy: Float64Array): LocalSegment => ({ type: 'Connector', xy, connector: 'staging' });
  const connectPieces = (
    p: Piece[],
    legIn: boolean,
    legOut: boolean,
    abort?: () => boolean,
    shortenUnfitted?: ShorteningBudget,
  ): Parts & { aborted?: boolean } => {
    const c: RouteContext = {
      ...ctx,
      warnings: [],
      ...(abort ? { abort } : {}),
      ...(shortenUnfitted ? { shortenUnfitted } : {}),
    };
    let segs = connectTracks(p, c);
    if (staging && (legIn || legOut))
      segs = withStagingLegs(segs, staging, stagingLeg, { legIn, legOut, router: legRouter });
    return { segs, warnings: c.warnings, ...(c.aborted ? { aborted: true } : {}) };
  };
  /** The track of end `e` as a piece driven so that it leaves through `e` (exit) or enters through it. */
  const pieceAt = (e: number, entering: boolean): Piece =>
    trackPieces(tracks, [{ trackIndex: e >> 1, forward: entering ? (e & 1) === 0 : (e & 1) === 1 }], cellOf)[0];
  const linkParts = new Map<number, Parts>();
  const headParts = new Map<number, Parts>();
  const tailParts = new Map<number, Parts>();
  const endCount = 2 * tracks.length;
  // A connection the ordering's deadline cut short (`abort`) is neither kept nor its cost trusted.
  const costOf = (
    p: Piece[],
    legIn: boolean,
    legOut: boolean,
    keep: (r: Parts) => void,
    abort?: () => boolean,
  ): { cost: number; defects: number; aborted?: boolean } => {
    const r = connectPieces(p, legIn, legOut, abort);
    if (r.aborted) return { ...connectorCost(r.segs, r.warnings.length), aborted: true };
    keep(r);
    return connectorCost(r.segs, r.warnings.length);
  };
  // The pieces of a link (track end to track end), of the head (start to the first track) and of
  // the tail. No head (tail) is driven unless headland passes or a staging area come before (after)
  // the tracks.
  const linkPieces = (a: number, b: number): Piece[] => [pieceAt(a, false), pieceAt(b, true)];
  const headPieces = (e: number): Piece[] =>
    headlandsFirst ? [...headlandPieces, pieceAt(e, true)] : [pieceAt(e, true)];
  const tailPieces = (e: number): Piece[] =>
    headlandsFirst ? [pieceAt(e, false)] : [pieceAt(e, false), ...headlandPieces];
  const drivesHead = headlandsFirst || staging !== undefined;
  const drivesTail = !headlandsFirst || staging !== undefined;
  // Connections made while ordering get the deadline (`abort`): a connector search still running
  // at maxOptimizerTime gives up there, so the limit is hard (route/order/connectedOrder.ts).
  const model: RealCostModel = {
    link: (a, b, abort) => costOf(linkPieces(a, b), false, false, (r) => linkParts.set(a * endCount + b, r), abort),
    head: (e, abort) =>
      drivesHead ? costOf(headPieces(e), true, false, (r) => headParts.set(e, r), abort) : { cost: 0, defects: 0 },
    tail: (e, abort) =>
      drivesTail ? costOf(tailPieces(e), false, true, (r) => tailParts.set(e, r), abort) : { cost: 0, defects: 0 },
  };
  // Connections tried again in vain, not tried a third time (skipUnjoinable and assembleRoute ask twice).
  const refitFailed = new Map<Map<number, Parts>, Set<number>>();
  const refit = (
    store: Map<number, Parts>,
    key: number,
    r: Parts | undefined,
    pieces: () => Piece[],
    legIn: boolean,
    legOut: boolean,
  ): Parts | undefined => {
    if (!r || r === UNJOINED || !unfitted(r)) return r;
    let failed = refitFailed.get(store);
    if (!failed) refitFailed.set(store, (failed = new Set()));
    if (failed.has(key) || budget.refitExhausted() || inp.hurry?.(CUT_REFIT)) return r;
    failed.add(key);
    const again = connectPieces(pieces(), legIn, legOut, undefined, budget.shortening);
    if (again.aborted || unfitted(again)) return r;
    store.set(key, again);
    return again;
  };
  // A connection as kept, or made by `make` (which stores it) where `lookup` decides to; refitted
  // where it does not fit.
  const partsVia = (lookup: Lookup) => ({
    link: (a: number, b: number): Parts | undefined =>
      refit(
        linkParts,
        a * endCount + b,
        lookup(linkParts, a * endCount + b, (abort) => model.link(a, b, abort)),
        () => linkPieces(a, b),
        false,
        false,
      ),
    head: (e: number): Parts | undefined =>
      drivesHead
        ? refit(
            headParts,
            e,
            lookup(headParts, e, (abort) => model.head(e, abort)),
            () => headPieces(e),
            true,
            false,
          )
        : undefined,
    tail: (e: number): Parts | undefined =>
      drivesTail
        ? refit(
            tailParts,
            e,
            lookup(tailParts, e, (abort) => model.tail(e, abort)),
            () => tailPieces(e),
            false,
            true,
          )
        : undefined,
  });
  const reuse: Lookup = (store, key, make) => store.get(key) ?? (costMore ? (make(), store.get(key)) : undefined);
  // Choosing which tracks to take out makes connections the ordering did not: within the refit
  // budget (and at most MAX_NEW_CONNECTIONS of them); one it does not reach counts as not fitting,
  // so no track is taken out on its account.
  let newConnectionsLeft = MAX_NEW_CONNECTIONS;
  const within: Lookup = (store, key, make) => {
    const have = store.get(key);
    if (have || !costMore) return have;
    if (inp.hurry?.(CUT_NEW_CONNECTIONS)) return UNJOINED;
    budget.startRefitClock();
    if (budget.refitExhausted() || newConnectionsLeft <= 0) return UNJOINED;
    newConnectionsLeft--;
    make(budget.shortening.over);
    return store.get(key) ?? UNJOINED;
  };
  // The last resort (`dropUnjoinable`) makes the connections it needs, a counted number of them,
  // unless the wall-clock cap has fired; re-ordering round a join that taking tracks out does not
  // mend (`relinkUnjoinable`) makes its own, counted apart. A link either tries is given up after
  // a counted amount of work (remembered as not fitting, not tried again); heads and tails (the
  // headland passes driven) are not.
  const counted = (limit: number): Lookup => {
    let left = limit;
    const given = new Map<Map<number, Parts>, Set<number>>();
    return (store, key, make) => {
      const have = store.get(key);
      if (have) return have;
      if (given.get(store)?.has(key) || left <= 0 || inp.outOfTime?.()) return UNJOINED;
      left--;
      const until = ctx.region.work + TRIED_LINK_WORK_UNITS;
      make(store === linkParts ? () => ctx.region.work > until : undefined);
      const made = store.get(key);
      if (made) return made;
      let gave = given.get(store);
      if (!gave) given.set(store, (gave = new Set()));
      gave.add(key);
      return UNJOINED;
    };
  };
  const lastResort = counted(MAX_LAST_RESORT_CONNECTIONS);
  const relink = counted(MAX_RELINK_CONNECTIONS);
  return { model, partsVia, reuse, within, lastResort, relink, connectPieces, costMore, shortening: budget.shortening };
}
