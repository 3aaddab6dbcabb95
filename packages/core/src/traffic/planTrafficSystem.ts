/**
 * `planTrafficSystem(request)`: several operations on one field on one set of lanes (controlled
 * traffic). Each operation is planned by `planRoute` with its tracks put on the lane grid
 * (`tracks.referenceLine`, request/trackReference.ts) at one heading; the drill's plan marks its
 * tramline passes; the trafficked share is the union of every operation's wheel footprints ÷ the
 * field's area. For comparison the same operations can be planned each alone at its own best heading.
 */
import { PlanError } from '../errors.js';
import { areaOf, intersectPolygons, offsetPolygons, unionPolygons, type PathsD } from '../geometry/clipper.js';
import { prepareField, type LocalField } from '../geometry/prepareField.js';
import { planRoute, type PlanRuntime } from '../plan.js';
import { createFieldMemo } from '../choice/fieldMemo.js';
import { beats, UNDRIVABLE_JOIN_SECONDS } from '../objective.js';
import { checkPlan } from '../check/checkPlan.js';
import { DEFAULTS, normalizeRequest } from '../request/normalizeRequest.js';
import { bearingToDirectionRadians, directionToBearingDegrees } from '../tracks/planTracks.js';
import { headingCost, searchHeading } from '../tracks/searchHeading.js';
import { generateTracks } from '../tracks/generateTracks.js';
import type { Plan, PathPlanRequest } from '../types.js';
import { traffickedArea, wheelFootprint } from './footprint.js';
import {
  acrossOf,
  drillPhaseMeters,
  fieldEdgeAcross,
  linesInField,
  operationLineAcross,
  referenceLineOption,
  type LaneGrid,
} from './laneGrid.js';
import { markTramlines } from './tramlines.js';
import type { TrafficOperationPlan, TrafficShares, TrafficSystemRequest, TrafficSystemResult } from './types.js';
import { validateTraffic, type ResolvedOperation, type ResolvedTraffic } from './validateTraffic.js';

/** The headland passes of an operation m·w wide: as many as fill the drill's depth, at least one (none with none). */
export function headlandPassesFor(drillPasses: number, multiple: number): number {
  return drillPasses === 0 ? 0 : Math.max(1, Math.round(drillPasses / multiple));
}

/** The shape-A request of one operation, without its tracks. */
function operationRequest(request: TrafficSystemRequest, op: ResolvedOperation, passes?: number): PathPlanRequest {
  const field = request.field ?? request.boundary;
  if (!field)
    throw new PlanError('invalid-request', 'field: required (a GeoJSON Polygon or MultiPolygon)', [
      { path: 'field', message: 'required' },
    ]);
  return {
    field,
    machine: op.machine,
    ...(request.headland || passes !== undefined
      ? { headland: { ...(request.headland ?? {}), ...(passes !== undefined ? { passes } : {}) } }
      : {}),
    ...(request.obstacles ? { obstacles: request.obstacles } : {}),
    ...(request.options !== undefined ? { options: request.options } : {}),
    ...(request.smoothingStrategy ? { smoothingStrategy: request.smoothingStrategy } : {}),
    ...(request.accessPoints ? { accessPoints: request.accessPoints } : {}),
    ...(op.routeOptions ? { routeOptions: op.routeOptions } : {}),
  };
}

/**
 * The lanes' heading and reference line: the request's AB line, or the drill's searched heading and
 * the field's edge.
 */
function laneGridOf(traffic: ResolvedTraffic, base: PathPlanRequest, prepared: LocalField): LaneGrid {
  const w = traffic.baseWidthMeters;
  const ref = traffic.referenceLine;
  let headingDegrees: number;
  if (ref) headingDegrees = ref.headingDegrees;
  else
    headingDegrees = directionToBearingDegrees(
      systemDirection(traffic, prepared, normalizeRequest(base).headlandPasses),
    );
  const directionRadians = bearingToDirectionRadians(headingDegrees);
  const grid = { headingDegrees, directionRadians, baseWidthMeters: w, firstPass: traffic.firstPass };
  const refAcrossMeters = ref
    ? acrossOf(grid, ...prepared.frame.toLocal(ref.point[0], ref.point[1]))
    : gridPhase(traffic, prepared, directionRadians, normalizeRequest(base).headlandPasses);
  return { ...grid, refAcrossMeters };
}

/**
 * The lanes' direction when no AB line is given: each operation's best heading alone (its heading search
 * on its own mainland, tracks/searchHeading.ts) is a candidate; the one whose summed heading cost over
 * all the operations (their estimated turning travel, meters) is least wins (ties: the first operation's).
 */
function systemDirection(traffic: ResolvedTraffic, prepared: LocalField, drillPasses: number): number {
  const machines = traffic.operations.map((op) => {
    const depth = headlandPassesFor(drillPasses, op.multiple) * op.widthMeters;
    const inner = depth > 0 ? offsetPolygons(prepared.field, -depth) : prepared.field;
    const R = op.machine.turnRadiusMeters ?? DEFAULTS.turnRadiusMeters;
    return { mainland: inner.length > 0 ? inner : prepared.field, w: op.widthMeters, R };
  });
  const seen = new Set<number>(),
    searchedWidths = new Set<number>();
  let best = NaN,
    bestCost = Infinity;
  for (const m of machines) {
    // A machine as wide as one searched has its mainland too, and its heading cost differs only by the
    // factor π·R + 2·w per track piece (tracks/searchHeading.ts): the same search, no new candidate.
    if (searchedWidths.has(m.w)) continue;
    searchedWidths.add(m.w);
    const a = searchHeading(prepared.field, m.mainland, m.w, m.R).directionRadians;
    const key = Math.round(a * 1e6);
    if (seen.has(key)) continue;
    seen.add(key);
    const cost = machines.reduce((sum, o) => sum + headingCost(o.mainland, a, o.w, o.R), 0);
    if (cost < bestCost) {
      best = a;
      bestCost = cost;
    }
  }
  return best;
}

/**
 * The default reference line: where the base operation (the drill) puts its tracks alone at this
 * heading (the offset that leaves the least unworked, tracks/generateTracks.ts), so that the drill and
 * every machine of its width drive their own best lines; then, of the m phases that keep the widest
 * operation (the sprayer) on those lines (the reference moved by j·w, j = 0 … m − 1), the one whose
 * tracks leave the least of its mainland unworked (`gridCost`; a tie keeps the first). The field's
 * edge where the drill has no track.
 */
function gridPhase(
  traffic: ResolvedTraffic,
  prepared: LocalField,
  directionRadians: number,
  drillPasses: number,
): number {
  const w = traffic.baseWidthMeters;
  const mainlandOf = (op: ResolvedOperation): PathsD => {
    const depth = headlandPassesFor(drillPasses, op.multiple) * op.widthMeters;
    return depth > 0 ? offsetPolygons(prepared.field, -depth) : prepared.field;
  };
  const base = traffic.operations[traffic.drill ?? 0];
  const edge = fieldEdgeAcross(prepared.field, directionRadians);
  const baseLand = mainlandOf(base);
  const first = baseLand.length > 0 ? generateTracks(baseLand, directionRadians, w).tracks[0] : undefined;
  if (!first) return edge;
  const grid = { directionRadians, baseWidthMeters: w, firstPass: traffic.firstPass };
  const line = first.v - drillPhaseMeters(grid);
  // The reference line nearest the field's edge at or below it, on the same grid.
  const ref = line - w * Math.ceil((line - edge) / w);
  const widest = traffic.operations.reduce((a, o) => (o.multiple > a.multiple ? o : a));
  if (widest.multiple === 1) return ref;
  const wideLand = mainlandOf(widest);
  if (wideLand.length === 0) return ref;
  const edgeLines = headlandPassesFor(drillPasses, widest.multiple) > 0;
  let best = ref,
    bestCost = Infinity;
  for (let j = 0; j < widest.multiple; j++) {
    const refJ = ref + j * w;
    const lineJ = operationLineAcross(
      { ...grid, headingDegrees: 0, refAcrossMeters: refJ },
      widest.kind,
      widest.widthMeters,
    );
    const cost = gridCost(wideLand, directionRadians, widest.widthMeters, lineJ, edgeLines);
    if (cost < bestCost - 1e-6 * (1 + bestCost)) {
      best = refJ;
      bestCost = cost;
    }
  }
  return best;
}

/** Per track, in the track stage's own weighing of offsets (tracks/generateTracks.ts): w² × this, m². */
const PIECE_COST_PER_SQUARE_WIDTH = 0.5;

/**
 * The track stage's measure of a set of lines, m²: the mainland its tracks on the grid line `lineAcross`
 * leave unworked (their swaths, w wide, cut to the mainland) plus PIECE_COST_PER_SQUARE_WIDTH·w² per track.
 */
function gridCost(
  mainland: PathsD,
  directionRadians: number,
  w: number,
  lineAcross: number,
  edgeLines: boolean,
): number {
  const set = generateTracks(mainland, directionRadians, w, DEFAULTS.trackExtensionFraction, lineAcross, edgeLines);
  const c = Math.cos(directionRadians),
    s = Math.sin(directionRadians);
  const at = (u: number, v: number): { x: number; y: number } => ({ x: c * u - s * v, y: s * u + c * v });
  const swaths: PathsD = set.tracks.map((t) => [
    at(t.u0, t.v - w / 2),
    at(t.u1, t.v - w / 2),
    at(t.u1, t.v + w / 2),
    at(t.u0, t.v + w / 2),
  ]);
  const worked = swaths.length > 0 ? areaOf(intersectPolygons(mainland, unionPolygons(swaths))) : 0;
  return areaOf(mainland) - worked + PIECE_COST_PER_SQUARE_WIDTH * w * w * set.tracks.length;
}

/**
 * An operation's wheel footprints (working passes, cut to the field, and their area; turns and
 * connectors when asked), local frame.
 */
interface Footprints {
  working: PathsD;
  workingSquareMeters: number;
  turns?: PathsD;
}

function footprintsOf(plan: Plan, op: ResolvedOperation, prepared: LocalField, turns: boolean): Footprints {
  const print = (part: 'working' | 'turns'): PathsD =>
    wheelFootprint(plan, prepared.frame, op.gaugeMeters, op.tyreWidthMeters, part);
  const all = print('working');
  const working = all.length > 0 ? intersectPolygons(all, prepared.field) : [];
  return { working, workingSquareMeters: areaOf(working), ...(turns ? { turns: print('turns') } : {}) };
}

/** The operations' footprints united (each already cut to the field) ÷ the field's area. */
function shares(footprints: Footprints[], prepared: LocalField): TrafficShares {
  const area = prepared.fieldAreaSquareMeters;
  const parts = footprints.filter((f) => f.working.length > 0);
  const working = parts.length === 1 ? parts[0].working : unionPolygons(parts.flatMap((f) => f.working));
  const traffickedSquareMeters = areaOf(working);
  const turns = footprints.flatMap((f) => (f.turns ? [f.turns] : []));
  return {
    traffickedShare: round6(traffickedSquareMeters / area),
    ...(turns.length > 0
      ? { traffickedShareWithTurns: round6(traffickedArea([working, ...turns], prepared.field) / area) }
      : {}),
    traffickedSquareMeters: Math.round(traffickedSquareMeters * 100) / 100,
  };
}

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

function operationPlan(
  op: ResolvedOperation,
  passes: number,
  request: PathPlanRequest,
  plan: Plan,
  prepared: LocalField,
  footprints: Footprints,
): TrafficOperationPlan {
  const own = footprints.workingSquareMeters;
  return {
    name: op.name,
    kind: op.kind,
    widthMeters: op.widthMeters,
    multiple: op.multiple,
    gaugeMeters: op.gaugeMeters,
    tyreWidthMeters: op.tyreWidthMeters,
    headlandPasses: passes,
    request: request as unknown as Record<string, unknown>,
    plan,
    traffickedShare: round6(own / prepared.fieldAreaSquareMeters),
  };
}

/** What a traffic system's plannings need: the resolved request, the field, the grid, each operation's requests. */
export interface TrafficSetup {
  request: TrafficSystemRequest;
  traffic: ResolvedTraffic;
  prepared: LocalField;
  grid: LaneGrid;
  /**
   * Per operation: headland passes, the request on the grid, and the request alone (its own heading,
   * track offset and headland: the request's headland as given, as it would be planned by itself).
   */
  plannings: { op: ResolvedOperation; passes: number; onGrid: PathPlanRequest; alone: PathPlanRequest }[];
}

/** An operation's request with its tracks on `grid`'s lines. */
function onGridRequest(
  request: TrafficSystemRequest,
  op: ResolvedOperation,
  passes: number,
  grid: LaneGrid,
  prepared: LocalField,
): PathPlanRequest {
  const line = operationLineAcross(grid, op.kind, op.widthMeters);
  return {
    ...operationRequest(request, op, passes),
    tracks: {
      preferredDirectionDegrees: grid.headingDegrees,
      referenceLine: referenceLineOption(grid, prepared.frame, line),
    },
  };
}

/** The traffic request checked and turned into one path-plan request per operation (on the grid, and alone). */
export function trafficSetup(request: TrafficSystemRequest): TrafficSetup {
  const traffic = validateTraffic(request);
  const baseOp = traffic.operations[traffic.drill ?? 0];
  const requestedPasses = normalizeRequest(operationRequest(request, baseOp)).headlandPasses;
  const base = operationRequest(request, baseOp, requestedPasses);
  const prepared = prepareField(normalizeRequest(base));
  const grid = laneGridOf(traffic, base, prepared);
  const plannings = traffic.operations.map((op) => {
    const passes = headlandPassesFor(requestedPasses, op.multiple);
    const onGrid = onGridRequest(request, op, passes, grid, prepared);
    return { op, passes, onGrid, alone: operationRequest(request, op) };
  });
  return { request, traffic, prepared, grid, plannings };
}

/**
 * An operation m·w wide (m > 1) leaving more than this share of the field unworked beyond the base
 * operation's plan on the lanes has the grid's other phases tried (`phaseShifts`): the limit
 * for an operation against its plan alone (2 points), as a wider machine alone seldom leaves less
 * than the drill does.
 */
export const PHASE_TRY_UNWORKED_SHARE = 0.02;

/**
 * The lanes' other phases worth trying after the first plannings: the reference line moved by j·w
 * (j = 1 … m − 1, m the widest multiple) leaves the base operation's lines (every w) where they are and
 * puts the wider operations' lines (the sprayer's tramlines) on other drill passes. Tried only where an
 * operation wider than the base leaves more than PHASE_TRY_UNWORKED_SHARE of the field unworked beyond
 * the base's plan (its own best offset at the lanes' heading may route badly: narrow corridors); none
 * with an AB line given, which fixes the tramlines.
 */
export function phaseShifts(setup: TrafficSetup, onGrid: readonly Plan[]): number[] {
  if (setup.traffic.referenceLine) return [];
  const base = onGrid[setup.traffic.drill ?? 0].metrics.uncoveredRatio;
  const wide = setup.plannings.map((p, i) => ({ m: p.op.multiple, plan: onGrid[i] })).filter((x) => x.m > 1);
  if (!wide.some((x) => x.plan.metrics.uncoveredRatio > base + PHASE_TRY_UNWORKED_SHARE)) return [];
  const widest = Math.max(...wide.map((x) => x.m));
  // A phase whose wider operations get the same grid tracks as one before (none at all, on a field too small
  // for a track of theirs) plans the same: not tried.
  const seen = new Set<string>([gridTracksKey(setup)]);
  const shifts: number[] = [];
  for (let j = 1; j < widest; j++) {
    const key = gridTracksKey(shiftedSetup(setup, j));
    if (seen.has(key)) continue;
    seen.add(key);
    shifts.push(j);
  }
  return shifts;
}

/** The grid tracks the wider operations' track stages start from (as generateTracks lays them), as a key. */
function gridTracksKey(setup: TrafficSetup): string {
  const { prepared, grid } = setup;
  return setup.plannings
    .filter((p) => p.op.multiple > 1)
    .map((p) => {
      const w = p.op.widthMeters,
        depth = p.passes * w;
      const mainland = depth > 0 ? offsetPolygons(prepared.field, -depth) : prepared.field;
      if (mainland.length === 0) return '';
      const line = operationLineAcross(grid, p.op.kind, w);
      const set = generateTracks(
        mainland,
        grid.directionRadians,
        w,
        DEFAULTS.trackExtensionFraction,
        line,
        p.passes > 0,
      );
      return set.tracks.map((t) => `${t.v.toFixed(3)}:${t.u0.toFixed(3)}:${t.u1.toFixed(3)}`).join(',');
    })
    .join('|');
}

/** `setup` with its reference line moved by `shift` base widths: the wider operations' requests follow. */
export function shiftedSetup(setup: TrafficSetup, shift: number): TrafficSetup {
  const grid = { ...setup.grid, refAcrossMeters: setup.grid.refAcrossMeters + shift * setup.grid.baseWidthMeters };
  const plannings = setup.plannings.map((p) =>
    p.op.multiple > 1 ? { ...p, onGrid: onGridRequest(setup.request, p.op, p.passes, grid, setup.prepared) } : p,
  );
  return { ...setup, grid, plannings };
}

/**
 * A plan's objective, seconds (its kept variant's; objective.ts), with UNDRIVABLE_JOIN_SECONDS for each
 * fault `checkPlan` finds in the finished plan (a join the variant's own count did not see).
 */
function objectiveSecondsOf(request: PathPlanRequest, plan: Plan, faults: FaultCount): number {
  const kept = plan.choice?.variants.find((v) => v.status === 'kept')?.objectiveSeconds ?? Infinity;
  return kept + UNDRIVABLE_JOIN_SECONDS * faults(request, plan);
}

type FaultCount = (request: PathPlanRequest, plan: Plan) => number;
const checkPlanFaults: FaultCount = (request, plan) => checkPlan(request, plan).violations.length;

/** The phase whose wider operations' plans have the least summed objective (a tie keeps the first). */
export function bestPhase(
  candidates: { setup: TrafficSetup; onGrid: Plan[] }[],
  faults: FaultCount = checkPlanFaults,
): { setup: TrafficSetup; onGrid: Plan[] } {
  if (candidates.length === 1) return candidates[0];
  const cost = (c: { setup: TrafficSetup; onGrid: Plan[] }): number =>
    c.setup.plannings.reduce(
      (sum, p, i) => sum + (p.op.multiple > 1 ? objectiveSecondsOf(p.onGrid, c.onGrid[i], faults) : 0),
      0,
    );
  const costs = candidates.map(cost);
  let best = 0;
  for (let i = 1; i < candidates.length; i++) if (beats(costs[i], costs[best])) best = i;
  return candidates[best];
}

/** The system's result from its plans on the grid (in `plannings` order) and, when compared, the plans alone. */
export function trafficResult(setup: TrafficSetup, onGrid: Plan[], alone?: Plan[]): TrafficSystemResult {
  const { traffic, prepared, grid, plannings } = setup;
  const prints = plannings.map((p, i) => footprintsOf(onGrid[i], p.op, prepared, traffic.includeTurns));
  const operations = plannings.map((p, i) => operationPlan(p.op, p.passes, p.onGrid, onGrid[i], prepared, prints[i]));
  if (traffic.drill !== undefined && traffic.sprayer !== undefined) {
    const sprayer = traffic.operations[traffic.sprayer];
    operations[traffic.drill].tramlinePasses = markTramlines(onGrid[traffic.drill], prepared.frame, grid, {
      multiple: sprayer.multiple,
      gaugeMeters: sprayer.gaugeMeters,
      shutOffWidthMeters: sprayer.tyreWidthMeters + traffic.tyreMarginMeters,
      ...(traffic.rowSpacingMeters !== undefined ? { rowSpacingMeters: traffic.rowSpacingMeters } : {}),
    });
  }
  const gauge = traffic.operations[traffic.drill ?? 0].gaugeMeters,
    phase = grid.refAcrossMeters + drillPhaseMeters(grid);
  const lanes = [
    ...linesInField(prepared.field, grid, prepared.frame, phase - gauge / 2, grid.baseWidthMeters),
    ...linesInField(prepared.field, grid, prepared.frame, phase + gauge / 2, grid.baseWidthMeters),
  ];
  const result: TrafficSystemResult = {
    fieldAreaSquareMeters: prepared.fieldAreaSquareMeters,
    baseWidthMeters: traffic.baseWidthMeters,
    ...(traffic.drill !== undefined && traffic.sprayer !== undefined
      ? { tramlineMultiple: traffic.operations[traffic.sprayer].multiple }
      : {}),
    referenceLine: {
      point: referenceLineOption(grid, prepared.frame, grid.refAcrossMeters).point,
      headingDegrees: grid.headingDegrees,
      source: traffic.referenceLine ? 'request' : 'planner',
    },
    lanes,
    phasesPlanned: 1,
    operations,
    system: shares(prints, prepared),
  };
  if (alone) result.independent = independentResult(setup, alone);
  return result;
}

/** The comparison: the operations' plans alone (in `plannings` order), their footprints' union ÷ field area. */
export function independentResult(setup: TrafficSetup, alone: Plan[]): NonNullable<TrafficSystemResult['independent']> {
  const { traffic, prepared, plannings } = setup;
  const own = plannings.map((p, i) => footprintsOf(alone[i], p.op, prepared, traffic.includeTurns));
  return {
    operations: plannings.map((p, i) =>
      operationPlan(p.op, normalizeRequest(p.alone).headlandPasses, p.alone, alone[i], prepared, own[i]),
    ),
    shares: shares(own, prepared),
  };
}

/**
 * Plans every operation of the system on one lane grid (and, unless asked not to, each alone), each
 * planning by `planner` (default `planRoute` with `runtime`, the plannings sharing the field's work:
 * choice/fieldMemo.ts): the operations' requests on the grid first, in order, then the wider
 * operations' at the other phases where `phaseShifts` asks, then those alone.
 */
export function planTrafficSystem(
  request: TrafficSystemRequest,
  runtime: PlanRuntime = {},
  planner?: (request: PathPlanRequest) => Plan,
): TrafficSystemResult {
  const fieldMemo = runtime.fieldMemo ?? createFieldMemo();
  const plan = planner ?? ((r: PathPlanRequest) => planRoute(r, { ...runtime, fieldMemo }));
  const first = trafficSetup(request);
  const firstPlans = first.plannings.map((p) => plan(p.onGrid));
  const candidates = [{ setup: first, onGrid: firstPlans }];
  for (const shift of phaseShifts(first, firstPlans)) {
    const setup = shiftedSetup(first, shift);
    candidates.push({
      setup,
      onGrid: setup.plannings.map((p, i) => (p.op.multiple > 1 ? plan(p.onGrid) : firstPlans[i])),
    });
  }
  const { setup, onGrid } = bestPhase(candidates);
  const alone = setup.traffic.compareIndependent ? setup.plannings.map((p) => plan(p.alone)) : undefined;
  return { ...trafficResult(setup, onGrid, alone), phasesPlanned: candidates.length };
}

/**
 * The comparison alone: each operation planned alone by `planner` (its own heading, offset and the
 * request's headland; in the operations' order) and the union of their footprints, as
 * `planTrafficSystem` reports it in `independent`.
 */
export function planIndependent(
  request: TrafficSystemRequest,
  planner: (request: PathPlanRequest) => Plan,
): NonNullable<TrafficSystemResult['independent']> {
  const setup = trafficSetup(request);
  return independentResult(
    setup,
    setup.plannings.map((p) => planner(p.alone)),
  );
}

/** `planTrafficSystem` with each planning handed to `planner` (a worker, a billed API call), one at a time. */
export async function planTrafficSystemAsync(
  request: TrafficSystemRequest,
  planner: (request: PathPlanRequest) => Promise<Plan>,
): Promise<TrafficSystemResult> {
  const first = trafficSetup(request);
  const firstPlans: Plan[] = [];
  for (const p of first.plannings) firstPlans.push(await planner(p.onGrid));
  const candidates = [{ setup: first, onGrid: firstPlans }];
  for (const shift of phaseShifts(first, firstPlans)) {
    const setup = shiftedSetup(first, shift);
    const onGrid: Plan[] = [];
    for (const [i, p] of setup.plannings.entries())
      onGrid.push(p.op.multiple > 1 ? await planner(p.onGrid) : firstPlans[i]);
    candidates.push({ setup, onGrid });
  }
  const { setup, onGrid } = bestPhase(candidates);
  let alone: Plan[] | undefined;
  if (setup.traffic.compareIndependent) {
    alone = [];
    for (const p of setup.plannings) alone.push(await planner(p.alone));
  }
  return { ...trafficResult(setup, onGrid, alone), phasesPlanned: candidates.length };
}
