/**
 * Clipper2's C++ build (clipperWasm.ts) against clipper2-ts on a real field, and its housekeeping:
 * nothing left in its memory after an operation, a refused operation an Error and not the end of it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Clipper, EndType, FillRule, JoinType } from 'clipper2-ts';
import type { PathsD } from 'clipper2-ts';
import { boolean, booleanGrouped, inflate, wasmHeapBytes } from './clipperWasm.js';

/** A corpus field's rings in metres (equirectangular about its first vertex: enough for a comparison). */
function fieldRings(name: string): PathsD {
  const g = JSON.parse(readFileSync(new URL(`../../../../test/fields/${name}.geojson`, import.meta.url), 'utf8'));
  const geom = g.type === 'Feature' ? g.geometry : g;
  const rings: number[][][] = geom.type === 'Polygon' ? geom.coordinates : geom.coordinates[0];
  const [lon0, lat0] = rings[0][0];
  const k = (6371000 * Math.PI) / 180,
    c = Math.cos((lat0 * Math.PI) / 180);
  return rings.map((r) => r.slice(0, -1).map(([x, y]) => ({ x: (x - lon0) * k * c, y: (y - lat0) * k })));
}

describe('Clipper2 in WebAssembly', () => {
  const field = fieldRings('bg-014');

  it('offsets a field with holes exactly as clipper2-ts does, vertex for vertex', () => {
    for (const d of [-3, -9.5, 4]) {
      const ts = Clipper.inflatePathsD(field, d, JoinType.Round, EndType.Polygon, 2, 4, 0.002);
      const w = inflate(field, d, 'polygon', 4, 0.002);
      expect(w.length).toBe(ts.length);
      expect(w).toEqual(ts.map((r) => r.map((p) => ({ x: p.x, y: p.y }))));
    }
  });

  it('unites, intersects and subtracts as clipper2-ts does, to its grid', () => {
    const inner = Clipper.inflatePathsD(field, -6, JoinType.Round, EndType.Polygon, 2, 4, 0.01);
    const swaths = Clipper.inflatePathsD(inner, 3, JoinType.Round, EndType.Joined, 2, 4, 0.01);
    const cases: [PathsD, PathsD][] = [
      [Clipper.unionD(swaths, [], FillRule.NonZero, 4), boolean('union', swaths, [], 4)],
      [Clipper.intersectD(field, swaths, FillRule.NonZero, 4), boolean('intersection', field, swaths, 4)],
      [Clipper.differenceD(field, swaths, FillRule.NonZero, 4), boolean('difference', field, swaths, 4)],
    ];
    for (const [ts, w] of cases) {
      const perimeter = ts.reduce(
        (s, r) =>
          s + r.reduce((t, p, i) => t + Math.hypot(r[(i + 1) % r.length].x - p.x, r[(i + 1) % r.length].y - p.y), 0),
        0,
      );
      expect(Math.abs(Clipper.areaPathsD(w) - Clipper.areaPathsD(ts))).toBeLessThan(perimeter * 1e-4);
    }
    // grouped: each shell with its holes, the same area as the flat union
    const grouped = booleanGrouped('union', swaths, [], 4);
    expect(
      grouped.every((poly) => Clipper.areaD(poly[0]) > 0 && poly.slice(1).every((h) => Clipper.areaD(h) < 0)),
    ).toBe(true);
    expect(grouped.flat().reduce((s, r) => s + Clipper.areaD(r), 0)).toBeCloseTo(Clipper.areaPathsD(cases[0][1]), 6);
  });

  it('leaves nothing behind in its memory, and a refused operation is an Error it recovers from', () => {
    const warm = () => {
      boolean('union', field, [], 4);
      booleanGrouped(
        'difference',
        field,
        Clipper.inflatePathsD(field, -20, JoinType.Round, EndType.Polygon, 2, 4, 0.01),
        4,
      );
      inflate(field, -2, 'polygon', 4, 0.01);
    };
    for (let i = 0; i < 20; i++) warm();
    const before = wasmHeapBytes();
    for (let i = 0; i < 300; i++) warm();
    expect(wasmHeapBytes()).toBe(before);
    expect(() =>
      inflate(
        [
          [
            { x: 0, y: 0 },
            { x: 1e17, y: 0 },
            { x: 1e17, y: 1e17 },
          ],
        ],
        1,
        'polygon',
        4,
        0.01,
      ),
    ).toThrow(/Clipper2/);
    expect(Clipper.areaPathsD(boolean('union', field, [], 4))).toBeCloseTo(Clipper.areaPathsD(field), 0);
  });
});
