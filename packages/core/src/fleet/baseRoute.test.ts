import { describe, expect, it } from 'vitest';
import type { RouteSegment } from '../types.js';
import { reversedSegment } from './baseRoute.js';

describe('a segment driven the other way', () => {
  it('keeps its sections with their points, the offsets mirrored (+ is left of travel)', () => {
    const seg: RouteSegment = {
      sequence: 3,
      type: 'Track',
      coordinates: [
        [10, 50],
        [10.001, 50],
        [10.002, 50],
      ],
      lengthMeters: 143,
      activeWidthsMeters: [1, 2, 3],
      activeOffsetsMeters: [0.5, 0, -0.25],
    };
    const r = reversedSegment(seg);
    expect(r.coordinates).toEqual([
      [10.002, 50],
      [10.001, 50],
      [10, 50],
    ]);
    expect(r.activeWidthsMeters).toEqual([3, 2, 1]);
    expect(r.activeOffsetsMeters).toEqual([0.25, 0, -0.5]);
    expect(seg.activeOffsetsMeters).toEqual([0.5, 0, -0.25]);
  });
});
