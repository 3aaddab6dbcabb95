/**
 * `planRoute(request) → Plan`: the whole pipeline, synchronous, pure and deterministic. One call
 * per stage, in order:
 *
 *   normalizeRequest (request/) → prepareField (geometry/) → generateHeadlands (headland/) →
 *   chooseHeading, planTracks (tracks/) → routeTracks (route/: ordering on the real connectors,
 *   turns and connectors from turns/) → withRefillDetours (refill/) → zoneRoute (route/: zones
 *   joined by declared, warned transit legs) → computeMetrics (metrics/) → assemblePlan with the
 *   warnings and zones, addPlanExtras (output/) → placeWarnings (every warning has a place)
 */
import type { Plan, PathPlanRequest } from './types.js';
import { normalizeRequest } from './request/normalizeRequest.js';
import { assertPlannable, prepareField } from './geometry/prepareField.js';
import { areaOf } from './geometry/clipper.js';
import { machineTurnOptions } from './turns/machineTurnOptions.js';
import type { LocalSegment, LocalWarning } from './turns/path.js';
import type { Track } from './tracks/generateTracks.js';
import { generateHeadlands } from './headland/generateHeadlands.js';
import { headlandRoutePieces } from './headland/headlandPieces.js';
import { headlandReport, outermostExteriorRings, passDrivingOrder, shapeHeadlands } from './headland/planHeadlands.js';
import { searchHeading } from './tracks/searchHeading.js';
import { chooseHeading, planTracks } from './tracks/planTracks.js';
import { headlandWidenedWarning, turnHeadlandPasses } from './tracks/widenHeadland.js';
import type { TurnHeadland } from './tracks/widenHeadland.js';
import type { StripMode } from './tracks/planTracks.js';
import { optimizerReport, routeFieldOf, routeTracks } from './route/routeTracks.js';
import { createConnectionMemo } from './route/connectionMemo.js';
import { withRefillDetours } from './refill/routeExtras.js';
import { addRefillMetrics, computeMetrics } from './metrics/computeMetrics.js';
import { assemblePlan } from './output/assemblePlan.js';
import { addPlanExtras } from './output/planExtras.js';
import { zoneRoute } from './route/zones.js';
import { placeWarnings } from './warnings.js';
import { checkPlan } from './check/checkPlan.js';
import { isPlanError } from './errors.js';
import { simplifyBoundary } from './geometry/simplifyBoundary.js';
import { reportStage } from './progress.js';
import { SAFETY_CAP_FACTOR, defaultClock, safetyCap } from './clock.js';
import type { SafetyCap } from './clock.js';
import { withoutSmallObstacles } from './headland/smallObstacles.js';
import { unworkedWarnings } from './metrics/unworkedWarnings.js';
import type { ProgressCallback } from './progress.js';
import type { PlanWithOptimizer, SharedWork } from './sharedWork.js';
import { routeFaults, stripFaults } from './route/stripFaults.js';

/**
 * What the caller may inject. `now`: the wall clock, milliseconds, that caps the call at
 * SAFETY_CAP_FACTOR × maxOptimizerTime (default `performance.now()`; clock.ts) — the ordering itself
 * is bounded by a deterministic work budget, whatever the clock.
 */
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
export function planRoute(request: PathPlanRequest, given: PlanRuntime = {}): Plan {
  // The plannings share what depends on the field alone, and the connections made (route/connectionMemo.ts).
  const shared: SharedWork = { memo: createConnectionMemo() };
  // The wall clock caps the call (clock.ts); the ordering runs on a counted work budget.
  const wall = given.now ?? defaultClock();
  const runtime: CappedRuntime = { ...given, ...(wall ? { cap: safetyCap(wall, SAFETY_CAP_FACTOR * normalizeRequest(request).routeOptions.maxOptimizerTimeSeconds * 1000) } : {}) };
  const plan = planWithStripsOrNot(request, runtime, shared);
  if (runtime.cap?.fired()) {
    const cut = ['the ordering on the real connectors stopped where it was', ...(shared.secondSkipped ? ['the field was not planned a second time with one heading in every cell'] : [])];
    plan.warnings.push({ code: 'time-limit', message: `the wall clock passed ${SAFETY_CAP_FACTOR} × maxOptimizerTime before the work budget was spent: ${cut.join('; ')}. This plan may differ from one made on a less loaded machine.` });
  }
  return plan;
}

/** The caller's runtime with the call's wall-clock cap. */
interface CappedRuntime extends PlanRuntime {
  cap?: SafetyCap;
}

function planWithStripsOrNot(request: PathPlanRequest, runtime: CappedRuntime, shared: SharedWork): Plan {
  const withStrips = planBothHeadings(request, runtime, shared, 'all');
  if (!withStrips.stripsFaulted) return placeWarnings(withStrips.plan);
  // A plan with strip passes (tracks/strips.ts) whose route left out a pass or a track, or has a
  // join nothing fits: planned again without them; the one with fewer such faults is kept, on a tie
  // the one that leaves less unworked.
  // (a field narrower than the machine has nothing to drive without them: one pass per strip then)
  const without = withoutStrips(request, runtime, shared) ?? planBothHeadings(request, runtime, shared, 'single').plan;
  const a = routeFaults(withStrips.plan), b = routeFaults(without);
  return placeWarnings(b < a || (b === a && without.metrics.uncoveredRatio < withStrips.plan.metrics.uncoveredRatio) ? without : withStrips.plan);
}

/** The plan without strip passes, or undefined where nothing else is left to drive. */
function withoutStrips(request: PathPlanRequest, runtime: CappedRuntime, shared: SharedWork): Plan | undefined {
  try {
    return planBothHeadings(request, runtime, shared, 'none').plan;
  } catch (e) {
    if (isPlanError(e) && e.code === 'no-workable-area') return undefined;
    throw e;
  }
}

/**
 * One planning, twice where cells got headings of their own: the per-cell plan is kept only if it
 * is shorter on the real route, has no more `checkPlan` violations and covers as well.
 */
function planBothHeadings(request: PathPlanRequest, runtime: CappedRuntime, shared: SharedWork, strips: StripMode): { plan: Plan; stripsFaulted: boolean } {
  const first = planRouteOnce(request, runtime, true, shared, 0, strips);
  if (!first.ownCellHeadings) return first;
  // Past the wall-clock cap the plan with cells of their own headings is kept as it is.
  if (runtime.cap?.over()) {
    shared.secondSkipped = true;
    return first;
  }
  // maxOptimizerTime bounds the ordering of the whole call: the second planning gets what the first left of it
  const spent = first.plan.optimizer?.timeSpentMilliseconds ?? 0;
  const plainOnce = planRouteOnce(request, runtime, false, shared, spent, strips);
  const plain = plainOnce.plan;
  const a = first.plan.metrics, b = plain.metrics;
  // A per-cell plan with no violations has no more than the plain one, whatever that has: not checked then.
  const better = a.nonWorkingDistanceMeters < b.nonWorkingDistanceMeters && a.uncoveredRatio <= b.uncoveredRatio + 0.001 &&
    violationsAtMost(checkPlan(request, first.plan).violations.length, () => checkPlan(request, plain).violations.length);
  const chosen = better ? first : plainOnce;
  // the ordering time reported is that of the whole call (both plannings)
  const second = plain.optimizer?.timeSpentMilliseconds;
  if (chosen.plan.optimizer && second !== undefined) chosen.plan.optimizer.timeSpentMilliseconds = spent + second;
  return chosen;
}

/** count ≤ other(), without calling other when count is 0. */
function violationsAtMost(count: number, other: () => number): boolean {
  return count === 0 || count <= other();
}

function planRouteOnce(request: PathPlanRequest, runtime: CappedRuntime, cellHeadingsAllowed: boolean, shared: SharedWork, orderingSpentMilliseconds: number, strips: StripMode): { plan: PlanWithOptimizer; ownCellHeadings: boolean; stripsFaulted: boolean } {
  const planning = cellHeadingsAllowed ? 1 : 2;
  const stage = (name: Parameters<typeof reportStage>[1]): void => reportStage(runtime.onProgress, name, planning);
  stage('field');
  const input = normalizeRequest(request);
  if (shared.turnHeadland?.widened) input.headlandPasses = shared.turnHeadland.passes;
  const { frame, field, workable, obstacles, fieldAreaSquareMeters } = (shared.prepared ??= prepareField(input));
  const m = input.machine, w = m.widthMeters, R = m.turnRadiusMeters;
  assertPlannable(field, w);
  const turnOptions = machineTurnOptions(m, input.smoothingStrategy);

  const simple = (shared.simple ??= simplifyBoundary(field));
  stage('headlands');
  const style = input.headland;
  // Small no-go zones get no headland rounds: headlands and tracks are planned on the field without them (headland/smallObstacles.ts).
  const smallMargin = input.headlandPasses * w + 2 * R;
  const small = (shared.smallObstacles ??= withoutSmallObstacles(field, input.smallObstacleSizeMeters, smallMargin));
  const headlandField = small.field;
  const fullHeadlands = (shared.fullHeadlands ??= generateHeadlands(small.small.length > 0 ? withoutSmallObstacles(simple, input.smallObstacleSizeMeters, smallMargin).field : simple, input.headlandPasses, w, style.corners, R));
  const chosen = chooseHeading(input.preferredHeadingDegrees, fullHeadlands.mainland.length > 0, () => (shared.searchedDirectionRadians ??= searchHeading(headlandField, fullHeadlands.mainland, w, R).directionRadians));
  const shaped = (shared.shaped ??= shapeHeadlands(headlandField, fullHeadlands, style, input.headlandPasses, w, chosen.directionRadians, turnOptions));
  const headlands = shaped.headlands;

  stage('tracks');
  const routeField = (shared.routeField ??= routeFieldOf(field, frame, shared.memo, m, input.headlandPasses, simple));
  const planned = planTracks({
    field: headlandField, mainland: headlands.mainland, widthMeters: w, turnRadiusMeters: R, chosen,
    ...(input.preferredHeadingDegrees !== undefined ? { preferredHeadingDegrees: input.preferredHeadingDegrees } : {}),
    curved: input.trackType === 'curved',
    cellHeadingsAllowed: cellHeadingsAllowed && style.mode !== 'turnOnly',
    fullExtension: input.options.includes('extendTracks'),
    passCount: headlands.passes.length,
    passRings: headlands.passes.map((p) => p.ring), workable, fieldAreaSquareMeters: fieldAreaSquareMeters ?? areaOf(field), strips,
    smallObstacles: small.small, region: () => routeField.region,
  });
  const tracks = planned.trackSet.tracks;
  // Turns need a headland as deep as they reach: with too few passes, plan again with as many as they need.
  if (shared.turnHeadland === undefined) {
    shared.turnHeadland = turnHeadlandPasses(style.mode === 'full', input, tracks, field, style.corners, request.smoothingStrategy);
    if (shared.turnHeadland?.widened) {
      for (const k of Object.keys(shared) as (keyof SharedWork)[]) if (k !== 'memo' && k !== 'prepared' && k !== 'simple' && k !== 'turnHeadland') delete shared[k];
      return planRouteOnce(request, runtime, cellHeadingsAllowed, shared, orderingSpentMilliseconds, strips);
    }
  }
  const secondFollows = planned.cellTracks !== undefined && planned.cellTracks.cells.some((c) => c.own);

  const headlandsFirst = input.routeOptions.headlandsFirst;
  const passOrder = passDrivingOrder(headlands.passes, headlandsFirst);
  stage('order');
  // The field's gates (accessPoints): where the route starts, and where transit legs leave and enter zones.
  const gates = input.accessPoints.map(([lon, lat]) => { const [x, y] = frame.toLocal(lon, lat); return { x, y }; });
  const routed = routeTracks({
    routeField, gates,
    machine: m, headlandPasses: input.headlandPasses, routeOptions: input.routeOptions, turnOptions,
    tracks, cellOf: planned.cellOf, directionRadians: planned.directionRadians,
    passOrder, headlandRoute: (shared.headlandRoute ??= headlandRoutePieces(headlands.passes, passOrder, shaped.cornerTurns)),
    // the ordering is bounded by a counted work budget (clock.ts); the wall clock only caps it
    ...(runtime.cap ? { outOfTime: runtime.cap.over } : {}), secondFollows, orderingSpentMilliseconds,
  });

  stage('connect');
  const refills = withRefillDetours(routed.segments, request, input.routeOptions, w, routed.staging, frame, outermostExteriorRings(headlands.passes), (xy): LocalSegment => ({ type: 'Connector', xy, connector: 'refill' }), routed.legRouter);
  // Zones joined by declared, warned transit legs; nothing else off the field (route/zones.ts).
  const zoned = zoneRoute(refills ? refills.segments : routed.segments, routeField.region, w, gates);
  const segments = zoned.segments;
  stage('metrics');
  const metricWarnings: LocalWarning[] = [];
  const widthOf = (sg: LocalSegment): number => (sg.type === 'Track' && sg.trackIndex !== undefined ? tracks[sg.trackIndex]?.widthMeters ?? w : w);
  const metrics = computeMetrics(segments, workable, fieldAreaSquareMeters ?? areaOf(field), m, metricWarnings, widthOf);
  if (refills) addRefillMetrics(metrics, refills.points.length, refills.detourMeters);

  const plan: PlanWithOptimizer = assemblePlan({
    frame, field, obstacles, input, metrics, heading: planned.heading, headlandStyle: { ...headlandReport(style, shaped), smallObstaclesWithoutRounds: small.small.length }, headlands,
    tracks, cellOf: planned.cellOf, segments, connected: routed.segments, warnings: [...(shared.turnHeadland ? [headlandWidenedWarning(shared.turnHeadland, w, R)] : []), ...routed.warnings, ...zoned.warnings, ...metricWarnings], zones: zoned.zones,
    optimizer: optimizerReport(routed), ...(refills ? { refillPoints: refills.points } : {}), ...(routed.staging ? { staging: routed.staging } : {}),
  });
  stage('extras');
  // Guidance lines, cells, crosshatches, the extension's coverage gain, narrow corridors.
  addPlanExtras(plan, {
    frame, field, workable, tracks, directionRadians: planned.directionRadians, cellOf: planned.cellOf, headlandPasses: headlands.passes, passCount: input.headlandPasses,
    widthMeters: w, turnRadiusMeters: R, options: input.options, request,
    ...(planned.fullExtension ?? {}),
  });
  // Every unworked patch over 1 % of the field or 100 m², with its area and place (metrics/unworkedWarnings.ts).
  const worked = segments.filter((sg) => sg.type !== 'Turn' && sg.type !== 'Connector').map((sg) => ({ xy: sg.xy, widthMeters: widthOf(sg) }));
  for (const wn of unworkedWarnings(workable, worked, fieldAreaSquareMeters ?? areaOf(field), (x, y) => frame.toLonLat(x, y))) plan.warnings.push(wn);
  const stripsFaulted = planned.stripCount > 0 && stripFaults(routed.warnings, segments, tracks, tracks.length - planned.stripCount, headlandsFirst);
  return { plan, ownCellHeadings: secondFollows, stripsFaulted };
}
