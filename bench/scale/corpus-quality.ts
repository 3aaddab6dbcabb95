/**
 * Two core trees over the corpus, plan quality per field: unworked area, non-working distance,
 * `checkPlan` violations and route faults (passes or tracks left out, joins nothing fits) of each
 * field's plan with A and with B, planned as a caller plans (no clock: the work budget, clock.ts).
 * Lists the fields B makes worse (a violation or fault more, +0.1 % of the field unworked, or +2 %
 * non-working distance) and better, then the corpus sums.
 *
 * `CORE_A` / `CORE_B`, `ALGO`, `WIDTH`, `RADIUS`, `PASSES`, `ONLY` as for corpus-ab.ts (corpusRuns.ts).
 *
 * Run: `CORE_A=/tmp/a/packages/core/src/index.ts ALGO=default WIDTH=12 RADIUS=9 node --import tsx bench/scale/corpus-quality.ts`
 */
import { coreTrees, corpusFields, corpusRequest } from './corpusRuns.js';
import type { Core } from './corpusRuns.js';

const trees = coreTrees();
const A = (await import(trees.A)) as Core;
const B = (await import(trees.B)) as Core;

/**
 * Warnings of a route that leaves something out or cannot join it: the route faults of core's
 * tracks/routeFaults.ts, read off the plan's warnings (which do not carry `stripPass`: a strip pass
 * left out counts here).
 */
const FAULTS = new Set(['headland-pass-skipped', 'track-skipped', 'turn-not-fitted', 'connector-leaves-field']);

interface Quality {
  unworked: number;
  area: number;
  nonWorking: number;
  violations: number;
  faults: number;
}

function quality(core: Core, field: unknown): Quality {
  const request = corpusRequest(field);
  const p = core.planRoute(request);
  return {
    unworked: p.metrics.uncoveredSquareMeters,
    area: p.metrics.fieldAreaSquareMeters,
    nonWorking: p.metrics.nonWorkingDistanceMeters,
    violations: core.checkPlan(request, p).violations.length,
    faults: p.warnings.filter((w) => FAULTS.has(w.code)).length,
  };
}

const worse: string[] = [],
  better: string[] = [];
const sum = {
  A: { unworked: 0, nonWorking: 0, violations: 0, faults: 0 },
  B: { unworked: 0, nonWorking: 0, violations: 0, faults: 0 },
};
for (const { id, field } of corpusFields()) {
  const a = quality(A, field),
    b = quality(B, field);
  for (const [s, q] of [
    [sum.A, a],
    [sum.B, b],
  ] as const) {
    s.unworked += q.unworked;
    s.nonWorking += q.nonWorking;
    s.violations += q.violations;
    s.faults += q.faults;
  }
  const dUnworked = (b.unworked - a.unworked) / a.area,
    dNonWorking = a.nonWorking > 0 ? (b.nonWorking - a.nonWorking) / a.nonWorking : b.nonWorking > 0 ? 1 : 0;
  const line = `${id}: unworked ${a.unworked.toFixed(0)} → ${b.unworked.toFixed(0)} m², non-working ${a.nonWorking.toFixed(0)} → ${b.nonWorking.toFixed(0)} m, violations ${a.violations} → ${b.violations}, faults ${a.faults} → ${b.faults}`;
  if (b.violations > a.violations || b.faults > a.faults || dUnworked > 0.001 || dNonWorking > 0.02) worse.push(line);
  else if (b.violations < a.violations || b.faults < a.faults || dUnworked < -0.001 || dNonWorking < -0.02)
    better.push(line);
}
const round = (s: typeof sum.A): string =>
  `unworked ${s.unworked.toFixed(0)} m², non-working ${s.nonWorking.toFixed(0)} m, violations ${s.violations}, faults ${s.faults}`;
console.log(`worse with B (${worse.length}):`);
for (const l of worse) console.log(`  ${l}`);
console.log(`better with B (${better.length}):`);
for (const l of better) console.log(`  ${l}`);
console.log(`sums: A ${round(sum.A)}; B ${round(sum.B)}`);
