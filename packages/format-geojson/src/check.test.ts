import { describe, expect, it } from 'vitest';
import type { Position } from '@furrow/core';
import { checkPlanFeatureCollection, distanceMeters } from './check.js';
import type { PlanFeature, PlanFeatureCollection } from './plan.js';

// ~1 m in longitude at 48°N (WGS84: N cosφ · π/180 ≈ 74,625 m per degree)
const LON_PER_METER = 1 / 74625.1;
const LAT_PER_METER = 1 / 111194.9; // not exact: only used to build shapes

function line(points: [number, number][]): Position[] {
  return points.map(([x, y]) => [10 + x * LON_PER_METER, 48 + y * LAT_PER_METER]);
}

function fc(features: PlanFeature[]): PlanFeatureCollection {
  return { type: 'FeatureCollection', metrics: {} as never, version: 'test', features };
}

const track = (seq: number, pts: [number, number][]): PlanFeature => ({
  type: 'Feature',
  properties: { type: 'Track', sequence: seq, widthMeters: 6 },
  geometry: { type: 'LineString', coordinates: line(pts) },
});

/** A semicircle of radius 3 m from (x, y) to (x, y + 6) with n chords. */
function arc(x: number, y: number, n: number): [number, number][] {
  const pts: [number, number][] = [];
  for (let k = 0; k <= n; k++) {
    const a = -Math.PI / 2 + (Math.PI * k) / n;
    pts.push([x + 3 * Math.cos(a), y + 3 + 3 * Math.sin(a)]);
  }
  return pts;
}

describe('checkPlanFeatureCollection', () => {
  it('accepts a contiguous route with dense turns', () => {
    const turn: PlanFeature = {
      type: 'Feature',
      properties: { type: 'Turn', sequence: 1, turnType: 'U' },
      geometry: { type: 'LineString', coordinates: line(arc(100, 0, 24)) },
    };
    const problems = checkPlanFeatureCollection(
      fc([
        track(0, [
          [0, 0],
          [100, 0],
        ]),
        turn,
        track(2, [
          [100, 6],
          [0, 6],
        ]),
      ]),
    );
    expect(problems).toEqual([]);
  });

  it('reports gaps, missing sequence numbers, sparse curves and missing members', () => {
    const sparse: PlanFeature = {
      type: 'Feature',
      properties: { type: 'Turn', sequence: 1 },
      geometry: { type: 'LineString', coordinates: line(arc(100, 0, 8)) },
    };
    const problems = checkPlanFeatureCollection(
      fc([
        track(0, [
          [0, 0],
          [100, 0],
        ]),
        sparse,
        track(3, [
          [100, 6.2],
          [0, 6.2],
        ]),
        {
          type: 'Feature',
          properties: { type: 'Connector', sequence: 4 },
          geometry: {
            type: 'LineString',
            coordinates: line([
              [0, 6.2],
              [0, 7],
            ]),
          },
        },
      ]),
    );
    expect(problems).toEqual([
      'features[1] (Turn): no turnType',
      expect.stringMatching(/^sequence 1 \(Turn\): 1\.17\d\d m between points 0 and 1 on a curve$/),
      'route sequence 2 missing (found 3)',
      expect.stringMatching(/^sequence 3 \(Track\) starts 0\.2\d\d m from where 1 ended$/),
    ]);
  });

  it('measures short distances on the ellipsoid', () => {
    // 1/60° of latitude at 45° is 1,852.3 m on WGS84 (a nautical mile is defined as 1,852 m ≈ one arc minute)
    expect(distanceMeters([0, 44.99166666], [0, 45.00833333])).toBeCloseTo(1852.2, 0);
  });
});
