/**
 * Headland passes driven between two of the route's tracks (route/passesBetween.ts, the
 * `passes-between` variant): a field whose strips end in dead ends cannot have its passes after
 * the last track (the machine ends in a dead end) nor before the first.
 */
import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { frame, polygon } from '../__fixtures__/localPolygons.js';
import { corpusField } from '../__fixtures__/corpusField.js';
import type { PathPlanRequest } from '../types.js';

/**
 * A C: a block 60 m × 150 m (x ∈ [0, 60]) with two arms 20 m wide and 200 m long running east from
 * its north and south ends, each a dead end narrower than the 36 m machine.
 */
const cField: [number, number][] = [
  [0, 0],
  [260, 0],
  [260, 20],
  [60, 20],
  [60, 130],
  [260, 130],
  [260, 150],
  [0, 150],
];

function sprayer(field: PathPlanRequest['field']): PathPlanRequest {
  return { field, machine: { widthMeters: 36, turnRadiusMeters: 12 }, headland: { passes: 1 } };
}

describe('headland passes between two tracks', () => {
  it('a C whose two arms are dead ends: one arm, the ring round the block, the other arm', () => {
    const request = sprayer(polygon(cField));
    const plan = planRoute(request, { now: () => 0 });
    expect(checkPlan(request, plan).violations).toEqual([]);
    const variants = plan.choice!.variants;
    const between = variants.find((v) => v.why === 'passes-between');
    expect(between?.objectiveSeconds).toBeDefined();
    // it beats every planning before it: each leaves the ring or both arms out
    for (const v of variants.slice(0, variants.indexOf(between!)))
      if (v.objectiveSeconds !== undefined) expect(between!.objectiveSeconds!).toBeLessThan(v.objectiveSeconds);
    // 12.9 % left without it (one arm and the ring, or the arms and no ring)
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.02);
  }, 60_000);

  it('the C with a gate at the tip of its north arm: the route starts there, the ring between the arms', () => {
    const gate = frame.toLonLat(258, 140);
    const request: PathPlanRequest = { ...sprayer(polygon(cField)), accessPoints: [gate] };
    const plan = planRoute(request, { now: () => 0 });
    expect(checkPlan(request, plan).violations).toEqual([]);
    expect(plan.choice!.variants.find((v) => v.status === 'kept')!.why).toBe('passes-between');
    const [x, y] = frame.toLocal(...(plan.route[0].coordinates[0] as [number, number]));
    expect(Math.hypot(x - 258, y - 140)).toBeLessThan(5);
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.02);
  }, 60_000);

  it('nz-090 (W 36 m): the west lobe, whose ring sits between the two narrow arms, is worked', () => {
    const request = sprayer(corpusField('nz-090'));
    const plan = planRoute(request, { now: () => 0 });
    expect(checkPlan(request, plan).violations).toEqual([]);
    expect(plan.choice!.variants.find((v) => v.status === 'kept')!.why).toBe('passes-between');
    // 43.8 % left when the ring could only follow the arms' passes
    expect(plan.metrics.uncoveredRatio).toBeLessThan(0.05);
    expect(plan.warnings.some((w) => w.code === 'headland-pass-skipped')).toBe(false);
  }, 120_000);
});
