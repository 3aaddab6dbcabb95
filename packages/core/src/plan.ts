/**
 * `planRoute(request) → Plan`: the whole pipeline, synchronous, pure and deterministic. One call
 * per stage, in order:
 *
 *   normalizeRequest (request/) → prepareField (geometry/) → planHeadlandStage (headland/) →
 *   planTracks (tracks/) → routeTracks (route/: ordering on the real connectors, turns and
 *   connectors from turns/) → withRefillDetours (refill/) → zoneRoute (route/: zones joined by
 *   declared, warned transit legs) → measureRoute (metrics/) → assemblePlan, addPlanExtras
 *   (output/) → placeWarnings (every warning has a place)
 *
 * Around it, tracks/ decides between plannings: with or without strip passes (stripFallback.ts),
 * with or without headings of their own per cell (cellHeadingChoice.ts); clock.ts caps the call.
 * A planning's route decides first: its metrics and plan are made only where a choice or the call reads them.
 */
import type { Plan, PathPlanRequest } from './types.js';
import { normalizeRequest } from './request/normalizeRequest.js';
import type { PlanSettings } from './request/normalizeRequest.js';
import { assertPlannable, prepareField } from './geometry/prepareField.js';
import { simplifyBoundary } from './geometry/simplifyBoundary.js';
import { machineTurnOptions } from './turns/machineTurnOptions.js';
import type { LocalSegment } from './turns/path.js';
import { headlandRoutePieces } from './headland/headlandPieces.js';
import {
  headlandReport,
  outermostExteriorRings,
  passDrivingOrder,
  planHeadlandStage,
} from './headland/planHeadlands.js';
import { fieldHeading, planFieldTracks, type StripMode } from './tracks/planTracks.js';
import { chooseTurnHeadland, headlandWidenedWarning, turnHeadlandPasses } from './tracks/widenHeadland.js';
import { planWithStripFallback, stripFaults } from './tracks/stripFallback.js';
import { lazyPlanning, planCellHeadingsOrNot, type Planning } from './tracks/cellHeadingChoice.js';
import { optimizerReport, routeFieldOf, routeTracks } from './route/routeTracks.js';
import { createConnectionMemo } from './route/connectionMemo.js';
import { zoneRoute } from './route/zones.js';
import { withRefillDetours } from './refill/routeExtras.js';
import { measureRoute } from './metrics/measureRoute.js';
import { nonWorkingMeters } from './metrics/computeMetrics.js';
import { assemblePlan } from './output/assemblePlan.js';
import { addPlanExtras } from './output/planExtras.js';
import { addViolationWarnings } from './output/violationWarnings.js';
import { placeWarnings } from './warnings.js';
import { checkPlan } from './check/checkPlan.js';
import { reportStage } from './progress.js';
import type { PlanStage, ProgressCallback } from './progress.js';
import { addTimeLimitWarning, capCall, trackKilometres } from './clock.js';
import type { SafetyCap } from './clock.js';
import type { SharedWork } from './sharedWork.js';
import type { Track } from './tracks/generateTracks.js';

/**
 * What the caller may inject. `now`: the wall clock, milliseconds, that caps the call at
 * SAFETY_CAP_FACTOR × maxOptimizerTime (default `performance.now()`; clock.ts; a frozen clock, no
 * cap) — the ordering itself is bounded by a deterministic work budget, whatever the clock.
 */
export interface PlanRuntime {
  now?: () => number;
  /** Called as each stage starts (progress.ts): a plain callback, no I/O. */
  onProgress?: ProgressCallback;
}

/** Plans a coverage route for one field. Synchronous; throws `PlanError` on bad input. */
export function planRoute(request: PathPlanRequest, runtime: PlanRuntime = {}): Plan {
  const settings = normalizeRequest(request);
  const cap = capCall(
    runtime.now,
    settings.routeOptions.maxOptimizerTimeSeconds,
    trackKilometres(settings.polygons, settings.machine.widthMeters),
  );
  // The plannings share what depends on the field alone, and the connections made (route/connectionMemo.ts).
  const call: Call = {
    request,
    settings,
    cap,
    shared: { memo: createConnectionMemo() },
    ...(runtime.onProgress ? { onProgress: runtime.onProgress } : {}),
  };
  const plan = placeWarnings(planWithStripFallback((strips) => planCellsOrNot(call, strips), cap));
  addTimeLimitWarning(plan, cap);
  addViolationWarnings(request, plan);
  return plan;
}

/** One `planRoute` call: its request, settings, wall-clock cap and shared work. */
interface Call {
  request: PathPlanRequest;
  settings: PlanSettings;
  cap: SafetyCap | undefined;
  shared: SharedWork;
  onProgress?: ProgressCallback;
}

/** The field planned with cells of their own headings and, where any cell has one, with one heading; the better kept. */
function planCellsOrNot(call: Call, strips: StripMode): Planning {
  return planCellHeadingsOrNot(
    (cellHeadingsAllowed, spent) => planOnce(call, cellHeadingsAllowed, spent, strips),
    (p) => checkPlan(call.request, p).violations.length,
    call.cap,
  );
}

function planOnce(
  call: Call,
  cellHeadingsAllowed: boolean,
  orderingSpentMilliseconds: number,
  strips: StripMode,
): Planning {
  const { request, settings: input, cap, shared, onProgress } = call;
  const stage = (name: PlanStage): void => reportStage(onProgress, name, cellHeadingsAllowed ? 1 : 2);
  stage('field');
  const prepared = (shared.prepared ??= prepareField(input));
  const { frame, field, workable } = prepared,
    m = input.machine,
    w = m.widthMeters;
  assertPlannable(field, w);
  const turnOptions = machineTurnOptions(m, input.smoothingStrategy);
  const simple = (shared.simple ??= simplifyBoundary(field));

  stage('headlands');
  const { small, chosen, shaped } = (shared.headlands ??= planHeadlandStage(
    field,
    simple,
    input,
    turnOptions,
    (f, mainland) => fieldHeading(input, f, mainland),
  ));
  const headlands = shaped.headlands;

  stage('tracks');
  const routeField = (shared.routeField ??= routeFieldOf(field, frame, shared.memo, m, input.headlandPasses, simple));
  // Turns need a headland as deep as they reach: at the first planning, with too few passes, the call plans with as many
  // as they need (decided on the tracks as generated, before cells are weighed and ends extended: a planning made again wider gets none of it).
  const decides = shared.turnHeadland === undefined;
  const judgeHeadland = (t: readonly Track[]): boolean =>
    (shared.turnHeadland = turnHeadlandPasses(input, t, simple))?.widened === true;
  const planned = planFieldTracks(input, prepared, shared.headlands, {
    cellHeadingsAllowed,
    strips,
    region: () => routeField.region,
    ...(decides ? { judgeHeadland } : {}),
    ...(cap ? { hurry: cap.hurry } : {}),
  });
  const tracks = planned.trackSet.tracks;
  const choice = decides
    ? chooseTurnHeadland(
        input,
        shared,
        (turnHeadland) => ({ memo: createConnectionMemo(), prepared, simple, turnHeadland }),
        (settings, sharedWork) => planCellsOrNot({ ...call, settings, shared: sharedWork }, strips),
      )
    : undefined;
  if (choice) {
    call.settings = choice.settings;
    call.shared = choice.shared; // the call's later plannings follow the choice
    return choice.planning;
  }
  const secondFollows = planned.cellTracks !== undefined && planned.cellTracks.cells.some((c) => c.own);

  stage('order');
  const passOrder = passDrivingOrder(headlands.passes, input.routeOptions.headlandsFirst);
  // The field's gates (accessPoints): where the route starts, and where transit legs leave and enter zones.
  const gates = input.accessPoints.map(([lon, lat]) => {
    const [x, y] = frame.toLocal(lon, lat);
    return { x, y };
  });
  const routed = routeTracks({
    routeField,
    gates,
    machine: m,
    headlandPasses: input.headlandPasses,
    routeOptions: input.routeOptions,
    turnOptions,
    tracks,
    cellOf: planned.cellOf,
    directionRadians: planned.directionRadians,
    passOrder,
    headlandRoute: (shared.headlandRoute ??= headlandRoutePieces(headlands.passes, passOrder, shaped.cornerTurns)),
    // the ordering is bounded by a counted work budget (clock.ts); the wall clock only caps it
    ...(cap ? { outOfTime: cap.over, hurry: cap.hurry } : {}),
    secondFollows,
    orderingSpentMilliseconds,
  });

  stage('connect');
  const refills = withRefillDetours(
    routed.segments,
    input.refillCapacity,
    input.routeOptions,
    w,
    routed.staging,
    frame,
    outermostExteriorRings(headlands.passes),
    (xy): LocalSegment => ({ type: 'Connector', xy, connector: 'refill' }),
    routed.legRouter,
  );
  const zoned = zoneRoute(refills ? refills.segments : routed.segments, routeField.region, w, gates, simple);
  const segments = zoned.segments;

  const routeWarnings = [
    ...(shared.turnHeadland ? [headlandWidenedWarning(shared.turnHeadland, w, m.turnRadiusMeters)] : []),
    ...routed.warnings,
    ...zoned.warnings,
  ];
  const stripsFaulted =
    planned.stripCount > 0 &&
    stripFaults(
      routed.warnings,
      segments,
      tracks,
      tracks.length - planned.stripCount,
      input.routeOptions.headlandsFirst,
    );
  const optimizer = optimizerReport(routed);
  // Measured and made when a choice between plannings, or the call, reads them (tracks/cellHeadingChoice.ts).
  const measure = () => (stage('metrics'), measureRoute(segments, tracks, prepared, m, refills, cap?.hurry));
  return lazyPlanning(
    {
      ownCellHeadings: secondFollows,
      stripsFaulted,
      nonWorkingDistanceMeters: nonWorkingMeters(segments),
      routeWarnings,
      orderingMilliseconds: optimizer.timeSpentMilliseconds,
    },
    measure,
    (mr) => mr.metrics.uncoveredRatio,
    (measured) => {
      const plan = assemblePlan({
        frame,
        field,
        obstacles: prepared.obstacles,
        input,
        metrics: measured.metrics,
        heading: planned.heading,
        headlands,
        headlandStyle: { ...headlandReport(input.headland, shaped), smallObstaclesWithoutRounds: small.small.length },
        tracks,
        cellOf: planned.cellOf,
        segments,
        connected: routed.segments,
        warnings: [...routeWarnings, ...measured.warnings],
        zones: zoned.zones,
        optimizer,
        ...(refills ? { refillPoints: refills.points } : {}),
        ...(routed.staging ? { staging: routed.staging } : {}),
      });
      stage('extras');
      // Guidance lines, cells, crosshatches, the extension's coverage gain, narrow corridors.
      addPlanExtras(plan, {
        frame,
        field,
        workable,
        tracks,
        directionRadians: planned.directionRadians,
        cellOf: planned.cellOf,
        headlandPasses: headlands.passes,
        passCount: input.headlandPasses,
        widthMeters: w,
        turnRadiusMeters: m.turnRadiusMeters,
        options: input.options,
        request,
        ...(planned.fullExtension ?? {}),
        ...(cap ? { hurry: cap.hurry } : {}),
      });
      plan.warnings.push(...measured.unworked());
      return plan;
    },
  );
}
