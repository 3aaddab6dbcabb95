import { describe, expect, it } from 'vitest';
import { PlanError } from '../errors.js';
import { nearestOnRings, refillCapacity, routeRefillPoints, stagingPointLocal, withStagingLegs, type ExtrasSegment } from './routeExtras.js';

const frame = {
  toLocal: (lon: number, lat: number): [number, number] => [lon * 1000, lat * 1000],
  toLonLat: (x: number, y: number): [number, number] => [x / 1000, y / 1000],
};

describe('route extras', () => {
  it('reads the staging area into the local frame and rejects bad ones', () => {
    expect(stagingPointLocal(frame, { stagingArea: [1, 2] })).toEqual([1000, 2000]);
    expect(stagingPointLocal(frame, {})).toBeUndefined();
    expect(() => stagingPointLocal(frame, { stagingArea: [200, 0] })).toThrow(PlanError);
    expect(() => stagingPointLocal(frame, { stagingArea: 'here' as never })).toThrow(/stagingArea/);
  });

  it('adds legs from and back to the staging area that meet the route', () => {
    const segs: ExtrasSegment[] = [{ type: 'Track', xy: Float64Array.from([0, 0, 0, 100]) }, { type: 'Turn', xy: Float64Array.from([0, 100, 6, 100]) }];
    const out = withStagingLegs(segs, [50, -50], (xy) => ({ type: 'Connector', xy, connector: 'staging' }));
    expect(out).toHaveLength(4);
    expect(Array.from(out[0].xy)).toEqual([50, -50, 0, 0]);
    expect(Array.from(out[3].xy)).toEqual([6, 100, 50, -50]);
  });

  it('asks for the capacity model when refills are requested', () => {
    expect(refillCapacity({ machine: { widthMeters: 6, tankCapacity: 3000, applicationRatePerHectare: 200 } })).toEqual({ tankCapacity: 3000, applicationRatePerHectare: 200 });
    try {
      refillCapacity({ equipment: { widthMeters: 6, tankCapacity: 3000 } });
      expect.unreachable();
    } catch (e) {
      expect((e as PlanError).code).toBe('invalid-option');
      expect((e as PlanError).details[0].path).toBe('equipment.applicationRatePerHectare');
    }
  });

  it('projects the nearest ring point', () => {
    expect(nearestOnRings([[0, 0, 10, 0, 10, 10, 0, 10, 0, 0]], [4, 3])).toEqual([4, 0]);
  });

  it('places refill points on working pieces only and converts them to lon/lat', () => {
    const segs: ExtrasSegment[] = [
      { type: 'Connector', xy: Float64Array.from([0, -500, 0, 0]) },
      { type: 'Track', xy: Float64Array.from([0, 0, 0, 1000]) },
      { type: 'Turn', xy: Float64Array.from([0, 1000, 10, 1000]) },
      { type: 'Track', xy: Float64Array.from([10, 1000, 10, 0]) },
    ];
    // 10 m × 2000 m = 2 ha at 100 l/ha = 200 l with a 150 l tank: one refill, 500 m into the second track
    const r = routeRefillPoints(segs, { tankCapacity: 150, applicationRatePerHectare: 100 }, 10, 'Exact', [0, -500], frame, []);
    expect(r.points).toHaveLength(1);
    expect(r.points[0].routeSequence).toBe(3);
    expect(r.points[0].alongMeters).toBeCloseTo(500, 6);
    expect(r.points[0].position[0]).toBeCloseTo(0.01, 9);
    expect(r.points[0].position[1]).toBeCloseTo(0.5, 9);
    expect(r.detourMeters).toBeCloseTo(2 * Math.hypot(10, 1000), 6);
  });
});
