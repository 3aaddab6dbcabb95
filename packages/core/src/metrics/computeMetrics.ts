/**
 * The plan's metrics from its route in the local frame: working and non-working distance, time
 * at the machine's speeds (plus a stop per cusp), fuel at its rates, turns (reversing connectors
 * included, metrics/manoeuvres.ts) and connectors counted, and coverage (the
 * route's working passes against the workable field, geometry/computeCoverage.ts).
 */
import type { PlanMetrics } from '../types.js';
import type { PathsD } from '../geometry/clipper.js';
import { computeCoverage, sweepPasses } from '../geometry/computeCoverage.js';
import type { SweptPasses, WorkingPass } from '../geometry/computeCoverage.js';
import { polylineLength } from '../geometry/vec.js';
import type { LocalSegment, LocalWarning } from '../turns/path.js';
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import { countCusps, countsAsTurn } from './manoeuvres.js';

/** The working width of a segment: the machine's, or a strip pass's own (tracks/strips.ts). */
export type WidthOf = (segment: LocalSegment) => number;

/** The working passes of a route: every segment but turns and connectors, at its working width. */
export function workingPasses(segments: LocalSegment[], widthOf: WidthOf, swathOf?: SwathOf): WorkingPass[] {
  return segments
    .filter((s) => s.type !== 'Turn' && s.type !== 'Connector')
    .map((s) => {
      const swath = swathOf?.(s);
      return { xy: s.xy, widthMeters: widthOf(s), ...(swath ? { swath } : {}) };
    });
}

/** The swath of a segment whose sections are not all on along it (centre-line passes); undefined: its buffer. */
export type SwathOf = (segment: LocalSegment) => PathsD | undefined;

/**
 * A coverage metric computed on simplified passes (geometry/coverageGuard.ts) adds a warning
 * `coverage-approximate` to `warnings`. `swept`: the sweep of the route's working passes when the
 * caller has made it (it serves the unworked patches too).
 */
export function computeMetrics(
  segments: LocalSegment[],
  workable: PathsD,
  fieldArea: number,
  machine: ResolvedMachine,
  warnings?: LocalWarning[],
  widthOf: WidthOf = () => machine.widthMeters,
  swept?: SweptPasses,
  swathOf?: SwathOf,
): PlanMetrics {
  const m = machine;
  const { working, nonWorking, turns, turnsByType, connectors } = routeDistances(segments);
  const cov = computeCoverage(workable, swept ?? sweepPasses(workable, workingPasses(segments, widthOf, swathOf)));
  if (cov.approximation) warnings?.push({ code: 'coverage-approximate', message: cov.approximation });
  // every cusp is a stop to change gear (machine.cuspStopSeconds)
  const cusps = countCusps(segments);
  const timeSeconds =
    working / m.workingSpeedMetersPerSecond + nonWorking / m.turningSpeedMetersPerSecond + cusps * m.cuspStopSeconds;
  const metrics: PlanMetrics = {
    fieldAreaSquareMeters: r2(fieldArea),
    workableAreaSquareMeters: r2(cov.workableAreaSquareMeters),
    distanceMeters: r2(working + nonWorking),
    workingDistanceMeters: r2(working),
    nonWorkingDistanceMeters: r2(nonWorking),
    timeSeconds: r2(timeSeconds),
    overlapSquareMeters: r2(cov.overlapSquareMeters),
    overlapRatio: r6(cov.overlapRatio),
    uncoveredSquareMeters: r2(cov.uncoveredSquareMeters),
    uncoveredRatio: r6(cov.uncoveredRatio),
    turns,
    turnsByType,
    connectors,
    cusps,
  };
  if (m.workingFuelLitersPerHour !== undefined || m.turningFuelLitersPerHour !== undefined) {
    metrics.fuelLiters = r2(
      ((m.workingFuelLitersPerHour ?? 0) * working) / m.workingSpeedMetersPerSecond / 3600 +
        ((m.turningFuelLitersPerHour ?? 0) * nonWorking) / m.turningSpeedMetersPerSecond / 3600,
    );
  }
  return metrics;
}

/** Working and non-working meters of a route, its turns (by type) and other connectors. */
function routeDistances(segments: LocalSegment[]): {
  working: number;
  nonWorking: number;
  turns: number;
  turnsByType: Record<string, number>;
  connectors: number;
} {
  let working = 0,
    nonWorking = 0,
    turns = 0,
    connectors = 0;
  const turnsByType: Record<string, number> = {};
  for (const s of segments) {
    const len = polylineLength(s.xy);
    if (s.type === 'Turn' || s.type === 'Connector') {
      nonWorking += len;
      if (countsAsTurn(s)) {
        turns++;
        const k = s.turnType ?? 'Dubins';
        turnsByType[k] = (turnsByType[k] ?? 0) + 1;
      } else connectors++;
    } else working += len;
  }
  return { working, nonWorking, turns, turnsByType, connectors };
}

/**
 * The route's non-working distance as its metrics give it (`nonWorkingDistanceMeters`), without measuring its coverage.
 */
export function nonWorkingMeters(segments: LocalSegment[]): number {
  return r2(routeDistances(segments).nonWorking);
}

/** The refill stage's figures added to the metrics. */
export function addRefillMetrics(metrics: PlanMetrics, refillCount: number, refillDetourMeters: number): void {
  metrics.refillCount = refillCount;
  metrics.refillDetourMeters = r2(refillDetourMeters);
}

function r2(v: number): number {
  return Math.round(v * 100) / 100;
}
function r6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}
