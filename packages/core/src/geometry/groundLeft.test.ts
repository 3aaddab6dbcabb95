import { describe, expect, it } from 'vitest';
import { areaOf, differenceGrouped, unionPolygons } from './clipper.js';
import type { PathD, PathsD } from './clipper.js';
import { groundLeft } from './groundLeft.js';

const P = 6;
const square = (x: number, y: number, s: number): PathD => [
  { x, y },
  { x: x + s, y },
  { x: x + s, y: y + s },
  { x, y: y + s },
];
const total = (pieces: PathsD[]): number => pieces.reduce((a, p) => a + areaOf(p), 0);

/**
 * Swaths: a 100 × 100 m sheet with a 10 × 10 grid of square gaps (the union's holes), one gap
 * holding an island swath; the ground is a 90 × 90 m field with a pond, so some gaps lie in it,
 * some cross its edge or the pond's, one holds the pond, and a row lies outside it.
 */
function sheet(): { ground: PathsD; union: PathsD } {
  const swaths: PathsD = [];
  for (let i = 0; i < 10; i++) {
    swaths.push([
      { x: 0, y: i * 10 },
      { x: 100, y: i * 10 },
      { x: 100, y: i * 10 + 7 },
      { x: 0, y: i * 10 + 7 },
    ]);
    swaths.push([
      { x: i * 10, y: 0 },
      { x: i * 10 + 7, y: 0 },
      { x: i * 10 + 7, y: 100 },
      { x: i * 10, y: 100 },
    ]);
  }
  swaths.push(square(47.5, 47.5, 1)); // an island in the gap at (47, 47)
  const union = unionPolygons(swaths, P);
  const ground: PathsD = [square(5, 5, 87), square(77.5, 17.5, 1).reverse()]; // the pond in the gap at (77, 17)
  return { ground, union };
}

describe('groundLeft', () => {
  it('leaves what the difference leaves, the union sweeping only the holes it must', () => {
    const { ground, union } = sheet();
    expect(union.filter((r) => areaOf([r]) < 0).length).toBeGreaterThanOrEqual(64);
    const left = groundLeft(ground, union, P);
    const plain = differenceGrouped(ground, union, P);
    expect(total(left)).toBeCloseTo(total(plain), 9);
    expect(left.length).toBe(plain.length);
    // the gap with the island: 3 × 3 less the island; the pond's gap: 3 × 3 less the pond
    expect(left.filter((p) => Math.abs(areaOf(p) - 8) < 1e-9).length).toBe(2);
  });

  it('hands a hole inside the ground on vertex for vertex, counter-clockwise', () => {
    const { ground, union } = sheet();
    const left = groundLeft(ground, union, P);
    const hole = union.find((r) => areaOf([r]) < 0 && r.every((p) => p.x > 30 && p.x <= 40 && p.y > 30 && p.y <= 40));
    expect(hole).toBeDefined();
    const piece = left.find(
      (p) =>
        p.length === 1 &&
        p[0].length === hole!.length &&
        p[0].every((q) => hole!.some((h) => h.x === q.x && h.y === q.y)),
    );
    expect(piece).toBeDefined();
    expect(areaOf(piece!)).toBeCloseTo(9, 9);
  });
});
