import { describe, expect, it } from 'vitest';
import { planRoute } from '../plan.js';
import { checkPlan } from '../check/checkPlan.js';
import { corpusField } from '../__fixtures__/corpusField.js';
import type { PathPlanRequest, Plan, Position } from '../types.js';
import { addViolationWarnings } from './violationWarnings.js';

const frozen = { now: () => 0 };

/** Exterior headland pass indices the route drives. */
function drivenPasses(plan: Plan): number[] {
  const headlands = plan.headlands as { passIndex: number }[];
  const out = new Set<number>();
  for (const s of plan.route)
    if (s.type === 'ExteriorHeadland' && s.headlandIndex !== undefined) out.add(headlands[s.headlandIndex].passIndex);
  return [...out].sort();
}

describe('violationWarnings: no silent compromise', () => {
  it('be-wal-007 (a 12 m strip) at W 6 m with 2 passes asked: pass 2 is not driven, and the plan says so', () => {
    const request: PathPlanRequest = {
      field: corpusField('be-wal-007'),
      machine: { widthMeters: 6 },
      headland: { passes: 2 },
    };
    const plan = planRoute(request, frozen);
    // The strip is about 12 m wide: one pass round it covers it, a second has no room.
    expect(drivenPasses(plan)).toEqual([1]);
    const skipped = plan.warnings.filter((w) => w.code === 'headland-pass-skipped');
    expect(skipped).toHaveLength(1);
    expect(skipped[0].message).toMatch(/pass 2 of the 2 asked/);
    expect(skipped[0].message).toMatch(/no room/);
    expect(skipped[0].geometry?.type).toBe('Point');
  });

  it('at-ref-003 at W 6 m: both passes asked are driven, and no headland warning is added', () => {
    const request: PathPlanRequest = {
      field: corpusField('at-ref-003'),
      machine: { widthMeters: 6, turnRadiusMeters: 6 },
      headland: { passes: 2 },
    };
    const plan = planRoute(request, frozen);
    expect(drivenPasses(plan)).toEqual([1, 2]);
    expect(plan.warnings.filter((w) => w.code === 'headland-pass-skipped')).toEqual([]);
  });
});

describe('violationWarnings: no silent undrivable plan', () => {
  it('a kink put into a drivable plan is warned on its piece, where it is', () => {
    const request: PathPlanRequest = {
      field: corpusField('at-ref-003'),
      machine: { widthMeters: 6, turnRadiusMeters: 6 },
      headland: { passes: 2 },
    };
    const plan = planRoute(request, frozen);
    expect(checkPlan(request, plan).violations).toEqual([]);
    const before = plan.warnings.length;
    // Bend a turn's middle point 2 m aside: a kink no machine drives.
    const turn = plan.route.find((s) => s.type === 'Turn' && s.coordinates.length > 8)!;
    expect(turn).toBeDefined();
    const mid = Math.floor(turn.coordinates.length / 2);
    const [lon, lat] = turn.coordinates[mid] as Position;
    turn.coordinates[mid] = [lon + 2 / (111_320 * Math.cos((lat * Math.PI) / 180)), lat];
    const violations = checkPlan(request, plan).violations.filter((v) => v.sequence === turn.sequence);
    expect(violations.length).toBeGreaterThan(0);
    addViolationWarnings(request, plan);
    const added = plan.warnings.slice(before);
    for (const v of violations) {
      const named = added.find((w) => w.sequence === turn.sequence && w.message.includes(v.code));
      expect(named, `${v.code} on ${turn.sequence}`).toBeDefined();
      expect(named!.code).toBe('turn-not-fitted');
      expect(named!.geometry?.type).toBe('Point');
      expect(violations.map((x) => x.position)).toContainEqual(named!.geometry?.coordinates);
    }
    // Run again: nothing more is added, every violation is named now.
    const count = plan.warnings.length;
    addViolationWarnings(request, plan);
    expect(plan.warnings.length).toBe(count);
  });

  it('a violation already named by the planner gets no second warning', () => {
    const request: PathPlanRequest = {
      field: corpusField('at-ref-003'),
      machine: { widthMeters: 6, turnRadiusMeters: 6 },
      headland: { passes: 2 },
    };
    const plan = planRoute(request, frozen);
    const turn = plan.route.find((s) => s.type === 'Turn' && s.coordinates.length > 8)!;
    const mid = Math.floor(turn.coordinates.length / 2);
    const [lon, lat] = turn.coordinates[mid] as Position;
    turn.coordinates[mid] = [lon, lat + 2 / 111_320];
    plan.warnings.push({ code: 'turn-not-fitted', message: 'no manoeuvre fits here', sequence: turn.sequence });
    const count = plan.warnings.length;
    addViolationWarnings(request, plan);
    expect(plan.warnings.length).toBe(count);
  });
});
