import { describe, expect, it } from 'vitest';
import type { Plan, RouteSegment } from '../types.js';
import { createLocalFrame } from '../geometry/projection.js';
import { readBaseRoute, reversedSegment } from './baseRoute.js';

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

describe('the route read into blocks', () => {
  const frame = createLocalFrame([
    [10, 50],
    [10.01, 50.01],
  ]);
  const lonLat = (x: number, y: number): [number, number] => frame.toLonLat(x, y) as [number, number];
  const seg = (sequence: number, type: RouteSegment['type'], pts: [number, number][], extra = {}): RouteSegment => ({
    sequence,
    type,
    coordinates: pts.map(([x, y]) => lonLat(x, y)),
    lengthMeters: 0,
    ...extra,
  });
  const plan = {
    route: [
      seg(
        0,
        'Track',
        [
          [0, 0],
          [0, 400],
        ],
        { trackIndex: 0, widthMeters: 6 },
      ),
      seg(1, 'Turn', [
        [0, 400],
        [6, 400],
      ]),
      seg(
        2,
        'Track',
        [
          [6, 400],
          [6, 0],
        ],
        { trackIndex: 1, widthMeters: 6 },
      ),
    ],
  } as unknown as Plan;

  it('cuts a long straight track in parts, one track for the rule of one machine at a time', () => {
    const base = readBaseRoute(plan, frame, 0, 120);
    const parts = base.pieces.filter((p) => p.passKey === '0:Track:0');
    expect(parts.length).toBe(4);
    for (const p of parts) expect(p.lengthMeters).toBeCloseTo(100, 0);
    expect(new Set(parts.map((p) => p.passId)).size).toBe(4);
    // Parts meet end to start.
    for (let i = 1; i < parts.length; i++) {
      expect(parts[i].xy[0]).toBeCloseTo(parts[i - 1].xy.at(-2)!, 6);
      expect(parts[i].xy[1]).toBeCloseTo(parts[i - 1].xy.at(-1)!, 6);
    }
    expect(base.blocks.length).toBe(8);
  });
});
