/**
 * Tours of a centre line (tracks/centreLineTour.ts): a tour that starts on a branch with no dead end
 * (a ring round a hole) may start it the other way round (`turned`, the `tours-turned` variant); a
 * tour from a dead end never does.
 */
import { describe, expect, it } from 'vitest';
import type { MedialBranch } from '../geometry/medialAxis.js';
import { tourPaths } from './centreLineTour.js';

function branch(points: [number, number][], startNode: number, endNode: number): MedialBranch {
  return {
    xy: Float64Array.from(points.flat()),
    radiusMeters: new Float64Array(points.length).fill(5),
    startNode,
    endNode,
  };
}

/** A ring of radius 40 m round the origin, from and back to node 0 at (40, 0), anticlockwise. */
const ring = branch(
  Array.from({ length: 73 }, (_, i): [number, number] => {
    const a = (i % 72) * ((2 * Math.PI) / 72);
    return [40 * Math.cos(a), 40 * Math.sin(a)];
  }),
  0,
  0,
);

/** Signed area of a closed flat-xy path (positive: anticlockwise). */
function signedArea(xy: Float64Array): number {
  let a = 0;
  for (let i = 0, n = xy.length / 2; i < n; i++) {
    const j = (i + 1) % n;
    a += xy[2 * i] * xy[2 * j + 1] - xy[2 * j] * xy[2 * i + 1];
  }
  return a / 2;
}

describe('centre-line tours', () => {
  it('a ring with no dead end: the tour goes round it one way, turned the other', () => {
    const [plain] = tourPaths([ring]);
    const [turned] = tourPaths([ring], true);
    expect(plain.turnable).toBe(true);
    expect(turned.turnable).toBe(true);
    expect(signedArea(plain.xy)).toBeGreaterThan(0);
    expect(signedArea(turned.xy)).toBeLessThan(0);
    // the same ground: the same points, the other way round
    expect(turned.xy.length).toBe(plain.xy.length);
    expect(Math.abs(signedArea(turned.xy) + signedArea(plain.xy))).toBeLessThan(1e-6);
  });

  it('a strip with dead ends: the tour starts at one of them either way', () => {
    const strip = branch(
      [
        [0, 0],
        [100, 0],
      ],
      0,
      1,
    );
    const [plain] = tourPaths([strip]);
    const [turned] = tourPaths([strip], true);
    expect(plain.turnable).toBe(false);
    expect(Array.from(turned.xy)).toEqual(Array.from(plain.xy));
  });
});
