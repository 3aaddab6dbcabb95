import { describe, expect, it } from 'vitest';
import { reedsSheppLengthMeters, turnCandidates } from './index.js';
import { checkKinematics } from './kinematics.js';
import type { Pose } from './types.js';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import type { PathPlanRequest } from '../types.js';

// A U turn to the next pass 4.82 m over at R 2.21 m with reversing, from a fuzz case (seed 1, case 83 of the
// first generator): the shortest Reeds-Shepp word backs round and ends with 1.2 cm driven forward (L-S-L-R+).
const from: Pose = { x: -118.67441192414826, y: -28.291504000503664, headingRadians: 3.136347908404244 };
const to: Pose = { x: -118.67441192414826, y: -33.11035600059995, headingRadians: -0.005244260005528206 };
const R = 2.21;

describe('turn candidates: no gear change to creep a few centimetres', () => {
  const candidates = turnCandidates(from, to, { turnRadiusMeters: R, reverseAllowed: true });

  it('puts a path with a piece under 5 cm next to a cusp after one without that is less than 5 cm longer', () => {
    expect(candidates.length).toBeGreaterThan(0);
    const stubAtCusp = (c: (typeof candidates)[number]): boolean => {
      const pieces = c.segments.filter((s) => s.lengthMeters > 1e-9);
      return pieces.some(
        (s, i) =>
          s.lengthMeters < 0.05 &&
          ((i > 0 && pieces[i - 1].reverse !== s.reverse) ||
            (i + 1 < pieces.length && pieces[i + 1].reverse !== s.reverse)),
      );
    };
    // The optimum here has one (L-S-L-R+, 1.2 cm forward at the end) ...
    const stubbed = candidates.find(stubAtCusp);
    expect(stubbed?.word).toBe('L-S-L-R+');
    // ... and a path without one is a millimetre longer: that one comes first.
    expect(stubAtCusp(candidates[0])).toBe(false);
    expect(candidates[0].lengthMeters - stubbed!.lengthMeters).toBeLessThan(0.01);
  });

  it('the first one is within a centimetre of the Reeds-Shepp optimum, and drivable with the route prefix', () => {
    expect(candidates[0].lengthMeters - reedsSheppLengthMeters(from, to, R)).toBeLessThan(0.01);
    // The turn with a metre of the track before and after it, as checkPlan reads it.
    const c = Math.cos(from.headingRadians),
      s = Math.sin(from.headingRadians);
    const c2 = Math.cos(to.headingRadians),
      s2 = Math.sin(to.headingRadians);
    const pts = candidates[0].points;
    const xy = [from.x - c, from.y - s, ...pts, to.x + c2, to.y + s2];
    expect(checkKinematics(xy, { turnRadiusMeters: R, reverseAllowed: true, curvatureTolerance: 0.05 })).toEqual([]);
  });
});

describe('a strip planned with reversing at R 2.21 m (fuzz seed 1, case 83 of the first generator)', () => {
  it('has no kink at a cusp: its U turns no longer end with a centimetre driven forward', () => {
    const request = {
      field: {
        type: 'Polygon',
        coordinates: [
          [
            [10, 49.99961649780742],
            [10.001537139420307, 49.99961649780742],
            [10.003050926238886, 49.999444738849135],
            [10.003257908043805, 50.00020009071422],
            [10.001641422469687, 50.00038350219258],
            [10, 50.00038350219258],
            [10, 49.99961649780742],
          ],
        ],
      },
      machine: { widthMeters: 2.41, turnRadiusMeters: 2.21, reverseAllowed: true },
      headland: { passes: 2 },
      routeOptions: { algorithm: 'snake' },
    } as PathPlanRequest;
    const plan = planRoute(request, { now: () => 0 });
    expect(plan.route.some((s) => s.turnType === 'ReedsShepp')).toBe(true);
    expect(checkPlan(request, plan).violations).toEqual([]);
  });
});
