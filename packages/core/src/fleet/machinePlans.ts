/**
 * The fleet's output per machine: its share of the route as a plan of its own (timed segments, metrics
 * measured on its own passes against the whole field, as checkPlan measures them) and its waits.
 */
import type { LocalField } from '../geometry/prepareField.js';
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import type { LocalSegment } from '../turns/path.js';
import { computeMetrics, workingPasses } from '../metrics/computeMetrics.js';
import { computeCoverage } from '../geometry/computeCoverage.js';
import { sectionBandSwath } from '../geometry/activeSwath.js';
import type { PathsD } from '../geometry/clipper.js';
import type { Plan, Position } from '../types.js';
import { FURROW_VERSION } from '../version.js';
import { legLengthMeters } from '../refill/legs.js';
import type { BasePiece } from './baseRoute.js';
import type { Timetable } from './schedule.js';
import type { FleetApproach, FleetMachineInput, FleetMachinePlan, FleetWait, TimedRouteSegment } from './types.js';

export interface MachinePlanInput {
  index: number;
  input: FleetMachineInput;
  machine: ResolvedMachine;
  pieces: BasePiece[];
  timetable: Timetable;
  seconds: number[];
  prepared: LocalField;
  base: Plan;
  ids: string[];
  /** Time to come from the machine's start point to where its route starts (0 with none), seconds. */
  approachSeconds: number;
  /** That way in, local xy, from the start point to the route's first point. */
  approachLeg?: [number, number][];
}

function r2(v: number): number {
  return Math.round(v * 100) / 100;
}

/** The route timed, sequences from 0 (a headland pass cut in parts keeps its parts, each its own `passId`). */
function timedRoute(a: MachinePlanInput): TimedRouteSegment[] {
  const starts = a.timetable.starts[a.index];
  return a.pieces.map((p, j) => ({
    ...p.segment,
    sequence: j,
    lengthMeters: r2(p.lengthMeters),
    startSeconds: r2(starts[j]),
    endSeconds: r2(starts[j] + a.seconds[j]),
    machineId: a.input.id,
    ...(p.passId ? { passId: p.passId } : {}),
  }));
}

/** One machine's plan: route timed by the timetable, metrics of its own passes, waits in lon/lat. */
export function machinePlan(a: MachinePlanInput): FleetMachinePlan {
  const route = timedRoute(a);
  const widths = new Map<LocalSegment, number>();
  const swaths = new Map<LocalSegment, PathsD>();
  const local: LocalSegment[] = a.pieces.map((p) => {
    const s: LocalSegment = { type: p.segment.type, xy: p.xy };
    if (p.segment.turnType) s.turnType = p.segment.turnType;
    if (typeof p.segment.connectorKind === 'string') s.connector = p.segment.connectorKind;
    if (p.segment.reverse) s.reverse = true;
    widths.set(s, p.segment.widthMeters ?? a.machine.widthMeters);
    const swath = sectionSwath(p);
    if (swath) swaths.set(s, swath);
    return s;
  });
  const warnings: { code: string; message: string }[] = [];
  const metrics = computeMetrics(
    local,
    a.prepared.workable,
    a.prepared.fieldAreaSquareMeters,
    a.machine,
    warnings,
    (s) => widths.get(s) ?? a.machine.widthMeters,
    undefined,
    (s) => swaths.get(s),
  );
  const waits: FleetWait[] = a.timetable.waits
    .filter((w) => w.machine === a.index)
    .map((w) => ({
      machineId: a.input.id,
      position: standingPlace(a.pieces, w.beforePiece),
      beforeSequence: w.beforePiece,
      startSeconds: r2(w.startSeconds),
      durationSeconds: r2(w.durationSeconds),
      givesWayTo: a.ids[w.givesWayTo] ?? '',
    }));
  const waitSeconds = waits.reduce((s, w) => s + w.durationSeconds, 0);
  const startSeconds = route.length > 0 ? route[0].startSeconds : 0;
  const finishSeconds = route.length > 0 ? route[route.length - 1].endSeconds : 0;
  metrics.waitSeconds = r2(waitSeconds);
  metrics.startSeconds = startSeconds;
  metrics.finishSeconds = finishSeconds;
  return {
    version: FURROW_VERSION,
    machineId: a.input.id,
    metrics,
    heading: a.base.heading,
    route,
    boundary: a.base.boundary,
    warnings: warnings.map((w) => ({ ...w, feature: 'route' })),
    machine: { ...a.machine, id: a.input.id },
    waits,
    startSeconds,
    finishSeconds,
    ...(a.input.startPoint ? { approachSeconds: r2(a.approachSeconds) } : {}),
    ...(a.approachLeg ? { approach: approachOf(a, a.approachLeg) } : {}),
  };
}

/** The way in as the plan carries it: lon/lat, its length, driven from 0 to the approach's time. */
function approachOf(a: MachinePlanInput, leg: [number, number][]): FleetApproach {
  const frame = a.prepared.frame;
  return {
    coordinates: leg.map(([x, y]) => frame.toLonLat(x, y)),
    lengthMeters: r2(legLengthMeters(leg)),
    startSeconds: 0,
    endSeconds: r2(a.approachSeconds),
  };
}

/** A centre-line pass's swath: the band of its active sections point by point (as the single plan measures it). */
function sectionSwath(p: BasePiece): PathsD | undefined {
  return sectionBandSwath(p.xy, p.segment.activeWidthsMeters, p.segment.activeOffsetsMeters);
}

/** Where a machine stands before piece j: where piece j starts (its entry point before its first piece). */
function standingPlace(pieces: BasePiece[], j: number): Position {
  const c = pieces[j]?.segment.coordinates;
  return c && c.length > 0 ? [c[0][0], c[0][1]] : [0, 0];
}

/**
 * The share of the workable area none of the machines' passes covers, measured on all of them together (as the
 * machines' metrics measure each): for passes of different plannings, which may overlap.
 */
export function unionUncoveredRatio(
  prepared: LocalField,
  pieces: readonly BasePiece[][],
  machines: readonly ResolvedMachine[],
): number {
  const widths = new Map<LocalSegment, number>();
  const swaths = new Map<LocalSegment, PathsD>();
  const local: LocalSegment[] = [];
  pieces.forEach((ps, i) => {
    for (const p of ps) {
      if (!p.working) continue;
      const s: LocalSegment = { type: p.segment.type, xy: p.xy };
      widths.set(s, p.segment.widthMeters ?? machines[i].widthMeters);
      const swath = sectionSwath(p);
      if (swath) swaths.set(s, swath);
      local.push(s);
    }
  });
  const passes = workingPasses(
    local,
    (s) => widths.get(s) ?? 0,
    (s) => swaths.get(s),
  );
  return Math.round(computeCoverage(prepared.workable, passes).uncoveredRatio * 1e6) / 1e6;
}
