/**
 * `planFleet(request) → FleetPlan`: several machines in one field. The field is planned once per width
 * class by the ordinary pipeline (`planRoute`, for the class's most restricted machine: the largest turn
 * radius, reversing only if all may), its route is shared out in runs of consecutive working passes
 * (partition.ts: min–max cuts), and the layout — cuts, the way round each share is driven, who gives way —
 * is improved on the whole fleet's timetable (search.ts, schedule.ts: waits where two machines would come
 * within the safety distance). Each machine's share is a run of a drivable route, so it stays drivable;
 * no pass is in two shares, so none is worked twice or by two machines at once.
 */
import { prepareField } from '../geometry/prepareField.js';
import { createFieldMemo, memoFor } from '../choice/fieldMemo.js';
import { normalizeRequest } from '../request/normalizeRequest.js';
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import { planRoute } from '../plan.js';
import type { PlanRuntime } from '../plan.js';
import type { Plan, PlanWarning } from '../types.js';
import { FURROW_VERSION } from '../version.js';
import { readBaseRoute } from './baseRoute.js';
import type { BaseRoute } from './baseRoute.js';
import { contiguousSplitPlans, contiguousSplitSeconds } from './contiguousSplit.js';
import type { LocalField } from '../geometry/prepareField.js';
import type { ScheduleSettings } from './schedule.js';
import type { SearchResult } from './search.js';
import { beats, UNDRIVABLE_JOIN_SECONDS, unworkedSeconds } from '../objective.js';
import { UNDRIVABLE_WARNINGS } from '../tracks/routeFaults.js';
import { PlanError } from '../errors.js';
import type { PathPlanRequest } from '../types.js';
import { machinePlan, unionUncoveredRatio } from './machinePlans.js';
import { FLEET_SEARCH_WORK, searchLayout } from './search.js';
import type { FleetGroup } from './search.js';
import { approachLeg, approachRouter, approachSeconds } from './approach.js';
import type { Approaches } from './approach.js';
import type { LegRouter } from '../refill/legs.js';
import { pieceSeconds } from './timing.js';
import { blockSums, shareSeconds } from './partition.js';
import type { FleetMachineInput, FleetMachinePlan, FleetPlan, FleetRequest, FleetSummary } from './types.js';
import { machineRequest, validateFleet } from './validateFleet.js';
import { planWidthRegions } from './widthRegions.js';
import { narrowRouteMembers, narrowRoutePlan } from './narrowRoute.js';
import { balancedBand, laneLines, pairRequests } from './pairRoute.js';
import type { PairBand, PlanInput } from './pairRoute.js';

/** Headland passes are cut in parts no shorter than this, meters… */
const MIN_PART_METERS = 30;
/** …and no longer than a machine's share of the route ÷ this. */
const PARTS_PER_SHARE = 64;

/** The machine a width class's route is planned for: the class's tightest limits. */
export function classMachine(fleet: readonly FleetMachineInput[], members: readonly number[]): FleetMachineInput {
  const ms = members.map((i) => fleet[i]);
  const first = ms[0];
  const radii = ms.map((m) => m.turnRadiusMeters).filter((r): r is number => typeof r === 'number');
  const rates = ms.map((m) => m.maxCurvatureRatePerSquareMeter).filter((r): r is number => typeof r === 'number');
  const out: FleetMachineInput = { ...first };
  if (radii.length > 0) out.turnRadiusMeters = Math.max(...radii);
  if (rates.length > 0) out.maxCurvatureRatePerSquareMeter = Math.min(...rates);
  out.reverseAllowed = ms.every((m) => m.reverseAllowed === true);
  return out;
}

/** Machines grouped by working width, narrowest first (indices into the fleet). */
export function widthClasses(machines: readonly ResolvedMachine[]): number[][] {
  const byWidth = new Map<number, number[]>();
  machines.forEach((m, i) => {
    const key = Math.round(m.widthMeters * 1e6) / 1e6;
    byWidth.set(key, [...(byWidth.get(key) ?? []), i]);
  });
  return [...byWidth.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
}

/**
 * Lower bounds on the makespan. `work`: the working passes alone at the fleet's combined rate (Σ width × speed),
 * or the longest pass at the fastest working speed, whichever is larger — true of any plan of these passes.
 * `route`: the larger of that and, per base route, the time its machines need between them to drive it with the
 * k − 1 longest connector runs left out (a machine alone would take τ; together they need at least 1 ÷ Σ 1/τ) —
 * true of any split of the route.
 */
export function makespanLowerBounds(
  groups: readonly FleetGroup[],
  machines: readonly ResolvedMachine[],
): { workSeconds: number; routeSeconds: number } {
  let areaMeters2 = 0,
    longest = 0,
    route = 0;
  for (const { base, machines: members } of groups) {
    for (const p of base.pieces)
      if (p.working) {
        areaMeters2 += p.lengthMeters * (p.segment.widthMeters ?? machines[members[0]].widthMeters);
        longest = Math.max(longest, p.lengthMeters);
      }
    const sums = blockSums(base);
    let rate = 0;
    for (const i of members) {
      const m = machines[i];
      const gaps: number[] = [];
      for (let b = 1; b < sums.n; b++)
        gaps.push((sums.gapMeters[b + 1] - sums.gapMeters[b]) / m.turningSpeedMetersPerSecond);
      gaps.sort((x, y) => y - x);
      const dropped = gaps.slice(0, members.length - 1).reduce((s, g) => s + g, 0);
      const tau = shareSeconds(sums, m, 0, sums.n - 1) - dropped;
      if (tau > 0) rate += 1 / tau;
    }
    if (rate > 0) route = Math.max(route, 1 / rate);
  }
  const rate = machines.reduce((s, m) => s + m.workingSpeedMetersPerSecond * m.widthMeters, 0);
  const fastest = Math.max(...machines.map((m) => m.workingSpeedMetersPerSecond));
  const work = Math.max(rate > 0 ? areaMeters2 / rate : 0, longest / fastest);
  return { workSeconds: work, routeSeconds: Math.max(work, route) };
}

/** One way of planning the fleet, timed and laid out, with the objective it is judged by. */
interface Candidate {
  name: FleetSummary['search']['chosen'];
  plans: Plan[];
  groups: FleetGroup[];
  found: SearchResult;
  out: FleetMachinePlan[];
  makespanSeconds: number;
  uncoveredRatio: number;
  objectiveSeconds: number;
  /** The contiguous split's slowest strip alone (no waits), seconds. */
  aloneSeconds?: number;
}

interface FleetContext {
  request: FleetRequest;
  machines: ResolvedMachine[];
  classes: number[][];
  prepared: LocalField;
  settings: ScheduleSettings;
  /** Where each machine comes from (its `startPoint`), local. */
  approaches: Approaches;
}

/**
 * The fleet's objective (objective.ts, with the makespan for the machine time): the makespan, the unworked ground
 * priced as the time to come back and work it at the fleet's combined rate, and an hour per join nothing drivable
 * fits.
 */
export function fleetObjectiveSeconds(
  makespanSeconds: number,
  uncoveredSquareMeters: number,
  machines: readonly ResolvedMachine[],
  warnings: readonly { code: string }[],
): number {
  const rate = machines.reduce((s, m) => s + m.widthMeters * m.workingSpeedMetersPerSecond, 0);
  // The combined rate as one machine of width `rate` m at 1 m/s: the same m² per second.
  const fleetMachine = { widthMeters: rate, workingSpeedMetersPerSecond: 1 };
  const undrivable = warnings.filter((w) => UNDRIVABLE_WARNINGS.has(w.code)).length;
  return (
    makespanSeconds +
    unworkedSeconds(uncoveredSquareMeters, { ...fleetMachine, ...ZERO_RATES }) +
    undrivable * UNDRIVABLE_JOIN_SECONDS
  );
}

const ZERO_RATES = { turningSpeedMetersPerSecond: 1, transportSpeedMetersPerSecond: 1, cuspStopSeconds: 0 };

/** Lays a candidate's routes out among the machines (search.ts), times them and judges the whole. */
function evaluateCandidate(
  ctx: FleetContext,
  name: Candidate['name'],
  plans: Plan[],
  groups: FleetGroup[],
  searchWork = FLEET_SEARCH_WORK,
  timed?: SearchResult,
): Candidate {
  const { request, machines, classes, prepared } = ctx;
  const found = searchLayout(groups, machines, ctx.settings, searchWork, ctx.approaches, timed);
  const ids = request.fleet.map((m) => m.id);
  const out = machines.map((machine, index) =>
    machinePlan({
      index,
      input: request.fleet[index],
      machine,
      pieces: found.best.pieces[index],
      seconds: pieceSeconds(found.best.pieces[index], machine),
      timetable: found.best.timetable,
      prepared,
      base: baseFor(name, plans, classes, index),
      ids,
      approachSeconds: approachSeconds(ctx.approaches[index], found.best.pieces[index]),
      approachLeg: approachPoints(ctx.approaches[index], found.best.pieces[index]),
    }),
  );
  const makespanSeconds = Math.max(0, ...out.map((m) => m.finishSeconds));
  // One route shared out: the union of the shares is exactly its passes. Several plannings of one width (the
  // split's strips) lie in disjoint strips; those of several widths (width strips, the pair route) may overlap, so
  // their passes are measured together.
  const uncoveredRatio =
    name !== 'contiguous-split' && plans.length === 1
      ? plans[0].metrics.uncoveredRatio
      : classes.length > 1
        ? unionUncoveredRatio(prepared, found.best.pieces, machines)
        : unionUncovered(out);
  const warnings = plans.flatMap((p) => p.warnings);
  const objectiveSeconds = fleetObjectiveSeconds(
    makespanSeconds,
    uncoveredRatio * prepared.fieldAreaSquareMeters,
    machines,
    warnings,
  );
  return { name, plans, groups, found, out, makespanSeconds, uncoveredRatio, objectiveSeconds };
}

/** The way in of a machine with a start point to where its share starts (local xy), if it has one and a share. */
function approachPoints(
  approach: Approaches[number],
  pieces: readonly { xy: Float64Array }[],
): [number, number][] | undefined {
  if (!approach || pieces.length === 0) return undefined;
  return approachLeg(approach, pieces[0].xy[0], pieces[0].xy[1]);
}

/** The plan a machine's output takes its heading and boundary from. */
function baseFor(name: Candidate['name'], plans: Plan[], classes: number[][], index: number): Plan {
  if (name === 'contiguous-split') return plans[index];
  if (name === 'narrow-route') return plans[0];
  return plans[classes.findIndex((c) => c.includes(index))];
}

/**
 * A fleet keeps the single-machine plan's coverage (for several widths, the whole field's plan for the narrowest
 * width): a candidate leaving more than this share of the field more unworked than that plan loses to any that does
 * not, whatever its makespan (issue 41: the machines' coverage together within 0.2 point of the single-machine
 * plan's).
 */
export const FLEET_COVERAGE_TOLERANCE = 0.002;

/** Whether a candidate keeps the reference coverage (`referenceUncovered`: the single plan's unworked share). */
function keepsCoverage(c: Candidate, referenceUncovered: number): boolean {
  return c.uncoveredRatio <= referenceUncovered + FLEET_COVERAGE_TOLERANCE;
}

/**
 * Whether candidate `a` beats `b`: one that keeps the single plan's coverage beats one that does not; then fewer
 * conflicts no wait could clear, then the objective (a tie keeps `b`).
 */
function candidateBeats(a: Candidate, b: Candidate, referenceUncovered: number): boolean {
  const ka = keepsCoverage(a, referenceUncovered),
    kb = keepsCoverage(b, referenceUncovered);
  if (ka !== kb) return ka;
  const ua = a.found.best.timetable.unresolved,
    ub = b.found.best.timetable.unresolved;
  if (ua !== ub) return ua < ub;
  return beats(a.objectiveSeconds, b.objectiveSeconds);
}

/** The route read into blocks, headland passes in a few parts per machine's share of it. */
function baseOf(plan: Plan, ctx: FleetContext, baseIndex: number, machineCount: number): BaseRoute {
  const partMeters = Math.max(MIN_PART_METERS, plan.metrics.distanceMeters / (PARTS_PER_SHARE * machineCount));
  return readBaseRoute(plan, ctx.prepared.frame, baseIndex, partMeters);
}

/** Plans several machines in one field. Synchronous and deterministic; throws `PlanError` on bad input. */
export function planFleet(request: FleetRequest, runtime: PlanRuntime = {}): FleetPlan {
  const machines = validateFleet(request);
  const fleet = request.fleet;
  const classes = widthClasses(machines);
  const fieldRequest = machineRequest(request, classMachine(fleet, classes[0]));
  // The field prepared once: the whole field's plannings take it from the memo (choice/fieldMemo.ts).
  const fieldSettings = normalizeRequest(fieldRequest);
  const fieldMemo = runtime.fieldMemo ?? createFieldMemo();
  const fieldWork = memoFor(fieldMemo, fieldSettings);
  const prepared = fieldWork?.prepared ?? prepareField(fieldSettings);
  if (fieldWork && !fieldWork.prepared) fieldWork.prepared = prepared;
  // One router of the ways in per turning radius, shared by the machines with start points.
  const routers = new Map<number, LegRouter>();
  const routerFor = (radius: number): LegRouter => {
    let r = routers.get(radius);
    if (!r) routers.set(radius, (r = approachRouter(prepared, radius)));
    return r;
  };
  const safetyMeters = request.safetyDistanceMeters ?? Math.max(...machines.map((m) => m.widthMeters));
  const maxSpeed = Math.max(
    ...machines.map((m) => Math.max(m.workingSpeedMetersPerSecond, m.turningSpeedMetersPerSecond)),
  );
  const ctx: FleetContext = {
    request,
    machines,
    classes,
    prepared,
    settings: { safetyMeters, maxSpeedMetersPerSecond: maxSpeed },
    approaches: fleet.map((m, i) => {
      if (!m.startPoint) return undefined;
      const [x, y] = prepared.frame.toLocal(m.startPoint[0], m.startPoint[1]);
      const router = routerFor(machines[i].turnRadiusMeters);
      return { x, y, speedMetersPerSecond: machines[i].transportSpeedMetersPerSecond, router, legs: new Map() };
    }),
  };
  const plan = (r: PathPlanRequest): Plan => planRoute(r, { ...runtime, fieldMemo });
  const planPart = (p: PlanInput): Plan => planRoute(p.request, { ...runtime, fieldMemo, trackSubset: p.subset });
  const regions =
    classes.length === 1
      ? undefined
      : planWidthRegions(request, classes, machines, plan, (m) => classMachine(fleet, m));
  const plans: Plan[] = regions ? regions.strips : [plan(fieldRequest)];
  const groups: FleetGroup[] = plans.map((p, i) => ({
    base: baseOf(p, ctx, i, classes[i].length),
    machines: classes[i],
  }));
  const shared = evaluateCandidate(ctx, 'shared-route', plans, groups);
  // The coverage every candidate is held to: the single-machine plan's (several widths: the narrowest width's).
  const reference = regions ? regions.whole.metrics.uncoveredRatio : shared.uncoveredRatio;
  let chosen = shared;
  // Several widths: the whole field's route for the narrowest width, shared by every machine able to work it.
  const narrow = regions ? narrowCandidate(ctx, regions.whole, plan) : undefined;
  if (narrow && candidateBeats(narrow, chosen, reference)) chosen = narrow;
  // Two widths: the wide machines on groups of the narrow plan's tracks, the narrow ones on the rest.
  const pair = regions ? pairCandidate(ctx, regions.whole, planPart) : undefined;
  if (pair && candidateBeats(pair, chosen, reference)) chosen = pair;
  const { candidate: split, prunedAtSeconds } = splitCandidate(ctx, chosen, reference, plans[0].heading.degrees, plan);
  if (split && candidateBeats(split, chosen, reference)) chosen = split;
  const whole = regions?.whole ?? plans[0];
  return fleetPlanOf(ctx, chosen, { shared, split, narrow, pair, prunedAtSeconds, whole });
}

/** The narrow-route candidate (narrowRoute.ts); undefined if its route cannot be planned. */
function narrowCandidate(ctx: FleetContext, whole: Plan, plan: (r: PathPlanRequest) => Plan): Candidate | undefined {
  const members = narrowRouteMembers(ctx.classes, ctx.machines);
  let route: Plan;
  try {
    route = narrowRoutePlan(ctx.request, members, ctx.classes[0], whole, plan, (m) =>
      classMachine(ctx.request.fleet, m),
    );
  } catch (e) {
    if (e instanceof PlanError) return undefined;
    throw e;
  }
  const base = baseOf(route, ctx, 0, members.length);
  return evaluateCandidate(ctx, 'narrow-route', [route], [{ base, machines: [...members].sort((a, b) => a - b) }]);
}

/**
 * The pair-route candidate (pairRoute.ts): for two widths, the wider a whole multiple m of the narrower, on a field
 * whose narrow plan has straight tracks on one lane grid and a count of headland passes m divides; undefined
 * otherwise, or if a planning fails.
 */
function pairCandidate(ctx: FleetContext, whole: Plan, planPart: (p: PlanInput) => Plan): Candidate | undefined {
  const { classes, machines, request } = ctx;
  if (classes.length !== 2) return undefined;
  const w = machines[classes[0][0]].widthMeters;
  const m = Math.round(machines[classes[1][0]].widthMeters / w);
  const lines = laneLines(whole, ctx.prepared.frame, w);
  if (!lines || m < 2 || lines.headlandPasses % m !== 0) return undefined;
  // The narrow plan's time beyond its working passes, per track: its turns and connectors.
  const workMeters = whole.route.filter((s) => WORKING.has(s.type)).reduce((a, s) => a + (s.lengthMeters ?? 0), 0);
  const tracks = whole.route.filter((s) => s.type === 'Track').length;
  const extra = whole.metrics.timeSeconds - workMeters / machines[classes[0][0]].workingSpeedMetersPerSecond;
  const rates = {
    narrow: classes[0].map((i) => machines[i]),
    wide: classes[1].map((i) => machines[i]),
    turnSecondsPerTrack: Math.max(0, extra) / Math.max(1, tracks),
  };
  const planBand = (band: PairBand): Plan[] | undefined => {
    const inputs = pairRequests(request, lines, band, m, ctx.prepared.frame, {
      narrow: classMachine(request.fleet, classes[0]),
      wide: classMachine(request.fleet, classes[1]),
    });
    try {
      return [inputs.narrow, inputs.wide].map((p) => {
        const out = planPart(p);
        // Each planning leaves the other's tracks (the coverage judged is the union's, evaluateCandidate), the wide
        // one every headland pass.
        const left = new Set(['unworked-area', ...(p.subset.withoutHeadland ? ['headland-pass-skipped'] : [])]);
        out.warnings = out.warnings.filter((x) => !left.has(x.code));
        return out;
      });
    } catch (e) {
      if (e instanceof PlanError) return undefined;
      throw e;
    }
  };
  const first = balancedBand(lines, m, rates);
  let plans = first && planBand(first);
  if (!first || !plans) return undefined;
  // Once more with the estimates scaled to what the plannings showed (each class's time shared among it), on the
  // same side with the same headland; the plannings whose slower class finishes first are kept.
  const shown = (ps: Plan[]): number[] => ps.map((p, i) => p.metrics.timeSeconds / classes[i].length);
  const [narrowSeconds, wideSeconds] = shown(plans);
  const scale = { narrow: narrowSeconds / first.narrowSeconds, wide: wideSeconds / first.wideSeconds, keep: first };
  const second = balancedBand(lines, m, rates, scale);
  const again = second && (second.from !== first.from || second.to !== first.to) ? planBand(second) : undefined;
  if (again && Math.max(...shown(again)) < Math.max(...shown(plans))) plans = again;
  const groups = plans.map((p, i) => ({ base: baseOf(p, ctx, i, classes[i].length), machines: classes[i] }));
  return evaluateCandidate(ctx, 'pair-route', plans, groups);
}

const WORKING = new Set(['Track', 'ExteriorHeadland', 'InteriorHeadland']);

/**
 * The contiguous split as a candidate: one strip per machine, each its own route; undefined if a strip fails. Waits
 * only lengthen the strips' times, so once one strip alone takes longer than the objective of `best` (the best
 * candidate so far, if it keeps the coverage and is clear) the split cannot win: its planning stops there
 * (`prunedAtSeconds`: that strip's time, a lower bound on its makespan).
 */
function splitCandidate(
  ctx: FleetContext,
  best: Candidate,
  referenceUncovered: number,
  headingDegrees: number,
  plan: (r: PathPlanRequest) => Plan,
): { candidate?: Candidate; prunedAtSeconds?: number } {
  if (ctx.machines.length < 2) return {};
  // The best so far keeps the coverage and is clear: a split no faster than its objective cannot beat it.
  const sure = best.found.best.timetable.unresolved === 0 && keepsCoverage(best, referenceUncovered);
  const hopeless = (seconds: number): boolean => sure && !beats(seconds, best.objectiveSeconds);
  let plans: Plan[];
  try {
    plans = contiguousSplitPlans(ctx.request, ctx.machines, headingDegrees, plan, (p) =>
      hopeless(p.metrics.timeSeconds),
    );
  } catch (e) {
    // A strip the planner cannot plan (a sliver): no such candidate (the shared route stands).
    if (e instanceof PlanError) return {};
    throw e;
  }
  const alone = contiguousSplitSeconds(plans);
  if (plans.length < ctx.machines.length) return { prunedAtSeconds: alone };
  const groups: FleetGroup[] = plans.map((p, i) => ({ base: baseOf(p, ctx, i, 1), machines: [i] }));
  // Timed as it comes first; a split that cannot win even so is not searched (it keeps that timetable).
  const plain = { ...evaluateCandidate(ctx, 'contiguous-split', plans, groups, 0), aloneSeconds: alone };
  if (hopeless(alone) || (sure && !splitCouldBeat(plain, best, referenceUncovered, ctx.machines)))
    return { candidate: plain };
  // The search goes on from that timetable (its starting layout is not scheduled again).
  const searched = evaluateCandidate(ctx, 'contiguous-split', plans, groups, FLEET_SEARCH_WORK, plain.found);
  return { candidate: { ...searched, aloneSeconds: alone } };
}

/**
 * Whether some layout of the split (each strip driven either way round, any priority) could beat `best` (which
 * keeps the coverage and is clear): its passes, so its coverage and its objective's other terms, are the same in
 * every layout, and no layout finishes before its longest strip's driving time.
 */
function splitCouldBeat(
  plain: Candidate,
  best: Candidate,
  referenceUncovered: number,
  machines: readonly ResolvedMachine[],
): boolean {
  if (!keepsCoverage(plain, referenceUncovered)) return false;
  const drive = Math.max(
    0,
    ...plain.found.best.pieces.map((ps, i) => pieceSeconds(ps, machines[i]).reduce((a, b) => a + b, 0)),
  );
  return beats(plain.objectiveSeconds - plain.makespanSeconds + drive, best.objectiveSeconds);
}

/**
 * Lower bounds over every candidate weighed (each true of its kind of plan; the smallest is true of all): `work`,
 * the candidate's working passes at the fleet's combined rate or its longest pass; `route`, for the shared route
 * the bound on any split of it (makespanLowerBounds; several widths: the work bound), for the contiguous split its
 * slowest strip alone (no waits), never under the work bound.
 */
function candidateBounds(
  candidates: readonly (Candidate | undefined)[],
  machines: readonly ResolvedMachine[],
): { workSeconds: number; routeSeconds: number } {
  let work = Infinity,
    route = Infinity;
  for (const c of candidates) {
    if (!c) continue;
    const b = makespanLowerBounds(c.groups, machines);
    work = Math.min(work, b.workSeconds);
    if (c.name === 'contiguous-split') route = Math.min(route, Math.max(b.workSeconds, c.aloneSeconds ?? 0));
    else route = Math.min(route, c.groups.length === 1 ? b.routeSeconds : b.workSeconds);
  }
  return { workSeconds: work, routeSeconds: route };
}

/** The plan of the chosen candidate, with both candidates' figures and the bounds. */
function fleetPlanOf(
  ctx: FleetContext,
  chosen: Candidate,
  weighed: {
    shared: Candidate;
    split?: Candidate;
    narrow?: Candidate;
    pair?: Candidate;
    prunedAtSeconds?: number;
    whole: Plan;
  },
): FleetPlan {
  const { shared, split, narrow, pair, prunedAtSeconds, whole } = weighed;
  const { machines } = ctx;
  const { out, plans, found } = chosen;
  const { timetable } = found.best;
  const safetyMeters = ctx.settings.safetyMeters;
  const makespan = chosen.makespanSeconds;
  const bounds = candidateBounds([shared, split, narrow, pair], machines);
  // A split stopped early: its makespan is at least the strip that stopped it.
  const lowerBound =
    prunedAtSeconds === undefined ? bounds.routeSeconds : Math.min(bounds.routeSeconds, prunedAtSeconds);
  const warnings: PlanWarning[] = plans.flatMap((p) => p.warnings);
  if (timetable.unresolved > 0)
    warnings.push({
      code: 'fleet-conflict',
      feature: 'fleet',
      message:
        `${timetable.unresolved} route pieces could not be cleared by a wait: ` +
        `machines may come within ${safetyMeters} m`,
    });
  for (const m of out)
    if (m.route.length === 0)
      warnings.push({ code: 'fleet-idle', feature: 'fleet', message: `machine ${m.machineId} has no pass to work` });
  const figures = (c: Candidate): FleetSummary['search']['candidates'][number] => ({
    algorithm: c.name,
    makespanSeconds: r2(c.makespanSeconds),
    objectiveSeconds: r2(c.objectiveSeconds),
    unresolved: c.found.best.timetable.unresolved,
    uncoveredRatio: c.uncoveredRatio,
  });
  const summary: FleetSummary = {
    machineCount: machines.length,
    makespanSeconds: makespan,
    totalTimeSeconds: r2(out.reduce((s, m) => s + (m.finishSeconds - m.startSeconds), 0)),
    waitSeconds: r2(out.reduce((s, m) => s + (m.metrics.waitSeconds as number), 0)),
    lowerBoundSeconds: r2(lowerBound),
    gapRatio: lowerBound > 0 ? Math.round((makespan / lowerBound - 1) * 1e4) / 1e4 : 0,
    workLowerBoundSeconds: r2(bounds.workSeconds),
    workGapRatio: bounds.workSeconds > 0 ? Math.round((makespan / bounds.workSeconds - 1) * 1e4) / 1e4 : 0,
    safetyDistanceMeters: safetyMeters,
    singleMachineTimeSeconds: whole.metrics.timeSeconds,
    uncoveredRatio: chosen.uncoveredRatio,
    ...(split?.aloneSeconds !== undefined ? { contiguousSplitSeconds: r2(split.aloneSeconds) } : {}),
    search: {
      algorithm: String((shared.plans[0].routeOptions as { algorithm?: string } | undefined)?.algorithm ?? 'optimized'),
      chosen: chosen.name,
      candidates: [
        ...[shared, narrow, pair, split].filter((c): c is Candidate => c !== undefined).map(figures),
        ...(prunedAtSeconds !== undefined
          ? [{ algorithm: 'contiguous-split', makespanSeconds: r2(prunedAtSeconds), pruned: true as const }]
          : []),
      ],
      moves: found.moves,
    },
  };
  return {
    version: FURROW_VERSION,
    fleet: summary,
    machines: out,
    boundary: whole.boundary,
    heading: whole.heading,
    warnings,
  };
}

function unionUncovered(out: { metrics: { uncoveredRatio: number } }[]): number {
  // The machines' passes lie in disjoint regions: the uncovered share is what none of them covers.
  const covered = out.reduce((s, m) => s + (1 - m.metrics.uncoveredRatio), 0);
  return Math.max(0, Math.round((1 - covered) * 1e6) / 1e6);
}

function r2(v: number): number {
  return Math.round(v * 100) / 100;
}
