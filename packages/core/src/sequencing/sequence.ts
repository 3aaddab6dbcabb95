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
    throw new PlanError('invalid-request', 'the plan has no route to enter or leave', [{ path: 'plan.route', message: 'empty' }]);
  }
  const last = route[route.length - 1];
  const first = route[0].coordinates[0];
  const end = last.coordinates[last.coordinates.length - 1];
  const m = plan.metrics;
  const fuel = typeof m.fuelLiters === 'number' ? m.fuelLiters : undefined;
  const base = { workTimeSeconds: m.timeSeconds, workDistanceMeters: m.distanceMeters, ...(fuel !== undefined ? { workFuelLiters: fuel } : {}) };
  return [
    { entry: first, exit: end, ...base, reversed: false, label: 'as planned' },
    { entry: end, exit: first, ...base, reversed: true, label: 'reversed' },
  ];
}

function checkPosition(p: unknown, path: string): asserts p is Position {
  if (!Array.isArray(p) || p.length < 2 || !(Math.abs(p[0]) <= 180) || !(Math.abs(p[1]) <= 90)) {
    throw new PlanError('invalid-request', `${path} must be [longitude, latitude]`, [{ path, message: 'must be [lon, lat]' }]);
  }
}

function validate(req: SequencingRequest): void {
  checkPosition(req.depot, 'depot');
  if (req.end !== undefined) checkPosition(req.end, 'end');
  if (!Array.isArray(req.fields) || req.fields.length === 0) {
    throw new PlanError('invalid-request', 'fields must list at least one field', [{ path: 'fields', message: 'empty' }]);
  }
  if (req.fields.length > 500) throw new PlanError('invalid-request', `at most 500 fields per day (got ${req.fields.length})`, [{ path: 'fields', message: 'too many' }]);
  const ids = new Set<string>();
  req.fields.forEach((f, i) => {
    if (typeof f.id !== 'string' || f.id.length === 0) throw new PlanError('invalid-request', `fields[${i}].id must be a non-empty string`, [{ path: `fields[${i}].id`, message: 'required' }]);
    if (ids.has(f.id)) throw new PlanError('invalid-request', `fields[${i}].id "${f.id}" is used twice`, [{ path: `fields[${i}].id`, message: 'duplicate' }]);
    ids.add(f.id);
    if (!Array.isArray(f.visits) || f.visits.length === 0 || f.visits.length > 16) {
      throw new PlanError('invalid-request', `fields[${i}].visits must hold 1 to 16 ways to work the field`, [{ path: `fields[${i}].visits`, message: '1 to 16 visits' }]);
    }
    f.visits.forEach((v, j) => {
      checkPosition(v.entry, `fields[${i}].visits[${j}].entry`);
      checkPosition(v.exit, `fields[${i}].visits[${j}].exit`);
      for (const k of ['workTimeSeconds', 'workDistanceMeters'] as const) {
        if (typeof v[k] !== 'number' || !(v[k] >= 0) || !Number.isFinite(v[k])) {
          throw new PlanError('invalid-request', `fields[${i}].visits[${j}].${k} must be a number ≥ 0`, [{ path: `fields[${i}].visits[${j}].${k}`, message: 'must be ≥ 0' }]);
        }
      }
    });
  });
  const objective = req.objective ?? 'time';
  if (objective !== 'time' && objective !== 'distance' && objective !== 'fuel') {
    throw new PlanError('invalid-option', `objective "${String(objective)}" is not time, distance or fuel`, [{ path: 'objective', message: 'unknown objective' }]);
  }
  if (objective === 'fuel' && !(typeof req.transportFuelLitersPerHour === 'number' && req.transportFuelLitersPerHour >= 0)) {
    throw new PlanError('invalid-option', 'the fuel objective needs transportFuelLitersPerHour', [{ path: 'transportFuelLitersPerHour', message: 'required for objective fuel' }]);
  }
}

/** Costs precomputed once: legs between every visit's exit and every other visit's entry. */
interface Problem {
  n: number;
  /** Flat visit list: field of each visit and its offset. */
  visitField: number[];
  firstVisit: number[];
  visitCount: number[];
  /** cost / distance / time of depot → entry(v), exit(v) → end, exit(u) → entry(v). */
  fromDepot: Float64Array;
  toEnd: Float64Array;
  between: Float64Array; // V × V
  work: Float64Array; // objective cost of working visit v
}

export function sequenceFields(req: SequencingRequest): DaySequence {
  validate(req);
  const objective: SequencingObjective = req.objective ?? 'time';
  const speed = req.transportSpeedMetersPerSecond ?? 4;
  const transport = transportModel(req.transport, speed);
  const fuelRate = req.transportFuelLitersPerHour;
  const end = req.end ?? req.depot;
  const fields = req.fields;
  const n = fields.length;
  const visitField: number[] = [], firstVisit: number[] = [], visitCount: number[] = [];
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
    objective === 'distance' ? l.distanceMeters : objective === 'time' ? l.timeSeconds : (l.timeSeconds * (fuelRate ?? 0)) / 3600;
  const fromDepot = new Float64Array(V), toEnd = new Float64Array(V), between = new Float64Array(V * V), work = new Float64Array(V);
  for (let v = 0; v < V; v++) {
    const f = fields[visitField[v]];
    fromDepot[v] = costOf(leg(req.depot, visits[v].entry, 'the depot', `field "${f.id}" entry`));
    toEnd[v] = costOf(leg(visits[v].exit, end, `field "${f.id}" exit`, 'the end of the day'));
    const vv = visits[v];
    work[v] = objective === 'distance' ? vv.workDistanceMeters : objective === 'time' ? vv.workTimeSeconds : vv.workFuelLiters ?? 0;
    for (let u = 0; u < V; u++) {
      if (visitField[u] === visitField[v]) {
        between[u * V + v] = Infinity;
        continue;
      }
      between[u * V + v] = costOf(leg(visits[u].exit, visits[v].entry, `field "${fields[visitField[u]].id}" exit`, `field "${f.id}" entry`));
    }
  }
  const p: Problem = { n, visitField, firstVisit, visitCount, fromDepot, toEnd, between, work };
  const exactMax = Math.min(14, req.exactMaxFields ?? 12);
  const method: 'exact' | 'heuristic' = n <= exactMax ? 'exact' : 'heuristic';
  const chosen = method === 'exact' ? solveExact(p) : solveHeuristic(p);

  // Build stops, legs and metrics from the chosen (field, visit) sequence.
  const stops: SequencedStop[] = [];
  const legs: TransportLeg[] = [];
  let t = 0, transportDistance = 0, transportTime = 0, workDistance = 0, workTime = 0, workFuel = 0, workFuelKnown = true;
  let prevPos = req.depot, prevLabel = 'depot';
  for (const v of chosen) {
    const f = fields[visitField[v]];
    const vis = visits[v];
    const l = leg(prevPos, vis.entry, prevLabel, f.id);
    legs.push({ from: prevLabel, to: f.id, fromPosition: prevPos, toPosition: vis.entry, distanceMeters: l.distanceMeters, timeSeconds: l.timeSeconds });
    transportDistance += l.distanceMeters;
    transportTime += l.timeSeconds;
    t += l.timeSeconds;
    const arrive = t;
    t += vis.workTimeSeconds;
    workDistance += vis.workDistanceMeters;
    workTime += vis.workTimeSeconds;
    if (vis.workFuelLiters === undefined) workFuelKnown = false;
    else workFuel += vis.workFuelLiters;
    stops.push({ fieldId: f.id, visitIndex: v - firstVisit[visitField[v]], visit: vis, arriveSeconds: arrive, leaveSeconds: t });
    prevPos = vis.exit;
    prevLabel = f.id;
  }
  const back = leg(prevPos, end, prevLabel, 'end');
  legs.push({ from: prevLabel, to: req.end ? 'end' : 'depot', fromPosition: prevPos, toPosition: end, distanceMeters: back.distanceMeters, timeSeconds: back.timeSeconds });
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
  return { stops, legs, metrics, objective, method };
}

/** Held-Karp over (set of fields done, last visit). */
function solveExact(p: Problem): number[] {
  const { n, visitField, firstVisit, visitCount } = p;
  const V = visitField.length;
  const full = (1 << n) - 1;
  const dp = new Float64Array((full + 1) * V).fill(Infinity);
  const parent = new Int32Array((full + 1) * V).fill(-1);
  for (let v = 0; v < V; v++) dp[(1 << visitField[v]) * V + v] = p.fromDepot[v] + p.work[v];
  for (let mask = 1; mask <= full; mask++) {
    for (let u = 0; u < V; u++) {
      const cu = dp[mask * V + u];
      if (cu === Infinity) continue;
      for (let f = 0; f < n; f++) {
        if (mask & (1 << f)) continue;
        const next = mask | (1 << f);
        for (let v = firstVisit[f]; v < firstVisit[f] + visitCount[f]; v++) {
          const c = cu + p.between[u * V + v] + p.work[v];
          if (c < dp[next * V + v]) {
            dp[next * V + v] = c;
            parent[next * V + v] = u;
          }
        }
      }
    }
  }
  let best = -1, bestCost = Infinity;
  for (let v = 0; v < V; v++) {
    const c = dp[full * V + v] + p.toEnd[v];
    if (c < bestCost) { bestCost = c; best = v; }
  }
  const seq: number[] = [];
  let mask = full, v = best;
  while (v >= 0) {
    seq.push(v);
    const u = parent[mask * V + v];
    mask &= ~(1 << visitField[v]);
    v = u;
  }
  return seq.reverse();
}

/** Best visit per field for a fixed field order (Viterbi over visits). */
function bestVisits(p: Problem, order: number[]): { seq: number[]; cost: number } {
  const { firstVisit, visitCount } = p;
  const V = p.visitField.length;
  let prev: { v: number; cost: number; back: number }[] = [];
  const layers: { v: number; cost: number; back: number }[][] = [];
  for (let k = 0; k < order.length; k++) {
    const f = order[k];
    const layer: { v: number; cost: number; back: number }[] = [];
    for (let v = firstVisit[f]; v < firstVisit[f] + visitCount[f]; v++) {
      if (k === 0) {
        layer.push({ v, cost: p.fromDepot[v] + p.work[v], back: -1 });
        continue;
      }
      let best = Infinity, back = -1;
      prev.forEach((q, qi) => {
        const c = q.cost + p.between[q.v * V + v];
        if (c < best) { best = c; back = qi; }
      });
      layer.push({ v, cost: best + p.work[v], back });
    }
    layers.push(layer);
    prev = layer;
  }
  let bi = 0, bc = Infinity;
  prev.forEach((q, qi) => {
    const c = q.cost + p.toEnd[q.v];
    if (c < bc) { bc = c; bi = qi; }
  });
  const seq: number[] = new Array(order.length);
  for (let k = order.length - 1; k >= 0; k--) {
    const q = layers[k][bi];
    seq[k] = q.v;
    bi = q.back;
  }
  return { seq, cost: bc };
}

function solveHeuristic(p: Problem): number[] {
  const { n, firstVisit, visitCount } = p;
  const V = p.visitField.length;
  // Nearest neighbour on the cheapest visit of each remaining field.
  const done = new Uint8Array(n);
  const order: number[] = [];
  let lastVisit = -1; // -1: still at the depot
  for (let k = 0; k < n; k++) {
    let bestF = -1, bestV = -1, bestC = Infinity;
    for (let f = 0; f < n; f++) {
      if (done[f]) continue;
      for (let v = firstVisit[f]; v < firstVisit[f] + visitCount[f]; v++) {
        const c = (lastVisit < 0 ? p.fromDepot[v] : p.between[lastVisit * V + v]) + p.work[v];
        if (c < bestC) { bestC = c; bestF = f; bestV = v; }
      }
    }
    done[bestF] = 1;
    order.push(bestF);
    lastVisit = bestV;
  }
  let current = bestVisits(p, order);
  // 2-opt (reverse a stretch) and relocation (move one field), first improvement, bounded passes.
  let improved = true;
  for (let pass = 0; improved && pass < 50; pass++) {
    improved = false;
    for (let i = 0; i < n - 1 && !improved; i++) {
      for (let j = i + 1; j < n && !improved; j++) {
        const cand = order.slice(0, i).concat(order.slice(i, j + 1).reverse(), order.slice(j + 1));
        const r = bestVisits(p, cand);
        if (r.cost < current.cost - 1e-9) {
          order.splice(0, n, ...cand);
          current = r;
          improved = true;
        }
      }
    }
    for (let i = 0; i < n && !improved; i++) {
      for (let j = 0; j < n && !improved; j++) {
        if (i === j) continue;
        const cand = order.slice();
        const [f] = cand.splice(i, 1);
        cand.splice(j, 0, f);
        const r = bestVisits(p, cand);
        if (r.cost < current.cost - 1e-9) {
          order.splice(0, n, ...cand);
          current = r;
          improved = true;
        }
      }
    }
  }
  return current.seq;
}
