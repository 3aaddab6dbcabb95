/**
 * Past the call's wall-clock cap the coverage metric buffers at most HURRIED_PASS_VERTICES vertices
 * of curved passes (metrics/measureRoute.ts): a headland pass logged every half metre is simplified
 * (the metric says so), and uncovered stays within the simplification's bound of the exact figure.
 */
import { describe, expect, it } from 'vitest';
import { computeCoverage, sweepPasses } from '../geometry/computeCoverage.js';
import type { PathD } from '../geometry/clipper.js';
import { HURRIED_PASS_VERTICES } from './measureRoute.js';

/**
 * A W × H field, one headland pass 3 m inside drawn every 0.5 m with ±2 cm of jitter (2,744 vertices), 6 m tracks
 * across the rest.
 */
function field(W = 400, H = 300): { workable: PathD[]; passes: { xy: number[]; widthMeters: number }[] } {
  const pass: number[] = [];
  let k = 0;
  const side = (x0: number, y0: number, x1: number, y1: number): void => {
    const n = Math.round(Math.hypot(x1 - x0, y1 - y0) / 0.5);
    const nx = -(y1 - y0) / (n * 0.5),
      ny = (x1 - x0) / (n * 0.5);
    for (let i = 0; i < n; i++, k++) {
      const j = i === 0 ? 0 : k % 2 ? 0.02 : -0.02;
      pass.push(x0 + ((x1 - x0) * i) / n + nx * j, y0 + ((y1 - y0) * i) / n + ny * j);
    }
  };
  side(3, 3, W - 3, 3);
  side(W - 3, 3, W - 3, H - 3);
  side(W - 3, H - 3, 3, H - 3);
  side(3, H - 3, 3, 3);
  pass.push(3, 3);
  const passes = [{ xy: pass, widthMeters: 6 }];
  for (let y = 9; y < H - 6; y += 6) passes.push({ xy: [6, y, W - 6, y], widthMeters: 6 });
  return {
    workable: [
      [
        { x: 0, y: 0 },
        { x: W, y: 0 },
        { x: W, y: H },
        { x: 0, y: H },
      ],
    ],
    passes,
  };
}

describe('the coverage metric past the wall-clock cap', () => {
  it('simplifies a pass of a few thousand vertices, within its tolerance of the exact uncovered area', () => {
    const { workable, passes } = field();
    const vertices = passes[0].xy.length / 2;
    expect(vertices).toBeGreaterThan(HURRIED_PASS_VERTICES);
    const exact = computeCoverage(workable, sweepPasses(workable, passes));
    const hurried = sweepPasses(workable, passes, HURRIED_PASS_VERTICES);
    expect(exact.approximation).toBeUndefined();
    const tolerance = Number(/within ([\d.]+) m/.exec(hurried.approximation ?? '')?.[1]);
    expect(tolerance).toBeGreaterThan(0);
    const fast = computeCoverage(workable, hurried);
    // the simplified pass moves its swath's edges by at most the tolerance: the area they sweep is at most length
    // × 2 ×
    // tolerance
    const length = 2 * (394 + 294);
    expect(Math.abs(fast.uncoveredSquareMeters - exact.uncoveredSquareMeters)).toBeLessThanOrEqual(
      2 * length * tolerance,
    );
    expect(Math.abs(fast.overlapSquareMeters - exact.overlapSquareMeters)).toBeLessThanOrEqual(2 * length * tolerance);
  });
});
