/**
 * Connector rings (turns/connectorRings.ts): the eroded field grown back by R, a shell with many
 * holes grown and shrunk by parts — the same rings as the whole offset.
 */
import { describe, expect, it } from 'vitest';
import { areaOf, offsetPolygons } from '../geometry/clipper.js';
import type { PathsD } from '../geometry/clipper.js';
import { buildConnectorRings } from './connectorRings.js';

/** A regular polygon, counter-clockwise (clockwise with `hole`). */
function polygon(cx: number, cy: number, r: number, n: number, hole = false): { x: number; y: number }[] {
  const out = Array.from({ length: n }, (_, i) => ({
    x: cx + r * Math.cos((2 * Math.PI * i) / n),
    y: cy + r * Math.sin((2 * Math.PI * i) / n),
  }));
  return hole ? out.reverse() : out;
}

/** The rings the whole offset gives, as the connector rings' sizes: areas and perimeters, sorted. */
function sizes(rings: PathsD): { area: number; length: number }[] {
  return rings
    .map((r) => {
      let length = 0;
      for (let i = 0; i < r.length; i++)
        length += Math.hypot(r[(i + 1) % r.length].x - r[i].x, r[(i + 1) % r.length].y - r[i].y);
      return { area: areaOf([r]), length };
    })
    .sort((a, b) => a.area - b.area);
}

describe('buildConnectorRings', () => {
  const c = 6,
    R = 6;

  it('a field with a row of many-sided holes: the same rings as the whole offset', () => {
    // 600 × 200 m with 12 obstacles of 24 sides in a row (the erosion rounds them: arcs of many vertices)
    const field: PathsD = [
      [
        { x: 0, y: 0 },
        { x: 600, y: 0 },
        { x: 600, y: 200 },
        { x: 0, y: 200 },
      ],
      ...Array.from({ length: 12 }, (_, k) => polygon(30 + 45 * k, 100, 12, 24, true)),
    ];
    const whole = offsetPolygons(offsetPolygons(field, -(c + R)), R);
    const rings = buildConnectorRings(field, c, R);
    expect(rings.length).toBe(whole.length);
    const got = sizes(
      rings.map((l) => {
        const r = [];
        for (let i = 0; i + 3 < l.xy.length; i += 2) r.push({ x: l.xy[i], y: l.xy[i + 1] });
        return r;
      }),
    );
    const want = sizes(whole);
    got.forEach((g, i) => {
      expect(g.area).toBeCloseTo(want[i].area, 0);
      expect(Math.abs(g.length - want[i].length)).toBeLessThan(0.01);
    });
  });

  it('an island in a hole (two shells): offset whole, the island grown across the hole', () => {
    const field: PathsD = [
      [
        { x: 0, y: 0 },
        { x: 300, y: 0 },
        { x: 300, y: 300 },
        { x: 0, y: 300 },
      ],
      polygon(150, 150, 100, 32, true),
      polygon(150, 150, 50, 32),
    ];
    const whole = offsetPolygons(offsetPolygons(field, -(c + R)), R);
    const rings = buildConnectorRings(field, c, R);
    expect(rings.length).toBe(whole.length);
    expect(
      rings
        .map((l) => l.lengthMeters)
        .sort((a, b) => a - b)
        .map((x) => Math.round(x)),
    ).toEqual(
      sizes(whole)
        .map((s) => s.length)
        .sort((a, b) => a - b)
        .map((x) => Math.round(x)),
    );
  });
});
