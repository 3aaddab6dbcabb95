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

/** The lanes' heading and reference line: the request's AB line, or the drill's searched heading and the field's edge. */
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

/** Plans every operation of the system on one lane grid (and, unless asked not to, each alone). */
export function planTrafficSystem(request: TrafficSystemRequest, runtime: PlanRuntime = {}): TrafficSystemResult {
  const traffic = validateTraffic(request);
  const baseOp = traffic.operations[traffic.drill ?? 0];
  const requestedPasses = normalizeRequest(operationRequest(request, baseOp)).headlandPasses;
  const base = operationRequest(request, baseOp, requestedPasses);
  const prepared = prepareField(normalizeRequest(base));
  const grid = laneGridOf(traffic, base, prepared);
  const planned = traffic.operations.map((op) => {
    const passes = headlandPassesFor(requestedPasses, op.multiple);
    const line = operationLineAcross(grid, op.kind, op.widthMeters);
    const req: PathPlanRequest = {
      ...operationRequest(request, op, passes),
      tracks: {
        preferredDirectionDegrees: grid.headingDegrees,
        referenceLine: referenceLineOption(grid, prepared.frame, line),
      },
    };
    return { op, passes, req, plan: planRoute(req, runtime) };
  });
  const operations = planned.map((p) => operationPlan(p.op, p.passes, p.req, p.plan, prepared));
  if (traffic.drill !== undefined && traffic.sprayer !== undefined) {
    const drill = planned[traffic.drill],
      sprayer = traffic.operations[traffic.sprayer];
    operations[traffic.drill].tramlinePasses = markTramlines(drill.plan, prepared.frame, grid, {
      multiple: sprayer.multiple,
      gaugeMeters: sprayer.gaugeMeters,
      shutOffWidthMeters: sprayer.tyreWidthMeters + traffic.tyreMarginMeters,
      ...(traffic.rowSpacingMeters !== undefined ? { rowSpacingMeters: traffic.rowSpacingMeters } : {}),
    });
  }
  const gauge = baseOp.gaugeMeters,
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
  if (traffic.compareIndependent)
    result.independent = planIndependently(request, traffic, requestedPasses, prepared, runtime);
  return result;
}

/** Each operation alone, at its own best heading (random traffic), with the system's headland passes. */
function planIndependently(
  request: TrafficSystemRequest,
  traffic: ResolvedTraffic,
  requestedPasses: number,
  prepared: LocalField,
  runtime: PlanRuntime,
): NonNullable<TrafficSystemResult['independent']> {
  const planned = traffic.operations.map((op) => {
    const passes = headlandPassesFor(requestedPasses, op.multiple);
    const req = operationRequest(request, op, passes);
    return { op, passes, req, plan: planRoute(req, runtime) };
  });
  return {
    operations: planned.map((p) => operationPlan(p.op, p.passes, p.req, p.plan, prepared)),
    shares: shares(planned, prepared),
  };
}
