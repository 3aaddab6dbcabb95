import { describe, expect, it } from 'vitest';
import { PlanError } from '../errors.js';
import { MAX_FLEET_MACHINES, validateFleet } from './validateFleet.js';
import type { FleetRequest } from './types.js';

const field = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [8.54, 47.37],
      [8.548, 47.37],
      [8.548, 47.375],
      [8.54, 47.375],
      [8.54, 47.37],
    ] as [number, number][],
  ],
};

function failure(request: unknown): PlanError {
  try {
    validateFleet(request as FleetRequest);
  } catch (e) {
    if (e instanceof PlanError) return e;
    throw e;
  }
  throw new Error('accepted');
}

describe('validateFleet', () => {
  it('accepts equal widths and whole multiples of the narrowest', () => {
    const m = validateFleet({
      field,
      fleet: [
        { id: 'a', widthMeters: 6 },
        { id: 'b', widthMeters: 12 },
        { id: 'c', widthMeters: 18, workingSpeedMetersPerSecond: 3 },
      ],
    });
    expect(m.map((x) => x.widthMeters)).toEqual([6, 12, 18]);
    expect(m[2].workingSpeedMetersPerSecond).toBe(3);
  });

  it('names the field of each bad fleet', () => {
    const empty = failure({ field, fleet: [] });
    expect(empty.code).toBe('invalid-fleet');
    expect(empty.details[0].path).toBe('fleet');
    expect(failure({ field }).details[0].path).toBe('fleet');
    const dup = failure({
      field,
      fleet: [
        { id: 'a', widthMeters: 6 },
        { id: 'a', widthMeters: 6 },
      ],
    });
    expect(dup.details[0].path).toBe('fleet[1].id');
    expect(dup.message).toContain('"a"');
    const width = failure({
      field,
      fleet: [
        { id: 'a', widthMeters: 6 },
        { id: 'b', widthMeters: 9 },
      ],
    });
    expect(width.details[0].path).toBe('fleet[1].widthMeters');
    expect(width.message).toContain('multiple');
    const many = failure({ field, fleet: Array.from({ length: 21 }, (_, i) => ({ id: `m${i}`, widthMeters: 6 })) });
    expect(many.details[0].path).toBe('fleet');
    expect(many.message).toContain(String(MAX_FLEET_MACHINES));
    const bad = failure({ field, fleet: [{ id: 'a', widthMeters: -1 }] });
    expect(bad.details[0].path).toMatch(/^fleet\[0\]/);
  });

  it('accepts 20 machines', () => {
    expect(
      validateFleet({ field, fleet: Array.from({ length: 20 }, (_, i) => ({ id: `m${i}`, widthMeters: 6 })) }),
    ).toHaveLength(20);
  });

  it('a start point that is not [lon, lat] in degrees is refused, naming the machine', () => {
    for (const startPoint of [[8.5], [200, 47], [8.5, 'x'], 'here']) {
      const e = failure({ field, fleet: [{ id: 'a', widthMeters: 6, startPoint }] });
      expect(e.details[0].path).toBe('fleet[0].startPoint');
    }
    expect(validateFleet({ field, fleet: [{ id: 'a', widthMeters: 6, startPoint: [8.53, 47.37] }] })).toHaveLength(1);
  });
});
