import { describe, expect, it } from 'vitest';
import { isPlanError } from '../errors.js';
import type { PathPlanRequest } from '../types.js';
import { DEFAULTS, LIMITS, defaultSkipCount, normalizeRequest } from './normalizeRequest.js';

const field = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [10, 50],
      [10.002, 50],
      [10.002, 50.002],
      [10, 50.002],
      [10, 50],
    ] as [number, number][],
  ],
};

function code(request: PathPlanRequest): string | undefined {
  try {
    normalizeRequest(request);
    return undefined;
  } catch (e) {
    expect(isPlanError(e), String(e)).toBe(true);
    return (e as { code: string }).code;
  }
}

describe('normalizeRequest resolves every setting', () => {
  it('applies the DEFAULTS table to a minimal request', () => {
    const s = normalizeRequest({ field, machine: { widthMeters: 4 } });
    expect(s.machine).toEqual({
      widthMeters: 4,
      turnRadiusMeters: DEFAULTS.turnRadiusMeters,
      workingSpeedMetersPerSecond: DEFAULTS.workingSpeedMetersPerSecond,
      turningSpeedMetersPerSecond: DEFAULTS.turningSpeedMetersPerSecond,
      transportSpeedMetersPerSecond: DEFAULTS.transportSpeedMetersPerSecond,
      cuspStopSeconds: DEFAULTS.cuspStopSeconds,
      reverseAllowed: DEFAULTS.reverseAllowed,
    });
    expect(s.headlandPasses).toBe(DEFAULTS.headlandPasses);
    expect(s.headland).toEqual({ mode: DEFAULTS.headlandMode });
    expect(s.trackType).toBe(DEFAULTS.trackType);
    expect(s.routeOptions).toEqual({
      algorithm: DEFAULTS.algorithm,
      skipCount: defaultSkipCount(4, DEFAULTS.turnRadiusMeters),
      headlandsFirst: false,
      enableHeadlandDrivethrough: false,
      calculateRefillPoints: false,
      refillStrategyType: DEFAULTS.refillStrategyType,
      maxOptimizerTimeSeconds: DEFAULTS.maxOptimizerTimeSeconds,
      objective: DEFAULTS.objective,
    });
    // the plan echoes routeOptions as given
    expect(s.requestedRouteOptions).toEqual({});
  });

  it('keeps what the request gives, with units in the names', () => {
    const routeOptions = {
      algorithm: 'snake' as const,
      skipCount: 0,
      maxOptimizerTime: 3,
      headlandsFirst: true,
      objective: 'time' as const,
    };
    const s = normalizeRequest({
      field,
      machine: { widthMeters: 4, turnRadiusMeters: 9 },
      headland: { passes: 1, mode: 'turnOnly', corners: 'square' },
      tracks: { trackType: 'curved' },
      routeOptions,
    });
    expect(s.routeOptions).toMatchObject({
      algorithm: 'snake',
      skipCount: 0,
      maxOptimizerTimeSeconds: 3,
      headlandsFirst: true,
      objective: 'time',
    });
    expect(s.requestedRouteOptions).toEqual(routeOptions);
    expect(s.headland).toEqual({ mode: 'turnOnly', corners: 'square' });
    expect(s.trackType).toBe('curved');
    expect(s.headlandPasses).toBe(1);
  });

  it('reads the capacity model only when refill points are asked for, and names what is missing', () => {
    const tank = { tankCapacity: 3000, applicationRatePerHectare: 200 };
    expect(normalizeRequest({ field, machine: { widthMeters: 6, ...tank } }).refillCapacity).toBeUndefined();
    expect(
      normalizeRequest({ field, machine: { widthMeters: 6, ...tank }, routeOptions: { calculateRefillPoints: true } })
        .refillCapacity,
    ).toEqual(tank);
    for (const [request, path] of [
      [
        { field, equipment: { widthMeters: 6, tankCapacity: 3000 }, routeOptions: { calculateRefillPoints: true } },
        'equipment.applicationRatePerHectare',
      ],
      [
        {
          field,
          machine: { widthMeters: 6, tankCapacity: -1, applicationRatePerHectare: 200 },
          routeOptions: { calculateRefillPoints: true },
        },
        'machine.tankCapacity',
      ],
    ] as [PathPlanRequest, string][]) {
      try {
        normalizeRequest(request);
        expect.unreachable();
      } catch (e) {
        expect(isPlanError(e), String(e)).toBe(true);
        expect((e as { code: string }).code).toBe('invalid-option');
        expect((e as { details: { path: string }[] }).details[0].path).toBe(path);
      }
    }
  });

  it('checks every number against LIMITS, the bounds included', () => {
    const machine = (m: Record<string, number>): PathPlanRequest => ({ field, machine: { widthMeters: 4, ...m } });
    const cases: [string, number, number][] = [
      ['widthMeters', LIMITS.minWidthMeters, LIMITS.maxWidthMeters],
      ['turnRadiusMeters', LIMITS.minTurnRadiusMeters, LIMITS.maxTurnRadiusMeters],
      ['workingSpeedMetersPerSecond', LIMITS.minSpeedMetersPerSecond, LIMITS.maxSpeedMetersPerSecond],
      ['turningSpeedMetersPerSecond', LIMITS.minSpeedMetersPerSecond, LIMITS.maxSpeedMetersPerSecond],
      ['transportSpeedMetersPerSecond', LIMITS.minSpeedMetersPerSecond, LIMITS.maxSpeedMetersPerSecond],
      ['maxCurvatureRatePerSquareMeter', LIMITS.minCurvatureRatePerSquareMeter, LIMITS.maxCurvatureRatePerSquareMeter],
      ['workingFuelLitersPerHour', LIMITS.minFuelLitersPerHour, LIMITS.maxFuelLitersPerHour],
      ['cuspStopSeconds', LIMITS.minCuspStopSeconds, LIMITS.maxCuspStopSeconds],
    ];
    for (const [key, min, max] of cases) {
      expect(code(machine({ [key]: min })), `${key} = min`).toBeUndefined();
      expect(code(machine({ [key]: max })), `${key} = max`).toBeUndefined();
      expect(code(machine({ [key]: min - Math.max(1e-7, min * 0.01) })), `${key} < min`).toBeDefined();
      expect(code(machine({ [key]: max * 1.01 })), `${key} > max`).toBeDefined();
    }
    const optimizer = (t: number): PathPlanRequest => ({
      field,
      machine: { widthMeters: 4 },
      routeOptions: { maxOptimizerTime: t },
    });
    expect(code(optimizer(LIMITS.maxOptimizerTimeSeconds))).toBeUndefined();
    expect(code(optimizer(LIMITS.maxOptimizerTimeSeconds + 1))).toBe('invalid-request');
    expect(code(optimizer(LIMITS.minOptimizerTimeSeconds - 1))).toBe('invalid-request');
    expect(
      code({ field, machine: { widthMeters: 4 }, headland: { passes: LIMITS.maxHeadlandPasses } }),
    ).toBeUndefined();
    expect(code({ field, machine: { widthMeters: 4 }, headland: { passes: LIMITS.maxHeadlandPasses + 1 } })).toBe(
      'invalid-request',
    );
  });

  it('rejects unknown route options, algorithms, refill strategies and headland styles', () => {
    expect(code({ field, machine: { widthMeters: 4 }, routeOptions: { algorithm: 'zigzag' as never } })).toBe(
      'invalid-option',
    );
    expect(
      code({ field, machine: { widthMeters: 4 }, routeOptions: { refillStrategyType: 'Sometimes' as never } }),
    ).toBe('invalid-option');
    expect(code({ field, machine: { widthMeters: 4 }, headland: { mode: 'half' as never } })).toBe('invalid-request');
    expect(code({ field, machine: { widthMeters: 4 }, headland: { corners: 'sharp' as never } })).toBe(
      'invalid-request',
    );
  });
});
