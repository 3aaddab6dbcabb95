/**
 * The last step of `planRoute`: no silent undrivable plan, no silent compromise.
 *
 * - Every `checkPlan` violation of the finished plan has a warning that names it: a warning of a
 *   code that means that kind of fault (`VIOLATION_CODES`) on the same route piece (its `sequence`,
 *   or its geometry within NAMED_WITHIN_METERS of the piece). A violation no warning names gets one
 *   (`violationWarning`): the code that fits, the violation's kind and message, its piece and place.
 * - Every exterior headland pass asked (and every one the plan says it widened to) is driven in each
 *   part of the field, or warned: a `headland-pass-skipped` warning in that part names it, or the
 *   part gets one listing the passes not driven (`missingPassWarnings`).
 *
 * Nothing here changes the route: it reads the plan as a caller would (lon/lat), so what it reports
 * is what `checkPlan` reports to anyone.
 */
import type { PathPlanRequest, Plan, PlanWarning, Position, RouteSegment } from '../types.js';
import { checkPlan } from '../check/checkPlan.js';
import type { PlanViolation } from '../check/checkPlan.js';
import { normalizeRequest } from '../request/normalizeRequest.js';

type ViolationCode = PlanViolation['code'];

/** The warning codes that name each kind of violation (the first is the one given when none does). */
export const VIOLATION_CODES: Record<ViolationCode, readonly string[]> = {
  curvature: ['turn-not-fitted'],
  'curvature-rate': ['turn-not-fitted'],
  'heading-jump': ['turn-not-fitted'],
  reverse: ['turn-not-fitted'],
  gap: ['turn-not-fitted'],
  'sparse-geometry': ['turn-not-fitted'],
  'outside-boundary': ['route-leaves-field', 'connector-leaves-field', 'transit-leg'],
  'inside-no-go': ['route-leaves-field', 'connector-leaves-field', 'transit-leg'],
  metrics: ['plan-check-failed', 'coverage-approximate'],
  'empty-route': ['plan-check-failed'],
  'invalid-field': ['plan-check-failed'],
};

/** A warning this close to a violation's route piece (or on its sequence) is about that piece. */
export const NAMED_WITHIN_METERS = 1;

const METERS_PER_DEGREE = 111_320;

/** Adds the warnings the plan lacks (see the module comment); returns the same plan. */
export function addViolationWarnings(request: PathPlanRequest, plan: Plan): Plan {
  const bySequence = new Map<number, RouteSegment>();
  for (const s of plan.route) bySequence.set(s.sequence, s);
  // The violations no warning names, grouped by the warning they get: one per route piece and code.
  const unnamed = new Map<string, { code: string; piece: RouteSegment | undefined; violations: PlanViolation[] }>();
  for (const v of checkPlan(request, plan).violations) {
    const piece = v.sequence !== undefined ? bySequence.get(v.sequence) : undefined;
    if (plan.warnings.some((w) => names(w, v, piece))) continue;
    const code = VIOLATION_CODES[v.code][0];
    const key = `${code} ${v.sequence ?? ''}`;
    const group = unnamed.get(key) ?? { code, piece, violations: [] };
    group.violations.push(v);
    unnamed.set(key, group);
  }
  const added = [...unnamed.values()].map((g) => violationWarning(g.code, g.violations, g.piece));
  added.push(...missingPassWarnings(request, plan));
  plan.warnings.push(...added);
  return plan;
}

/** Whether warning `w` names violation `v` (on route piece `piece`). */
function names(w: PlanWarning, v: PlanViolation, piece: RouteSegment | undefined): boolean {
  if (!VIOLATION_CODES[v.code].includes(w.code)) return false;
  if (v.sequence === undefined) return true;
  if (w.sequence !== undefined) return w.sequence === v.sequence;
  if (!piece || !w.geometry) return false;
  const coordinates = w.geometry.coordinates as Position | Position[];
  const points: Position[] = w.geometry.type === 'Point' ? [coordinates as Position] : (coordinates as Position[]);
  return points.some((p) => Array.isArray(p) && distanceToLineMeters(p, piece.coordinates) <= NAMED_WITHIN_METERS);
}

function violationWarning(code: string, violations: PlanViolation[], piece: RouteSegment | undefined): PlanWarning {
  const where = piece ? ` on ${piece.type} ${piece.sequence}` : '';
  const found = violations.map((v) => `${v.code} (${v.message})`).join('; ');
  const w: PlanWarning = {
    code,
    message:
      `checkPlan finds${where}: ${found}; ` +
      (code === 'plan-check-failed'
        ? 'the plan does not match its own geometry there'
        : 'the machine cannot drive the route as planned there'),
  };
  const at = violations.find((v) => v.position)?.position;
  if (at) w.geometry = { type: 'Point', coordinates: at };
  if (piece) w.sequence = piece.sequence;
  if (!w.geometry && w.sequence === undefined) w.feature = 'field';
  return w;
}

/**
 * Exterior headland passes asked (or widened to) and not driven, per part of the field: one
 * `headland-pass-skipped` warning per part, unless one of that code already lies in the part.
 */
function missingPassWarnings(request: PathPlanRequest, plan: Plan): PlanWarning[] {
  const asked = askedPasses(request, plan);
  if (asked === 0) return [];
  const headlands = (plan.headlands ?? []) as { type?: string; passIndex?: number }[];
  const parts = outerRings(plan.boundary);
  const driven = parts.map(() => new Set<number>());
  for (const s of plan.route) {
    if (s.type !== 'ExteriorHeadland' || s.headlandIndex === undefined) continue;
    const passIndex = headlands[s.headlandIndex]?.passIndex;
    const at = s.coordinates[0] as Position | undefined;
    if (passIndex === undefined || !at) continue;
    const k = parts.findIndex((ring) => inRing(at, ring));
    driven[k >= 0 ? k : 0]?.add(passIndex);
  }
  const generated = parts.map(() => new Set<number>());
  for (const h of headlands) {
    const at = (h as { coordinates?: Position[] }).coordinates?.[0];
    const k = at ? parts.findIndex((ring) => inRing(at, ring)) : -1;
    if (h.type === 'ExteriorHeadland' && h.passIndex !== undefined && k >= 0) generated[k].add(h.passIndex);
  }
  const out: PlanWarning[] = [];
  parts.forEach((ring, k) => {
    const missing: number[] = [];
    for (let i = 1; i <= asked; i++) if (!driven[k].has(i)) missing.push(i);
    if (missing.length === 0) return;
    const named = plan.warnings.some(
      (w) =>
        w.code === 'headland-pass-skipped' &&
        w.geometry?.type === 'Point' &&
        inRing(w.geometry.coordinates as Position, ring),
    );
    if (named) return;
    const noRoom = missing.filter((i) => !generated[k].has(i));
    const leftOut = missing.filter((i) => generated[k].has(i));
    const list = (l: number[]): string => `${l.length > 1 ? 'passes' : 'pass'} ${l.join(', ')}`;
    const why = [
      ...(noRoom.length > 0 ? [`${list(noRoom)}: no room inside the passes before (the field is too narrow)`] : []),
      ...(leftOut.length > 0 ? [`${list(leftOut)}: left out of the route`] : []),
    ].join('; ');
    out.push({
      code: 'headland-pass-skipped',
      message:
        `headland ${list(missing)} of the ${asked} asked not driven` +
        (parts.length > 1 ? ` in part ${k} of the field` : '') +
        ` (${why}); that ground is worked by tracks or counts as unworked`,
      geometry: { type: 'Point', coordinates: ring[0] },
      feature: 'headland',
    });
  });
  return out;
}

/** Full-perimeter passes the plan should drive round each part: as asked, or as many as it widened to. */
function askedPasses(request: PathPlanRequest, plan: Plan): number {
  let settings;
  try {
    settings = normalizeRequest(request);
  } catch {
    return 0;
  }
  if (settings.headland.mode !== 'full') return 0;
  const planned = typeof plan.headlandPasses === 'number' ? plan.headlandPasses : 0;
  return Math.max(settings.headlandPasses, planned);
}

function outerRings(boundary: Plan['boundary']): Position[][] {
  if (!boundary) return [];
  return boundary.type === 'Polygon' ? [boundary.coordinates[0]] : boundary.coordinates.map((p) => p[0]);
}

function inRing([x, y]: Position, ring: readonly Position[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i],
      [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Distance from a lon/lat point to a lon/lat polyline, meters (equirectangular round the point:
 * exact enough at a metre).
 */
function distanceToLineMeters([lon, lat]: Position, line: readonly Position[]): number {
  const kx = METERS_PER_DEGREE * Math.cos((lat * Math.PI) / 180),
    ky = METERS_PER_DEGREE;
  let best = Infinity;
  for (let i = 0; i < line.length; i++) {
    const ax = (line[i][0] - lon) * kx,
      ay = (line[i][1] - lat) * ky;
    if (i === 0 || line.length === 1) {
      best = Math.min(best, Math.hypot(ax, ay));
      continue;
    }
    const bx = (line[i - 1][0] - lon) * kx,
      by = (line[i - 1][1] - lat) * ky;
    const dx = ax - bx,
      dy = ay - by;
    const l2 = dx * dx + dy * dy;
    const t = l2 > 0 ? Math.max(0, Math.min(1, -(bx * dx + by * dy) / l2)) : 0;
    best = Math.min(best, Math.hypot(bx + t * dx, by + t * dy));
  }
  return best;
}
