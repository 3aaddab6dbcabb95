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
import type { LocalSegment, LocalWarning } from '../turns/path.js';
import type { Track } from '../tracks/generateTracks.js';
import { stagingPointLocal } from '../refill/routeExtras.js';
import type { LegRouter } from '../refill/legs.js';
import type { ResolvedMachine, ResolvedRouteOptions } from '../request/normalizeRequest.js';
import { trackPieces } from './connectTracks.js';
import type { RouteContext } from './connectTracks.js';
import type { ConnectionMemo } from './connectionMemo.js';
import { LARGE_FIELD_TRACKS, orderFieldTracks, trackOrderingProblem } from './order/fieldOrder.js';
import type { FieldOrderInput, FieldOrderResult } from './order/fieldOrder.js';
import { assembleRoute, refineOrderOnConnectors, skipUnjoinable } from './order/connectedOrder.js';
import { dropUnjoinable } from './order/dropUnjoinable.js';
import type { RefineResult, SkippedVisit } from './order/connectedOrder.js';
import { objectiveRates } from './optimize/objective.js';
import type { ObjectiveRates } from './optimize/objective.js';
import { routeBudget } from './budget.js';
import { workBudget, WORK_UNITS_PER_SECOND } from '../clock.js';
import { MIN_TRACK_AFTER_TRIM_METERS } from './connectContext.js';
import type { TrackVisit } from './connectContext.js';
import type { RouteBudget } from './budget.js';
import { connections, UNJOINED, unfitted } from './routeConnections.js';
import { passesBetween } from './passesBetween.js';
import type { Parts } from './routeConnections.js';

export type { RouteBudget } from './budget.js';

import type { RouteField, RouteStageInput } from './routeStageInput.js';

export type { RouteField, RouteStageInput } from './routeStageInput.js';

/** What the wall-clock cap cuts in the last resort for joins nothing fits (the `time-limit` warning). */
const CUT_LAST_RESORT = 'joins nothing fits were left as they were, not re-planned as a last resort';
/**
 * Candidates (a stretch of tracks turned round or moved) that re-ordering round such joins may look
 * at, per planning: each costs a few microseconds once its connections are spent, and a route of
 * n tracks offers 24 × n of them per join (relinkUnjoinable.ts).
 */
const MAX_RELINK_CANDIDATES = 4096;

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

/** What the field's track ordering is asked: the tracks, the machine, the route options within the budget, the ends. */
function fieldOrderInput(
  inp: RouteStageInput,
  budget: RouteBudget,
  staging: ReturnType<typeof stagingPointLocal>,
  rates: ObjectiveRates,
): FieldOrderInput {
  const { machine: m, routeOptions, passOrder } = inp;
  const headlandsFirst = routeOptions.headlandsFirst;
  const headlandsAfter = !headlandsFirst && passOrder.length > 0;
  const lastPass = headlandsFirst ? passOrder[passOrder.length - 1] : undefined;
  const gates = inp.gates ?? [];
  return {
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
}

/** Each track and strip pass left out of the route is warned, with the reason. */
function warnLeftOut(
  final: Parts,
  inp: RouteStageInput,
  keptSkipped: SkippedVisit[],
  droppedSkipped: SkippedVisit[],
  stripsLeft: TrackVisit[],
): void {
  const m = inp.machine;
  const lastResort = new Set(droppedSkipped);
  for (const sk of [...keptSkipped, ...droppedSkipped]) {
    const t = inp.tracks[sk.visit.trackIndex];
    const len = trackMeters(t);
    const why = lastResort.has(sk)
      ? ' or the track after the join driven the other way: taken out as a last resort, with any tracks next to it ' +
        'whose joins do not fit either'
      : '';
    final.warnings.push({
      code: 'track-skipped',
      message:
        `track ${sk.visit.trackIndex} (${Math.round(len)} m) is left out of the route: no manoeuvre within ` +
        `the turning radius (${m.turnRadiusMeters} m) fits inside the field ` +
        `${sk.join === 'into' ? 'into it from the piece before it' : 'out of it to the piece after it'}, even ` +
        `with the tracks shortened${why}; its area counts as uncovered`,
      x: (t.x0 + t.x1) / 2,
      y: (t.y0 + t.y1) / 2,
    });
  }
  for (const v of stripsLeft) {
    const t = inp.tracks[v.trackIndex];
    final.warnings.push({
      code: 'track-skipped',
      message:
        `strip pass ${v.trackIndex} (${Math.round(trackMeters(t))} m at ${t.widthMeters!.toFixed(1)} m, ` +
        `sections off) is left out of the route: no manoeuvre within the turning radius (${m.turnRadiusMeters} ` +
        `m) fits inside the field to join it to the route; its strip counts as uncovered`,
      x: (t.x0 + t.x1) / 2,
      y: (t.y0 + t.y1) / 2,
      stripPass: true,
    });
  }
}

function legRouterOf(field: PathsD, ctx: RouteContext, turnRadiusMeters: number): LegRouter {
  return { region: ctx.region, rings: field.map(ringToFlat), waypoints: ctx.waypoints!, turnRadiusMeters };
}

/** Orders the tracks on their real connectors and connects the chosen route. */
export function routeTracks(inp: RouteStageInput): RoutedTracks {
  const { routeField, machine: m, routeOptions } = inp;
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
  const orderInput = fieldOrderInput(inp, budget, staging, rates);
  const ordered = orderFieldTracks(orderInput);
  const ctx = connectorContext(inp);
  // Staging and refill legs go round holes and bays inside the field (refill/legs.ts).
  const legRouter: LegRouter = legRouterOf(routeField.field, ctx, m.turnRadiusMeters);
  const conns = connections(inp, ctx, rates, staging, legRouter, budget, ordered.alternatives.length > 1);
  const now = inp.now;
  const clock = budget.now;
  const refined = refineOrderOnConnectors(orderInput, ordered, conns.model, {
    outOfTime: () => clock() - budget.startedAt >= budget.limitMilliseconds || (inp.outOfTime?.() ?? false),
    remainingMilliseconds: () => budget.limitMilliseconds - (clock() - budget.startedAt),
    // with the caller's clock a time limit; else the work clock and the work budget's rounds (clock.ts), one on large
    // fields
    ...(now
      ? { now }
      : {
          workClock,
          maxRounds:
            inp.tracks.length > LARGE_FIELD_TRACKS ? 1 : workBudget(routeOptions.maxOptimizerTimeSeconds).rounds,
        }),
  });
  // Without the caller's clock, an ordering cut short before the wall-clock cap fired (it stays fired) ran out of
  // counted work.
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
  const dropped =
    assembling && !inp.outOfTime?.()
      ? lastResort(inp, conns, kept.visits, orderInput)
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
  const between = inp.passesBetween ? passesBetweenRoute(inp, refined.visits, conns, rates) : undefined;
  const final = between ?? assembled ?? fixed!.parts;
  if (!between) warnLeftOut(final, inp, kept.skipped, dropped.skipped, fixed?.left ?? []);
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

/**
 * The `passes-between` variant's route (route/passesBetween.ts): its headland passes between two tracks of the
 * chosen order; undefined where it has none, drives them first, or no split joins every piece.
 */
function passesBetweenRoute(
  inp: RouteStageInput,
  visits: TrackVisit[],
  conns: ReturnType<typeof connections>,
  rates: ObjectiveRates,
): Parts | undefined {
  const ro = inp.routeOptions;
  const pieces = inp.headlandRoute.pieces;
  if (ro.headlandsFirst || pieces.length === 0) return undefined;
  const asked =
    (inp.gates?.length ?? 0) > 0 || ro.startPointNodeIndex !== undefined || ro.endPointNodeIndex !== undefined;
  return passesBetween(
    inp.tracks,
    inp.cellOf,
    visits,
    pieces,
    rates,
    (p, budget) => conns.connectPieces(p, true, true, undefined, conns.shortening, budget),
    asked ? 'asked' : 'free',
  );
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
/**
 * `ringField`: the field the connector rings are offset from (the simplified boundary, geometry/simplifyBoundary.ts);
 * containment stays on `field`.
 */
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

/**
 * The last resort for joins that still do not fit: the track after the join driven the other way, a
 * run of tracks next to it taken out, or the route re-ordered round it; stopped at the wall-clock cap.
 */
function lastResort(
  inp: RouteStageInput,
  conns: ReturnType<typeof connections>,
  visits: TrackVisit[],
  orderInput: Parameters<typeof trackOrderingProblem>[0],
): ReturnType<typeof dropUnjoinable> {
  const stopLastResort = (): boolean => inp.hurry?.(CUT_LAST_RESORT) ?? inp.outOfTime?.() ?? false;
  return dropUnjoinable(visits, conns.partsVia(conns.lastResort), {
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
  });
}
