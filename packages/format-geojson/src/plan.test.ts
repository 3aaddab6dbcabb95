import { describe, expect, it } from 'vitest';
import { planRoute } from '@furrow/core';
import type { GeoJsonPolygon, Position } from '@furrow/core';
import { checkPlanFeatureCollection } from './check.js';
import { planToFeatureCollection } from './plan.js';

const M_LON = 111_320 * Math.cos((50 * Math.PI) / 180),
  M_LAT = 111_320;
function ring(pts: [number, number][]): Position[] {
  const r: Position[] = pts.map(([x, y]) => [10 + x / M_LON, 50 + y / M_LAT]);
  return [...r, r[0]];
}

describe('plan GeoJSON: cells', () => {
  it(
    'each cell of plan.cells is a Cell feature (Polygon, index, heading, track count); the route features are ' +
      'unchanged',
    () => {
      // A hole in the middle splits the tracks into cells below, beside and above it.
      const field: GeoJsonPolygon = {
        type: 'Polygon',
        coordinates: [
          ring([
            [0, 0],
            [260, 0],
            [260, 180],
            [0, 180],
          ]),
          ring([
            [100, 60],
            [100, 120],
            [160, 120],
            [160, 60],
          ]),
        ],
      };
      const plan = planRoute({ field, machine: { widthMeters: 6, turnRadiusMeters: 6 }, headland: { passes: 2 } });
      const cells = plan.cells as {
        index: number;
        trackCount: number;
        headingDegrees: number;
        areaSquareMeters: number;
        geometry: { type: string; coordinates: Position[][] };
      }[];
      expect(cells.length).toBeGreaterThanOrEqual(3);
      const fc = planToFeatureCollection(plan);
      const features = fc.features.filter((f) => f.properties.type === 'Cell');
      expect(features).toHaveLength(cells.length);
      features.forEach((f, i) => {
        expect(f.geometry.type).toBe('Polygon');
        expect(f.geometry.coordinates).toEqual(cells[i].geometry.coordinates);
        expect(f.properties).toMatchObject({
          index: cells[i].index,
          trackCount: cells[i].trackCount,
          headingDegrees: cells[i].headingDegrees,
          areaSquareMeters: cells[i].areaSquareMeters,
        });
        expect(f.properties).not.toHaveProperty('sequence');
      });
      expect(checkPlanFeatureCollection(fc)).toEqual([]);
      // Without cells in the plan, no Cell feature.
      expect(
        planToFeatureCollection({ ...plan, cells: undefined }).features.some((f) => f.properties.type === 'Cell'),
      ).toBe(false);
    },
  );
});

describe('plan GeoJSON: gates', () => {
  const field: GeoJsonPolygon = {
    type: 'Polygon',
    coordinates: [
      ring([
        [0, 0],
        [300, 0],
        [300, 200],
        [0, 200],
      ]),
    ],
  };
  const machine = { widthMeters: 6, turnRadiusMeters: 6 };

  it("each of the request's accessPoints is an AccessPoint Point feature, in request order", () => {
    const gates = [ring([[0, 100]])[0], ring([[300, 150]])[0], ring([[150, 200]])[0]];
    const fc = planToFeatureCollection(planRoute({ field, machine, headland: { passes: 1 }, accessPoints: gates }));
    const found = fc.features.filter((f) => f.properties.type === 'AccessPoint');
    expect(found.map((f) => f.geometry)).toEqual(gates.map((coordinates) => ({ type: 'Point', coordinates })));
    expect(found.map((f) => f.properties.index)).toEqual([0, 1, 2]);
    // context: after the route, which stays a valid route
    expect(checkPlanFeatureCollection(fc)).toEqual([]);
  });

  it('a plan without gates has no AccessPoint feature', () => {
    const fc = planToFeatureCollection(planRoute({ field, machine, headland: { passes: 1 } }));
    expect(fc.features.some((f) => f.properties.type === 'AccessPoint')).toBe(false);
  });
});
