/**
 * A variant as routed: what its route says at once (faults, the objective's route part), its
 * coverage measured and its plan made on first ask — a variant whose route part alone cannot win is
 * never measured (choice/choose.ts).
 */
import type { Plan } from '../types.js';
import type { PlanSettings } from '../request/normalizeRequest.js';
import type { PlannedTracks } from '../tracks/planTracks.js';
import type { RoutedTracks } from '../route/routeTracks.js';
import { optimizerReport } from '../route/routeTracks.js';
import type { ZonedRoute } from '../route/zones.js';
import { measureRoute, type MeasuredRoute } from '../metrics/measureRoute.js';
import { assemblePlan } from '../output/assemblePlan.js';
import { addPlanExtras } from '../output/planExtras.js';
import { headlandReport } from '../headland/planHeadlands.js';
import type { LocalWarning } from '../turns/path.js';
import type { PlanStage } from '../progress.js';
import type { SharedWork } from '../sharedWork.js';
import { objectiveOf, type Objective } from '../objective.js';
import type { RouteFacts } from './facts.js';
import type { Variant } from './variant.js';
import type { Call } from './call.js';
import type { UnworkedPatch } from '../geometry/unworked.js';
import type { Track } from '../tracks/generateTracks.js';

/** A plan with the route stage's report (`plan.optimizer`). */
export type PlanWithOptimizer = Plan & { optimizer?: { timeSpentMilliseconds?: number; [key: string]: unknown } };

export interface RoutedVariant {
  variant: Variant;
  /** Whether cells got headings of their own. */
  ownCellHeadings: boolean;
  /** Whether strip passes may be at fault for the route's faults (tracks/stripFaults.ts). */
  stripsFaulted: boolean;
  /** Strip passes planned. */
  stripPasses: number;
  /** Tracks planned, strip passes among them. */
  trackCount: number;
  nonWorkingDistanceMeters: number;
  /** The route's warnings as joined (the plan's, less those its metrics and extras add). */
  routeWarnings: readonly LocalWarning[];
  orderingMilliseconds?: number;
  /** The objective with nothing unworked: a lower bound of `objective().seconds`, known before measuring. */
  routeSeconds: number;
  /** The objective, the route's coverage measured on first ask. */
  objective(): Objective;
  /** Whether its coverage has been measured (`objective` asked). */
  measured(): boolean;
  /** The ground its route leaves, in patches of at least `minArea` m² (local frame; measures it). */
  leftOver(minArea: number): UnworkedPatch[];
  /** Its strip passes (the last `stripPasses` of its tracks). */
  strips(): readonly Track[];
  /** The plan, made on first ask; `orderingMilliseconds` the ordering time the call reports. */
  plan(orderingMilliseconds?: number): PlanWithOptimizer;
}

export interface RoutedParts {
  call: Call;
  settings: PlanSettings;
  variant: Variant;
  work: SharedWork;
  planned: PlannedTracks;
  routed: RoutedTracks;
  refills: { segments: unknown[]; points: unknown[]; detourMeters: number } | undefined;
  zoned: ZonedRoute;
  routeWarnings: LocalWarning[];
  stripsFaulted: boolean;
  stripPasses: number;
  ownCellHeadings: boolean;
  nonWorkingDistanceMeters: number;
  orderingMilliseconds: number | undefined;
  facts: RouteFacts;
  stage: (name: PlanStage) => void;
}

export function routedVariant(x: RoutedParts): RoutedVariant {
  const m = x.settings.machine;
  let measured: MeasuredRoute | undefined;
  let made: PlanWithOptimizer | undefined;
  const measure = (): MeasuredRoute => {
    if (!measured) {
      x.stage('metrics');
      const refills = x.refills as Parameters<typeof measureRoute>[4];
      measured = measureRoute(
        x.zoned.segments,
        x.planned.trackSet.tracks,
        x.work.prepared!,
        m,
        refills,
        x.call.cap?.hurry,
      );
    }
    return measured;
  };
  const objective = (): Objective =>
    objectiveOf({ ...x.facts, uncoveredSquareMeters: measure().metrics.uncoveredSquareMeters }, m);
  return {
    variant: x.variant,
    ownCellHeadings: x.ownCellHeadings,
    stripsFaulted: x.stripsFaulted,
    stripPasses: x.stripPasses,
    trackCount: x.planned.trackSet.tracks.length,
    nonWorkingDistanceMeters: x.nonWorkingDistanceMeters,
    routeWarnings: x.routeWarnings,
    ...(x.orderingMilliseconds !== undefined ? { orderingMilliseconds: x.orderingMilliseconds } : {}),
    routeSeconds: objectiveOf({ ...x.facts, uncoveredSquareMeters: 0 }, m).seconds,
    objective,
    measured: () => measured !== undefined,
    leftOver: (minArea) => measure().leftOver(minArea),
    strips: () => x.planned.trackSet.tracks.slice(x.planned.trackSet.tracks.length - x.stripPasses),
    plan: (orderingMilliseconds) => {
      made ??= makePlan(x, measure());
      if (orderingMilliseconds !== undefined && made.optimizer)
        made.optimizer.timeSpentMilliseconds = orderingMilliseconds;
      return made;
    },
  };
}

/** The plan JSON of a measured variant, with its extras and unworked patches. */
function makePlan(x: RoutedParts, measured: MeasuredRoute): PlanWithOptimizer {
  const { settings: input, work, planned, routed, zoned } = x;
  const { frame, field, workable, obstacles } = work.prepared!;
  const { small, shaped } = work.headlands!;
  const { headlands } = shaped;
  const m = input.machine,
    cap = x.call.cap;
  const tracks = planned.trackSet.tracks;
  const refills = x.refills as { points: never[] } | undefined;
  const plan = assemblePlan({
    frame,
    field,
    obstacles,
    input,
    metrics: measured.metrics,
    heading: planned.heading,
    headlands,
    headlandStyle: { ...headlandReport(input.headland, shaped), smallObstaclesWithoutRounds: small.small.length },
    tracks,
    cellOf: planned.cellOf,
    segments: zoned.segments,
    connected: routed.segments,
    warnings: [...x.routeWarnings, ...measured.warnings],
    zones: zoned.zones,
    optimizer: optimizerReport(routed),
    ...(refills ? { refillPoints: refills.points } : {}),
    ...(routed.staging ? { staging: routed.staging } : {}),
  }) as PlanWithOptimizer;
  x.stage('extras');
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
    widthMeters: m.widthMeters,
    turnRadiusMeters: m.turnRadiusMeters,
    options: input.options,
    request: x.call.request,
    ...(planned.fullExtension ?? {}),
    ...(cap ? { hurry: cap.hurry } : {}),
  });
  plan.warnings.push(...measured.unworked());
  return plan;
}
