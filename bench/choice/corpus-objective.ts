/**
 * One core tree over the corpus at the four machine configurations of `bench --section machines`,
 * frozen clock (the counted work budget alone: deterministic), each plan judged from its JSON by
 * THIS tree's objective (packages/core/src/objective.ts) and checkPlan, so two trees' runs compare
 * on one measure. Prints one JSON line per field × configuration: objective and its parts,
 * unworked m² and ratio, checkPlan violations, CPU.
 *
 * Run: `CORE=/path/to/packages/core/src/index.ts CONFIGS=w3-r12,w36-r12 \
 *   node --import tsx bench/choice/corpus-objective.ts > out.jsonl`
 * Compare two runs: `node --import tsx bench/choice/compare-objective.ts a.jsonl b.jsonl`.
 */
import { cpuUsage } from 'node:process';
import { corpusFields } from '../scale/corpusRuns.js';
import type { Core, CorpusRequest } from '../scale/corpusRuns.js';
import { objectiveOf } from '../../packages/core/src/objective.js';
import { checkPlan, routeOffField } from '../../packages/core/src/index.js';
import type { Plan } from '../../packages/core/src/index.js';

const CONFIGS: Record<string, Omit<CorpusRequest, 'field'>> = {
  'w3-r12': { machine: { widthMeters: 3, turnRadiusMeters: 12, reverseAllowed: false }, headland: { passes: 3 } },
  'w36-r12': { machine: { widthMeters: 36, turnRadiusMeters: 12 }, headland: { passes: 1 } },
  'w12-r9': { machine: { widthMeters: 12, turnRadiusMeters: 9 } },
  'w6-r6': { machine: { widthMeters: 6, turnRadiusMeters: 6 } },
};
/** The request defaults (request/normalizeRequest.ts DEFAULTS) the objective reads. */
const SPEEDS = {
  workingSpeedMetersPerSecond: 2.5,
  turningSpeedMetersPerSecond: 1.5,
  transportSpeedMetersPerSecond: 4,
  cuspStopSeconds: 3,
};
const UNDRIVABLE = new Set(['turn-not-fitted', 'connector-leaves-field']);

const core = (await import(process.env.CORE ?? '../../packages/core/src/index.js')) as Core;
const configs = (process.env.CONFIGS ?? Object.keys(CONFIGS).join(',')).split(',');

/** The objective of a plan, from its JSON alone. */
export function judge(request: CorpusRequest, plan: Plan, widthMeters: number) {
  let workingMeters = 0,
    turningMeters = 0,
    transportMeters = 0;
  for (const s of plan.route) {
    if (s.type !== 'Turn' && s.type !== 'Connector') workingMeters += s.lengthMeters;
    else if (s.connectorKind === 'transport') transportMeters += s.lengthMeters;
    else turningMeters += s.lengthMeters;
  }
  const offFieldMeters = routeOffField(request, plan)
    .filter((p) => p.connectorKind !== 'transport')
    .reduce((a, p) => a + p.offFieldMeters, 0);
  const facts = {
    workingMeters,
    turningMeters,
    transportMeters,
    cusps: plan.metrics.cusps ?? 0,
    uncoveredSquareMeters: plan.metrics.uncoveredSquareMeters,
    undrivableJoins: plan.warnings.filter((w) => UNDRIVABLE.has(w.code)).length,
    offFieldMeters,
  };
  return objectiveOf(facts, { widthMeters, ...SPEEDS });
}

for (const { id, field } of corpusFields()) {
  for (const config of configs) {
    const request = { field, ...CONFIGS[config] } as CorpusRequest;
    const t0 = cpuUsage();
    let plan: Plan;
    try {
      plan = core.planRoute(request, { now: () => 0 });
    } catch (e) {
      console.log(JSON.stringify({ id, config, error: String(e) }));
      continue;
    }
    const cpu = cpuUsage(t0);
    const o = judge(request, plan, request.machine!.widthMeters);
    console.log(
      JSON.stringify({
        id,
        config,
        objectiveSeconds: o.seconds,
        parts: o.parts,
        unworkedSquareMeters: plan.metrics.uncoveredSquareMeters,
        uncoveredRatio: plan.metrics.uncoveredRatio,
        violations: checkPlan(request, plan).violations.length,
        cpuMilliseconds: (cpu.user + cpu.system) / 1000,
      }),
    );
  }
}
