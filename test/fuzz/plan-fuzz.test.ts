/**
 * Seeded fuzz suite: random fields and machines (test/fuzz/randomRequests.ts) planned with a frozen
 * clock, so that a run is the same on any machine. For every request:
 * - `planRoute` returns a plan or throws a `PlanError`, nothing else;
 * - every `checkPlan` violation of a returned plan has a warning that names it: one of a fault code
 *   (`FAULT_CODES`) on the violation's route piece (same `sequence`, or its point within 1 m of
 *   the piece);
 * - every exterior headland pass asked is driven, or the plan has a `headland-pass-skipped` warning.
 *
 * FUZZ_COUNT (default 250: about a minute of CPU) and FUZZ_SEED (default 37) choose the requests; a failure names the
 * case index and its request, which `randomCases(seed, index + 1)[index]` gives back. The run's
 * counts are printed (docs/BENCHMARKS.md records a run of 2,000):
 *
 *   FUZZ_COUNT=2000 FUZZ_SEED=37 npx vitest run test/fuzz/plan-fuzz.test.ts
 *
 * FUZZ_FROM and FUZZ_TO plan a slice of them (the counts of the slices add up to the whole run's).
 */
import { describe, expect, it } from 'vitest';
import { checkPlan, isPlanError, planRoute } from '@furrow/core';
import type { Plan, PlanViolation, PlanWarning, Position } from '@furrow/core';
import { randomCases, ROUTE_ALGORITHMS } from './randomRequests.js';

const COUNT = Number(process.env.FUZZ_COUNT ?? 250);
const SEED = Number(process.env.FUZZ_SEED ?? 37);
/** A slice of the COUNT requests (FUZZ_FROM ≤ index < FUZZ_TO), so that a long run can be split among processes. */
const FROM = Number(process.env.FUZZ_FROM ?? 0);
const TO = Math.min(COUNT, Number(process.env.FUZZ_TO ?? COUNT));

/** Warning codes that say the route cannot be driven as drawn at a place. */
const FAULT_CODES = new Set(['turn-not-fitted', 'route-leaves-field', 'connector-leaves-field', 'transit-leg']);
/** Warning codes for whole-plan violations (metrics, an empty route). */
const PLAN_CODES = new Set(['plan-check-failed', 'coverage-approximate']);

/** Meters between two lon/lat points (equirectangular: exact enough at a few meters). */
function meters(a: Position, b: Position): number {
  const kx = 111_320 * Math.cos((a[1] * Math.PI) / 180);
  return Math.hypot((a[0] - b[0]) * kx, (a[1] - b[1]) * 111_320);
}

/** Whether a point lies within `tolerance` m of a vertex or edge of the line (edges sampled every ~0.25 m). */
function nearLine(p: Position, line: Position[], tolerance: number): boolean {
  for (let i = 0; i < line.length; i++) {
    if (meters(p, line[i]) <= tolerance) return true;
    if (i === 0) continue;
    const l = meters(line[i - 1], line[i]);
    const n = Math.min(400, Math.ceil(l / 0.25));
    for (let k = 1; k < n; k++) {
      const t = k / n;
      const q: Position = [
        line[i - 1][0] + t * (line[i][0] - line[i - 1][0]),
        line[i - 1][1] + t * (line[i][1] - line[i - 1][1]),
      ];
      if (meters(p, q) <= tolerance) return true;
    }
  }
  return false;
}

function isNamed(v: PlanViolation, plan: Plan): boolean {
  if (v.sequence === undefined) return plan.warnings.some((w) => PLAN_CODES.has(w.code));
  const piece = plan.route.find((s) => s.sequence === v.sequence);
  return plan.warnings.some((w: PlanWarning) => {
    if (!FAULT_CODES.has(w.code)) return false;
    if (w.sequence !== undefined) return w.sequence === v.sequence;
    if (!piece || w.geometry?.type !== 'Point') return false;
    return nearLine(w.geometry.coordinates as Position, piece.coordinates as Position[], 1);
  });
}

/** Exterior headland pass indices driven in the route. */
function drivenPasses(plan: Plan): Set<number> {
  const headlands = (plan.headlands ?? []) as { passIndex?: number }[];
  const out = new Set<number>();
  for (const s of plan.route)
    if (s.type === 'ExteriorHeadland' && s.headlandIndex !== undefined) {
      const i = headlands[s.headlandIndex]?.passIndex;
      if (i !== undefined) out.add(i);
    }
  return out;
}

interface Tally {
  plans: number;
  planErrors: Record<string, number>;
  violations: number;
  plansWithViolations: number;
  /** Violations named only by a warning the final check added (output/violationWarnings.ts). */
  namedByCheck: number;
  unwarnedViolations: number;
  passesNotDriven: number;
  /** Passes not driven that only the final check's warning names. */
  passesWarnedByCheck: number;
  unwarnedPasses: number;
  failures: string[];
}

describe(`plan fuzz: requests ${FROM}–${TO - 1} of ${COUNT}, seed ${SEED}`, () => {
  const cases = randomCases(SEED, COUNT).slice(FROM, TO);

  it('draws every kind of field and machine the suite is for', () => {
    if (cases.length < 100) return;
    const recipes = cases.map((c) => c.recipe);
    for (const shape of ['star', 'strip', 'neck']) expect(recipes.some((r) => r.shape === shape)).toBe(true);
    for (const a of ROUTE_ALGORITHMS) expect(recipes.some((r) => r.algorithm === a)).toBe(true);
    for (let p = 0; p <= 4; p++) expect(recipes.some((r) => r.headlandPasses === p)).toBe(true);
    expect(recipes.some((r) => r.reverseAllowed) && recipes.some((r) => !r.reverseAllowed)).toBe(true);
    expect(
      recipes.some((r) => r.holes.some((h) => h.large)) && recipes.some((r) => r.holes.some((h) => !h.large)),
    ).toBe(true);
    expect(Math.min(...recipes.map((r) => r.widthMeters))).toBeLessThan(3);
    expect(Math.max(...recipes.map((r) => r.widthMeters))).toBeGreaterThan(40);
  });

  it(
    'plans or refuses with a PlanError; every violation and every headland pass not driven is warned',
    () => {
      const t: Tally = {
        plans: 0,
        planErrors: {},
        violations: 0,
        plansWithViolations: 0,
        namedByCheck: 0,
        unwarnedViolations: 0,
        passesNotDriven: 0,
        passesWarnedByCheck: 0,
        unwarnedPasses: 0,
        failures: [],
      };
      const started = performance.now();
      for (const c of cases) {
        const label = `case ${c.index} (seed ${SEED}): ${JSON.stringify(c.recipe)}`;
        let plan: Plan;
        try {
          plan = planRoute(c.request, { now: () => 0 });
        } catch (e) {
          if (isPlanError(e)) t.planErrors[e.code] = (t.planErrors[e.code] ?? 0) + 1;
          else t.failures.push(`${label}: threw ${(e as Error).stack ?? String(e)}`);
          continue;
        }
        t.plans++;
        const violations = checkPlan(c.request, plan).violations;
        t.violations += violations.length;
        if (violations.length > 0) t.plansWithViolations++;
        const bare = { ...plan, warnings: plan.warnings.filter((w) => !w.message.startsWith('checkPlan finds')) };
        for (const v of violations) {
          if (!isNamed(v, plan)) {
            t.unwarnedViolations++;
            t.failures.push(`${label}: ${v.code} not warned: ${v.message}`);
          } else if (!isNamed(v, bare)) t.namedByCheck++;
        }
        const driven = drivenPasses(plan);
        const asked = Math.max(c.recipe.headlandPasses, Number(plan.headlandPasses ?? 0));
        const skipped = plan.warnings.filter((w) => w.code === 'headland-pass-skipped');
        const byPlanner = skipped.some((w) => !w.message.includes(' asked not driven'));
        for (let i = 1; i <= asked; i++) {
          if (driven.has(i)) continue;
          t.passesNotDriven++;
          if (skipped.length > 0 && !byPlanner) t.passesWarnedByCheck++;
          if (skipped.length === 0) {
            t.unwarnedPasses++;
            t.failures.push(`${label}: headland pass ${i} of ${asked} not driven and not warned`);
          }
        }
      }
      const seconds = (performance.now() - started) / 1000;
      const { failures, ...counts } = t;
      console.log(
        `plan fuzz, seed ${SEED}, requests ${FROM}–${TO - 1} of ${COUNT}, ${seconds.toFixed(1)} s: ${JSON.stringify(counts)}`,
      );
      expect(failures.slice(0, 20)).toEqual([]);
      expect(t.plans + Object.values(t.planErrors).reduce((a, b) => a + b, 0)).toBe(cases.length);
    },
    Math.max(10 * 60_000, (TO - FROM) * 3_000),
  );
});
