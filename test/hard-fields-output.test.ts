/**
 * Hard-field plan members in the export formats: cells as `Cell` features, the
 * narrow-corridor warnings with their polygons, turn-only headland bands as `HeadlandArea`,
 * and what the other writers (KML, Shapefile, ISO-XML) do with them.
 */
import { describe, expect, it } from 'vitest';
import { planRoute } from '@furrow/core';
import type { GeoJsonPolygon, Plan, Position } from '@furrow/core';
import { planToFeatureCollection, checkPlanFeatureCollection } from '@furrow/format-geojson';
import { planToKml } from '@furrow/format-kml';
import { planLayers } from '@furrow/format-shapefile';
import { planToTaskData } from '@furrow/format-isoxml';

const M_LON = 111_320 * Math.cos((50 * Math.PI) / 180),
  M_LAT = 111_320;
function ll(x: number, y: number): Position {
  return [10 + x / M_LON, 50 + y / M_LAT];
}
function poly(...rings: [number, number][][]): GeoJsonPolygon {
  return {
    type: 'Polygon',
    coordinates: rings.map((r) => {
      const q = r.map(([x, y]) => ll(x, y));
      return [...q, q[0]];
    }),
  };
}
function xy(p: Position): [number, number] {
  return [(p[0] - 10) * M_LON, (p[1] - 50) * M_LAT];
}
const machine = { widthMeters: 6, turnRadiusMeters: 6 };

describe('cells, corridors and turn-only bands in the formats', () => {
  // Two blocks joined by a 4 m neck (a narrow corridor), a hole in the left block (cells).
  const field = poly(
    [
      [0, 0],
      [150, 0],
      [150, 58],
      [210, 58],
      [210, 0],
      [360, 0],
      [360, 120],
      [210, 120],
      [210, 62],
      [150, 62],
      [150, 120],
      [0, 120],
    ],
    [
      [50, 40],
      [50, 80],
      [90, 80],
      [90, 40],
    ],
  );
  const plan: Plan = planRoute({ field, machine, headland: { passes: 1 }, tracks: { preferredDirectionDegrees: 0 } });
  const fc = planToFeatureCollection(plan);

  it('GeoJSON: a Cell feature per cell and a Polygon Warning for the corridor; the contract still holds', () => {
    const cells = plan.cells as unknown[];
    expect(cells.length).toBeGreaterThanOrEqual(3);
    expect(fc.features.filter((f) => f.properties.type === 'Cell')).toHaveLength(cells.length);
    const corridors = fc.features.filter(
      (f) => f.properties.type === 'Warning' && f.properties.code === 'narrow-corridor',
    );
    expect(corridors.length).toBeGreaterThanOrEqual(1);
    expect(corridors.every((f) => f.geometry.type === 'Polygon')).toBe(true);
    expect(checkPlanFeatureCollection(fc)).toEqual([]);
  });

  it('KML puts the cells in their own folder; the Shapefile polygon layer carries them as records typed Cell', () => {
    const kml = planToKml(plan);
    expect(kml).toContain('<name>Cell</name>');
    expect((kml.match(/<styleUrl>#Cell<\/styleUrl>/g) ?? []).length).toBe((plan.cells as unknown[]).length);
    const polygons = planLayers(plan).find((l) => l.name.endsWith('_polygons'))!;
    expect(polygons.records.filter((r) => r.attributes.type === 'Cell')).toHaveLength((plan.cells as unknown[]).length);
  });

  it('ISO-XML ignores cells (no partfield polygon for them) and still writes the plan', () => {
    const xml = planToTaskData(plan);
    const withoutCells = planToTaskData({ ...plan, cells: undefined });
    expect(xml).toBe(withoutCells);
  });

  it('turn-only headlands: the bands at the track ends are HeadlandArea features and the ISO-XML headland polygons', () => {
    const rect = poly([
      [0, 0],
      [200, 0],
      [200, 120],
      [0, 120],
    ]);
    const p = planRoute({
      field: rect,
      machine,
      headland: { passes: 2, mode: 'turnOnly' },
      tracks: { preferredDirectionDegrees: 0 },
    });
    const areas = planToFeatureCollection(p).features.filter((f) => f.properties.type === 'HeadlandArea');
    expect(areas).toHaveLength(2);
    for (const a of areas) {
      const ys = (a.geometry.coordinates as Position[][])[0].map((c) => xy(c)[1]);
      const xs = (a.geometry.coordinates as Position[][])[0].map((c) => xy(c)[0]);
      // Each band: the full width, 12 m deep at one end.
      expect(Math.max(...xs) - Math.min(...xs)).toBeCloseTo(200, 0);
      expect(Math.max(...ys) - Math.min(...ys)).toBeCloseTo(12, 0);
    }
    // ISO-XML: the plan's bands (type 10 polygons), not a full-perimeter ring.
    const xml = planToTaskData(p);
    const full = planToTaskData(
      planRoute({ field: rect, machine, headland: { passes: 2 }, tracks: { preferredDirectionDegrees: 0 } }),
    );
    const headlandPolys = (s: string): number => (s.match(/<PLN A="10"/g) ?? []).length;
    expect(headlandPolys(xml)).toBe(2);
    expect(headlandPolys(full)).toBe(1);
  });
});
