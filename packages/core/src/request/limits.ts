/** The request's limits and defaults (request/normalizeRequest.ts checks and applies them). */
import { MAX_ACCESS_POINTS } from './accessPoints.js';

/**
 * Limits that keep every request bounded in time and memory, and the ranges of its numbers: the
 * one table the request is checked against here and the HTTP API derives its schema from. Units
 * are in the names; `min…` / `max…` bound the request field of the same name.
 */
export const LIMITS = {
  maxVertices: 100_000,
  minWidthMeters: 0.5,
  maxWidthMeters: 100,
  minHeadlandPasses: 0,
  maxHeadlandPasses: 20,
  minTurnRadiusMeters: 0.5,
  maxTurnRadiusMeters: 100,
  /** Working, turning and transport speeds. */
  minSpeedMetersPerSecond: 0.01,
  maxSpeedMetersPerSecond: 100,
  minCurvatureRatePerSquareMeter: 1e-6,
  maxCurvatureRatePerSquareMeter: 1e6,
  /** Working and turning fuel rates. */
  minFuelLitersPerHour: 0,
  maxFuelLitersPerHour: 1e4,
  /** machine.cuspStopSeconds. */
  minCuspStopSeconds: 0,
  maxCuspStopSeconds: 600,
  minObstacleBufferMeters: 0,
  maxObstacleBufferMeters: 1000,
  maxObstacles: 1000,
  /** headland.smallObstacleSizeMeters. */
  minSmallObstacleSizeMeters: 0,
  maxSmallObstacleSizeMeters: 1000,
  /** |tracks.preferredDirectionDegrees|. */
  maxHeadingDegrees: 360,
  maxAccessPoints: MAX_ACCESS_POINTS,
  /** routeOptions.skipCount, and routeOptions.startPointNodeIndex / endPointNodeIndex. */
  maxSkipCount: 50,
  maxNodeIndex: 1_000_000,
  /** Bounds of routeOptions.maxOptimizerTime. */
  minOptimizerTimeSeconds: 0,
  maxOptimizerTimeSeconds: 600,
  /** Cap on the number of tracks (field extent ÷ width), checked after projection. */
  maxTracks: 20_000,
} as const;

/**
 * Every default of a request (and the planner's one fixed share, the track extension), in one place: nothing downstream
 * of `normalizeRequest` applies one.
 */
export const DEFAULTS = {
  turnRadiusMeters: 6,
  /** ≈ 9 km/h. */
  workingSpeedMetersPerSecond: 2.5,
  turningSpeedMetersPerSecond: 1.5,
  transportSpeedMetersPerSecond: 4,
  reverseAllowed: false,
  /** Seconds the machine stands at each cusp of a reversing manoeuvre (time metric). */
  cuspStopSeconds: 3,
  fitHeadlandToTurns: true,
  headlandPasses: 2,
  headlandMode: 'full',
  trackType: 'straight',
  obstacleBufferMeters: 0,
  algorithm: 'optimized',
  maxOptimizerTimeSeconds: 10,
  objective: 'distance',
  refillStrategyType: 'Exact',
  /**
   * The fuel objective's rates when the machine gives none (a mid-size tractor); fuel metrics need the machine's own.
   */
  objectiveWorkingFuelLitersPerHour: 20,
  objectiveTurningFuelLitersPerHour: 12,
  /**
   * Share of the full extension applied to every plan (the option `extendTracks` applies all of it).
   * Where the mainland's edge meets a track at an angle α, the full extension e = (w/2)·tan α works
   * the wedge W = (w/2)²·tan α / 2 on one side and adds 4·W of swath. Extending by f·e works
   * (2f − f²)·W for (2f + f²)·W more overlap: the first square meter costs one of overlap, the
   * last one at f costs (1 + f) / (1 − f). At f = 1/3 the last square meter costs 2 of overlap, 56 % of
   * the wedge is worked for 1.4 times as much overlap (the full extension: all of it for 3 times).
   */
  trackExtensionFraction: 1 / 3,
} as const;
