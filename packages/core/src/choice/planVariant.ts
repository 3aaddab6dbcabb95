/**
 * One variant through the pipeline, straight: field → headlands → tracks → order → connect, then
 * (on first ask) metrics → plan → extras. It reads the call and the cache and changes neither,
 * but for the work it shares with the variants of the same headland passes (choice/cache.ts).
 */
import type { PlanSettings } from '../request/normalizeRequest.js';
import { assertPlannable, prepareField } from '../geometry/prepareField.js';
import { simplifyBoundary } from '../geometry/simplifyBoundary.js';
import { machineTurnOptions } from '../turns/machineTurnOptions.js';
import type { TurnOptions } from '../turns/types.js';
import type { LocalSegment } from '../turns/path.js';
import { headlandRoutePieces } from '../headland/headlandPieces.js';
import { outermostExteriorRings, passDrivingOrder, planHeadlandStage } from '../headland/planHeadlands.js';
import { fieldHeading, planFieldTracks, type PlannedTracks } from '../tracks/planTracks.js';
import { headlandWidenedWarning, turnHeadlandPasses, type TurnHeadland } from '../tracks/widenHeadland.js';
import { stripFaults } from '../tracks/stripFaults.js';
import { optimizerReport, routeFieldOf, routeTracks, type RoutedTracks } from '../route/routeTracks.js';
import { zoneRoute } from '../route/zones.js';
import { withRefillDetours } from '../refill/routeExtras.js';
import { nonWorkingMeters } from '../metrics/computeMetrics.js';
import { reportStage, type PlanStage } from '../progress.js';
import type { SharedWork } from '../sharedWork.js';
import type { Variant } from './variant.js';
import type { Call } from './call.js';
import { routedVariant, type RoutedVariant } from './routedVariant.js';
import { routeFacts } from './facts.js';
import { subsetTracks } from './trackSubset.js';

export type { Call } from './call.js';

/** A variant whose tracks showed that the turns need a deeper headland than it has: not routed. */
export interface ReplacedVariant {
  variant: Variant;
  replacedBy: TurnHeadland;
}

export type PlannedVariant = RoutedVariant | ReplacedVariant;

export function isRouted(p: PlannedVariant): p is RoutedVariant {
  return !('replacedBy' in p);
}

/**
 * Plans `variant` with `work` (the work its headland passes share). With `judgeHeadland`, the
 * headland the turns need is judged on its tracks as generated (`work.turnHeadland` set): where they
 * need more than it has, it is not routed.
 */
export function planVariant(call: Call, variant: Variant, work: SharedWork, planningIndex: number): PlannedVariant {
  const settings: PlanSettings = { ...call.settings, headlandPasses: variant.headlandPasses };
  const stage = (name: PlanStage): void => reportStage(call.onProgress, name, planningIndex);
  const turnOptions = machineTurnOptions(settings.machine, settings.smoothingStrategy);
  const laid = layTracks(call, settings, variant, work, turnOptions, stage);
  if ('replacedBy' in laid) return { variant, replacedBy: laid.replacedBy };
  const gates = localGates(settings, work.prepared!.frame);
  stage('order');
  const routed = routeVariant(call, settings, variant, work, laid.planned, gates, turnOptions);
  stage('connect');
  return connectVariant(call, settings, variant, work, laid.planned, routed, gates, stage);
}

/** Field, headlands and tracks of a variant (the field-only parts from `work`). */
function layTracks(
  call: Call,
  settings: PlanSettings,
  variant: Variant,
  work: SharedWork,
  turnOptions: TurnOptions,
  stage: (name: PlanStage) => void,
): { planned: PlannedTracks } | { replacedBy: TurnHeadland } {
  const { cap } = call;
  stage('field');
  const prepared = (work.prepared ??= prepareField(settings));
  assertPlannable(prepared.field, settings.machine.widthMeters);
  const simple = (work.simple ??= simplifyBoundary(prepared.field));
  stage('headlands');
  const headlandStage = (work.headlands ??= planHeadlandStage(
    prepared.field,
    simple,
    settings,
    turnOptions,
    (f, mainland) => fieldHeading(settings, f, mainland),
  ));
  stage('tracks');
  const routeField = (work.routeField ??= routeFieldOf(
    prepared.field,
    prepared.frame,
    work.memo,
    settings.machine,
    settings.headlandPasses,
    simple,
  ));
  // The headland the turns need is judged once, on the first variant's tracks as generated.
  const judges = work.turnHeadland === undefined;
  const judgeHeadland = (t: readonly { x0: number }[]): boolean =>
    (work.turnHeadland = turnHeadlandPasses(settings, t as never, simple))?.widened === true;
  const planned = planFieldTracks(settings, prepared, headlandStage, {
    cellHeadingsAllowed: variant.cellHeadings,
    strips: variant.strips,
    centreLines: variant.centreLines,
    ...(variant.toursTurned ? { toursTurned: true } : {}),
    ...(variant.leftOver ? { leftOver: variant.leftOver } : {}),
    region: () => routeField.region,
    ...(judges ? { judgeHeadland } : {}),
    ...(cap ? { hurry: cap.hurry } : {}),
  });
  if (judges && work.turnHeadland?.widened) return { replacedBy: work.turnHeadland };
  return { planned: call.trackSubset ? subsetTracks(planned, call.trackSubset, prepared.frame) : planned };
}

/** The order stage of a variant. */
function routeVariant(
  call: Call,
  settings: PlanSettings,
  variant: Variant,
  work: SharedWork,
  planned: PlannedTracks,
  gates: LocalGate[],
  turnOptions: TurnOptions,
): RoutedTracks {
  const { cap } = call;
  const { shaped } = work.headlands!;
  const passOrder = passDrivingOrder(shaped.headlands.passes, settings.routeOptions.headlandsFirst);
  return routeTracks({
    routeField: work.routeField!,
    gates,
    machine: settings.machine,
    headlandPasses: settings.headlandPasses,
    routeOptions: settings.routeOptions,
    turnOptions,
    tracks: planned.trackSet.tracks,
    cellOf: planned.cellOf,
    directionRadians: planned.directionRadians,
    passOrder,
    headlandRoute: call.trackSubset?.withoutHeadland
      ? headlandRoutePieces(shaped.headlands.passes, [], shaped.cornerTurns)
      : variant.withoutPasses?.length
        ? headlandRoutePieces(
            shaped.headlands.passes,
            passOrder.filter((p) => !variant.withoutPasses!.includes(shaped.headlands.passes.indexOf(p))),
            shaped.cornerTurns,
          )
        : (work.headlandRoute ??= headlandRoutePieces(shaped.headlands.passes, passOrder, shaped.cornerTurns)),
    // the ordering is bounded by a counted work budget (clock.ts); the wall clock only caps it
    ...(cap ? { outOfTime: cap.over, hurry: cap.hurry } : {}),
    secondFollows: secondFollows(planned),
    orderingSpentMilliseconds: variant.orderingSpentMilliseconds,
    ...(variant.passesBetween ? { passesBetween: true } : {}),
  });
}

/** Whether cells got headings of their own (a one-heading variant may follow, taking half the budget). */
function secondFollows(planned: PlannedTracks): boolean {
  return planned.cellTracks !== undefined && planned.cellTracks.cells.some((c) => c.own);
}

/** A gate, local (m). */
type LocalGate = { x: number; y: number };

/** The field's gates (accessPoints), local: where the route starts, and where transit legs leave and enter zones. */
function localGates(settings: PlanSettings, frame: { toLocal(lon: number, lat: number): number[] }): LocalGate[] {
  return settings.accessPoints.map(([lon, lat]) => {
    const [x, y] = frame.toLocal(lon, lat);
    return { x, y };
  });
}

/** Refill detours and zones joined by transit legs: the route as driven, weighed and made lazily. */
function connectVariant(
  call: Call,
  settings: PlanSettings,
  variant: Variant,
  work: SharedWork,
  planned: PlannedTracks,
  routed: RoutedTracks,
  gates: LocalGate[],
  stage: (name: PlanStage) => void,
): RoutedVariant {
  const prepared = work.prepared!;
  const { headlands } = work.headlands!.shaped;
  const w = settings.machine.widthMeters;
  const refills = withRefillDetours(
    routed.segments,
    settings.refillCapacity,
    settings.routeOptions,
    w,
    routed.staging,
    prepared.frame,
    outermostExteriorRings(headlands.passes),
    (xy): LocalSegment => ({ type: 'Connector', xy, connector: 'refill' }),
    routed.legRouter,
  );
  const zoned = zoneRoute(
    refills ? refills.segments : routed.segments,
    work.routeField!.region,
    w,
    gates,
    work.simple!,
  );
  const tracks = planned.trackSet.tracks;
  const t = work.turnHeadland;
  const routeWarnings = [
    ...(t ? [headlandWidenedWarning(t, w, settings.machine.turnRadiusMeters)] : []),
    ...routed.warnings,
    ...zoned.warnings,
  ];
  const stripsFaulted =
    planned.stripCount > 0 &&
    stripFaults(
      routed.warnings,
      zoned.segments,
      tracks,
      tracks.length - planned.stripCount,
      settings.routeOptions.headlandsFirst,
    );
  return routedVariant({
    call,
    settings,
    variant,
    work,
    planned,
    routed,
    refills,
    zoned,
    routeWarnings,
    stripsFaulted,
    stripPasses: planned.stripCount,
    ownCellHeadings: secondFollows(planned),
    nonWorkingDistanceMeters: nonWorkingMeters(zoned.segments),
    orderingMilliseconds: optimizerReport(routed).timeSpentMilliseconds,
    facts: routeFacts(zoned.segments, routeWarnings, prepared.field),
    stage,
  });
}
