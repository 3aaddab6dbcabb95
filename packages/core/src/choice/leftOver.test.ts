/**
 * The sprayer's variants on two corpus fields (W 36 m, R 12 m, 1 headland pass, frozen clock):
 * centre-line passes tried on the best planning that has strip passes (es-cat-093, whose best
 * planning drives none), the ground the best route leaves given passes of its own (dk-091), and a
 * centre-line tour a bend cut started the other way round (de-sh-055, and its north-west corner joined
 * by a loop round a small pond).
 */
import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { corpusField } from '../__fixtures__/corpusField.js';
import type { PathPlanRequest } from '../types.js';

function sprayer(id: string): PathPlanRequest {
  return { field: corpusField(id), machine: { widthMeters: 36, turnRadiusMeters: 12 }, headland: { passes: 1 } };
}

describe('W 36 m variants on ground the best planning leaves', () => {
  it('es-cat-093: its arms driven along their centre lines, though the best straight planning has no strips', () => {
    const request = sprayer('es-cat-093');
    const plan = planRoute(request, { now: () => 0 });
    const kept = plan.choice!.variants.find((v) => v.status === 'kept')!;
    expect(kept.why).toBe('centre-lines');
    // 15.9 % left when the best planning had no strip passes to drive along their centre lines
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.08);
    expect(checkPlan(request, plan).violations).toEqual([]);
  }, 120_000);

  it('dk-091: the patches its route left get passes of their own, and the plan is kept for it', () => {
    const request = sprayer('dk-091');
    const plan = planRoute(request, { now: () => 0 });
    const variants = plan.choice!.variants;
    const leftOver = variants.find((v) => v.why === 'left-over');
    expect(leftOver?.status).toBe('kept');
    const others = variants.filter((v) => v !== leftOver && v.objectiveSeconds !== undefined);
    for (const v of others) expect(leftOver!.objectiveSeconds!).toBeLessThan(v.objectiveSeconds!);
    // 5.6 % left without them
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.03);
    expect(checkPlan(request, plan).violations).toEqual([]);
  }, 120_000);

  it('de-sh-055: its tour round the ponds, cut at the tip of the south-west pond, started the other way round', () => {
    const request = sprayer('de-sh-055');
    const plan = planRoute(request, { now: () => 0 });
    const variants = plan.choice!.variants;
    const turned = variants.find((v) => v.why === 'tours-turned');
    const centre = variants.find((v) => v.why === 'centre-lines');
    expect(turned?.objectiveSeconds).toBeDefined();
    expect(turned!.objectiveSeconds!).toBeLessThan(centre!.objectiveSeconds!);
    // 36.6 % left with the tour the one way: the lobe north of the south-west pond was a dead end;
    // 25.4 % with the north-west corner dropped, its south end, by the small pond between the
    // middle ponds, taken for a dead end (tracks/centreLineJoins.ts loopRoom: a loop round that pond)
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.23);
    expect(checkPlan(request, plan).violations).toEqual([]);
  }, 120_000);
});
