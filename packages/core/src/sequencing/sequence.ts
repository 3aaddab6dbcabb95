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
import { seededRandom } from '../geometry/random.js';

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
  if (!Array.isArray(p) || p.length < 2 || !(Math.abs(p[0]) <= 180) || !(Math.abs(p[1]) <= 90)) {
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
  let best = -1,
    bestCost = Infinity;
  for (let v = 0; v < V; v++) {
    const c = dp[full * V + v] + p.toEnd[v];
    if (c < bestCost) {
      bestCost = c;
      best = v;
    }
  }
  const seq: number[] = [];
  let mask = full,
    v = best;
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
      let best = Infinity,
        back = -1;
      prev.forEach((q, qi) => {
        const c = q.cost + p.between[q.v * V + v];
        if (c < best) {
          best = c;
          back = qi;
        }
      });
      layer.push({ v, cost: best + p.work[v], back });
    }
    layers.push(layer);
    prev = layer;
  }
  let bi = 0,
    bc = Infinity;
  prev.forEach((q, qi) => {
    const c = q.cost + p.toEnd[q.v];
    if (c < bc) {
      bc = c;
      bi = qi;
    }
  });
  const seq: number[] = new Array(order.length);
  for (let k = order.length - 1; k >= 0; k--) {
    const q = layers[k][bi];
    seq[k] = q.v;
    bi = q.back;
  }
  return { seq, cost: bc };
}

/** Objective cost of a field order with the best visit per field (Viterbi, no allocation). */
function orderCost(p: Problem, order: ArrayLike<number>, n: number, a: Float64Array, b: Float64Array): number {
  const { firstVisit, visitCount } = p;
  const V = p.visitField.length;
  let prev = a,
    cur = b;
  let f = order[0];
  let pf = firstVisit[f],
    pc = visitCount[f];
  for (let i = 0; i < pc; i++) prev[i] = p.fromDepot[pf + i] + p.work[pf + i];
  for (let k = 1; k < n; k++) {
    f = order[k];
    const cf = firstVisit[f],
      cc = visitCount[f];
    for (let j = 0; j < cc; j++) {
      const v = cf + j;
      let best = Infinity;
      for (let i = 0; i < pc; i++) {
        const c = prev[i] + p.between[(pf + i) * V + v];
        if (c < best) best = c;
      }
      cur[j] = best + p.work[v];
    }
    const t = prev;
    prev = cur;
    cur = t;
    pf = cf;
    pc = cc;
  }
  let best = Infinity;
  for (let i = 0; i < pc; i++) {
    const c = prev[i] + p.toEnd[pf + i];
    if (c < best) best = c;
  }
  return best;
}

/** The fields in nearest-neighbour order (each the cheapest to reach and work from the last visit), from the depot. */
function nearestNeighbourOrder(p: Problem): number[] {
  const { n, firstVisit, visitCount } = p;
  const V = p.visitField.length;
  const done = new Uint8Array(n);
  const start: number[] = [];
  let lastVisit = -1; // -1: still at the depot
  for (let k = 0; k < n; k++) {
    let bestF = -1,
      bestV = -1,
      bestC = Infinity;
    for (let f = 0; f < n; f++) {
      if (done[f]) continue;
      for (let v = firstVisit[f]; v < firstVisit[f] + visitCount[f]; v++) {
        const c = (lastVisit < 0 ? p.fromDepot[v] : p.between[lastVisit * V + v]) + p.work[v];
        if (c < bestC) {
          bestC = c;
          bestF = f;
          bestV = v;
        }
      }
    }
    done[bestF] = 1;
    start.push(bestF);
    lastVisit = bestV;
  }
  return start;
}

/** `best` kicked into `work`: a double bridge A B C D → A C B D with three random cut points. */
function kicked(best: Int32Array, work: Int32Array, random: () => number): void {
  const n = best.length;
  const cuts = [
    1 + Math.floor(random() * (n - 1)),
    1 + Math.floor(random() * (n - 1)),
    1 + Math.floor(random() * (n - 1)),
  ].sort((x, y) => x - y);
  const [c1, c2, c3] = cuts;
  if (c1 === c2 || c2 === c3) {
    // Degenerate cut: swap two random fields instead.
    work.set(best);
    const x = Math.floor(random() * n),
      y = Math.floor(random() * n);
    const t = work[x];
    work[x] = work[y];
    work[y] = t;
  } else {
    let w = 0;
    for (let k = 0; k < c1; k++) work[w++] = best[k];
    for (let k = c2; k < c3; k++) work[w++] = best[k];
    for (let k = c1; k < c2; k++) work[w++] = best[k];
    for (let k = c3; k < n; k++) work[w++] = best[k];
  }
}

/**
 * Nearest neighbour, then iterated local search: or-opt (move a run of 1-3 fields) and
 * 2-opt (reverse a stretch) to a local optimum, double-bridge kicks from the best order.
 * Bounded by a number of order evaluations that scales inversely with the instance size,
 * and stopped after 100 kicks in a row without improvement. Deterministic (seeded kicks).
 */
function solveHeuristic(p: Problem): number[] {
  const { n, visitCount } = p;
  const V = p.visitField.length;
  const start = nearestNeighbourOrder(p);
  let maxVisits = 1;
  for (let f = 0; f < n; f++) maxVisits = Math.max(maxVisits, visitCount[f]);
  const sa = new Float64Array(maxVisits),
    sb = new Float64Array(maxVisits);
  const cand = new Int32Array(n);
  // Work budget: about 1.5e7 inner steps whatever the size (well under a second here).
  let budget = Math.max(2000, Math.floor(1.5e7 / (n * maxVisits * maxVisits)));
  const evaluate = (order: ArrayLike<number>): number => {
    budget--;
    return orderCost(p, order, n, sa, sb);
  };

  const localSearch = (order: Int32Array, cost: number): number => {
    let improved = true;
    while (improved && budget > 0) {
      improved = false;
      // or-opt: move order[i .. i+len) before position j of the rest.
      for (let len = 1; len <= 3 && len < n; len++) {
        for (let i = 0; i + len <= n && budget > 0; i++) {
          for (let j = 0; j <= n - len && budget > 0; j++) {
            if (j === i) continue;
            // Build: rest = order without the block; insert block at j of rest.
            let w = 0;
            for (let k = 0, r = 0; k < n; k++) {
              if (k >= i && k < i + len) continue;
              if (r === j) for (let b = 0; b < len; b++) cand[w++] = order[i + b];
              cand[w++] = order[k];
              r++;
            }
            if (w < n) for (let b = 0; b < len; b++) cand[w++] = order[i + b];
            const c = evaluate(cand);
            if (c < cost - 1e-9) {
              order.set(cand);
              cost = c;
              improved = true;
            }
          }
        }
      }
      // 2-opt: reverse order[i .. j].
      for (let i = 0; i < n - 1 && budget > 0; i++) {
        for (let j = i + 1; j < n && budget > 0; j++) {
          for (let k = 0; k < n; k++) cand[k] = k < i || k > j ? order[k] : order[i + j - k];
          const c = evaluate(cand);
          if (c < cost - 1e-9) {
            order.set(cand);
            cost = c;
            improved = true;
          }
        }
      }
    }
    return cost;
  };

  const best = Int32Array.from(start);
  let bestCost = localSearch(best, evaluate(best));
  const random = seededRandom(0x5eed ^ (n * 7919 + V));
  const work = new Int32Array(n);
  // Stop after 100 kicks in a row that found nothing better.
  for (let stall = 0; budget > 0 && n >= 4 && stall < 100; stall++) {
    kicked(best, work, random);
    const c = localSearch(work, evaluate(work));
    if (c < bestCost - 1e-9) {
      best.set(work);
      bestCost = c;
      stall = -1;
    }
  }
  return bestVisits(p, Array.from(best)).seq;
}
