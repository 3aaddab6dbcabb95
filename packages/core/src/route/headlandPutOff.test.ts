/**
 * A headland pass that cannot be entered from where the machine is gets put off once within its
 * run of passes and tried again from where a later pass leaves the machine (connectTracks). On
 * at-ref-056 (a copy in test/fields) at W 3 m, R 12 m, no reversing, 3 passes asked (planned with
 * the 5 its turns need), the two inner passes of its north-east arm, behind a neck, were tried
 * last from the far side of the field, could not be entered from there and were left out
 * (`headland-pass-skipped`, 5 % of the field unworked). Put off, they are entered from elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { corpusField } from '../__fixtures__/corpusField.js';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import type { PathPlanRequest } from '../types.js';

describe('headland passes in an arm of the field, behind a neck', () => {
  const field = corpusField('at-ref-056');
  const request: PathPlanRequest = {
    field,
    machine: { widthMeters: 3, turnRadiusMeters: 12, reverseAllowed: false },
    headland: { passes: 3 },
  };

  it(
    'are driven, not left out: no pass skipped, at most 2 % of the field unworked, checkPlan passes',
    { timeout: 300_000 },
    () => {
      const plan = planRoute(request, { now: () => 0 });
      expect(plan.warnings.filter((w) => w.code === 'headland-pass-skipped').map((w) => w.message)).toEqual([]);
      expect(plan.metrics.uncoveredRatio).toBeLessThanOrEqual(0.02);
      expect(plan.route.filter((s) => s.connectorKind === 'unfitted')).toEqual([]);
      expect(checkPlan(request, plan).violations).toEqual([]);
    },
  );
});

/**
 * A pass that cannot be entered from where the last pass left the machine is tried from where the
 * machine was before that pass, the last pass put off after it (connectTracks, `swapWithLastPass`).
 * On sk-083 (a copy in test/fields) at W 3 m, R 12 m, no reversing, 3 passes asked, the ring round
 * its long thin hole left the machine at the hole's west end, from where none of the four exterior
 * passes at the pinch between the hole and the boundary could be entered: all four were left out
 * (`headland-pass-skipped`, 9 % of the field unworked).
 */
describe('exterior passes after a pass that leaves the machine where they cannot be entered', () => {
  const field = corpusField('sk-083');
  const request: PathPlanRequest = {
    field,
    machine: { widthMeters: 3, turnRadiusMeters: 12, reverseAllowed: false },
    headland: { passes: 3 },
  };

  it(
    'are driven: no exterior pass skipped, at most 2 % of the field unworked, checkPlan passes',
    { timeout: 300_000 },
    () => {
      const plan = planRoute(request, { now: () => 0 });
      expect(
        plan.warnings
          .filter((w) => w.code === 'headland-pass-skipped' && w.message.includes('ExteriorHeadland'))
          .map((w) => w.message),
      ).toEqual([]);
      expect(plan.metrics.uncoveredRatio).toBeLessThanOrEqual(0.02);
      expect(checkPlan(request, plan).violations).toEqual([]);
    },
  );
});
