import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkKinematics } from './kinematics.js';
import { limitCurvatureRate } from './rateLimit.js';

const SIGMA = 0.3;
const kin = (R: number) => ({
  turnRadiusMeters: R,
  maxCurvatureRatePerSquareMeter: SIGMA,
  curvatureTolerance: 0.05,
  rateTolerance: 0.05,
});

/** Straight, polygonal arc (radius r, turning `angle`, left > 0), straight: a connector-ring corner. */
function corner(r: number, angle: number, chordMeters: number): number[] {
  const pts: number[] = [];
  for (let x = -10; x < 0; x += 0.5) pts.push(x, 0);
  const n = Math.max(1, Math.ceil((Math.abs(angle) * r) / chordMeters));
  const sgn = Math.sign(angle);
  for (let i = 0; i <= n; i++) {
    const a = (Math.abs(angle) * i) / n;
    pts.push(r * Math.sin(a), sgn * (r - r * Math.cos(a)));
  }
  const ex = pts[pts.length - 2],
    ey = pts[pts.length - 1];
  for (let k = 1; k <= 20; k++) pts.push(ex + 0.5 * k * Math.cos(angle), ey + 0.5 * k * Math.sin(angle));
  return pts;
}

/** Rounded rectangle (corner radius r), densified to ≤ 0.5 m, closed. */
function roundedRectangle(w: number, h: number, r: number): number[] {
  const ring: number[] = [];
  const arc = (cx: number, cy: number, a0: number): void => {
    for (let i = 0; i <= 12; i++) {
      const a = a0 + (Math.PI / 2) * (i / 12);
      ring.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
    }
  };
  arc(w, h, 0);
  arc(0, h, Math.PI / 2);
  arc(0, 0, Math.PI);
  arc(w, 0, 1.5 * Math.PI);
  ring.push(ring[0], ring[1]);
  const out: number[] = [];
  for (let i = 2; i < ring.length; i += 2) {
    const ax = ring[i - 2],
      ay = ring[i - 1],
      bx = ring[i],
      by = ring[i + 1];
    const k = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / 0.5));
    for (let j = 0; j < k; j++) out.push(ax + ((bx - ax) * j) / k, ay + ((by - ay) * j) / k);
  }
  out.push(out[0], out[1]);
  return out;
}

const heading = (xy: ArrayLike<number>, i: number): number =>
  Math.atan2(xy[2 * i + 3] - xy[2 * i + 1], xy[2 * i + 2] - xy[2 * i]);

describe('limitCurvatureRate', () => {
  it('a straight meeting an arc of 1.15 R (R 3 m) violates sigma; redrawn, it does not and keeps its end poses', () => {
    const xy = Float64Array.from(corner(3.45, Math.PI / 2, 0.45));
    expect(checkKinematics(xy, kin(3)).some((v) => v.kind === 'curvature-rate')).toBe(true);
    const out = limitCurvatureRate(xy, { maxCurvatureRatePerSquareMeter: SIGMA, maxCurvaturePerMeter: 1 / 3 })!;
    expect(out).toBeDefined();
    expect(checkKinematics(out, kin(3))).toEqual([]);
    const n = out.length,
      m = xy.length;
    expect(out[0]).toBe(xy[0]);
    expect(out[1]).toBe(xy[1]);
    expect(out[n - 2]).toBe(xy[m - 2]);
    expect(out[n - 1]).toBe(xy[m - 1]);
    expect(Math.abs(heading(out, 0) - heading(xy, 0))).toBeLessThan(1e-3);
    expect(Math.abs(heading(out, n / 2 - 2) - heading(xy, m / 2 - 2))).toBeLessThan(5e-3);
    for (let i = 2; i < n; i += 2)
      expect(Math.hypot(out[i] - out[i - 2], out[i + 1] - out[i - 1])).toBeLessThanOrEqual(0.5);
  });

  it('a path that already respects σ is left alone (undefined)', () => {
    const xy = Float64Array.from(corner(30, Math.PI / 4, 0.5));
    expect(checkKinematics(xy, kin(3))).toEqual([]);
    expect(limitCurvatureRate(xy, { maxCurvatureRatePerSquareMeter: SIGMA })).toBeUndefined();
  });

  it(
    'a closed ring (rounded rectangle, corners 3.45 m) comes back closed, drivable all round, within 10 cm of the ' +
      'input',
    () => {
      const xy = Float64Array.from(roundedRectangle(40, 20, 3.45));
      const out = limitCurvatureRate(xy, { maxCurvatureRatePerSquareMeter: SIGMA, closed: true })!;
      expect(out).toBeDefined();
      const n = out.length;
      expect(out[n - 2]).toBe(out[0]);
      expect(out[n - 1]).toBe(out[1]);
      // Round the seam too: the ring driven one and a bit times.
      const twice = Float64Array.from([...out, ...Array.from(out.subarray(2, 80))]);
      expect(checkKinematics(twice, kin(3))).toEqual([]);
      // Every output point within 10 cm of the input polyline (brute force).
      let worst = 0;
      for (let i = 0; i < n; i += 2) {
        let best = Infinity;
        for (let j = 2; j < xy.length; j += 2) {
          const ax = xy[j - 2],
            ay = xy[j - 1],
            dx = xy[j] - ax,
            dy = xy[j + 1] - ay;
          const t = Math.max(0, Math.min(1, ((out[i] - ax) * dx + (out[i + 1] - ay) * dy) / (dx * dx + dy * dy)));
          best = Math.min(best, Math.hypot(ax + t * dx - out[i], ay + t * dy - out[i + 1]));
        }
        worst = Math.max(worst, best);
      }
      expect(worst).toBeLessThan(0.1);
    },
  );

  it('property: corners of any angle and direction, R 3-9 m (arcs at 1.15 R), redrawn within σ and 1/R', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 3, max: 9, noNaN: true }),
        fc.double({ min: -2.5, max: 2.5, noNaN: true }).filter((a) => Math.abs(a) > 0.2),
        (R, angle) => {
          const xy = Float64Array.from(corner(1.15 * R, angle, 0.45));
          const out = limitCurvatureRate(xy, { maxCurvatureRatePerSquareMeter: SIGMA, maxCurvaturePerMeter: 1 / R });
          // Either nothing to do (the jump is small enough at this R) or a drivable path.
          const drivable = out ?? xy;
          expect(checkKinematics(drivable, kin(R))).toEqual([]);
        },
      ),
      { seed: 20261124, numRuns: 60 },
    );
  });
});
