import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import type { PathPlanRequest } from '../types.js';

/**
 * The route's first piece is a headland pass. It used to be joined at the middle of its longest edge,
 * whatever the pass's shape: a pass bending tighter than R all round (a ring 2.5 m across in a neck of a
 * 0.02 ha field, R 2 m) was driven first and left with a kink no warning named (fuzz seed 5, case 28).
 */
const request = {
  field: {
    type: 'Polygon',
    coordinates: [
      [
        [9.999991156224487, 50.0000028102518],
        [9.999963322669798, 50.00004120563081],
        [9.999901735903666, 50.000056187458156],
        [9.999841390292207, 50.0000392428733],
        [9.999816574962024, 50],
        [9.999841390292207, 49.9999607571267],
        [9.999901735903666, 49.999943812541844],
        [9.999963322669798, 49.99995879436919],
        [9.999991156224487, 49.9999971897482],
        [10.000008843775513, 49.9999971897482],
        [10.000036677330202, 49.99995879436919],
        [10.000098264096334, 49.999943812541844],
        [10.000158609707793, 49.9999607571267],
        [10.000183425037976, 50],
        [10.000158609707793, 50.0000392428733],
        [10.000098264096334, 50.000056187458156],
        [10.000036677330202, 50.00004120563081],
        [10.000008843775513, 50.0000028102518],
        [9.999991156224487, 50.0000028102518],
      ],
    ],
  },
  machine: { widthMeters: 1.5, turnRadiusMeters: 2, reverseAllowed: true },
  headland: { passes: 4 },
  routeOptions: { algorithm: 'optimized' },
} as PathPlanRequest;

describe('the route starts on a headland pass only where the pass can be left', () => {
  const plan = planRoute(request, { now: () => 0 });

  it('has no kink where it leaves its first pass, nor anywhere', () => {
    expect(checkPlan(request, plan).violations).toEqual([]);
  });

  // A closed curve bending no tighter than R is 2πR long at least.
  it('drives no pass too short to go round at R', () => {
    const R = request.machine!.turnRadiusMeters!;
    const passes = plan.route.filter((s) => s.type === 'ExteriorHeadland' || s.type === 'InteriorHeadland');
    for (const p of passes) expect(p.lengthMeters, `pass ${p.sequence}`).toBeGreaterThanOrEqual(2 * Math.PI * R);
    // those left out are said to be
    expect(plan.warnings.filter((w) => w.code === 'headland-pass-skipped').length).toBeGreaterThan(0);
  });
});
