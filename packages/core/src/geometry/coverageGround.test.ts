import { describe, expect, it } from 'vitest';
import { MAX_GROUND_ERROR_SHARE, computeCoverage, sweepPasses } from './computeCoverage.js';
import { areaOf, differenceGrouped } from './clipper.js';
import type { PathD, PathsD } from './clipper.js';
import { DENSE_RING_VERTICES, MIN_VERTEX_SPACING_METERS, perimeterOf, simplifyBoundary } from './simplifyBoundary.js';

/**
 * A W × H field (400 m × 300 m: 2,800 vertices) logged every 0.5 m with ±2 cm of jitter, an
 * outermost headland pass 3 m inside and 6 m tracks across the rest, exactly adjacent: the jitter
 * leaves a hairline piece at every wobble outside the headland swath.
 */
function loggedField(W = 400, H = 300): { workable: PathsD; passes: { xy: number[]; widthMeters: number }[] } {
  const step = 0.5;
  const ring: PathD = [];
  let k = 0;
  const side = (x0: number, y0: number, x1: number, y1: number): void => {
    const n = Math.round(Math.hypot(x1 - x0, y1 - y0) / step);
    const nx = -(y1 - y0) / (n * step),
      ny = (x1 - x0) / (n * step);
    for (let i = 0; i < n; i++, k++) {
      const j = i === 0 ? 0 : k % 2 ? 0.02 : -0.02;
      ring.push({ x: x0 + ((x1 - x0) * i) / n + nx * j, y: y0 + ((y1 - y0) * i) / n + ny * j });
    }
  };
  side(0, 0, W, 0);
  side(W, 0, W, H);
  side(W, H, 0, H);
  side(0, H, 0, 0);
  const passes = [{ xy: [3, 3, W - 3, 3, W - 3, H - 3, 3, H - 3, 3, 3], widthMeters: 6 }];
  for (let y = 9; y < H - 6; y += 6) passes.push({ xy: [6, y, W - 6, y], widthMeters: 6 });
  return { workable: [ring], passes };
}

describe('coverage on a dense (logged) boundary', () => {
  it(
    'measures uncovered against the simplified boundary: far fewer pieces, within perimeter × tolerance of the ' +
      'exact figure',
    () => {
      const { workable, passes } = loggedField();
      expect(workable[0].length).toBeGreaterThanOrEqual(DENSE_RING_VERTICES);
      const swept = sweepPasses(workable, passes);
      const cov = computeCoverage(workable, swept);
      // the sweep's difference saw the simplified ring, at most one vertex per MIN_VERTEX_SPACING_METERS
      expect(swept.ground).toBe(simplifyBoundary(workable));
      const groundVertices = swept.ground.reduce((n, r) => n + r.length, 0);
      expect(groundVertices).toBeLessThanOrEqual(perimeterOf(workable) / MIN_VERTEX_SPACING_METERS);
      // the exact figure: the real boundary, in the same frame, minus the same union
      const exactLeft = differenceGrouped(
        workable.map((r) => r.map((p) => swept.turn(p.x, p.y))),
        swept.union,
        6,
      );
      let exact = 0;
      for (const piece of exactLeft) exact += areaOf(piece);
      expect(exactLeft.length).toBeGreaterThan(1000); // the jitter's hairline pieces
      expect(swept.left.length).toBeLessThan(exactLeft.length / 10);
      expect(exact).toBeGreaterThan(0);
      expect(cov.groundErrorSquareMeters).toBeGreaterThan(0);
      expect(cov.groundErrorSquareMeters).toBeLessThanOrEqual(MAX_GROUND_ERROR_SHARE * areaOf(workable));
      expect(Math.abs(cov.uncoveredSquareMeters - exact)).toBeLessThanOrEqual(cov.groundErrorSquareMeters);
      // the workable area stays the real boundary's; overlap does not see the boundary
      expect(cov.workableAreaSquareMeters).toBe(areaOf(workable));
      expect(cov.overlapSquareMeters).toBeCloseTo(swept.areaSum - areaOf(swept.union), 6);
    },
  );

  it('measures a thin logged field against its real boundary (the bound would be too large a share of it)', () => {
    const { workable, passes } = loggedField(400, 20);
    expect(workable[0].length).toBeGreaterThanOrEqual(DENSE_RING_VERTICES);
    expect(simplifyBoundary(workable)).not.toBe(workable);
    const swept = sweepPasses(workable, passes);
    expect(swept.ground).toBe(workable);
    expect(computeCoverage(workable, swept).groundErrorSquareMeters).toBe(0);
  });

  it('measures a boundary that is not dense as it is (no error term)', () => {
    const workable: PathsD = [
      [
        { x: 0, y: 0 },
        { x: 100, y: 0 },
        { x: 100, y: 60 },
        { x: 0, y: 60 },
      ],
    ];
    const swept = sweepPasses(workable, [{ xy: [0, 3, 100, 3], widthMeters: 6 }]);
    expect(swept.ground).toBe(workable);
    expect(computeCoverage(workable, swept).groundErrorSquareMeters).toBe(0);
  });
});
