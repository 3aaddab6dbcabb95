import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeCoverage, mainPassDirection } from './computeCoverage.js';
import type { WorkingPass } from './computeCoverage.js';
import type { PathsD } from './clipper.js';

/** A 100 m × 60 m rectangle covered by ten 6 m swaths along its length, all turned by `a` about (cx, cy). */
function turnedField(a: number, cx: number, cy: number): { workable: PathsD; passes: WorkingPass[] } {
  const c = Math.cos(a),
    s = Math.sin(a);
  const t = (x: number, y: number): [number, number] => [cx + x * c - y * s, cy + x * s + y * c];
  const ring = [t(0, 0), t(100, 0), t(100, 60), t(0, 60)].map(([x, y]) => ({ x, y }));
  const passes = Array.from({ length: 10 }, (_, k) => ({
    xy: [...t(0, 3 + 6 * k), ...t(100, 3 + 6 * k)],
    widthMeters: 6,
  }));
  return { workable: [ring], passes };
}

describe('computeCoverage', () => {
  it('finds the direction with the most straight-pass length', () => {
    const passes = [
      { xy: [0, 0, 10, 10], widthMeters: 6 },
      { xy: [0, 0, 30, 0], widthMeters: 6 },
      { xy: [5, 5, -5, -5], widthMeters: 6 },
      { xy: [0, 0, 10, 0, 10, 10, 0, 0], widthMeters: 6 },
    ];
    expect(mainPassDirection(passes)).toBeCloseTo(0, 9);
    expect(
      mainPassDirection([
        { xy: [0, 0, 0, 10], widthMeters: 6 },
        { xy: [3, 9, 3, -1], widthMeters: 6 },
      ]),
    ).toBeCloseTo(Math.PI / 2, 6);
    expect(mainPassDirection([])).toBe(0);
  });

  it('measures exactly adjacent swaths at any heading: no overlap, no gap (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: -2000, max: 2000, noNaN: true }),
        fc.double({ min: -2000, max: 2000, noNaN: true }),
        (a, cx, cy) => {
          const { workable, passes } = turnedField(a, cx, cy);
          const cov = computeCoverage(workable, passes);
          expect(cov.workableAreaSquareMeters).toBeCloseTo(6000, 3);
          expect(cov.uncoveredSquareMeters).toBeLessThan(0.5);
          expect(cov.overlapSquareMeters).toBeLessThan(0.5);
        },
      ),
      { seed: 7, numRuns: 40 },
    );
  });

  it('gives the same overlap and gap for a turned and moved field (property)', () => {
    // Two swaths overlapping by 2 m over 100 m; a closed headland ring round the rectangle.
    const base = (a: number, cx: number, cy: number): { workable: PathsD; passes: WorkingPass[] } => {
      const c = Math.cos(a),
        s = Math.sin(a);
      const t = (x: number, y: number): [number, number] => [cx + x * c - y * s, cy + x * s + y * c];
      const ring = [t(0, 0), t(100, 0), t(100, 60), t(0, 60)].map(([x, y]) => ({ x, y }));
      const loop = [t(3, 3), t(97, 3), t(97, 57), t(3, 57), t(3, 3)].flat();
      return {
        workable: [ring],
        passes: [
          { xy: [...t(10, 20), ...t(90, 20)], widthMeters: 6 },
          { xy: [...t(10, 24), ...t(90, 24)], widthMeters: 6 },
          { xy: loop, widthMeters: 6 },
        ],
      };
    };
    const ref = computeCoverage(base(0, 0, 0).workable, base(0, 0, 0).passes);
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: -5000, max: 5000, noNaN: true }),
        (a, d) => {
          const { workable, passes } = base(a, d, -d / 2);
          const cov = computeCoverage(workable, passes);
          expect(Math.abs(cov.overlapSquareMeters - ref.overlapSquareMeters)).toBeLessThan(0.5);
          expect(Math.abs(cov.uncoveredSquareMeters - ref.uncoveredSquareMeters)).toBeLessThan(0.5);
        },
      ),
      { seed: 11, numRuns: 30 },
    );
    // Overlap of the two tracks: 2 m × 80 m. The ring's swath reaches the field's edge but for its
    // round outer corners (radius 3 m about the ring's corners) and leaves an 88 × 48 m middle, in
    // which the tracks cover 2·6·80 − 160 = 800 m².
    expect(ref.overlapSquareMeters).toBeCloseTo(160, 0);
    const ringSwath = 6000 - 4 * (9 - (9 * Math.PI) / 4) - 88 * 48;
    expect(Math.abs(ref.uncoveredSquareMeters - (6000 - ringSwath - 800))).toBeLessThan(0.5);
  });
});
