/**
 * What a plan becomes at each portal: its boundary and an AB guidance line. Pure functions,
 * so the request bodies can be tested (and shown to operators) without a network.
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
