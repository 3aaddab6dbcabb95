/**
 * `nearestOnLoop` within a radius answers what it answers unbounded wherever the radius reaches
 * the nearest point: a walk along another loop bounds each step's radius by the last distance plus
 * the step (route/traversal.ts closestPairs), and must find the same points.
 */
import { describe, expect, it } from 'vitest';
import { hypot } from '../geometry/vec.js';
import { makeLoop, nearestOnLoop } from './connectorRings.js';

function ellipse(cx: number, cy: number, a: number, b: number, n: number, wobble: number): number[] {
  const xy: number[] = [];
  for (let i = 0; i <= n; i++) {
    const t = (2 * Math.PI * (i % n)) / n,
      r = 1 + wobble * Math.sin(7 * t);
    xy.push(cx + a * r * Math.cos(t), cy + b * r * Math.sin(t));
  }
  return xy;
}

describe('nearestOnLoop within a radius', () => {
  it('finds the unbounded answer along a walk whose radius is the last distance plus the step', () => {
    const big = makeLoop(ellipse(0, 0, 300, 200, 400, 0.05));
    const small = makeLoop(ellipse(200, 20, 60, 90, 90, 0.1), 2);
    let last: { x: number; y: number; d: number } | undefined;
    let bounded = 0;
    for (let i = 0; i + 1 < small.xy.length / 2; i++) {
      const x = small.xy[2 * i],
        y = small.xy[2 * i + 1];
      const full = nearestOnLoop(big, x, y);
      if (last) {
        const within = nearestOnLoop(big, x, y, last.d + hypot(x - last.x, y - last.y) + 1e-6);
        expect(within).toEqual(full);
        bounded++;
      }
      last = { x, y, d: full.distance };
    }
    expect(bounded).toBeGreaterThan(100);
  });
});
