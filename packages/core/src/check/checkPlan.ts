/**
 * `checkPlan(field, plan)`: the planner's own invariant checker, used by tests and bench.
 * It re-reads the plan from its lon/lat output, in a local frame built from the field, and
 * reports (never throws for a bad plan):
 * - `gap`: consecutive route pieces more than 0.05 m apart;
 * - `curvature`: a turn or connector, or a centre-line pass (a track with
 *   `activeWidthsMeters`), bending tighter than 1/R (+5 %), measured like an independent GEOS
 *   checker on point triples at least 0.4 m apart, split at cusps;
 * - `curvature-rate`: curvature changing faster than the machine's
 *   `maxCurvatureRatePerSquareMeter` (+5 %) along a turn or connector or where it meets the
 *   pieces around it (only when the machine has a rate limit);
 * - `heading-jump`: a kink — a turn / connector that does not leave or join its neighbours
 *   along their heading, or a corner sharper than R inside it (`check/routeKinematics.ts`);
 * - `reverse`: a cusp or a reversed piece where the machine may not reverse;
 * - `outside-boundary` / `inside-no-go`: route geometry more than 0.10 m outside the field
 *   or inside a hole / obstacle (not checked on `staging` / `refill` connectors, which leave the field,
 *   nor on `transport` connectors between the separate parts of a multi-part field);
 * - `sparse-geometry`: turn or connector points more than 0.5 m apart (+ 1 cm);
 * - `metrics`: reported distances or coverage not matching the geometry.
 */
import { circleCurvature } from '../geometry/curvature.js';
import type { FieldGeometry, PathPlanRequest, Plan, RouteSegment } from '../types.js';
import { DEFAULTS, normalizeRequest } from '../request/normalizeRequest.js';
import { prepareField } from '../geometry/prepareField.js';
import type { LocalField } from '../geometry/prepareField.js';
import { Region } from '../geometry/region.js';
import { computeCoverage } from '../geometry/computeCoverage.js';
import type { WorkingPass } from '../geometry/computeCoverage.js';
import { sectionBandSwath } from '../geometry/activeSwath.js';
import type { PathsD } from '../geometry/clipper.js';
import { checkRouteKinematics } from './routeKinematics.js';
import type { RoutePieceXY } from './routeKinematics.js';
import { hypot, polylineLength } from '../geometry/vec.js';

export interface PlanViolation {
  code:
    | 'gap'
    | 'curvature'
    | 'curvature-rate'
    | 'heading-jump'
    | 'reverse'
    | 'outside-boundary'
    | 'inside-no-go'
    | 'sparse-geometry'
    | 'metrics'
    | 'empty-route'
    | 'invalid-field';
  message: string;
  sequence?: number;
  /** [lon, lat] where it happens. */
  position?: [number, number];
}

export interface PlanCheck {
  ok: boolean;
  violations: PlanViolation[];
}

export const CHECK_TOLERANCES = {
  gapMeters: 0.05,
  outsideMeters: 0.1,
  curvatureRatio: 1.05,
  /** Curvature rate allowed over the machine's limit (× limit, + 1e-3 1/m²). */
  curvatureRateRatio: 1.05,
  curvatureSpacingMeters: 0.4,
  maxPointSpacingMeters: 0.51,
  /** Relative tolerance on reported distances. */
  distanceRatio: 0.005,
  /** Absolute tolerance on reported coverage ratios. */
  coverageRatio: 0.002,
} as const;

export type FieldLike = PathPlanRequest | FieldGeometry | { type: 'Feature'; geometry: FieldGeometry };

/** The machine limits to check against: the request's (when it has a machine), else the plan's own. */
function machineLimits(
  field: FieldLike,
  plan: Plan,
): { turnRadiusMeters: number; maxCurvatureRatePerSquareMeter?: number; reverseAllowed: boolean } {
  const f = field as PathPlanRequest;
  let m = (plan.machine ?? {}) as {
    turnRadiusMeters?: number;
    maxCurvatureRatePerSquareMeter?: number;
    reverseAllowed?: boolean;
  };
  if (f.machine || f.equipment) {
    try {
      m = normalizeRequest(f).machine;
    } catch {
      // An invalid request machine: fall back to the plan's.
    }
  }
  const sigma = m.maxCurvatureRatePerSquareMeter;
  return {
    turnRadiusMeters: m.turnRadiusMeters ?? DEFAULTS.turnRadiusMeters,
    ...(typeof sigma === 'number' && sigma > 0 && sigma < Infinity ? { maxCurvatureRatePerSquareMeter: sigma } : {}),
    reverseAllowed: m.reverseAllowed === true,
  };
}

export function localFieldOf(field: FieldLike, plan: Plan): LocalField {
  const f = field as Record<string, unknown>;
  let request: PathPlanRequest;
  if (f.type === 'Polygon' || f.type === 'MultiPolygon') request = { field: field as FieldGeometry };
  else if (f.type === 'Feature') request = { field: (field as { geometry: FieldGeometry }).geometry };
  else request = field as PathPlanRequest;
  const width = (plan.machine as { widthMeters?: number } | undefined)?.widthMeters ?? 1;
  const req: PathPlanRequest = { ...request };
  if (!req.machine && !req.equipment) req.machine = { widthMeters: width };
  return prepareField(normalizeRequest(req));
}

function toLocalXY(lf: LocalField, coords: [number, number][]): Float64Array {
  const out = new Float64Array(coords.length * 2);
  for (let i = 0; i < coords.length; i++) {
    const p = lf.frame.toLocal(coords[i][0], coords[i][1]);
    out[2 * i] = p[0];
    out[2 * i + 1] = p[1];
  }
  return out;
}

/** Pieces of a polyline outside the region, with how far outside they reach and which side. */
function outsideReach(
  region: Region,
  holes: Region | undefined,
  xy: Float64Array,
): { meters: number; inHole: boolean; x: number; y: number } | undefined {
  let worst: { meters: number; inHole: boolean; x: number; y: number } | undefined;
  const consider = (x: number, y: number): void => {
    if (region.contains(x, y)) return;
    const d = region.distanceToEdge(x, y);
    if (d <= CHECK_TOLERANCES.outsideMeters) return;
    const inHole = holes !== undefined && holes.contains(x, y);
    if (!worst || d > worst.meters) worst = { meters: d, inHole, x, y };
  };
  for (let i = 0; i < xy.length; i += 2) consider(xy[i], xy[i + 1]);
  // Edges crossing the boundary: sample them (every 0.25 m) to find how deep they go.
  for (let i = 2; i < xy.length; i += 2) {
    const ax = xy[i - 2],
      ay = xy[i - 1],
      bx = xy[i],
      by = xy[i + 1];
    if (region.segmentClear(ax, ay, bx, by)) continue;
    const l = hypot(bx - ax, by - ay);
    const n = Math.min(4000, Math.ceil(l / 0.25));
    for (let k = 1; k < n; k++) consider(ax + ((bx - ax) * k) / n, ay + ((by - ay) * k) / n);
  }
  return worst;
}

function holesOf(field: PathsD): PathsD {
  const out: PathsD = [];
  for (const r of field) {
    let a2 = 0;
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) a2 += (r[j].x - r[i].x) * (r[j].y + r[i].y);
    if (a2 < 0) out.push([...r].reverse());
  }
  return out;
}

/** A connecting piece's points at most maxPointSpacingMeters apart (its first wider gap reported). */
function checkPointSpacing(seg: RouteSegment, xy: Float64Array, violations: PlanViolation[]): void {
  for (let i = 2; i < xy.length; i += 2) {
    const d = hypot(xy[i] - xy[i - 2], xy[i + 1] - xy[i - 1]);
    if (d > CHECK_TOLERANCES.maxPointSpacingMeters) {
      violations.push({
        code: 'sparse-geometry',
        sequence: seg.sequence,
        message: `${seg.type} ${seg.sequence} has points ${d.toFixed(2)} m apart (at most 0.5 m allowed)`,
        position: seg.coordinates[i / 2] as [number, number],
      });
      break;
    }
  }
}

export function checkPlan(field: FieldLike, plan: Plan): PlanCheck {
  const violations: PlanViolation[] = [];
  let lf: LocalField;
  try {
    lf = localFieldOf(field, plan);
  } catch (e) {
    return {
      ok: false,
      violations: [{ code: 'invalid-field', message: `the field is invalid: ${(e as Error).message}` }],
    };
  }
  const machine = (plan.machine ?? {}) as { widthMeters?: number };
  const limits = machineLimits(field, plan);
  const pieces: RoutePieceXY[] = [];
  const route: RouteSegment[] = [...(plan.route ?? [])].sort((a, b) => a.sequence - b.sequence);
  if (route.length === 0) violations.push({ code: 'empty-route', message: 'the plan has no route' });
  const region = new Region(lf.field);
  const holeRings = [...holesOf(lf.field), ...lf.obstacles];
  const holes = holeRings.length > 0 ? new Region(holeRings) : undefined;
  let working = 0,
    total = 0;
  let prevEnd: Float64Array | undefined;
  const passes: WorkingPass[] = [];
  for (const seg of route) {
    const xy = toLocalXY(lf, seg.coordinates as [number, number][]);
    const l = polylineLength(xy);
    total += l;
    const isWork = seg.type === 'Track' || seg.type === 'ExteriorHeadland' || seg.type === 'InteriorHeadland';
    if (isWork) {
      working += l;
      passes.push(workingPassOf(seg, xy, machine.widthMeters ?? 0));
    }
    if (prevEnd && xy.length >= 2) {
      const gap = hypot(xy[0] - prevEnd[0], xy[1] - prevEnd[1]);
      if (gap > CHECK_TOLERANCES.gapMeters)
        violations.push({
          code: 'gap',
          sequence: seg.sequence,
          message:
            `segment ${seg.sequence} (${seg.type}) starts ${gap.toFixed(3)} m from where segment ` +
            `${seg.sequence - 1} ended`,
          position: seg.coordinates[0] as [number, number],
        });
    }
    if (xy.length >= 2) prevEnd = xy.subarray(xy.length - 2);
    pieces.push({
      sequence: seg.sequence,
      type: seg.type,
      xy,
      ...(typeof seg.connectorKind === 'string' ? { connectorKind: seg.connectorKind } : {}),
      ...(seg.turnType ? { turnType: seg.turnType } : {}),
      ...(seg.reverse ? { reverse: true } : {}),
    });
    // a centre-line pass (its sections along it) is driven as a turn is: no tighter than 1/R
    if (seg.type === 'Track' && Array.isArray(seg.activeWidthsMeters) && xy.length >= 6) {
      const k = maxCurvature(xy, CHECK_TOLERANCES.curvatureSpacingMeters);
      if (k.curvature > (CHECK_TOLERANCES.curvatureRatio * 1) / limits.turnRadiusMeters) {
        const p = lf.frame.toLonLat(k.x, k.y);
        violations.push({
          code: 'curvature',
          sequence: seg.sequence,
          message:
            `centre-line pass ${seg.sequence} bends to a radius of ${(1 / k.curvature).toFixed(2)} m, ` +
            `tighter than ${limits.turnRadiusMeters} m`,
          position: [p[0], p[1]],
        });
      }
    }
    if (!isWork && xy.length >= 6) checkPointSpacing(seg, xy, violations);
    // Legs to and from a staging area (entry / exit, refill detours) leave the field by design.
    const leavesField =
      seg.type === 'Connector' &&
      (seg.connectorKind === 'staging' || seg.connectorKind === 'refill' || seg.connectorKind === 'transport');
    const out = leavesField ? undefined : outsideReach(region, holes, xy);
    if (out) {
      const p = lf.frame.toLonLat(out.x, out.y);
      violations.push({
        code: out.inHole ? 'inside-no-go' : 'outside-boundary',
        sequence: seg.sequence,
        message:
          `${seg.type} ${seg.sequence} goes ${out.meters.toFixed(2)} m ` +
          `${out.inHole ? 'into a no-go zone' : 'outside the boundary'}`,
        position: [p[0], p[1]],
      });
    }
  }
  // Curvature, curvature rate, heading continuity at every junction, reversing (split at cusps).
  for (const v of checkRouteKinematics(pieces, {
    ...limits,
    curvatureTolerance: CHECK_TOLERANCES.curvatureRatio - 1,
    rateTolerance: CHECK_TOLERANCES.curvatureRateRatio - 1,
    minLegMeters: CHECK_TOLERANCES.curvatureSpacingMeters,
    gapMeters: CHECK_TOLERANCES.gapMeters,
  })) {
    const p = lf.frame.toLonLat(v.x, v.y);
    violations.push({ code: v.kind, sequence: v.sequence, message: v.message, position: [p[0], p[1]] });
  }
  if (plan.metrics) checkMetrics(plan.metrics, total, working, computeCoverage(lf.workable, passes), violations);
  return { ok: violations.length === 0, violations };
}

/** The plan's metrics against the route's lengths and the coverage of its working passes. */
function checkMetrics(
  m: NonNullable<Plan['metrics']>,
  total: number,
  working: number,
  cov: ReturnType<typeof computeCoverage>,
  violations: PlanViolation[],
): void {
  const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(1, Math.abs(b));
  if (rel(m.distanceMeters, total) > CHECK_TOLERANCES.distanceRatio)
    violations.push({
      code: 'metrics',
      message: `distanceMeters ${m.distanceMeters} differs from the route's length ${total.toFixed(2)} m`,
    });
  if (rel(m.workingDistanceMeters, working) > CHECK_TOLERANCES.distanceRatio)
    violations.push({
      code: 'metrics',
      message:
        `workingDistanceMeters ${m.workingDistanceMeters} differs from the working passes' length ` +
        `${working.toFixed(2)} m`,
    });
  if (Math.abs(cov.uncoveredRatio - m.uncoveredRatio) > CHECK_TOLERANCES.coverageRatio)
    violations.push({
      code: 'metrics',
      message: `uncoveredRatio ${m.uncoveredRatio} differs from the swaths' ${cov.uncoveredRatio.toFixed(5)}`,
    });
  if (Math.abs(cov.overlapRatio - m.overlapRatio) > CHECK_TOLERANCES.coverageRatio)
    violations.push({
      code: 'metrics',
      message: `overlapRatio ${m.overlapRatio} differs from the swaths' ${cov.overlapRatio.toFixed(5)}`,
    });
}

/** The tightest bend of a polyline, on circles through points at least `spacingMeters` apart, and where. */
function maxCurvature(xy: Float64Array, spacingMeters: number): { curvature: number; x: number; y: number } {
  const px: number[] = [],
    py: number[] = [];
  for (let i = 0; i < xy.length; i += 2) {
    const n = px.length;
    if (n === 0 || hypot(xy[i] - px[n - 1], xy[i + 1] - py[n - 1]) >= spacingMeters) {
      px.push(xy[i]);
      py.push(xy[i + 1]);
    }
  }
  let worst = { curvature: 0, x: xy[0], y: xy[1] };
  for (let i = 1; i + 1 < px.length; i++) {
    const k = circleCurvature(px[i - 1], py[i - 1], px[i], py[i], px[i + 1], py[i + 1]);
    if (k > worst.curvature) worst = { curvature: k, x: px[i], y: py[i] };
  }
  return worst;
}

/**
 * A working piece of the route as its swath is measured: buffered by half its width, or, for a
 * pass with sections (`activeWidthsMeters` and `activeOffsetsMeters` per coordinate), the band of
 * its active sections point by point.
 */
function workingPassOf(seg: RouteSegment, xy: Float64Array, machineWidthMeters: number): WorkingPass {
  const widthMeters = seg.widthMeters ?? machineWidthMeters;
  const swath = sectionBandSwath(xy, seg.activeWidthsMeters, seg.activeOffsetsMeters);
  return swath ? { xy, widthMeters, swath } : { xy, widthMeters };
}

/**
 * Like earcut's `deviation()`: |reported covered area − covered area recomputed from the
 * plan's working passes| ÷ workable area. 0 means the coverage metrics match the geometry.
 */
export function coverageDeviation(field: FieldLike, plan: Plan): number {
  const lf = localFieldOf(field, plan);
  const w = (plan.machine as { widthMeters?: number } | undefined)?.widthMeters ?? 0;
  const passes = [...plan.route]
    .filter((s) => s.type === 'Track' || s.type === 'ExteriorHeadland' || s.type === 'InteriorHeadland')
    .map((s) => workingPassOf(s, toLocalXY(lf, s.coordinates as [number, number][]), w));
  const cov = computeCoverage(lf.workable, passes);
  if (!(cov.workableAreaSquareMeters > 0)) return 0;
  const reportedCovered = plan.metrics.workableAreaSquareMeters * (1 - plan.metrics.uncoveredRatio);
  return Math.abs(reportedCovered - cov.coveredSquareMeters) / cov.workableAreaSquareMeters;
}
