/**
 * The field of a normalised request in the local metric frame: the boundary's polygons validated
 * and projected, request obstacles (buffered) cut out. Used by the planner and, independently,
 * by `checkPlan` to judge a plan against the same field.
 */
import { PlanError } from '../errors.js';
import type { Position } from '../types.js';
import type { PlanSettings } from '../request/normalizeRequest.js';
import { LIMITS } from '../request/normalizeRequest.js';
import { createLocalFrame } from './projection.js';
import type { LocalFrame } from './projection.js';
import { validatePolygon } from './validateBoundary.js';
import { areaOf, differencePolygons, offsetPolygons, unionPolygons } from './clipper.js';
import type { PathsD } from './clipper.js';
import { hypot } from './vec.js';

/** The field in the local frame, ready for planning. */
export interface LocalField {
  frame: LocalFrame;
  /** Field polygons: shells counter-clockwise, holes clockwise. */
  field: PathsD;
  /** Field minus non-passable obstacles. */
  workable: PathsD;
  /** Obstacle polygons (local) given in the request. */
  obstacles: PathsD;
  /** Area of the field itself (boundary minus its holes, before request obstacles), m². */
  fieldAreaSquareMeters: number;
}

/** Validates and projects the field of a normalised input. */
export function prepareField(input: PlanSettings): LocalField {
  const all: Position[] = [];
  for (const poly of input.polygons)
    if (Array.isArray(poly) && Array.isArray(poly[0]))
      for (const p of poly[0]) if (Array.isArray(p)) all.push(p as Position);
  const frame = createLocalFrame(all.filter((p) => Number.isFinite(p[0]) && Number.isFinite(p[1])));
  const rings: PathsD = [];
  input.polygons.forEach((poly, i) => {
    for (const r of validatePolygon(poly, input.polygonPaths[i], frame)) rings.push(r);
  });
  const field = input.polygons.length > 1 ? unionPolygons(rings) : rings;
  const obstacles: PathsD = [];
  input.obstacles.forEach((o, i) => {
    if (o.passable && !input.options.includes('excludePassable')) return;
    const local = validatePolygon([o.ring], `obstacles[${i}].geometry.coordinates`, frame);
    const buffered = o.bufferMeters > 0 ? offsetPolygons(local, o.bufferMeters) : local;
    for (const r of buffered) obstacles.push(r);
  });
  const workable = obstacles.length > 0 ? differencePolygons(field, obstacles) : field;
  return { frame, field: workable, workable, obstacles, fieldAreaSquareMeters: areaOf(field) };
}

/**
 * Throws `PlanError` when the field cannot be planned for a machine of this width: no area left
 * after the obstacles, or more tracks across than `LIMITS.maxTracks` (the field's extent ÷ width
 * bounds the work).
 */
export function assertPlannable(field: PathsD, widthMeters: number): void {
  if (!(areaOf(field) > 0))
    throw new PlanError('no-workable-area', 'the field has no area left to work after removing obstacles', [
      { path: 'field', message: 'no workable area' },
    ]);
  let minX = Infinity,
    maxX = -Infinity,
    minY = Infinity,
    maxY = -Infinity;
  for (const r of field)
    for (const p of r) {
      if (p.x < minX) minX = p.x;
      if (p.x > maxX) maxX = p.x;
      if (p.y < minY) minY = p.y;
      if (p.y > maxY) maxY = p.y;
    }
  const extent = hypot(maxX - minX, maxY - minY);
  if (extent / widthMeters > LIMITS.maxTracks)
    throw new PlanError(
      'invalid-request',
      `the field is ${Math.round(extent)} m across: at ${widthMeters} m width that is more than ` +
        `${LIMITS.maxTracks} tracks; use a wider machine or split the field`,
      [{ path: 'machine.widthMeters', message: 'too many tracks' }],
    );
}
