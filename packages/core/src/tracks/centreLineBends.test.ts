import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { polygon } from '../__fixtures__/localPolygons.js';
import type { PathPlanRequest, Plan } from '../types.js';

/**
 * An L of two legs `width` wide and 120 m long, meeting at a right angle (outer corner at the
 * origin): the east leg along y ∈ [0, width], the north leg along x ∈ [0, width].
 */
function lStrip(width: number): [number, number][] {
  return [
    [0, 0],
    [120, 0],
    [120, width],
    [width, width],
    [width, 120],
    [0, 120],
  ];
}

/**
 * The widest circular arc that turns through a right-angled corner of a strip `w` wide stays tangent
 * to both outer edges and passes the inner corner: r (1 − cos 45°) = w. No curve of curvature 1/R
 * or less gets round the corner inside the strip where R is larger.
 */
function widestArcMeters(w: number): number {
  return w / (1 - Math.cos(Math.PI / 4));
}

function planL(width: number): { request: PathPlanRequest; plan: Plan } {
  const request: PathPlanRequest = {
    field: polygon(lStrip(width)),
    machine: { widthMeters: 24, turnRadiusMeters: 12, reverseAllowed: false },
    headland: { passes: 1 },
  };
  return { request, plan: planRoute(request, { now: () => 0 }) };
}

const CANNOT_ENTER = /no pass with turning radius 12 m can enter it/;

describe('unworked ground behind a bend no pass of radius R gets round', () => {
  it('is warned as such where the corner is provably too tight for R (L 3 m wide, R 12 m)', () => {
    expect(widestArcMeters(3)).toBeLessThan(12);
    const { request, plan } = planL(3);
    expect(checkPlan(request, plan).violations).toEqual([]);
    const left = plan.warnings.filter((w) => w.code === 'unworked-area');
    expect(left.length).toBeGreaterThan(0);
    // the leg behind the corner is left, and its warning says why in the machine's terms
    expect(left.some((w) => CANNOT_ENTER.test(w.message))).toBe(true);
    expect(plan.metrics.uncoveredRatio).toBeGreaterThan(0.2);
  });

  it('is not warned so where a pass of radius R gets round the corner (L 8 m wide, R 12 m)', () => {
    expect(widestArcMeters(8)).toBeGreaterThan(12);
    const { request, plan } = planL(8);
    expect(checkPlan(request, plan).violations).toEqual([]);
    expect(plan.warnings.some((w) => CANNOT_ENTER.test(w.message))).toBe(false);
    // one pass round the corner works both legs
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.1);
  });
});
