import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cleanRing, isSliver, ringAreaAbs } from './cleanRing.js';
import type { PathD } from './clipper.js';

/** A convex polygon: n points on an ellipse, counter-clockwise. */
function ellipse(n: number, a: number, b: number): PathD {
  return Array.from({ length: n }, (_, i) => ({
    x: a * Math.cos((2 * Math.PI * i) / n),
    y: b * Math.sin((2 * Math.PI * i) / n),
  }));
}

describe('cleanRing', () => {
  it('keeps a clean polygon as it is', () => {
    const r = ellipse(12, 100, 60);
    const c = cleanRing(r);
    expect(c.ring).toEqual(r);
    expect(c.source).toEqual(r.map((_, i) => i));
  });

  it('removes a spike and remembers the input index of every kept vertex', () => {
    const r: PathD = [
      { x: 0, y: 0 },
      { x: 50, y: 0 },
      { x: 50, y: -30 },
      { x: 50.004, y: 0 },
      { x: 100, y: 0 },
      { x: 100, y: 80 },
      { x: 0, y: 80 },
    ];
    const c = cleanRing(r);
    expect(c.removed.spikes).toBeGreaterThanOrEqual(1);
    expect(c.ring.some((p) => p.y < -1)).toBe(false);
    expect(ringAreaAbs(c.ring)).toBeCloseTo(8000, 0);
    for (let i = 0; i < c.ring.length; i++) expect(r[c.source[i]]).toEqual(c.ring[i]);
  });

  it('keeps a sharp but real corner (a 3 m wide, 40 m deep notch)', () => {
    const r: PathD = [
      { x: 0, y: 0 },
      { x: 50, y: 0 },
      { x: 51.5, y: -40 },
      { x: 53, y: 0 },
      { x: 100, y: 0 },
      { x: 100, y: 80 },
      { x: 0, y: 80 },
    ];
    expect(cleanRing(r).ring).toHaveLength(7);
  });

  it(
    'property: inserted duplicates and near-collinear points change the area by at most tol × perimeter and are ' +
      'removed',
    () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 3, max: 40 }),
          fc.double({ min: 20, max: 500, noNaN: true }),
          fc.double({ min: 20, max: 500, noNaN: true }),
          fc.array(
            fc.tuple(
              fc.nat(),
              fc.double({ min: 0.05, max: 0.95, noNaN: true }),
              fc.double({ min: -0.004, max: 0.004, noNaN: true }),
              fc.boolean(),
            ),
            { maxLength: 60 },
          ),
          (n, a, b, inserts) => {
            const base = ellipse(n, a, b);
            const noisy: PathD = base.map((p) => ({ ...p }));
            for (const [k, t, off, dup] of inserts) {
              const i = k % noisy.length;
              const p = noisy[i],
                q = noisy[(i + 1) % noisy.length];
              if (dup) {
                noisy.splice(i + 1, 0, { x: p.x + off, y: p.y - off });
                continue;
              }
              const dx = q.x - p.x,
                dy = q.y - p.y,
                l = Math.hypot(dx, dy);
              noisy.splice(i + 1, 0, { x: p.x + t * dx - (off * dy) / l, y: p.y + t * dy + (off * dx) / l });
            }
            const c = cleanRing(noisy);
            let perimeter = 0;
            for (let i = 0; i < base.length; i++)
              perimeter += Math.hypot(base[i].x - base[(i + 1) % n].x, base[i].y - base[(i + 1) % n].y);
            expect(Math.abs(ringAreaAbs(c.ring) - ringAreaAbs(base))).toBeLessThanOrEqual(0.01 * perimeter);
            // Every base corner bends by more than the tolerance, so exactly the base corners survive (near-duplicates
            // may replace one).
            expect(c.ring.length).toBe(n);
          },
        ),
        { seed: 5, numRuns: 200 },
      );
    },
  );

  it('isSliver: a 1 mm wide strip is a sliver, a 1 m wide one is not', () => {
    expect(
      isSliver([
        { x: 0, y: 0 },
        { x: 100, y: 0 },
        { x: 100, y: 0.001 },
        { x: 0, y: 0.001 },
      ]),
    ).toBe(true);
    expect(
      isSliver([
        { x: 0, y: 0 },
        { x: 100, y: 0 },
        { x: 100, y: 1 },
        { x: 0, y: 1 },
      ]),
    ).toBe(false);
  });
});
