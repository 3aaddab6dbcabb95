/**
 * What a plan becomes at each portal: its boundary and a guidance line (AB from its first straight
 * working track; where it has none, its guidance line or else its outermost headland pass as a
 * curve). Pure functions, so the request bodies can be tested (and shown to operators) without a network.
 */
import type { FieldGeometry, Plan, Position } from '@furrow/core';
import { PortalError, type PortalName } from './errors.js';

/** The plan's guidance line: A and B of its first straight working track, and the heading. */
export interface AbLine {
  a: Position;
  b: Position;
  headingDegrees: number;
}

/** Initial great-circle bearing from a to b, degrees clockwise from north in [0, 360). */
export function bearingDegrees(a: Position, b: Position): number {
  const r = Math.PI / 180;
  const y = Math.sin((b[0] - a[0]) * r) * Math.cos(b[1] * r);
  const x =
    Math.cos(a[1] * r) * Math.sin(b[1] * r) - Math.sin(a[1] * r) * Math.cos(b[1] * r) * Math.cos((b[0] - a[0]) * r);
  const d = (Math.atan2(y, x) / r + 360) % 360;
  return d;
}

/** The AB line of a plan: its first Track segment (start → end). */
export function abLineOf(plan: Plan, portal: PortalName): AbLine {
  const track = plan.route.find((s) => s.type === 'Track' && s.coordinates.length >= 2);
  if (!track)
    throw new PortalError(
      portal,
      'portal-bad-plan',
      `${portal}: the plan has no working track to make an AB guidance line from`,
    );
  const a = track.coordinates[0];
  const b = track.coordinates[track.coordinates.length - 1];
  if (a[0] === b[0] && a[1] === b[1])
    throw new PortalError(portal, 'portal-bad-plan', `${portal}: the plan's first track has zero length`);
  return { a, b, headingDegrees: bearingDegrees(a, b) };
}

/** A curve guidance line: the points in driving order, and where it comes from. */
export interface CurveLine {
  points: Position[];
  source: 'guidance-line' | 'headland-pass';
}

/** The guidance line a push sends: an AB line, or a curve. */
export type PushedGuidance = { kind: 'ab'; line: AbLine } | { kind: 'curve'; curve: CurveLine };

/** Shortest curve the displays take (a John Deere AB Curve must be at least 3 m long), meters. */
export const MIN_CURVE_LENGTH_METERS = 3;

function lengthMeters(points: readonly Position[]): number {
  const r = Math.PI / 180;
  let sum = 0;
  for (let i = 1; i < points.length; i++) {
    const [x1, y1] = points[i - 1];
    const [x2, y2] = points[i];
    const a =
      Math.sin(((y2 - y1) * r) / 2) ** 2 + Math.cos(y1 * r) * Math.cos(y2 * r) * Math.sin(((x2 - x1) * r) / 2) ** 2;
    sum += 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
  }
  return sum;
}

/**
 * The plan's first guidance line with a geometry (plan.guidanceLines), as an AB line or a curve;
 * with `abOnly` its first AB line.
 */
function planGuidanceLine(plan: Plan, abOnly = false): PushedGuidance | undefined {
  const lines = Array.isArray(plan.guidanceLines) ? (plan.guidanceLines as Record<string, unknown>[]) : [];
  for (const l of lines) {
    if (abOnly && l?.type !== 'AB') continue;
    const g = l?.geometry as { type?: unknown; coordinates?: unknown } | undefined;
    if (g?.type !== 'LineString' || !Array.isArray(g.coordinates) || g.coordinates.length < 2) continue;
    const points = g.coordinates as Position[];
    const a = points[0];
    const b = points[points.length - 1];
    if (l.type === 'AB' && (a[0] !== b[0] || a[1] !== b[1]))
      return { kind: 'ab', line: { a, b, headingDegrees: bearingDegrees(a, b) } };
    if (lengthMeters(points) >= MIN_CURVE_LENGTH_METERS)
      return { kind: 'curve', curve: { points, source: 'guidance-line' } };
  }
  return undefined;
}

/** The outermost exterior headland pass of the route (lowest pass index, then the first driven). */
function outermostHeadlandPass(plan: Plan): CurveLine | undefined {
  const rings = Array.isArray(plan.headlands) ? (plan.headlands as { passIndex?: unknown }[]) : [];
  const passIndexOf = (i: unknown): number =>
    typeof i === 'number' && typeof rings[i]?.passIndex === 'number' ? (rings[i].passIndex as number) : Infinity;
  let best: { points: Position[]; pass: number } | undefined;
  for (const s of [...plan.route].sort((x, y) => x.sequence - y.sequence)) {
    if (s.type !== 'ExteriorHeadland' || lengthMeters(s.coordinates) < MIN_CURVE_LENGTH_METERS) continue;
    const pass = passIndexOf(s.headlandIndex);
    if (!best || pass < best.pass) best = { points: s.coordinates, pass };
  }
  return best && { points: best.points, source: 'headland-pass' };
}

/**
 * The guidance line to push: the AB line of the first straight working track; where the plan has
 * no working track, its guidance line (AB or curve), or else its outermost headland pass as a curve.
 * `curves: false` (a portal that takes AB lines only) turns a curve into a 422 saying what to do.
 */
export function guidanceOf(plan: Plan, portal: PortalName, o: { curves?: boolean } = {}): PushedGuidance {
  if (plan.route.some((s) => s.type === 'Track' && s.coordinates.length >= 2))
    return { kind: 'ab', line: abLineOf(plan, portal) };
  const found =
    (o.curves === false ? planGuidanceLine(plan, true) : undefined) ?? planGuidanceLine(plan) ?? headlandCurve(plan);
  if (!found)
    throw new PortalError(
      portal,
      'portal-bad-plan',
      `${portal}: the plan has no working track, guidance line or headland pass to make a guidance line from`,
    );
  if (found.kind === 'curve' && o.curves === false)
    throw new PortalError(
      portal,
      'portal-bad-plan',
      `${portal}: the plan has no straight working track (it is driven in headland passes only) and this ` +
        `portal is configured for AB lines only (guidanceCurves: false): set guidanceCurves to true if the ` +
        `account takes curves, plan the field with tracks (fewer headland passes, a narrower machine or a ` +
        `smaller turning radius), or take the curve to the display as a file (furrow plan -f isoxml, ` +
        `johndeere, trimble or agopengps)`,
    );
  return found;
}

function headlandCurve(plan: Plan): PushedGuidance | undefined {
  const curve = outermostHeadlandPass(plan);
  return curve && { kind: 'curve', curve };
}

function polygonsOf(g: FieldGeometry): Position[][][] {
  return g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
}

function closed(ring: Position[]): Position[] {
  if (ring.length === 0) return ring;
  const f = ring[0],
    l = ring[ring.length - 1];
  return f[0] === l[0] && f[1] === l[1] ? ring : [...ring, f];
}

// ----- John Deere Operations Center -----

export interface DeereBoundaryOptions {
  name: string;
  /** Make this the field's active boundary (default true). */
  active?: boolean;
  /** dtSignalType value (default dtiSignalTypeRTK). */
  signalType?: string;
}

/** Body of POST /organizations/{orgId}/fields/{fieldId}/boundaries. Holes are interior, not passable. */
export function deereBoundaryBody(boundary: FieldGeometry, o: DeereBoundaryOptions): Record<string, unknown> {
  return {
    '@type': 'Boundary',
    name: o.name,
    sourceType: 'External',
    multipolygons: polygonsOf(boundary).map((poly) => ({
      '@type': 'Polygon',
      rings: poly.map((ring, i) => ({
        '@type': 'Ring',
        points: closed(ring).map((p) => ({ '@type': 'Point', lat: p[1], lon: p[0] })),
        type: i === 0 ? 'exterior' : 'interior',
        passable: false,
      })),
    })),
    active: o.active ?? true,
    archived: false,
    irrigated: false,
    signalType: o.signalType ?? 'dtiSignalTypeRTK',
  };
}

/** Body of POST /organizations/{orgId}/fields/{fieldId}/guidanceLines (AB lines only, per the API). */
export function deereAbLineBody(line: AbLine, o: { name: string; fieldUri: string }): Record<string, unknown> {
  const zero = (vrDomainId: string): Record<string, unknown> => ({
    '@type': 'MeasurementAsDouble',
    valueAsDouble: 0,
    vrDomainId,
    unit: 'cm',
  });
  return {
    '@type': 'ABLine',
    name: o.name,
    archived: false,
    aPoint: { '@type': 'Point', lat: line.a[1], lon: line.a[0] },
    bPoint: { '@type': 'Point', lat: line.b[1], lon: line.b[0] },
    eastShift: zero('vrEastShiftComponent'),
    northShift: zero('vrNorthShiftComponent'),
    tramOffset: 0,
    tramSpacing: 0,
    fieldUri: o.fieldUri,
  };
}

/**
 * Body of POST /organizations/{orgId}/fields/{fieldId}/guidanceLines for a curve: an `ABCurve`
 * with A and B at its ends and its points in driving order (the AB Curve of Deere's displays;
 * the member names follow the ABLine body and ADAPT's AbCurve, not a published create sample).
 */
export function deereCurveBody(curve: CurveLine, o: { name: string; fieldUri: string }): Record<string, unknown> {
  const point = (p: Position): Record<string, unknown> => ({ '@type': 'Point', lat: p[1], lon: p[0] });
  const ab = deereAbLineBody({ a: curve.points[0], b: curve.points[curve.points.length - 1], headingDegrees: 0 }, o);
  return { ...ab, '@type': 'ABCurve', points: curve.points.map(point) };
}

/** The Deere body of the guidance line to push. */
export function deereGuidanceBody(g: PushedGuidance, o: { name: string; fieldUri: string }): Record<string, unknown> {
  return g.kind === 'ab' ? deereAbLineBody(g.line, o) : deereCurveBody(g.curve, o);
}

export type DeereWorkType = 'dtiTillage' | 'dtiSeeding' | 'dtiApplication' | 'dtiHarvest';

/** Body of POST /organizations/{orgId}/workPlans that points the display at the pushed guidance line. */
export function deereWorkPlanBody(o: {
  fieldUri: string;
  guidanceLineUri: string;
  workType: DeereWorkType;
  year: number;
  instructions?: string;
  workOrder?: string;
}): Record<string, unknown> {
  const workType = { representationDomainId: 'dtOperationClass', instanceDomainId: o.workType };
  const body: Record<string, unknown> = {
    location: { fieldUri: o.fieldUri },
    workType,
    year: o.year,
    operations: [{ operationType: workType, operationInputs: [] }],
    guidanceSettings: {
      preferenceSettings: {
        includeLatestFieldOperation: 'NONE',
        preferenceMode: 'USER_SELECTED',
        entityType: 'GUIDANCE_LINE',
        entityUri: o.guidanceLineUri,
      },
      includeGuidance: [{ entityType: 'GUIDANCE_LINE', entityUri: o.guidanceLineUri }],
    },
  };
  if (o.instructions) body.instructions = o.instructions.slice(0, 255);
  if (o.workOrder) body.workOrder = o.workOrder.slice(0, 255);
  return body;
}

// ----- Trimble Agriculture (Ag Data API 3.0) -----

/** Body of POST /resources/{orgId}/boundaries: the field id and a GeoJSON geometry. */
export function trimbleBoundaryBody(
  boundary: FieldGeometry,
  o: { fieldId: string; name: string },
): Record<string, unknown> {
  const polys = polygonsOf(boundary).map((poly) => poly.map(closed));
  const geometry =
    polys.length === 1 ? { type: 'Polygon', coordinates: polys[0] } : { type: 'MultiPolygon', coordinates: polys };
  return { fieldID: o.fieldId, name: o.name, geometry };
}

/** Body of POST /resources/{orgId}/guidancelines for a curve: `type: Curve`, the points as a GeoJSON LineString. */
export function trimbleCurveBody(curve: CurveLine, o: { fieldId: string; name: string }): Record<string, unknown> {
  return {
    fieldId: o.fieldId,
    name: o.name,
    type: 'Curve',
    infillId: null,
    geometry: { type: 'LineString', coordinates: curve.points },
    numberOfSwaths: null,
  };
}

/** The Trimble body of the guidance line to push. */
export function trimbleGuidanceBody(g: PushedGuidance, o: { fieldId: string; name: string }): Record<string, unknown> {
  return g.kind === 'ab' ? trimbleAbLineBody(g.line, o) : trimbleCurveBody(g.curve, o);
}

/** Body of POST /resources/{orgId}/guidancelines: an AB line as a GeoJSON LineString. */
export function trimbleAbLineBody(line: AbLine, o: { fieldId: string; name: string }): Record<string, unknown> {
  return {
    fieldId: o.fieldId,
    name: o.name,
    type: 'AB',
    infillId: null,
    geometry: { type: 'LineString', coordinates: [line.a, line.b] },
    numberOfSwaths: null,
  };
}
