import fc from 'fast-check';
import { turnCase } from '../__fixtures__/turnCases.js';
import { describe, expect, it } from 'vitest';
import { turnCandidates } from './index.js';
import { checkKinematics } from './kinematics.js';

/** Points on a circle of radius r, every stepMeters along it (built here, not by the turn code). */
function arc(r: number, angleRadians: number, stepMeters: number): [number, number][] {
  const n = Math.ceil((angleRadians * r) / stepMeters);
  const pts: [number, number][] = [];
  for (let i = 0; i <= n; i++) {
    const a = (i / n) * angleRadians;
    pts.push([r * Math.sin(a), r - r * Math.cos(a)]);
  }
  return pts;
}

function line(x0: number, y0: number, x1: number, y1: number, stepMeters: number): [number, number][] {
  const n = Math.ceil(Math.hypot(x1 - x0, y1 - y0) / stepMeters);
  const pts: [number, number][] = [];
  for (let i = 0; i <= n; i++) pts.push([x0 + ((x1 - x0) * i) / n, y0 + ((y1 - y0) * i) / n]);
  return pts;
}

describe('checkKinematics', () => {
  it('an arc of radius R passes with radius R and fails with a larger minimum radius', () => {
    const pts = arc(6, Math.PI, 0.5);
    expect(checkKinematics(pts, { turnRadiusMeters: 6 })).toEqual([]);
    expect(checkKinematics(pts, { turnRadiusMeters: 5.9 })).toEqual([]);
    const v = checkKinematics(pts, { turnRadiusMeters: 6.5 });
    expect(v.map((x) => x.kind)).toContain('curvature');
    const c = v.find((x) => x.kind === 'curvature')!;
    expect(c.value).toBeCloseTo(1 / 6, 3);
    expect(c.limit).toBeCloseTo(1 / 6.5, 12);
    expect(c.message).toMatch(/radius 6\.00 m < 6\.5 m/);
  });

  it('tolerates 0.1 mm rounding of the coordinates but still catches a slightly tighter arc', () => {
    const round = (pts: [number, number][]) =>
      pts.map(([x, y]) => [Math.round(x * 1e4) / 1e4, Math.round(y * 1e4) / 1e4] as [number, number]);
    // R 9 m sampled every 0.37-0.5 m, as plans are, then rounded to 0.1 mm.
    const pts = round(arc(9, Math.PI, 0.45).map(([x, y]) => [x + 1234.56789, y - 987.65432] as [number, number]));
    expect(checkKinematics(pts, { turnRadiusMeters: 9, maxCurvatureRatePerSquareMeter: 0.3 })).toEqual([]);
    // Without the allowance the rounding alone reads as too tight somewhere.
    const strict = checkKinematics(pts, { turnRadiusMeters: 9, positionToleranceMeters: 0, curvatureTolerance: 0 });
    expect(strict.some((v) => v.kind === 'curvature')).toBe(true);
    // An 8.7 m arc is 3.4 % too tight: caught despite the allowance.
    const tight = round(arc(8.7, Math.PI, 0.45));
    expect(checkKinematics(tight, { turnRadiusMeters: 9 }).map((v) => v.kind)).toContain('curvature');
  });

  it('bad limits throw a PlanError naming the option', () => {
    expect(() => checkKinematics(arc(6, 1, 0.5), { turnRadiusMeters: 0 })).toThrow(/turnRadiusMeters/);
    expect(() => checkKinematics(arc(6, 1, 0.5), { turnRadiusMeters: 6, maxCurvatureRatePerSquareMeter: 0 })).toThrow(
      /maxCurvatureRatePerSquareMeter/,
    );
    expect(checkKinematics([[0, 0]], { turnRadiusMeters: 6 })).toEqual([]);
  });

  it('accepts a Float64Array as well as [x, y] pairs', () => {
    const pts = arc(3, 2, 0.3);
    const flat = new Float64Array(pts.flat());
    expect(checkKinematics(flat, { turnRadiusMeters: 4 })).toEqual(checkKinematics(pts, { turnRadiusMeters: 4 }));
    expect(checkKinematics(flat, { turnRadiusMeters: 4 }).length).toBeGreaterThan(0);
  });

  it('a corner between two straights is a heading jump', () => {
    const pts = [...line(0, 0, 10, 0, 0.5), ...line(10, 0, 10 + 10 * Math.cos(0.5), 10 * Math.sin(0.5), 0.5).slice(1)];
    const v = checkKinematics(pts, { turnRadiusMeters: 6 });
    const jump = v.find((x) => x.kind === 'heading-jump');
    expect(jump).toBeDefined();
    expect(jump!.index).toBe(20);
    expect(jump!.value).toBeCloseTo(0.5, 9);
  });

  it('a line running straight into an arc breaks a tight curvature-rate limit, not a loose one', () => {
    const a = arc(3, Math.PI / 2, 0.25).map(([x, y]) => [x + 10, y] as [number, number]);
    const pts = [...line(0, 0, 10, 0, 0.25), ...a.slice(1)];
    expect(checkKinematics(pts, { turnRadiusMeters: 3 })).toEqual([]);
    expect(
      checkKinematics(pts, { turnRadiusMeters: 3, maxCurvatureRatePerSquareMeter: 0.1 }).map((x) => x.kind),
    ).toContain('curvature-rate');
    expect(checkKinematics(pts, { turnRadiusMeters: 3, maxCurvatureRatePerSquareMeter: 5 })).toEqual([]);
  });

  it('a plain Dubins U breaks the rate limit; its clothoid version does not', () => {
    const from = { x: 0, y: 0, headingRadians: Math.PI / 2 };
    const to = { x: -20, y: 0, headingRadians: -Math.PI / 2 };
    const sigma = 0.1;
    const arcs = turnCandidates(from, to, { turnRadiusMeters: 3, smoothing: 'Arcs', sampleStepMeters: 0.2 })[0];
    const cc = turnCandidates(from, to, {
      turnRadiusMeters: 3,
      maxCurvatureRatePerSquareMeter: sigma,
      sampleStepMeters: 0.2,
    })[0];
    expect(
      checkKinematics(arcs.points, { turnRadiusMeters: 3, maxCurvatureRatePerSquareMeter: sigma }).map((x) => x.kind),
    ).toContain('curvature-rate');
    expect(checkKinematics(cc.points, { turnRadiusMeters: 3, maxCurvatureRatePerSquareMeter: sigma })).toEqual([]);
  });

  it('reversing is a violation unless allowed; allowed cusps are not heading jumps', () => {
    const from = { x: 0, y: 0, headingRadians: Math.PI / 2 };
    const to = { x: -4, y: 0, headingRadians: -Math.PI / 2 };
    const fish = turnCandidates(from, to, { turnRadiusMeters: 6, reverseAllowed: true }).find(
      (p) => p.turnType === 'Fishtail',
    )!;
    expect(fish.cusps.length).toBe(2);
    const denied = checkKinematics(fish.points, { turnRadiusMeters: 6, cusps: fish.cusps });
    expect(denied.filter((x) => x.kind === 'reverse').map((x) => x.index)).toEqual(fish.cusps);
    expect(checkKinematics(fish.points, { turnRadiusMeters: 6, cusps: fish.cusps, reverseAllowed: true })).toEqual([]);
    // Undeclared cusps are found from the geometry.
    expect(
      checkKinematics(fish.points, { turnRadiusMeters: 6 })
        .filter((x) => x.kind === 'reverse')
        .map((x) => x.index),
    ).toEqual(fish.cusps);
  });

  it('with reversing allowed a cusp must reverse along the tangent: a 120° corner is still a kink', () => {
    // Straight in, then back out at 60° off the reverse direction.
    const back = 60 * (Math.PI / 180);
    const pts = [...line(0, 0, 10, 0, 0.5), ...line(10, 0, 10 - 5 * Math.cos(back), 5 * Math.sin(back), 0.5).slice(1)];
    const allowed = checkKinematics(pts, { turnRadiusMeters: 6, reverseAllowed: true });
    expect(allowed.map((x) => x.kind)).toEqual(['heading-jump']);
    expect(allowed[0].index).toBe(20);
    expect(allowed[0].value).toBeCloseTo(back, 9);
    // A straight reversal (180°) is fine.
    const straight = [...line(0, 0, 10, 0, 0.5), ...line(10, 0, 5, 0, 0.5).slice(1)];
    expect(checkKinematics(straight, { turnRadiusMeters: 6, reverseAllowed: true })).toEqual([]);
    expect(checkKinematics(straight, { turnRadiusMeters: 6 }).map((x) => x.kind)).toEqual(['reverse']);
  });

  it('a 1 mm zigzag spliced into an arc is neither a cusp nor a kink; a 3° kink on 0.25 m chords is', () => {
    const a = arc(6.9, 1, 0.25);
    const zig: [number, number][] = [...a.slice(0, 10), [a[9][0] - 0.0007, a[9][1] + 0.0007], ...a.slice(10)];
    expect(checkKinematics(zig, { turnRadiusMeters: 6 })).toEqual([]);
    const kinked = [
      ...line(0, 0, 5, 0, 0.25),
      ...line(5, 0, 5 + 5 * Math.cos(0.052), 5 * Math.sin(0.052), 0.25).slice(1),
    ];
    expect(checkKinematics(kinked, { turnRadiusMeters: 6 }).map((x) => x.kind)).toEqual(['heading-jump']);
  });

  it('property: every turn candidate passes the checker with its own limits', () => {
    fc.assert(
      fc.property(...turnCase, (from, to, R, sigma, reverseAllowed) => {
        const opts = { turnRadiusMeters: R, maxCurvatureRatePerSquareMeter: sigma, reverseAllowed };
        for (const p of turnCandidates(from, to, opts)) {
          const v = checkKinematics(p.points, { ...opts, cusps: p.cusps });
          expect(v, `${p.word} ${p.turnType}`).toEqual([]);
        }
      }),
      { seed: 2024, numRuns: 80, endOnFailure: true },
    );
  });
});
