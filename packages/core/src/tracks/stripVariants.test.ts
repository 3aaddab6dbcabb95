/**
 * The strip fallback on corpus fields (snake order, width 6 m, radius 6 m, 2 headland passes): a
 * field is planned again without its strip passes only where its route's faults may come from
 * them, not for a headland pass the field's shape leaves out whatever the route.
 */
import { describe, expect, it } from 'vitest';
import { corpusField } from '../__fixtures__/corpusField.js';
import { planRoute } from '../plan.js';

/** The plan of corpus field `id`, and how many of its variants were planned without strip passes. */
function planCounted(id: string): { plan: ReturnType<typeof planRoute>; withoutStrips: number } {
  const plan = planRoute({
    field: corpusField(id),
    machine: { widthMeters: 6, turnRadiusMeters: 6 },
    headland: { passes: 2 },
    routeOptions: { algorithm: 'snake' },
  });
  return { plan, withoutStrips: plan.choice!.variants.filter((v) => v.why === 'no-strips').length };
}

describe('planning again without strip passes', () => {
  it('a pass round a hole tighter than the turning radius is left out, said so, and the field is planned once', () => {
    // bg-009: a 30 m pass round a hole has no junction a forward path can join and leave
    const { plan, withoutStrips } = planCounted('bg-009');
    const skipped = plan.warnings.filter((w) => w.code === 'headland-pass-skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((w) => w.geometry !== undefined)).toBe(true);
    expect(plan.tracks.length).toBeGreaterThan(0);
    expect(withoutStrips).toBe(0);
  });

  it('a strip pass no manoeuvre reaches is left out alone, said so; the rest driven, the field planned once', () => {
    // it-tus-033: a 12 m strip pass at the tip of a tongue of the field narrower than the turns need
    const { plan, withoutStrips } = planCounted('it-tus-033');
    expect(withoutStrips).toBe(0);
    expect(plan.warnings.filter((w) => w.code === 'turn-not-fitted')).toEqual([]);
    const left = plan.warnings.filter((w) => w.code === 'track-skipped' && w.message.startsWith('strip pass'));
    expect(left.length).toBeGreaterThan(0);
    // the plan kept has its strip passes (straight, or along the strips' centre lines)
    expect(plan.choice!.variants.find((v) => v.status === 'kept')!.strips).toBe('all');
  });

  it('a join not fitted at a strip pass still has the field planned again without them', () => {
    // be-vlg-081: with its strip passes the route has a join nothing fits; without, none
    const { plan, withoutStrips } = planCounted('be-vlg-081');
    expect(withoutStrips).toBeGreaterThan(0);
    expect(plan.warnings.filter((w) => w.code === 'turn-not-fitted')).toEqual([]);
  });
});
