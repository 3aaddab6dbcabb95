/**
 * `planRoute(request) → Plan`: the whole pipeline, synchronous, pure and deterministic. One call
 * per stage, in order:
 *
 *   normalizeRequest (request/) → prepareField (geometry/) → generateHeadlands (headland/) →
 *   chooseHeading, planTracks (tracks/) → routeTracks (route/: ordering on the real connectors,
 *   turns and connectors from turns/) → addRefillDetours (refill/) → zoneRoute (route/: zones
 *   joined by declared, warned transit legs) → computeMetrics (metrics/) → assemblePlan with the
 *   warnings and zones, addPlanExtras (output/) → placeWarnings (every warning has a place)
 */
import type { Plan, PathPlanRequest } from './types.js';
import { normalizeRequest } from './request/normalizeRequest.js';
import { assertPlannable, prepareField } from './geometry/prepareField.js';
import type { LocalField } from './geometry/prepareField.js';
import { areaOf } from './geometry/clipper.js';
import { roundDeg } from './geometry/projection.js';
import { machineTurnOptions } from './turns/machineTurnOptions.js';
import type { LocalSegment } from './turns/path.js';
import { generateHeadlands } from './headland/generateHeadlands.js';
import { headlandRoutePieces, readHeadlandStyle } from './headland/headlandPieces.js';
import { headlandReport, passDrivingOrder, shapeHeadlands } from './headland/planHeadlands.js';
import type { ShapedHeadlands } from './headland/planHeadlands.js';
import { searchHeading } from './tracks/searchHeading.js';
import { chooseHeading, planTracks } from './tracks/planTracks.js';
import { headlandWidenedWarning, turnHeadlandPasses } from './tracks/widenHeadland.js';
import type { TurnHeadland } from './tracks/widenHeadland.js';
import { routeFieldOf, routeTracks } from './route/routeTracks.js';
import type { RouteField } from './route/routeTracks.js';
import { createConnectionMemo } from './route/connectionMemo.js';
import type { ConnectionMemo } from './route/connectionMemo.js';
import { addRefillDetours } from './refill/routeExtras.js';
import { addRefillMetrics, computeMetrics } from './metrics/computeMetrics.js';
import { assemblePlan } from './output/assemblePlan.js';
import { addPlanExtras } from './output/planExtras.js';
import { zonesToPlan } from './output/zonesToPlan.js';
import { zoneRoute } from './route/zones.js';
import { placeWarnings } from './warnings.js';
import { checkPlan } from './check/checkPlan.js';
import { simplifyBoundary } from './geometry/simplifyBoundary.js';
import type { PathsD } from './geometry/clipper.js';
import type { LocalWarning } from './turns/path.js';
import { reportStage } from './progress.js';
import type { ProgressCallback } from './progress.js';

/** What the caller may inject: a milliseconds clock lets the optimizer honour maxOptimizerTime (core reads no clock). */
export interface PlanRuntime {
  now?: () => number;
  /** Called as each stage starts (progress.ts): a plain callback, no I/O. */
  onProgress?: ProgressCallback;
}

/**
 * Plans a coverage route for one field. Synchronous; throws `PlanError` on bad input.
 *
 * Per-cell headings (tracks/cellHeadings.ts) are chosen on an estimate; when any cell got its own
 * heading, the field is planned a second time with the field heading in every cell, and the
 * per-cell plan is kept only if it is shorter on the real route (less non-working distance), has
 * no more `checkPlan` violations and covers as well (uncovered ratio at most 0.1 point higher).
 */
export function planRoute(request: PathPlanRequest, runtime: PlanRuntime = {}): Plan {
  // The two plannings share what depends on the field alone, and the connections made (route/connectionMemo.ts).
  const shared: SharedWork = { memo: createConnectionMemo() };
  const first = planRouteOnce(request, runtime, true, shared);
  if (!first.ownCellHeadings) return placeWarnings(first.plan);
  // maxOptimizerTime bounds the ordering of the whole call: the second planning gets what the first left of it
  const spent = first.plan.optimizer?.timeSpentMilliseconds ?? 0;
  const plain = planRouteOnce(request, runtime, false, shared, spent).plan;
  const a = first.plan.metrics, b = plain.metrics;
  // A per-cell plan with no violations has no more than the plain one, whatever that has: not checked then.
  const better = a.nonWorkingDistanceMeters < b.nonWorkingDistanceMeters && a.uncoveredRatio <= b.uncoveredRatio + 0.001 &&
    violationsAtMost(checkPlan(request, first.plan).violations.length, () => checkPlan(request, plain).violations.length);
  const chosen = better ? first.plan : plain;
  // the ordering time reported is that of the whole call (both plannings)
  const second = plain.optimizer?.timeSpentMilliseconds;
  if (chosen.optimizer && second !== undefined) chosen.optimizer.timeSpentMilliseconds = spent + second;
  return placeWarnings(chosen);
}

/** count ≤ other(), without calling other when count is 0. */
function violationsAtMost(count: number, other: () => number): boolean {
  return count === 0 || count <= other();
}

/**
 * Work of one `planRoute` call that does not depend on the tracks (the same request gives the same
 * field, headlands, heading and connector rings): done by the first planning, reused by the second.
 */
interface SharedWork {
  memo: ConnectionMemo;
  prepared?: LocalField;
  /** The field within BOUNDARY_TOLERANCE_METERS where it is dense (geometry/simplifyBoundary.ts): for headland offsets and connector rings. */
  simple?: PathsD;
  fullHeadlands?: ReturnType<typeof generateHeadlands>;
  searchedDirectionRadians?: number;
  shaped?: ShapedHeadlands;
  headlandRoute?: ReturnType<typeof headlandRoutePieces>;
  routeField?: RouteField;
  /** Headland passes the turns need where the request gave fewer (tracks/widenHeadland.ts): null = they fit. */
  turnHeadland?: TurnHeadland | null;
}

type PlanWithOptimizer = Plan & { optimizer?: { timeSpentMilliseconds?: number; [key: string]: unknown } };

function planRouteOnce(request: PathPlanRequest, runtime: PlanRuntime, cellHeadingsAllowed: boolean, shared: SharedWork, orderingSpentMilliseconds = 0): { plan: PlanWithOptimizer; ownCellHeadings: boolean } {
  const planning = cellHeadingsAllowed ? 1 : 2;
  const stage = (name: Parameters<typeof reportStage>[1]): void => reportStage(runtime.onProgress, name, planning);
  stage('field');
  const input = normalizeRequest(request);
  if (shared.turnHeadland?.widened) input.headlandPasses = shared.turnHeadland.passes;
  const { frame, field, workable, obstacles, fieldAreaSquareMeters } = (shared.prepared ??= prepareField(input));
  const m = input.machine;
  const w = m.widthMeters, R = m.turnRadiusMeters;
  assertPlannable(field, w);
  const turnOptions = machineTurnOptions(m, request.smoothingStrategy);

  const simple = (shared.simple ??= simplifyBoundary(field));
  stage('headlands');
  const style = readHeadlandStyle(request);
  const fullHeadlands = (shared.fullHeadlands ??= generateHeadlands(simple, input.headlandPasses, w, style.corners, R));
  const chosen = chooseHeading(input.preferredHeadingDegrees, fullHeadlands.mainland.length > 0, () => (shared.searchedDirectionRadians ??= searchHeading(field, fullHeadlands.mainland, w, R).directionRadians));
  const shaped = (shared.shaped ??= shapeHeadlands(field, fullHeadlands, style, input.headlandPasses, w, chosen.directionRadians, turnOptions));
  const headlands = shaped.headlands;

  stage('tracks');
  const planned = planTracks({
    field, mainland: headlands.mainland, widthMeters: w, turnRadiusMeters: R, chosen,
    ...(input.preferredHeadingDegrees !== undefined ? { preferredHeadingDegrees: input.preferredHeadingDegrees } : {}),
    curved: request.tracks?.trackType === 'curved',
    cellHeadingsAllowed: cellHeadingsAllowed && style.mode !== 'turnOnly',
    fullExtension: input.options.includes('extendTracks'),
    passCount: headlands.passes.length,
  });
  const tracks = planned.trackSet.tracks;
  // Turns need a headland as deep as they reach: with too few passes, plan again with as many as they need.
  if (shared.turnHeadland === undefined) {
    shared.turnHeadland = turnHeadlandPasses(style.mode === 'full', input, tracks, field, style.corners, request.smoothingStrategy);
    if (shared.turnHeadland?.widened) {
      for (const k of Object.keys(shared) as (keyof SharedWork)[]) if (k !== 'memo' && k !== 'prepared' && k !== 'simple' && k !== 'turnHeadland') delete shared[k];
      return planRouteOnce(request, runtime, cellHeadingsAllowed, shared, orderingSpentMilliseconds);
    }
  }
  const secondFollows = planned.cellTracks !== undefined && planned.cellTracks.cells.some((c) => c.own);

  const headlandsFirst = input.routeOptions.headlandsFirst === true;
  const passOrder = passDrivingOrder(headlands.passes, headlandsFirst);
  stage('order');
  // The field's gates (accessPoints): where the route starts, and where transit legs leave and enter zones.
  const gates = input.accessPoints.map(([lon, lat]) => { const [x, y] = frame.toLocal(lon, lat); return { x, y }; });
  const routeField = (shared.routeField ??= routeFieldOf(field, frame, shared.memo, m, input.headlandPasses, simple));
  const routed = routeTracks({
    routeField, gates,
    machine: m, headlandPasses: input.headlandPasses, routeOptions: input.routeOptions,
    maxOptimizerTimeSeconds: input.routeOptions.maxOptimizerTime ?? 10, turnOptions,
    tracks, cellOf: planned.cellOf, directionRadians: planned.directionRadians,
    passOrder, headlandRoute: (shared.headlandRoute ??= headlandRoutePieces(headlands.passes, passOrder, shaped.cornerTurns)), headlandsFirst,
    ...(runtime.now ? { now: runtime.now } : {}), secondFollows, orderingSpentMilliseconds,
  });

  stage('connect');
  const refills = addRefillDetours(routed.segments, request, input.routeOptions, w, routed.staging, frame, headlands.passes, (xy): LocalSegment => ({ type: 'Connector', xy, connector: 'refill' }), routed.legRouter);
  // Zones joined by declared, warned transit legs; nothing else off the field (route/zones.ts).
  const zoned = zoneRoute(refills ? refills.segments : routed.segments, routeField.region, w, gates);
  const segments = zoned.segments;
  stage('metrics');
  const metricWarnings: LocalWarning[] = [];
  const metrics = computeMetrics(segments, workable, fieldAreaSquareMeters ?? areaOf(field), m, metricWarnings);
  if (refills) addRefillMetrics(metrics, refills.points.length, refills.detourMeters);

  const plan: PlanWithOptimizer = assemblePlan({
    frame, field, obstacles, input, metrics, heading: planned.heading, headlandStyle: headlandReport(style, shaped), headlands,
    tracks, cellOf: planned.cellOf, segments, connected: routed.segments, warnings: [...(shared.turnHeadland ? [headlandWidenedWarning(shared.turnHeadland, w, R)] : []), ...routed.warnings, ...zoned.warnings, ...metricWarnings],
  });
  plan.zones = zonesToPlan(zoned.zones, plan.route, frame);
  const { ordered, refined } = routed;
  plan.optimizer = {
    ...ordered.report,
    ...(routed.routeOrderMilliseconds !== undefined ? { timeSpentMilliseconds: routed.routeOrderMilliseconds, estimateMilliseconds: ordered.report.timeSpentMilliseconds } : {}),
    chosen: refined.algorithm,
    realNonWorkingCost: refined.nonWorkingCost,
    realCostRounds: refined.rounds,
    connectorsEvaluated: refined.connectorsEvaluated,
    refineStoppedBy: refined.stoppedBy,
    assembled: routed.assembled,
    connected: refined.evaluated,
  };
  if (refills) plan.refillPoints = refills.points;
  if (routed.staging) plan.stagingArea = frame.toLonLat(routed.staging[0], routed.staging[1]).map(roundDeg);
  stage('extras');
  // Guidance lines, cells, crosshatches, the extension's coverage gain, narrow corridors.
  addPlanExtras(plan, {
    frame, field, workable, tracks, directionRadians: planned.directionRadians, cellOf: planned.cellOf, headlandPasses: headlands.passes, passCount: input.headlandPasses,
    widthMeters: w, turnRadiusMeters: R, options: input.options, request,
    ...(planned.fullExtension ?? {}),
  });
  return { plan, ownCellHeadings: secondFollows };
}
