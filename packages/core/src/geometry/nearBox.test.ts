import { describe, expect, it } from 'vitest';
import { areaOf, intersectPolygons } from './clipper.js';
import type { PathD, PathsD } from './clipper.js';
import { boxOf, nearBox } from './nearBox.js';
import { seededRandom } from './random.js';

/** A jagged 600 × 400 m field (a vertex every 0.5 m, ±0.2 m off the side) with a jagged hole (clockwise). */
function jaggedField(): PathsD {
  const rnd = seededRandom(11);
  const ring = (corners: number[][]): PathD => {
    const out: PathD = [];
    for (let k = 0; k < corners.length; k++) {
      const [x0, y0] = corners[k],
        [x1, y1] = corners[(k + 1) % corners.length];
      const l = Math.hypot(x1 - x0, y1 - y0),
        n = Math.round(l / 0.5);
      for (let i = 0; i < n; i++) {
        const t = i / n,
          d = (2 * rnd() - 1) * 0.2;
        out.push({ x: x0 + (x1 - x0) * t - ((y1 - y0) / l) * d, y: y0 + (y1 - y0) * t + ((x1 - x0) / l) * d });
      }
    }
    return out;
  };
  return [
    ring([
      [0, 0],
      [600, 0],
      [600, 400],
      [0, 400],
    ]),
    ring([
      [300, 150],
      [300, 250],
      [400, 250],
      [400, 150],
    ]),
  ];
}

const vertices = (p: PathsD): number => p.reduce((s, r) => s + r.length, 0);

describe('nearBox', () => {
  const field = jaggedField();
  // Shapes across the outer edge, across the hole, wholly inside, wholly in the hole, outside, and round the hole.
  const shapes: PathD[] = [
    [
      { x: -5, y: 100 },
      { x: 20, y: 90 },
      { x: 30, y: 130 },
      { x: -5, y: 125 },
    ],
    [
      { x: 280, y: 140 },
      { x: 330, y: 140 },
      { x: 330, y: 170 },
      { x: 280, y: 170 },
    ],
    [
      { x: 100, y: 100 },
      { x: 150, y: 110 },
      { x: 120, y: 160 },
    ],
    [
      { x: 340, y: 190 },
      { x: 360, y: 190 },
      { x: 350, y: 210 },
    ],
    [
      { x: 700, y: 100 },
      { x: 720, y: 100 },
      { x: 710, y: 120 },
    ],
    [
      { x: 250, y: 100 },
      { x: 450, y: 100 },
      { x: 450, y: 300 },
      { x: 250, y: 300 },
    ],
  ];

  it('keeps the intersection with any shape in the box, from a fraction of the vertices', () => {
    for (const shape of shapes) {
      const near = nearBox(field, boxOf([shape]), 1);
      const full = intersectPolygons(field, [shape]),
        cut = intersectPolygons(near, [shape]);
      expect(Math.abs(areaOf(cut) - areaOf(full))).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(areaOf(full))));
      expect(cut.length).toBe(full.length);
      expect(vertices(cut)).toBe(vertices(full));
      expect(vertices(near)).toBeLessThan(vertices(field) / 2);
    }
  });

  it('turns a ring winding round the box into the frame, and drops one that does not', () => {
    const inside = nearBox(field, { minX: 100, minY: 100, maxX: 110, maxY: 110 }, 1);
    expect(inside).toHaveLength(1);
    expect(areaOf(inside)).toBeCloseTo(14 * 14, 6);
    expect(nearBox(field, { minX: 340, minY: 190, maxX: 350, maxY: 200 }, 1).map((r) => areaOf([r]))).toEqual(
      [14 * 14, -14 * 14].map((a) => expect.closeTo(a, 6)),
    );
    expect(nearBox(field, { minX: 700, minY: 100, maxX: 710, maxY: 110 }, 1)).toHaveLength(0);
  });
});
