import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { holesOf, scaleFor } from './map.js';

describe('scaleFor', () => {
  it('picks a 1-2-5 length between 40 and 100 px', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 1000, noNaN: true }), (mpp) => {
        const { meters, pixels } = scaleFor(mpp);
        const lead = meters / Math.pow(10, Math.floor(Math.log10(meters) + 1e-9));
        expect([1, 2, 5].some((d) => Math.abs(lead - d) < 1e-6)).toBe(true);
        expect(pixels).toBeGreaterThanOrEqual(40);
        expect(pixels).toBeLessThanOrEqual(100);
      }),
      { seed: 3, numRuns: 300 },
    );
    expect(scaleFor(1)).toEqual({ meters: 100, pixels: 100 });
    expect(scaleFor(3)).toEqual({ meters: 200, pixels: 67 });
  });
});

describe('holesOf', () => {
  it('returns each hole of polygons and multipolygons as a polygon', () => {
    const outer = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 0],
    ];
    const hole = [
      [1, 1],
      [2, 1],
      [2, 2],
      [1, 1],
    ];
    expect(holesOf({ type: 'Polygon', coordinates: [outer, hole] })).toEqual([
      { type: 'Polygon', coordinates: [hole] },
    ]);
    expect(holesOf({ type: 'MultiPolygon', coordinates: [[outer], [outer, hole, hole]] })).toHaveLength(2);
    expect(holesOf({ type: 'Point', coordinates: [0, 0] })).toEqual([]);
  });
});
