import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  fitViewBox,
  geometryPath,
  insertCorner,
  lonLatBounds,
  makeProjection,
  moveCorner,
  projectedBounds,
  ringsAreaSquareMeters,
  zoomViewBox,
} from './geo.js';
import type { Position } from './geo.js';

describe('projection', () => {
  it('maps 0.001° of latitude to about 111 m and shrinks longitude by cos(lat)', () => {
    const p = makeProjection(4.5, 50.5);
    const [, y] = p.project([4.5, 50.501]);
    expect(y).toBeCloseTo(111.19, 1);
    const [x] = p.project([4.501, 50.5]);
    expect(x).toBeCloseTo(111.19 * Math.cos((50.5 * Math.PI) / 180), 1);
  });

  it('gives a 100 m × 100 m square an area within 0.1 % of 1 ha', () => {
    const lat0 = 48;
    const dLat = 100 / 111_194.9;
    const dLon = dLat / Math.cos((lat0 * Math.PI) / 180);
    const ring: Position[] = [
      [10, lat0],
      [10 + dLon, lat0],
      [10 + dLon, lat0 + dLat],
      [10, lat0 + dLat],
      [10, lat0],
    ];
    const area = ringsAreaSquareMeters([ring], makeProjection(10 + dLon / 2, lat0 + dLat / 2));
    expect(Math.abs(area - 10_000) / 10_000).toBeLessThan(0.001);
  });
});

describe('paths', () => {
  it('flips y so north is up and closes polygon rings', () => {
    const p = makeProjection(0, 0);
    const d = geometryPath(
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [0.001, 0],
            [0.001, 0.001],
            [0, 0],
          ],
        ],
      },
      p,
    );
    expect(d.startsWith('M0 0L111.2 0L111.2 -111.2')).toBe(true);
    expect(d.endsWith('Z')).toBe(true);
  });

  it('draws nothing for points', () => {
    expect(geometryPath({ type: 'Point', coordinates: [1, 2] }, makeProjection(1, 2))).toBe('');
  });
});

describe('view box', () => {
  it('fits any bounds inside the view at the viewport aspect ratio', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        fc.double({ min: 1, max: 5e3, noNaN: true }),
        fc.double({ min: 1, max: 5e3, noNaN: true }),
        fc.integer({ min: 200, max: 3000 }),
        fc.integer({ min: 200, max: 3000 }),
        (x, y, w, h, vw, vh) => {
          const b = { minX: x, minY: y, maxX: x + w, maxY: y + h };
          const v = fitViewBox(b, vw, vh);
          expect(v.x).toBeLessThanOrEqual(b.minX);
          expect(v.y).toBeLessThanOrEqual(b.minY);
          expect(v.x + v.width).toBeGreaterThanOrEqual(b.maxX);
          expect(v.y + v.height).toBeGreaterThanOrEqual(b.maxY);
          expect(v.width / v.height).toBeCloseTo(vw / vh, 6);
        },
      ),
      { seed: 42, numRuns: 200 },
    );
  });

  it('keeps the zoom focus point fixed on screen', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.2, max: 5, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (k, fx, fy) => {
          const v = { x: -50, y: -20, width: 400, height: 300 };
          const px = v.x + fx * v.width;
          const py = v.y + fy * v.height;
          const z = zoomViewBox(v, k, px, py);
          expect((px - z.x) / z.width).toBeCloseTo(fx, 9);
          expect((py - z.y) / z.height).toBeCloseTo(fy, 9);
          expect(z.width).toBeCloseTo(v.width / k, 9);
        },
      ),
      { seed: 7, numRuns: 100 },
    );
  });
});

describe('bounds', () => {
  it('walks nested geometries and collections', () => {
    const b = lonLatBounds([
      {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [1, 2],
              [3, 2],
              [3, 5],
              [1, 2],
            ],
          ],
        ],
      },
      { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [-1, 7] }] },
      null,
    ]);
    expect(b).toEqual({ minX: -1, minY: 2, maxX: 3, maxY: 7 });
    const pb = projectedBounds([{ type: 'Point', coordinates: [0, 0.001] }], makeProjection(0, 0));
    expect(pb.minY).toBeCloseTo(-111.19, 1);
  });
});

describe('editing a ring', () => {
  const square: Position[] = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
    [0, 0],
  ];
  it('moves a corner, the first one together with the closing one, and leaves the input alone', () => {
    expect(moveCorner(square, 2, [2, 2])).toEqual([
      [0, 0],
      [1, 0],
      [2, 2],
      [0, 1],
      [0, 0],
    ]);
    expect(moveCorner(square, 0, [-1, -1])).toEqual([
      [-1, -1],
      [1, 0],
      [1, 1],
      [0, 1],
      [-1, -1],
    ]);
    expect(square[2]).toEqual([1, 1]);
  });
  it('adds a corner after the side it splits, the ring staying closed', () => {
    expect(insertCorner(square, 0, [0.5, -0.5])).toEqual([
      [0, 0],
      [0.5, -0.5],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ]);
    expect(insertCorner(square, 3, [-0.5, 0.5])).toEqual([
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [-0.5, 0.5],
      [0, 0],
    ]);
    expect(square).toHaveLength(5);
  });
});
