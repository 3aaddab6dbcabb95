/**
 * `planTrafficSystem(request)`: several operations on one field on one set of lanes (controlled
 * traffic). Each operation is planned by `planRoute` with its tracks put on the lane grid
 * (`tracks.referenceLine`, request/trackReference.ts) at one heading; the drill's plan marks its
 * tramline passes; the trafficked share is the union of every operation's wheel footprints ÷ the
 * field's area. For comparison the same operations can be planned each alone at its own best heading.
 */
import { PlanError } from '../errors.js';
import { offsetPolygons, type PathsD } from '../geometry/clipper.js';
import { prepareField, type LocalField } from '../geometry/prepareField.js';
import { planRoute, type PlanRuntime } from '../plan.js';
import { normalizeRequest } from '../request/normalizeRequest.js';
import { bearingToDirectionRadians, directionToBearingDegrees } from '../tracks/planTracks.js';
import { searchHeading } from '../tracks/searchHeading.js';
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
  else {
    const settings = normalizeRequest(base);
    const depth = settings.headlandPasses * w;
    const mainland: PathsD = depth > 0 ? offsetPolygons(prepared.field, -depth) : prepared.field;
    const dir = searchHeading(
      prepared.field,
      mainland.length > 0 ? mainland : prepared.field,
      w,
      settings.machine.turnRadiusMeters,
    ).directionRadians;
    headingDegrees = directionToBearingDegrees(dir);
  }
  const directionRadians = bearingToDirectionRadians(headingDegrees);
  const grid = { headingDegrees, directionRadians, baseWidthMeters: w, firstPass: traffic.firstPass };
  const refAcrossMeters = ref
    ? acrossOf(grid, ...prepared.frame.toLocal(ref.point[0], ref.point[1]))
    : fieldEdgeAcross(prepared.field, directionRadians);
  return { ...grid, refAcrossMeters };
}

function shares(plans: { plan: Plan; op: ResolvedOperation }[], prepared: LocalField): TrafficShares {
  const area = prepared.fieldAreaSquareMeters;
  const working = plans.map(({ plan, op }) => wheelFootprint(plan, prepared.frame, op.gaugeMeters, op.tyreWidthMeters));
  const all = plans.map(({ plan, op }) =>
    wheelFootprint(plan, prepared.frame, op.gaugeMeters, op.tyreWidthMeters, true),
  );
  const traffickedSquareMeters = traffickedArea(working, prepared.field);
  return {
    traffickedShare: round6(traffickedSquareMeters / area),
    traffickedShareWithTurns: round6(traffickedArea(all, prepared.field) / area),
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
): TrafficOperationPlan {
  const own = traffickedArea(
    [wheelFootprint(plan, prepared.frame, op.gaugeMeters, op.tyreWidthMeters)],
    prepared.field,
  );
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
  /** Per operation: headland passes, the request on the grid, and the request alone (own heading). */
  plannings: { op: ResolvedOperation; passes: number; onGrid: PathPlanRequest; alone: PathPlanRequest }[];
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
    const alone = operationRequest(request, op, passes);
    const line = operationLineAcross(grid, op.kind, op.widthMeters);
    const onGrid: PathPlanRequest = {
      ...alone,
      tracks: {
        preferredDirectionDegrees: grid.headingDegrees,
        referenceLine: referenceLineOption(grid, prepared.frame, line),
      },
    };
    return { op, passes, onGrid, alone };
  });
  return { request, traffic, prepared, grid, plannings };
}

/** The system's result from its plans on the grid (in `plannings` order) and, when compared, the plans alone. */
export function trafficResult(setup: TrafficSetup, onGrid: Plan[], alone?: Plan[]): TrafficSystemResult {
  const { traffic, prepared, grid, plannings } = setup;
  const planned = plannings.map((p, i) => ({ op: p.op, plan: onGrid[i] }));
  const operations = plannings.map((p, i) => operationPlan(p.op, p.passes, p.onGrid, onGrid[i], prepared));
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
    operations,
    system: shares(planned, prepared),
  };
  if (alone)
    result.independent = {
      operations: plannings.map((p, i) => operationPlan(p.op, p.passes, p.alone, alone[i], prepared)),
      shares: shares(
        plannings.map((p, i) => ({ op: p.op, plan: alone[i] })),
        prepared,
      ),
    };
  return result;
}

/** Plans every operation of the system on one lane grid (and, unless asked not to, each alone). */
export function planTrafficSystem(request: TrafficSystemRequest, runtime: PlanRuntime = {}): TrafficSystemResult {
  const setup = trafficSetup(request);
  const onGrid = setup.plannings.map((p) => planRoute(p.onGrid, runtime));
  const alone = setup.traffic.compareIndependent ? setup.plannings.map((p) => planRoute(p.alone, runtime)) : undefined;
  return trafficResult(setup, onGrid, alone);
}

/** `planTrafficSystem` with each planning handed to `planner` (a worker, a billed API call), one at a time. */
export async function planTrafficSystemAsync(
  request: TrafficSystemRequest,
  planner: (request: PathPlanRequest) => Promise<Plan>,
): Promise<TrafficSystemResult> {
  const setup = trafficSetup(request);
  const onGrid: Plan[] = [];
  for (const p of setup.plannings) onGrid.push(await planner(p.onGrid));
  let alone: Plan[] | undefined;
  if (setup.traffic.compareIndependent) {
    alone = [];
    for (const p of setup.plannings) alone.push(await planner(p.alone));
  }
  return trafficResult(setup, onGrid, alone);
}
