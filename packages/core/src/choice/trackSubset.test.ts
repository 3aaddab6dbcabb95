import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import type { PathPlanRequest, Position } from '../types.js';

const FROZEN = { now: (): number => 0 };
const LON0 = 8.54,
  LAT0 = 47.37;
const dLon = 200 / (111_320 * Math.cos((LAT0 * Math.PI) / 180)),
  dLat = 150 / 111_320;
const request: PathPlanRequest = {
  field: {
    type: 'Polygon',
    coordinates: [
      [
        [LON0, LAT0],
        [LON0 + dLon, LAT0],
        [LON0 + dLon, LAT0 + dLat],
        [LON0, LAT0 + dLat],
        [LON0, LAT0],
      ],
    ],
  },
  machine: { widthMeters: 6, turnRadiusMeters: 6 },
  tracks: { preferredDirectionDegrees: 0 },
};
const west = (p: Position): boolean => p[0] < LON0 + dLon / 2;
const middle = (c: Position[]): Position => [(c[0][0] + c[c.length - 1][0]) / 2, (c[0][1] + c[c.length - 1][1]) / 2];

describe('planRoute with a trackSubset', () => {
  const whole = planRoute(request, FROZEN);
  const tracks = (route: typeof whole.route) => route.filter((s) => s.type === 'Track');

  it('routes only the tracks it keeps, on the same lines, with the headland as asked', () => {
    const part = planRoute(request, { ...FROZEN, trackSubset: { keep: west, withoutHeadland: false } });
    expect(tracks(part.route).length).toBeGreaterThan(0);
    for (const s of tracks(part.route)) expect(west(middle(s.coordinates))).toBe(true);
    // The same lines as the whole field's plan west of the middle (the tracks laid for the whole field).
    const lines = (route: typeof whole.route) => [...new Set(tracks(route).map((s) => s.coordinates[0][0].toFixed(7)))];
    expect(lines(part.route).sort()).toEqual(
      lines(whole.route.filter((s) => s.type !== 'Track' || west(middle(s.coordinates)))).sort(),
    );
    expect(part.route.some((s) => s.type === 'ExteriorHeadland')).toBe(true);
  });

  it('works no headland pass with withoutHeadland, and plans no passes for the ground left', () => {
    const part = planRoute(request, { ...FROZEN, trackSubset: { keep: (p) => !west(p), withoutHeadland: true } });
    expect(part.route.some((s) => s.type === 'ExteriorHeadland' || s.type === 'InteriorHeadland')).toBe(false);
    for (const s of tracks(part.route)) expect(west(middle(s.coordinates))).toBe(false);
    expect(part.choice?.variants.some((v) => v.why === 'left-over' || v.why === 'passes-between')).toBe(false);
  });
});
