import { describe, expect, it } from 'vitest';
import type { FieldGeometry } from '../types.js';
import { contourTracks, frameForPositions, type ElevationGrid } from './index.js';

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

// A 200 m square centred on its own local frame (the frame is centred on the bounding box).
const frame = frameForPositions([
  [16, 48],
  [16.001, 48.001],
]);
const square: FieldGeometry = {
  type: 'Polygon',
  coordinates: [
    [
      [-100, -100],
      [100, -100],
      [100, 100],
      [-100, 100],
      [-100, -100],
    ].map(([x, y]) => frame.toLonLat(x, y)),
  ],
};
const local = (p: [number, number]): [number, number] => {
  const f = frameForPositions(square.coordinates[0] as [number, number][]);
  return f.toLocal(p[0], p[1]);
};

describe('contour-following curved tracks', () => {
  it('a round hill: concentric circles one width apart around the summit', () => {
    const g = localGrid((x, y) => 100 - 0.1 * Math.hypot(x, y), 150, 2);
    const w = 12;
    const res = contourTracks(square, g, { widthMeters: w });
    expect(res.tracks.length).toBeGreaterThan(5);
    // Radius of each track: constant along it, and the radii of different offsets differ by whole widths.
    const radii = new Map<number, number>();
    for (const t of res.tracks) {
      const rs = t.coordinates.map((p) => Math.hypot(...local(p)));
      const mean = rs.reduce((a, b) => a + b, 0) / rs.length;
      for (const r of rs) expect(Math.abs(r - mean)).toBeLessThan(0.3);
      radii.set(t.offsetIndex, mean);
    }
    const key = radii.get(0)!;
    for (const [k, r] of radii) expect(Math.abs(Math.abs(r - key) - Math.abs(k) * w)).toBeLessThan(0.3);
    // The key contour is at the field's median elevation: about the radius enclosing half the square.
    expect(key).toBeGreaterThan(70);
    expect(key).toBeLessThan(90);
  });

  it('an inclined plane: straight parallel tracks along the contour, one width apart, clear of the inset', () => {
    const g = localGrid((x, y) => 0.05 * (0.6 * x + 0.8 * y), 150, 2);
    const w = 9,
      inset = 12;
    const res = contourTracks(square, g, { widthMeters: w, insetMeters: inset });
    const byIndex = new Map(res.tracks.map((t) => [t.offsetIndex, t]));
    expect(byIndex.size).toBeGreaterThan(15);
    for (const t of res.tracks) {
      for (const p of t.coordinates) {
        const [x, y] = local(p);
        // Signed distance from the key line 0.6x + 0.8y = c0 is a multiple of the width.
        const key = local(byIndex.get(0)!.coordinates[0]);
        const dist = 0.6 * (x - key[0]) + 0.8 * (y - key[1]);
        expect(Math.abs(Math.abs(dist) - Math.abs(t.offsetIndex) * w)).toBeLessThan(0.05);
        // positions are rounded to 1e-9°
        expect(Math.min(100 - Math.abs(x), 100 - Math.abs(y))).toBeGreaterThanOrEqual(inset - 1e-3);
      }
    }
  });

  it('flat ground has no contour tracks; the width must be positive', () => {
    expect(
      contourTracks(
        square,
        localGrid(() => 3, 150, 5),
        { widthMeters: 6 },
      ).tracks,
    ).toEqual([]);
    expect(() =>
      contourTracks(
        square,
        localGrid((x) => x, 150, 5),
        { widthMeters: 0 },
      ),
    ).toThrowError(/widthMeters/);
  });
});
