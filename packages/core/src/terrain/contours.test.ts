import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FieldGeometry } from '../types.js';
import { contourLines, frameForPositions, keyContourLine, localTerrainModel, type ElevationGrid } from './index.js';

function localGrid(f: (x: number, y: number) => number, half: number, cell: number): ElevationGrid {
  const n = Math.round((2 * half) / cell);
  const z: number[] = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) z.push(f(-half + (c + 0.5) * cell, half - (r + 0.5) * cell));
  return {
    crs: 'local',
    originX: -half,
    originY: half,
    cellSizeX: cell,
    cellSizeY: cell,
    columns: n,
    rows: n,
    elevationsMeters: z,
  };
}

describe('contour lines', () => {
  it('a cone: the contour at 80 − 0.1·r = 75 is one closed circle of radius 50 m', () => {
    const m = localTerrainModel(localGrid((x, y) => 80 - 0.1 * Math.hypot(x, y), 100, 2));
    const lines = contourLines(m, 75);
    expect(lines).toHaveLength(1);
    const l = lines[0];
    expect(l[0]).toBeCloseTo(l[l.length - 2], 9); // closed
    expect(l[1]).toBeCloseTo(l[l.length - 1], 9);
    let maxErr = 0;
    for (let i = 0; i < l.length; i += 2) maxErr = Math.max(maxErr, Math.abs(Math.hypot(l[i], l[i + 1]) - 50));
    expect(maxErr).toBeLessThan(0.05); // linear interpolation between 2 m cells on a cone
    expect(l.length / 2).toBeGreaterThan(100);
  });

  it('an inclined plane: the contour is the straight line where the plane has that height', () => {
    const m = localTerrainModel(localGrid((x, y) => 0.08 * x + 0.06 * y, 60, 3));
    const lines = contourLines(m, 1.234);
    expect(lines).toHaveLength(1);
    const l = lines[0];
    for (let i = 0; i < l.length; i += 2) expect(0.08 * l[i] + 0.06 * l[i + 1]).toBeCloseTo(1.234, 9);
    // It crosses the whole grid: from one edge to another.
    expect(Math.hypot(l[0] - l[l.length - 2], l[1] - l[l.length - 1])).toBeGreaterThan(100);
  });

  it('two hills give two closed contours; a level above both gives none', () => {
    const f = (x: number, y: number): number =>
      10 * Math.exp(-((x - 30) ** 2 + y ** 2) / 200) + 10 * Math.exp(-((x + 30) ** 2 + y ** 2) / 200);
    const m = localTerrainModel(localGrid(f, 80, 2));
    expect(contourLines(m, 5)).toHaveLength(2);
    expect(contourLines(m, 50)).toHaveLength(0);
  });
});

describe('key contour of a field', () => {
  const feature = JSON.parse(
    readFileSync(new URL('../../../../test/fields/at-033.geojson', import.meta.url), 'utf8'),
  ) as { geometry: FieldGeometry };
  const field = feature.geometry;
  const ring = field.type === 'Polygon' ? field.coordinates[0] : field.coordinates[0][0];

  it(
    'on a plane rising north-east over a corpus field: a line at constant height, inside the field, along the ' +
      'contour',
    () => {
      const frame = frameForPositions(ring);
      const g = localGrid((x, y) => 200 + 0.05 * (x + y), 200, 2);
      const key = keyContourLine(field, g);
      expect(key).not.toBeNull();
      const pts = key!.coordinates.map((p) => frame.toLocal(p[0], p[1]));
      for (const [x, y] of pts) expect(200 + 0.05 * (x + y)).toBeCloseTo(key!.levelMeters, 4);
      // Direction of the line: perpendicular to the gradient (1, 1), i.e. along (1, −1).
      const [x0, y0] = pts[0],
        [x1, y1] = pts[pts.length - 1];
      // positions are rounded to 1e-9°
      expect(Math.abs(x1 - x0 + (y1 - y0)) / Math.hypot(x1 - x0, y1 - y0)).toBeLessThan(1e-4);
      expect(key!.lengthMeters).toBeGreaterThan(10);
    },
  );

  it('flat ground has no key contour', () => {
    expect(
      keyContourLine(
        field,
        localGrid(() => 5, 200, 5),
      ),
    ).toBeNull();
  });
});
