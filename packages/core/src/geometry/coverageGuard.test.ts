import { describe, expect, it } from 'vitest';
import { areaOf, unionPolygons } from './clipper.js';
import type { PathD } from './clipper.js';
import { boundPasses, hasFlatSpike, withoutSpikes } from './coverageGuard.js';

/**
 * A sliver gap between two headland swaths of the 5,000-vertex wobbly field, as the union rounds
 * it (2 decimals) and turns it (tracks along x): its horizontal edges at y = −393.27 run right to
 * left and back — the flat spike on which clipper2-ts 2.0.1's sweep never ends.
 */
const SPIKE_RING: PathD = [
  [262.69, -393.27],
  [262.51, -393.27],
  [262.27, -393.27],
  [262.25, -393.26],
  [262.2, -393.25],
  [262.1, -393.23],
  [261.81, -393.18],
  [261.32, -393.12],
  [261.08, -393.1],
  [260.6, -393.08],
  [260.33, -393.03],
  [260.29, -393.02],
  [260.7, -393.08],
  [260.77, -393.08],
  [261.01, -393.09],
  [261.64, -393.15],
  [262.05, -393.22],
  [262.53, -393.27],
  [262.55, -393.27],
].map(([x, y]) => ({ x, y }));

describe('coverage guard', () => {
  it('takes the flat spike out of a sliver ring, keeping its area, so a boolean on it ends', () => {
    expect(hasFlatSpike(SPIKE_RING, 2)).toBe(true);
    const [clean] = withoutSpikes([SPIKE_RING], 2);
    expect(hasFlatSpike(clean, 2)).toBe(false);
    expect(areaOf([clean])).toBeCloseTo(areaOf([SPIKE_RING]), 9);
    // (at 4 decimals: Clipper2's ClipperD rounds to a binary grid, 1/128 m at 2 decimals, which a 1 cm sliver feels)
    expect(areaOf(unionPolygons([clean], 4))).toBeCloseTo(Math.abs(areaOf([SPIKE_RING])), 4);
  });

  it('leaves rings without a spike as they are', () => {
    const square = [
      { x: 0, y: 0 },
      { x: 1, y: 0 },
      { x: 2, y: 0 },
      { x: 2, y: 2 },
      { x: 0, y: 2 },
    ];
    expect(hasFlatSpike(square, 4)).toBe(false);
    const paths = [square];
    expect(withoutSpikes(paths, 4)).toBe(paths);
  });

  it(
    'simplifies curved passes over the vertex bound and says so; leaves smaller sets and straight tracks ' + 'alone',
    () => {
      // A wobbly closed pass of 2,000 vertices (±3 cm) and a straight track.
      const ring = new Float64Array(2 * 2001);
      for (let i = 0; i <= 2000; i++) {
        const a = (2 * Math.PI * (i % 2000)) / 2000,
          r = 100 + (i % 2 ? 0.03 : -0.03);
        ring[2 * i] = r * Math.cos(a);
        ring[2 * i + 1] = r * Math.sin(a);
      }
      const track = Float64Array.from([0, 0, 50, 0]);
      const passes = [
        { xy: ring, widthMeters: 6 },
        { xy: track, widthMeters: 6 },
      ];
      expect(boundPasses(passes, 5000)).toEqual({ passes });
      const bounded = boundPasses(passes, 1000);
      expect(bounded.approximation).toMatch(/simplified within 0\.\d+ m/);
      expect(bounded.passes[0].xy.length / 2).toBeLessThanOrEqual(1000);
      expect(bounded.passes[1]).toBe(passes[1]);
    },
  );
});
