/**
 * Equipment scenarios: plan one field for several equipment sets (width, turning radius,
 * speeds, fuel rates, capacity) and compare them by KPIs, with the best by an objective.
 */
import { PlanError, isPlanError, type PlanErrorCode } from '../errors.js';
import type { MachineInput, PathPlanRequest, Plan, RouteApiOptions } from '../types.js';

export type ScenarioObjective = 'time' | 'distance' | 'fuel';

export interface EquipmentScenario {
  /** Unique name shown in the comparison. */
  name: string;
  /** Equipment fields that replace the request's (anything not given is kept). */
  equipment: Partial<MachineInput>;
  /** Exterior headland passes for this set (e.g. two passes of a wide sprayer = one of a seeder). */
  headlandPasses?: number;
  /** routeOptions merged over the request's. */
  routeOptions?: Partial<RouteApiOptions>;
}

export interface ScenarioKpis {
  widthMeters: number;
  timeSeconds: number;
  distanceMeters: number;
  workingDistanceMeters: number;
  nonWorkingDistanceMeters: number;
  /** From the plan when the equipment has fuel rates, else null. */
  fuelLiters: number | null;
  overlapRatio: number;
  uncoveredRatio: number;
  turns: number;
  /** Refill stops, when the plan reports them. */
  refills: number | null;
  /** Worked area per hour, hectares (workable area ÷ time). */
  hectaresPerHour: number;
}

export type ScenarioResult =
  | { name: string; ok: true; kpis: ScenarioKpis; plan?: Plan }
  | { name: string; ok: false; error: { code: PlanErrorCode | 'internal'; message: string } };

export interface ScenarioComparison {
  objective: ScenarioObjective;
  /** In the order given. */
  results: ScenarioResult[];
  /** Names of the scenarios that planned, best first by the objective (ties: shorter distance, then given order). */
  ranking: string[];
  /** Name of the best scenario, null when none could be planned. */
  best: string | null;
}

export interface CompareScenariosOptions {
  objective?: ScenarioObjective;
  /** Keep each scenario's whole Plan in the result (default false: KPIs only). */
  includePlans?: boolean;
}

export type Planner = (request: PathPlanRequest) => Plan;
export type AsyncPlanner = (request: PathPlanRequest) => Promise<Plan>;

const MAX_SCENARIOS = 20;

/** The request a scenario plans: its equipment, headland passes and routeOptions over the base request. */
export function scenarioRequest(base: PathPlanRequest, scenario: EquipmentScenario): PathPlanRequest {
  const req: PathPlanRequest = { ...base };
  const key = base.equipment !== undefined && base.machine === undefined ? 'equipment' : 'machine';
  req[key] = { ...(base[key] ?? {}), ...scenario.equipment } as MachineInput;
  if (scenario.headlandPasses !== undefined) {
    if (base.exteriorHeadlandPasses !== undefined || (base.boundary !== undefined && base.field === undefined))
      req.exteriorHeadlandPasses = scenario.headlandPasses;
    else req.headland = { ...(base.headland ?? {}), passes: scenario.headlandPasses };
  }
  if (scenario.routeOptions !== undefined)
    req.routeOptions = { ...(base.routeOptions ?? {}), ...scenario.routeOptions };
  return req;
}

function validateScenarios(scenarios: EquipmentScenario[], objective: ScenarioObjective): void {
  if (!Array.isArray(scenarios) || scenarios.length === 0) {
    throw new PlanError('invalid-request', 'scenarios must list at least one equipment set', [
      { path: 'scenarios', message: 'empty' },
    ]);
  }
  if (scenarios.length > MAX_SCENARIOS) {
    throw new PlanError('invalid-request', `at most ${MAX_SCENARIOS} scenarios per call (got ${scenarios.length})`, [
      { path: 'scenarios', message: 'too many' },
    ]);
  }
  const names = new Set<string>();
  scenarios.forEach((s, i) => {
    if (s === null || typeof s !== 'object')
      throw new PlanError('invalid-request', `scenarios[${i}] must be an object`, [
        { path: `scenarios[${i}]`, message: 'must be an object' },
      ]);
    if (typeof s.name !== 'string' || s.name.length === 0)
      throw new PlanError('invalid-request', `scenarios[${i}].name must be a non-empty string`, [
        { path: `scenarios[${i}].name`, message: 'required' },
      ]);
    if (names.has(s.name))
      throw new PlanError('invalid-request', `scenarios[${i}].name "${s.name}" is used twice`, [
        { path: `scenarios[${i}].name`, message: 'duplicate' },
      ]);
    names.add(s.name);
    if (s.equipment === null || typeof s.equipment !== 'object') {
      throw new PlanError(
        'invalid-request',
        `scenarios[${i}].equipment must be an object (e.g. { "widthMeters": 12 })`,
        [{ path: `scenarios[${i}].equipment`, message: 'required' }],
      );
    }
  });
  if (objective !== 'time' && objective !== 'distance' && objective !== 'fuel') {
    throw new PlanError('invalid-option', `objective "${String(objective)}" is not time, distance or fuel`, [
      { path: 'objective', message: 'unknown objective' },
    ]);
  }
}

function kpisOf(plan: Plan, widthMeters: number): ScenarioKpis {
  const m = plan.metrics;
  const refills =
    typeof m.refills === 'number'
      ? m.refills
      : typeof m.refillCount === 'number'
        ? m.refillCount
        : Array.isArray(plan.refillPoints)
          ? plan.refillPoints.length
          : null;
  return {
    widthMeters,
    timeSeconds: m.timeSeconds,
    distanceMeters: m.distanceMeters,
    workingDistanceMeters: m.workingDistanceMeters,
    nonWorkingDistanceMeters: m.nonWorkingDistanceMeters,
    fuelLiters: typeof m.fuelLiters === 'number' ? m.fuelLiters : null,
    overlapRatio: m.overlapRatio,
    uncoveredRatio: m.uncoveredRatio,
    turns: m.turns,
    refills,
    hectaresPerHour: m.timeSeconds > 0 ? m.workableAreaSquareMeters / 10_000 / (m.timeSeconds / 3600) : 0,
  };
}

/** Ranks planned results by the objective (ties: distance, then given order). */
export function rankScenarios(results: ScenarioResult[], objective: ScenarioObjective): string[] {
  const ok = results
    .map((r, i) => ({ r, i }))
    .filter((x): x is { r: Extract<ScenarioResult, { ok: true }>; i: number } => x.r.ok);
  if (objective === 'fuel' && ok.some((x) => x.r.kpis.fuelLiters === null)) {
    throw new PlanError(
      'invalid-option',
      'the fuel objective needs workingFuelLitersPerHour / turningFuelLitersPerHour in every scenario (or the request)',
      [{ path: 'objective', message: 'fuel rates missing' }],
    );
  }
  const key = (k: ScenarioKpis): number =>
    objective === 'time' ? k.timeSeconds : objective === 'distance' ? k.distanceMeters : (k.fuelLiters as number);
  ok.sort((a, b) => key(a.r.kpis) - key(b.r.kpis) || a.r.kpis.distanceMeters - b.r.kpis.distanceMeters || a.i - b.i);
  return ok.map((x) => x.r.name);
}

/**
 * Plans `base` once per scenario with `planner` (core's synchronous `planRoute`) and compares
 * them. A scenario whose equipment cannot plan the field is reported with its error; the
 * others are still compared.
 */
export function compareScenarios(
  base: PathPlanRequest,
  scenarios: EquipmentScenario[],
  planner: Planner,
  options: CompareScenariosOptions = {},
): ScenarioComparison {
  const objective = options.objective ?? base.routeOptions?.objective ?? 'time';
  validateScenarios(scenarios, objective);
  const results = scenarios.map((s) => {
    const req = scenarioRequest(base, s);
    try {
      return planned(s, req, planner(req), options);
    } catch (err) {
      return failed(s, err);
    }
  });
  const ranking = rankScenarios(results, objective);
  return { objective, results, ranking, best: ranking[0] ?? null };
}

/**
 * The same with an asynchronous planner (a worker pool, a remote service). Scenarios are
 * planned one after another, in the order given, so a pool is not flooded by one call.
 */
export async function compareScenariosAsync(
  base: PathPlanRequest,
  scenarios: EquipmentScenario[],
  planner: AsyncPlanner,
  options: CompareScenariosOptions = {},
): Promise<ScenarioComparison> {
  const objective = options.objective ?? base.routeOptions?.objective ?? 'time';
  validateScenarios(scenarios, objective);
  const results: ScenarioResult[] = [];
  for (const s of scenarios) {
    const req = scenarioRequest(base, s);
    try {
      results.push(planned(s, req, await planner(req), options));
    } catch (err) {
      results.push(failed(s, err));
    }
  }
  const ranking = rankScenarios(results, objective);
  return { objective, results, ranking, best: ranking[0] ?? null };
}

function planned(
  s: EquipmentScenario,
  req: PathPlanRequest,
  plan: Plan,
  options: CompareScenariosOptions,
): ScenarioResult {
  const width = (req.machine ?? req.equipment)?.widthMeters ?? NaN;
  const r: ScenarioResult = { name: s.name, ok: true, kpis: kpisOf(plan, width) };
  if (options.includePlans) r.plan = plan;
  return r;
}

function failed(s: EquipmentScenario, err: unknown): ScenarioResult {
  if (isPlanError(err)) return { name: s.name, ok: false, error: { code: err.code, message: err.message } };
  return {
    name: s.name,
    ok: false,
    error: { code: 'internal', message: err instanceof Error ? err.message : String(err) },
  };
}
