import { describe, expect, it } from 'vitest';
import { areaOf, offsetPolygons, sharedOffset } from './clipper.js';
import type { PathD } from './clipper.js';
import {
  BOUNDARY_TOLERANCES_METERS,
  MIN_VERTEX_SPACING_METERS,
  simplificationTolerance,
  simplifyBoundary,
} from './simplifyBoundary.js';
import { seededRandom } from './random.js';

function distanceToRing(x: number, y: number, ring: PathD): number {
  let best = Infinity;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[j],
      b = ring[i],
      dx = b.x - a.x,
      dy = b.y - a.y,
      l2 = dx * dx + dy * dy;
    const t = l2 > 0 ? Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / l2)) : 0;
    best = Math.min(best, Math.hypot(x - a.x - t * dx, y - a.y - t * dy));
  }
  return best;
}

/** A 1,000 × 900 m field logged with a vertex every 0.4 m, each off the side by up to ±0.15 m (counter-clockwise). */
function loggedField(): PathD {
  const rnd = seededRandom(5);
  const corners = [
    [0, 0],
    [1000, 0],
    [1000, 900],
    [0, 900],
  ];
  const ring: PathD = [];
  for (let k = 0; k < 4; k++) {
    const [x0, y0] = corners[k],
      [x1, y1] = corners[(k + 1) % 4];
    const l = Math.hypot(x1 - x0, y1 - y0),
      n = Math.round(l / 0.4);
    for (let i = 0; i < n; i++) {
      const t = i / n,
        d = i === 0 ? 0 : (2 * rnd() - 1) * 0.15;
      ring.push({ x: x0 + (x1 - x0) * t - ((y1 - y0) / l) * d, y: y0 + (y1 - y0) * t + ((x1 - x0) / l) * d });
    }
  }
  return ring;
}

describe('simplifyBoundary', () => {
  it("takes a logged boundary's jitter out, within the largest tolerance, down to a vertex per few metres", () => {
    const ring = loggedField();
    const [simple] = simplifyBoundary([ring]);
    expect(simple.length).toBeLessThanOrEqual(3800 / MIN_VERTEX_SPACING_METERS);
    const worst = Math.max(...ring.map((p) => distanceToRing(p.x, p.y, simple)));
    // (the simplified ring is on the union's centimetre grid)
    expect(worst).toBeLessThanOrEqual(BOUNDARY_TOLERANCES_METERS[BOUNDARY_TOLERANCES_METERS.length - 1] + 0.01);
    expect(Math.abs(areaOf([simple]) - areaOf([ring]))).toBeLessThan(0.25 * 3800);
  });

  it('keeps a dense smooth boundary within the smallest tolerance, and a drawn one as it is', () => {
    const circle: PathD = Array.from({ length: 4000 }, (_, i) => ({
      x: 300 * Math.cos((2 * Math.PI * i) / 4000),
      y: 300 * Math.sin((2 * Math.PI * i) / 4000),
    }));
    const [simple] = simplifyBoundary([circle]);
    expect(simple.length).toBeLessThan(circle.length);
    expect(Math.max(...circle.map((p) => distanceToRing(p.x, p.y, simple)))).toBeLessThanOrEqual(
      BOUNDARY_TOLERANCES_METERS[0] + 0.01,
    );
    const drawn = [
      [
        { x: 0, y: 0 },
        { x: 100, y: 0.01 },
        { x: 200, y: 0 },
        { x: 200, y: 100 },
        { x: 0, y: 100 },
      ],
    ];
    expect(simplifyBoundary(drawn)).toBe(drawn);
  });

  it('tells how far a simplified field may lie from the real one, and 0 for a field kept as it is', () => {
    const ring = loggedField();
    const simple = simplifyBoundary([ring]);
    const worst = Math.max(...ring.map((p) => distanceToRing(p.x, p.y, simple[0])));
    expect(worst).toBeGreaterThan(0);
    expect(simplificationTolerance(simple)).toBeGreaterThanOrEqual(worst);
    expect(simplificationTolerance(simple)).toBeLessThanOrEqual(
      BOUNDARY_TOLERANCES_METERS[BOUNDARY_TOLERANCES_METERS.length - 1] + 0.01,
    );
    const drawn = [
      [
        { x: 0, y: 0 },
        { x: 200, y: 0 },
        { x: 200, y: 100 },
        { x: 0, y: 100 },
      ],
    ];
    expect(simplificationTolerance(simplifyBoundary(drawn))).toBe(0);
  });

  it('offsets a field once per delta and tolerance for the stages that share it (sharedOffset)', () => {
    const field = simplifyBoundary([loggedField()]);
    const a = sharedOffset(field, -3, 0.01);
    expect(sharedOffset(field, -3, 0.01)).toBe(a);
    expect(a).toEqual(offsetPolygons(field, -3, 0.01));
    expect(sharedOffset(field, -3 - simplificationTolerance(field), 0.01)).not.toBe(a);
    expect(sharedOffset([...field], -3, 0.01)).not.toBe(a);
  });
});
