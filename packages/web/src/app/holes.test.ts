import { describe, expect, it } from 'vitest';
import { holesOf } from './geo.js';

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
