/**
 * Sequencing several fields (or parts of one) from a staging area: which field to work next
 * and which way round (entry and exit), so that the day's transport is cheapest. It is a
 * generalised travelling-salesman problem: exact (Held-Karp over fields × visits) up to
 * `exactMaxFields`, otherwise nearest-neighbour + 2-opt / relocation with the visit choice
 * solved exactly (dynamic programming) for each order. Deterministic.
 */
import { PlanError } from '../errors.js';
import type { Plan, Position } from '../types.js';
import { transportModel, type TransportInput } from './transport.js';
import { DEFAULTS } from '../request/normalizeRequest.js';
import { isLonLat } from '../request/position.js';
import { solveExact, solveHeuristic, type Problem } from './solve.js';

/** One way to work a field: where the machine enters and leaves, and what the work costs. */
export interface FieldVisit {
  entry: Position;
  exit: Position;
  workTimeSeconds: number;
  workDistanceMeters: number;
  workFuelLiters?: number;
  /** How to obtain this visit from the planner: the route as planned, or driven backwards. */
  reversed?: boolean;
  /** routeOptions to re-plan the field with for this visit, when the visit needs a re-plan. */
  startPointNodeIndex?: number;
  endPointNodeIndex?: number;
  /** Which of the field's plans this visit drives (see visitsFromPlans). */
  planIndex?: number;
  label?: string;
}

export interface SequencingField {
  id: string;
  visits: FieldVisit[];
  areaSquareMeters?: number;
}

export type SequencingObjective = 'time' | 'distance' | 'fuel';

export interface SequencingRequest {
  /** Staging area the day starts from, [lon, lat]. */
  depot: Position;
  /** Where the day ends (default: the depot). */
  end?: Position;
  fields: SequencingField[];
  transport?: TransportInput;
  /** Road speed for straight-line legs and matrices without durations (default 4 m/s). */
  transportSpeedMetersPerSecond?: number;
  /** Fuel on the road, liters per hour (needed for the fuel objective and fuel metrics). */
  transportFuelLitersPerHour?: number;
  objective?: SequencingObjective;
  /** Working day length, seconds: the metrics say how much the plan runs over. */
  workdaySeconds?: number;
  /** Exact search up to this many fields (default 12, at most 14). */
  exactMaxFields?: number;
}

export interface SequencedStop {
  fieldId: string;
  visitIndex: number;
  visit: FieldVisit;
  /** Time from the start of the day, seconds. */
  arriveSeconds: number;
  leaveSeconds: number;
}

export interface TransportLeg {
  from: string;
  to: string;
  fromPosition: Position;
  toPosition: Position;
  distanceMeters: number;
  timeSeconds: number;
}

export interface DayMetrics {
  fields: number;
  transportDistanceMeters: number;
  transportTimeSeconds: number;
  workDistanceMeters: number;
  workTimeSeconds: number;
  distanceMeters: number;
  timeSeconds: number;
  fuelLiters: number | null;
  areaSquareMeters: number | null;
  /** Time beyond workdaySeconds (0 when it fits); null without a workday length. */
  overtimeSeconds: number | null;
}

export interface DaySequence {
  stops: SequencedStop[];
  legs: TransportLeg[];
  metrics: DayMetrics;
  objective: SequencingObjective;
  method: 'exact' | 'heuristic';
}

/** The visits a planned field offers without re-planning: its route as planned, and driven backwards. */
export function visitsFromPlan(plan: Plan): FieldVisit[] {
  const route = plan.route;
  if (route.length === 0 || route[0].coordinates.length === 0) {
    throw new PlanError('invalid-request', 'the plan has no route to enter or leave', [
      { path: 'plan.route', message: 'empty' },
    ]);
  }
  const last = route[route.length - 1];
  const first = route[0].coordinates[0];
  const end = last.coordinates[last.coordinates.length - 1];
  const m = plan.metrics;
  const fuel = typeof m.fuelLiters === 'number' ? m.fuelLiters : undefined;
  const base = {
    workTimeSeconds: m.timeSeconds,
    workDistanceMeters: m.distanceMeters,
    ...(fuel !== undefined ? { workFuelLiters: fuel } : {}),
  };
  return [
    { entry: first, exit: end, ...base, reversed: false, label: 'as planned' },
    { entry: end, exit: first, ...base, reversed: true, label: 'reversed' },
  ];
}

/** One plan of a field, made with routeOptions.startPointNodeIndex when given. */
export interface FieldPlanVariant {
  plan: Plan;
  startPointNodeIndex?: number;
}

/**
 * Visits from several plans of the same field (e.g. planned from different start nodes):
 * each plan as planned and reversed, duplicates (same entry and exit within 1 cm) dropped,
 * at most 16.
 */
export function visitsFromPlans(variants: FieldPlanVariant[]): FieldVisit[] {
  const out: FieldVisit[] = [];
  const same = (a: Position, b: Position): boolean => Math.abs(a[0] - b[0]) < 1e-7 && Math.abs(a[1] - b[1]) < 1e-7;
  variants.forEach((variant, planIndex) => {
    for (const v of visitsFromPlan(variant.plan)) {
      const visit: FieldVisit = {
        ...v,
        planIndex,
        ...(variant.startPointNodeIndex !== undefined ? { startPointNodeIndex: variant.startPointNodeIndex } : {}),
      };
      const dup = out.findIndex((o) => same(o.entry, visit.entry) && same(o.exit, visit.exit));
      if (dup < 0) out.push(visit);
      else if (visit.workTimeSeconds < out[dup].workTimeSeconds) out[dup] = visit;
    }
  });
  return out.slice(0, 16);
}

/**
 * Candidate start nodes worth re-planning from: the ends of the first and last tracks (the
 * field's "corners" in track order), from `plan.nodes` (node 2i and 2i + 1 are track i's ends).
 */
export function cornerStartNodes(plan: Plan): number[] {
  const nodes = plan.nodes as { index: number; trackIndex: number }[] | undefined;
  if (!Array.isArray(nodes) || nodes.length === 0) return [];
  let minT = Infinity,
    maxT = -Infinity;
  for (const nd of nodes) {
    if (nd.trackIndex < minT) minT = nd.trackIndex;
    if (nd.trackIndex > maxT) maxT = nd.trackIndex;
  }
  return nodes.filter((nd) => nd.trackIndex === minT || nd.trackIndex === maxT).map((nd) => nd.index);
}

function checkPosition(p: unknown, path: string): asserts p is Position {
  if (!isLonLat(p)) {
    throw new PlanError('invalid-request', `${path} must be [longitude, latitude]`, [
      { path, message: 'must be [lon, lat]' },
    ]);
  }
}

function validate(req: SequencingRequest): void {
  checkPosition(req.depot, 'depot');
  if (req.end !== undefined) checkPosition(req.end, 'end');
  if (!Array.isArray(req.fields) || req.fields.length === 0) {
    throw new PlanError('invalid-request', 'fields must list at least one field', [
      { path: 'fields', message: 'empty' },
    ]);
  }
  if (req.fields.length > 500)
    throw new PlanError('invalid-request', `at most 500 fields per day (got ${req.fields.length})`, [
      { path: 'fields', message: 'too many' },
    ]);
  const ids = new Set<string>();
  req.fields.forEach((f, i) => {
    if (typeof f.id !== 'string' || f.id.length === 0)
      throw new PlanError('invalid-request', `fields[${i}].id must be a non-empty string`, [
        { path: `fields[${i}].id`, message: 'required' },
      ]);
    if (ids.has(f.id))
      throw new PlanError('invalid-request', `fields[${i}].id "${f.id}" is used twice`, [
        { path: `fields[${i}].id`, message: 'duplicate' },
      ]);
    ids.add(f.id);
    if (!Array.isArray(f.visits) || f.visits.length === 0 || f.visits.length > 16) {
      throw new PlanError('invalid-request', `fields[${i}].visits must hold 1 to 16 ways to work the field`, [
        { path: `fields[${i}].visits`, message: '1 to 16 visits' },
      ]);
    }
    f.visits.forEach((v, j) => {
      checkPosition(v.entry, `fields[${i}].visits[${j}].entry`);
      checkPosition(v.exit, `fields[${i}].visits[${j}].exit`);
      for (const k of ['workTimeSeconds', 'workDistanceMeters'] as const) {
        if (typeof v[k] !== 'number' || !(v[k] >= 0) || !Number.isFinite(v[k])) {
          throw new PlanError('invalid-request', `fields[${i}].visits[${j}].${k} must be a number ≥ 0`, [
            { path: `fields[${i}].visits[${j}].${k}`, message: 'must be ≥ 0' },
          ]);
        }
      }
    });
  });
  const objective = req.objective ?? 'time';
  if (objective !== 'time' && objective !== 'distance' && objective !== 'fuel') {
    throw new PlanError('invalid-option', `objective "${String(objective)}" is not time, distance or fuel`, [
      { path: 'objective', message: 'unknown objective' },
    ]);
  }
  if (
    objective === 'fuel' &&
    !(typeof req.transportFuelLitersPerHour === 'number' && req.transportFuelLitersPerHour >= 0)
  ) {
    throw new PlanError('invalid-option', 'the fuel objective needs transportFuelLitersPerHour', [
      { path: 'transportFuelLitersPerHour', message: 'required for objective fuel' },
    ]);
  }
}

type Leg = { distanceMeters: number; timeSeconds: number };

/** The day's stops, legs and metrics from the chosen (field, visit) sequence. */
function dayOf(
  req: SequencingRequest,
  all: { visits: FieldVisit[]; visitField: number[]; firstVisit: number[] },
  chosen: number[],
  leg: (a: Position, b: Position, la: string, lb: string) => Leg,
): { stops: SequencedStop[]; legs: TransportLeg[]; metrics: DayMetrics } {
  const { visits, visitField, firstVisit } = all;
  const fields = req.fields;
  const n = fields.length;
  const end = req.end ?? req.depot;
  const fuelRate = req.transportFuelLitersPerHour;
  const stops: SequencedStop[] = [];
  const legs: TransportLeg[] = [];
  let t = 0,
    transportDistance = 0,
    transportTime = 0,
    workDistance = 0,
    workTime = 0,
    workFuel = 0,
    workFuelKnown = true;
  let prevPos = req.depot,
    prevLabel = 'depot';
  for (const v of chosen) {
    const f = fields[visitField[v]];
    const vis = visits[v];
    const l = leg(prevPos, vis.entry, prevLabel, f.id);
    legs.push({
      from: prevLabel,
      to: f.id,
      fromPosition: prevPos,
      toPosition: vis.entry,
      distanceMeters: l.distanceMeters,
      timeSeconds: l.timeSeconds,
    });
    transportDistance += l.distanceMeters;
    transportTime += l.timeSeconds;
    t += l.timeSeconds;
    const arrive = t;
    t += vis.workTimeSeconds;
    workDistance += vis.workDistanceMeters;
    workTime += vis.workTimeSeconds;
    if (vis.workFuelLiters === undefined) workFuelKnown = false;
    else workFuel += vis.workFuelLiters;
    stops.push({
      fieldId: f.id,
      visitIndex: v - firstVisit[visitField[v]],
      visit: vis,
      arriveSeconds: arrive,
      leaveSeconds: t,
    });
    prevPos = vis.exit;
    prevLabel = f.id;
  }
  const back = leg(prevPos, end, prevLabel, 'end');
  legs.push({
    from: prevLabel,
    to: req.end ? 'end' : 'depot',
    fromPosition: prevPos,
    toPosition: end,
    distanceMeters: back.distanceMeters,
    timeSeconds: back.timeSeconds,
  });
  transportDistance += back.distanceMeters;
  transportTime += back.timeSeconds;
  t += back.timeSeconds;
  const areaKnown = fields.every((f) => typeof f.areaSquareMeters === 'number');
  const metrics: DayMetrics = {
    fields: n,
    transportDistanceMeters: transportDistance,
    transportTimeSeconds: transportTime,
    workDistanceMeters: workDistance,
    workTimeSeconds: workTime,
    distanceMeters: transportDistance + workDistance,
    timeSeconds: t,
    fuelLiters: fuelRate !== undefined && workFuelKnown ? workFuel + (transportTime * fuelRate) / 3600 : null,
    areaSquareMeters: areaKnown ? fields.reduce((s, f) => s + (f.areaSquareMeters ?? 0), 0) : null,
    overtimeSeconds: req.workdaySeconds !== undefined ? Math.max(0, t - req.workdaySeconds) : null,
  };
  return { stops, legs, metrics };
}

export function sequenceFields(req: SequencingRequest): DaySequence {
  validate(req);
  const objective: SequencingObjective = req.objective ?? 'time';
  const speed = req.transportSpeedMetersPerSecond ?? DEFAULTS.transportSpeedMetersPerSecond;
  const transport = transportModel(req.transport, speed);
  const fuelRate = req.transportFuelLitersPerHour;
  const end = req.end ?? req.depot;
  const fields = req.fields;
  const n = fields.length;
  const visitField: number[] = [],
    firstVisit: number[] = [],
    visitCount: number[] = [];
  const visits: FieldVisit[] = [];
  fields.forEach((f, i) => {
    firstVisit.push(visits.length);
    visitCount.push(f.visits.length);
    for (const v of f.visits) {
      visits.push(v);
      visitField.push(i);
    }
  });
  const V = visits.length;
  const legCache = new Map<string, { distanceMeters: number; timeSeconds: number }>();
  const leg = (a: Position, b: Position, la: string, lb: string): { distanceMeters: number; timeSeconds: number } => {
    const key = `${a[0]},${a[1]}>${b[0]},${b[1]}`;
    let l = legCache.get(key);
    if (!l) {
      l = transport.leg(a, b, la, lb);
      legCache.set(key, l);
    }
    return l;
  };
  const costOf = (l: { distanceMeters: number; timeSeconds: number }): number =>
    objective === 'distance'
      ? l.distanceMeters
      : objective === 'time'
        ? l.timeSeconds
        : (l.timeSeconds * (fuelRate ?? 0)) / 3600;
  const fromDepot = new Float64Array(V),
    toEnd = new Float64Array(V),
    between = new Float64Array(V * V),
    work = new Float64Array(V);
  for (let v = 0; v < V; v++) {
    const f = fields[visitField[v]];
    fromDepot[v] = costOf(leg(req.depot, visits[v].entry, 'the depot', `field "${f.id}" entry`));
    toEnd[v] = costOf(leg(visits[v].exit, end, `field "${f.id}" exit`, 'the end of the day'));
    const vv = visits[v];
    work[v] =
      objective === 'distance'
        ? vv.workDistanceMeters
        : objective === 'time'
          ? vv.workTimeSeconds
          : (vv.workFuelLiters ?? 0);
    for (let u = 0; u < V; u++) {
      if (visitField[u] === visitField[v]) {
        between[u * V + v] = Infinity;
        continue;
      }
      between[u * V + v] = costOf(
        leg(visits[u].exit, visits[v].entry, `field "${fields[visitField[u]].id}" exit`, `field "${f.id}" entry`),
      );
    }
  }
  const p: Problem = { n, visitField, firstVisit, visitCount, fromDepot, toEnd, between, work };
  const exactMax = Math.min(14, req.exactMaxFields ?? 12);
  const method: 'exact' | 'heuristic' = n <= exactMax ? 'exact' : 'heuristic';
  const chosen = method === 'exact' ? solveExact(p) : solveHeuristic(p);

  const { stops, legs, metrics } = dayOf(req, { visits, visitField, firstVisit }, chosen, leg);
  return { stops, legs, metrics, objective, method };
}
