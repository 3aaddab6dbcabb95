/**
 * The API's request schema and the planner's request reader take the same numbers: at each bound
 * of core's `LIMITS` table and just past it, the schema accepts a request exactly when
 * `normalizeRequest` does. A limit written into one of them alone fails here.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS, isPlanError, normalizeRequest, type PathPlanRequest } from '@furrow/core';
import { PathPlanRequestSchema } from '../../packages/api/src/schemas.js';
import { shapeA, shapeB, square } from './support.js';

type Request = Record<string, unknown>;

/** A request field bounded by LIMITS: where it sits in the request, its bounds, whether it is a whole number. */
interface Bounded {
  path: string;
  min: number;
  max: number;
  integer?: boolean;
  /** The request with the value put in. */
  put: (v: number) => Request;
}

const machine = (key: string, min: number, max: number): Bounded => ({
  path: `machine.${key}`,
  min,
  max,
  put: (v) => shapeA({ machine: { widthMeters: 6, [key]: v } }),
});
const routeOption = (key: string, min: number, max: number): Bounded => ({
  path: `routeOptions.${key}`,
  min,
  max,
  integer: true,
  put: (v) => shapeA({ routeOptions: { [key]: v } }),
});

const BOUNDED: Bounded[] = [
  {
    path: 'machine.widthMeters',
    min: LIMITS.minWidthMeters,
    max: LIMITS.maxWidthMeters,
    put: (v) => shapeA({ machine: { widthMeters: v } }),
  },
  machine('turnRadiusMeters', LIMITS.minTurnRadiusMeters, LIMITS.maxTurnRadiusMeters),
  machine(
    'maxCurvatureRatePerSquareMeter',
    LIMITS.minCurvatureRatePerSquareMeter,
    LIMITS.maxCurvatureRatePerSquareMeter,
  ),
  machine('workingSpeedMetersPerSecond', LIMITS.minSpeedMetersPerSecond, LIMITS.maxSpeedMetersPerSecond),
  machine('turningSpeedMetersPerSecond', LIMITS.minSpeedMetersPerSecond, LIMITS.maxSpeedMetersPerSecond),
  machine('transportSpeedMetersPerSecond', LIMITS.minSpeedMetersPerSecond, LIMITS.maxSpeedMetersPerSecond),
  machine('workingFuelLitersPerHour', LIMITS.minFuelLitersPerHour, LIMITS.maxFuelLitersPerHour),
  machine('turningFuelLitersPerHour', LIMITS.minFuelLitersPerHour, LIMITS.maxFuelLitersPerHour),
  machine('cuspStopSeconds', LIMITS.minCuspStopSeconds, LIMITS.maxCuspStopSeconds),
  {
    path: 'headland.passes',
    min: LIMITS.minHeadlandPasses,
    max: LIMITS.maxHeadlandPasses,
    integer: true,
    put: (v) => shapeA({ headland: { passes: v } }),
  },
  {
    path: 'exteriorHeadlandPasses',
    min: LIMITS.minHeadlandPasses,
    max: LIMITS.maxHeadlandPasses,
    integer: true,
    put: (v) => shapeB({ exteriorHeadlandPasses: v }),
  },
  {
    path: 'headland.smallObstacleSizeMeters',
    min: LIMITS.minSmallObstacleSizeMeters,
    max: LIMITS.maxSmallObstacleSizeMeters,
    put: (v) => shapeA({ headland: { passes: 2, smallObstacleSizeMeters: v } }),
  },
  {
    path: 'obstacles[0].bufferMeters',
    min: LIMITS.minObstacleBufferMeters,
    max: LIMITS.maxObstacleBufferMeters,
    put: (v) => shapeA({ obstacles: [{ geometry: square(8.541, 47.371, 0.0005), bufferMeters: v }] }),
  },
  {
    path: 'tracks.preferredDirectionDegrees',
    min: -LIMITS.maxHeadingDegrees,
    max: LIMITS.maxHeadingDegrees,
    put: (v) => shapeA({ tracks: { preferredDirectionDegrees: v } }),
  },
  routeOption('maxOptimizerTime', LIMITS.minOptimizerTimeSeconds, LIMITS.maxOptimizerTimeSeconds),
  routeOption('skipCount', 0, LIMITS.maxSkipCount),
  routeOption('startPointNodeIndex', 0, LIMITS.maxNodeIndex),
  routeOption('endPointNodeIndex', 0, LIMITS.maxNodeIndex),
];

/** A value just past a bound: a whole step for whole numbers, else a thousandth of the bound (or 1e-9 at 0). */
function past(bound: number, direction: 1 | -1, integer: boolean | undefined): number {
  return bound + direction * (integer ? 1 : Math.max(Math.abs(bound) * 1e-3, 1e-9));
}

function coreAccepts(request: Request): boolean {
  try {
    normalizeRequest(request as PathPlanRequest);
    return true;
  } catch (err) {
    if (isPlanError(err)) return false;
    throw err;
  }
}

describe("the API's request limits are core's", () => {
  it.each(BOUNDED.map((b) => [b.path, b] as const))(
    '%s: the schema and normalizeRequest agree at and past each bound',
    (_path, b) => {
      const values = [b.min, b.max, past(b.min, -1, b.integer), past(b.max, 1, b.integer)];
      const verdicts = values.map((v) => ({
        value: v,
        api: PathPlanRequestSchema.safeParse(b.put(v)).success,
        core: coreAccepts(b.put(v)),
      }));
      expect(verdicts.map((x) => x.api)).toEqual(verdicts.map((x) => x.core));
      // The bounds are taken, the values past them refused: the comparison is not vacuous.
      expect(verdicts.map((x) => x.core)).toEqual([true, true, false, false]);
    },
  );

  it('the number of obstacles and of access points', () => {
    const zone = { geometry: square(8.541, 47.371, 0.0005) };
    const gate = [8.54, 47.37];
    for (const [n, ok] of [
      [LIMITS.maxObstacles, true],
      [LIMITS.maxObstacles + 1, false],
    ] as const) {
      const r = shapeA({ obstacles: Array.from({ length: n }, () => zone) });
      expect([PathPlanRequestSchema.safeParse(r).success, coreAccepts(r)]).toEqual([ok, ok]);
    }
    for (const [n, ok] of [
      [LIMITS.maxAccessPoints, true],
      [LIMITS.maxAccessPoints + 1, false],
    ] as const) {
      const r = shapeA({ accessPoints: Array.from({ length: n }, () => gate) });
      expect([PathPlanRequestSchema.safeParse(r).success, coreAccepts(r)]).toEqual([ok, ok]);
    }
  });
});
