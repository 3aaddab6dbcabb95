import { describe, expect, it } from 'vitest';
import { PlanError } from '../errors.js';
import {
  nearestOnRings,
  routeRefillPoints,
  stagingPointLocal,
  withRefillDetours,
  withStagingLegs,
  type ExtrasSegment,
} from './routeExtras.js';

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
    const segs: ExtrasSegment[] = [
      { type: 'Track', xy: Float64Array.from([0, 0, 0, 100]) },
      { type: 'Turn', xy: Float64Array.from([0, 100, 6, 100]) },
    ];
    const out = withStagingLegs(segs, [50, -50], (xy) => ({ type: 'Connector', xy, connector: 'staging' }));
    expect(out).toHaveLength(4);
    const first = Array.from(out[0].xy);
    const last = Array.from(out[3].xy);
    expect(first.slice(0, 2)).toEqual([50, -50]);
    expect(first.slice(-2)).toEqual([0, 0]);
    expect(last.slice(0, 2)).toEqual([6, 100]);
    expect(last.slice(-2)).toEqual([50, -50]);
    for (const leg of [first, last])
      for (let i = 2; i < leg.length; i += 2)
        expect(Math.hypot(leg[i] - leg[i - 2], leg[i + 1] - leg[i - 1])).toBeLessThanOrEqual(0.5 + 1e-9);
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
    const r = routeRefillPoints(
      segs,
      { tankCapacity: 150, applicationRatePerHectare: 100 },
      10,
      'Exact',
      [0, -500],
      frame,
      [],
    );
    expect(r.points).toHaveLength(1);
    expect(r.points[0].routeSequence).toBe(3);
    expect(r.points[0].alongMeters).toBeCloseTo(500, 6);
    expect(r.points[0].position[0]).toBeCloseTo(0.01, 9);
    expect(r.points[0].position[1]).toBeCloseTo(0.5, 9);
    expect(r.detourMeters).toBeCloseTo(2 * Math.hypot(10, 1000), 6);
  });

  it(
    'writes refill detours into the route: the working piece is split and two refill connectors go to the depot ' +
      'and back',
    () => {
      const segs: ExtrasSegment[] = [
        { type: 'Track', xy: Float64Array.from([0, 0, 0, 1000]) },
        { type: 'Turn', xy: Float64Array.from([0, 1000, 10, 1000]) },
        { type: 'Track', xy: Float64Array.from([10, 1000, 10, 0]) },
      ];
      const capacity = { tankCapacity: 150, applicationRatePerHectare: 100 };
      const r = withRefillDetours(
        segs,
        capacity,
        { calculateRefillPoints: true, refillStrategyType: 'Exact' },
        10,
        [0, -20],
        frame,
        [],
        (xy) => ({ type: 'Connector', xy, connector: 'refill' }),
      )!;
      // refill 500 m into the second track: Track, Turn, Track (500 m), out, back, Track (500 m)
      expect(r.segments.map((s) => s.type)).toEqual(['Track', 'Turn', 'Track', 'Connector', 'Connector', 'Track']);
      expect(r.points[0].routeSequence).toBe(3);
      for (let i = 1; i < r.segments.length; i++) {
        const a = r.segments[i - 1].xy;
        const b = r.segments[i].xy;
        expect(Math.hypot(a[a.length - 2] - b[0], a[a.length - 1] - b[1])).toBeLessThan(1e-9);
      }
      const length = (xy: Float64Array): number => {
        let l = 0;
        for (let i = 2; i < xy.length; i += 2) l += Math.hypot(xy[i] - xy[i - 2], xy[i + 1] - xy[i - 1]);
        return l;
      };
      expect(length(r.segments[3].xy) + length(r.segments[4].xy)).toBeCloseTo(r.detourMeters, 6);
      expect(length(r.segments[2].xy)).toBeCloseTo(500, 6);
      expect(
        withRefillDetours(
          segs,
          capacity,
          { calculateRefillPoints: false, refillStrategyType: 'Exact' },
          10,
          undefined,
          frame,
          [],
          (xy) => ({ type: 'Connector', xy }),
        ),
      ).toBeUndefined();
    },
  );
});
