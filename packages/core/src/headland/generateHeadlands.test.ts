import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { createLocalFrame } from '../geometry/projection.js';
import { areaOf, offsetPolygons, unionPolygons } from '../geometry/clipper.js';
import type { PathD, PathsD } from '../geometry/clipper.js';
import { Region } from '../geometry/region.js';
import { ringToFlat } from '../geometry/clipper.js';
import type { GeoJsonPolygon } from '../types.js';
import { generateHeadlands, passIsJoinable } from './generateHeadlands.js';

const w = 6,
  R = 6;

/**
 * A 120 × 80 m rectangle turned by 30°, as a raster of 2 m cells would outline it (in-040's boundary is such a one).
 */
function pixelatedRectangle(): PathsD {
  const a = (30 * Math.PI) / 180,
    c = Math.cos(a),
    s = Math.sin(a);
  const cells: PathsD = [];
  for (let i = -60; i < 60; i++) {
    for (let j = -60; j < 60; j++) {
      const x = 2 * i + 1,
        y = 2 * j + 1;
      const u = c * x + s * y,
        v = -s * x + c * y;
      if (Math.abs(u) <= 60 && Math.abs(v) <= 40)
        cells.push([
          { x: x - 1, y: y - 1 },
          { x: x + 1, y: y - 1 },
          { x: x + 1, y: y + 1 },
          { x: x - 1, y: y + 1 },
        ]);
    }
  }
  return unionPolygons(cells);
}

describe('generateHeadlands on a stair-stepped boundary', () => {
  const field = pixelatedRectangle();
  const outer = (rings: PathsD): PathD =>
    rings.filter((r) => areaOf([r]) > 0).sort((p, q) => areaOf([q]) - areaOf([p]))[0];

  it('smooths the outer pass the machine could not join into one it can, inside its own offset', () => {
    expect(field.length).toBe(1);
    const raw = outer(offsetPolygons(field, -w / 2, 0.01));
    // The premise: the offset of the stairs has kinks all round.
    expect(passIsJoinable(raw, R)).toBe(false);
    const hl = generateHeadlands(field, 2, w, undefined, R);
    const first = hl.passes.filter((p) => p.passIndex === 1 && p.type === 'ExteriorHeadland');
    expect(first.length).toBe(1);
    expect(passIsJoinable(first[0].ring, R)).toBe(true);
    // Moved inwards only: its swath stays in the field.
    const allowed = new Region(offsetPolygons(field, -w / 2 + 0.01, 0.01));
    expect(allowed.containsPolyline(ringToFlat(first[0].ring))).toBe(true);
    // It still runs along the boundary: it encloses most of what the raw pass did.
    expect(areaOf([first[0].ring])).toBeGreaterThan(0.97 * areaOf([raw]));
    // Without the turning radius the passes are the plain offsets.
    const plain = generateHeadlands(field, 2, w);
    expect(areaOf([outer(plain.passes.filter((p) => p.passIndex === 1).map((p) => p.ring))])).toBeCloseTo(
      areaOf([raw]),
      3,
    );
  });

  it('plans the field with both passes driven and a clean checkPlan', () => {
    const frame = createLocalFrame([[78, 22]]);
    const ring = field[0].map((p) => frame.toLonLat(p.x, p.y));
    const geo: GeoJsonPolygon = { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
    const plan = planRoute({ field: geo, machine: { widthMeters: w, turnRadiusMeters: R }, headland: { passes: 2 } });
    expect(plan.warnings.filter((x) => x.code === 'headland-pass-skipped').map((x) => x.message)).toEqual([]);
    const driven = new Set(plan.route.filter((s) => s.type === 'ExteriorHeadland').map((s) => s.headlandIndex));
    expect(driven.size).toBe(plan.headlands.filter((h) => h.type === 'ExteriorHeadland').length);
    // The outer pass's band (a fifth of this field) is worked: what is left is the stairs' teeth
    // no 6 m swath reaches (1.7 % of the field) and the corners the smoothed pass cuts.
    const band = 1 - areaOf(offsetPolygons(field, -w, 0.01)) / areaOf(field);
    expect(band).toBeGreaterThan(0.2);
    expect(plan.metrics.uncoveredRatio).toBeLessThan(band / 3);
    expect(checkPlan(geo, plan).violations).toEqual([]);
  });
});
