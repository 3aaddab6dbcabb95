/**
 * Stage 0: turn a path-plan request (shape A or B, exactly as the API takes it) into one
 * internal, fully defaulted input. Numbers and options are validated here; the boundary's
 * geometry is validated in `geometry/validateBoundary.ts`.
 */
import { PlanError } from '../errors.js';
import type { PlanErrorDetail } from '../errors.js';
import type { FieldGeometry, MachineInput, PathPlanRequest, Position, RouteApiOptions } from '../types.js';
import { readAccessPoints } from './accessPoints.js';

/** Limits that keep every request bounded in time and memory. */
export const LIMITS = {
  maxVertices: 100_000,
  minWidthMeters: 0.5,
  maxWidthMeters: 100,
  maxHeadlandPasses: 20,
  minTurnRadiusMeters: 0.5,
  maxTurnRadiusMeters: 100,
  /** Cap on the number of tracks (field extent ÷ width), checked after projection. */
  maxTracks: 20_000,
} as const;

export const KNOWN_OPTIONS = ['useCrossHatches', 'excludePassable', 'extendTracks'] as const;
export type PlanOptionName = (typeof KNOWN_OPTIONS)[number];

/** The machine with every default filled in. */
export interface ResolvedMachine {
  widthMeters: number;
  turnRadiusMeters: number;
  workingSpeedMetersPerSecond: number;
  turningSpeedMetersPerSecond: number;
  transportSpeedMetersPerSecond: number;
  /** Time a cusp (change between forward and reverse) costs, seconds. */
  cuspStopSeconds: number;
  reverseAllowed: boolean;
  maxCurvatureRatePerSquareMeter?: number;
  workingFuelLitersPerHour?: number;
  turningFuelLitersPerHour?: number;
}

/** One polygon of the field: rings of [lon, lat], the first the shell, the rest holes. */
export type LonLatPolygon = Position[][];

export interface PlanInput {
  /** Polygons of the field in lon/lat (a Polygon gives one). Holes are no-go zones. */
  polygons: LonLatPolygon[];
  /** Request path of each polygon's coordinates, for error messages (e.g. `field.coordinates`). */
  polygonPaths: string[];
  machine: ResolvedMachine;
  headlandPasses: number;
  /** Widen the headland to what the forward turns need (`headland.fitTurns`, default true). */
  fitHeadlandToTurns: boolean;
  /** Preferred bearing, degrees clockwise from north, or undefined for the heading search. */
  preferredHeadingDegrees?: number;
  options: PlanOptionName[];
  routeOptions: RouteApiOptions;
  /**
   * No-go zones smaller than this (largest extent, meters) get no headland rounds: tracks swerve
   * round them (`headland.smallObstacleSizeMeters`; default the working width; 0: every zone gets rounds).
   */
  smallObstacleSizeMeters: number;
  /** Non-passable obstacle polygons from `obstacles`, lon/lat rings (shell only), with buffers. */
  obstacles: { ring: Position[]; bufferMeters: number; passable: boolean; name?: string }[];
  /** The field's gates, [lon, lat] (`accessPoints`; empty when none were given). */
  accessPoints: Position[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fail(code: ConstructorParameters<typeof PlanError>[0], path: string, message: string): never {
  const detail: PlanErrorDetail = { path, message };
  throw new PlanError(code, `${path}: ${message}`, [detail]);
}

function readNumber(
  obj: Record<string, unknown>,
  key: string,
  path: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const v = obj[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v)) fail('invalid-request', `${path}.${key}`, 'must be a finite number');
  if (v < min || v > max) fail('invalid-request', `${path}.${key}`, `must be between ${min} and ${max} (got ${v})`);
  return v;
}

/** Counts positions without walking into anything deeper than a ring; fails fast past the cap. */
function countVertices(geometry: FieldGeometry): number {
  let n = 0;
  const polys: unknown[] = geometry.type === 'Polygon' ? [geometry.coordinates] : (geometry.coordinates as unknown[]);
  for (const poly of polys) {
    if (!Array.isArray(poly)) continue;
    for (const ring of poly) if (Array.isArray(ring)) n += ring.length;
  }
  return n;
}

function readGeometry(req: Record<string, unknown>): { geometry: FieldGeometry; path: string } {
  const key = req.field !== undefined ? 'field' : req.boundary !== undefined ? 'boundary' : undefined;
  if (key === undefined) fail('invalid-request', 'field', 'a field boundary is required (`field` or `boundary`, a GeoJSON Polygon or MultiPolygon)');
  let g = req[key] as unknown;
  // Accept a Feature wrapping the geometry, as GeoJSON files usually hold one.
  if (isObject(g) && g.type === 'Feature' && isObject(g.geometry)) g = g.geometry;
  if (!isObject(g)) fail('invalid-boundary', key, 'must be a GeoJSON Polygon or MultiPolygon object');
  if (g.type !== 'Polygon' && g.type !== 'MultiPolygon') fail('invalid-boundary', `${key}.type`, `must be "Polygon" or "MultiPolygon" (got ${JSON.stringify(g.type)})`);
  if (!Array.isArray(g.coordinates)) fail('invalid-boundary', `${key}.coordinates`, 'must be an array of rings');
  return { geometry: g as unknown as FieldGeometry, path: key };
}

function readMachine(req: Record<string, unknown>): ResolvedMachine {
  const key = req.machine !== undefined ? 'machine' : req.equipment !== undefined ? 'equipment' : undefined;
  if (key === undefined) fail('width-not-positive', 'machine.widthMeters', 'the working width is required (`machine.widthMeters`)');
  const m = req[key];
  if (!isObject(m)) fail('invalid-request', key, 'must be an object');
  const w = m.widthMeters;
  if (typeof w !== 'number' || !Number.isFinite(w)) fail('width-not-positive', `${key}.widthMeters`, 'must be a positive number of meters');
  if (w <= 0) fail('width-not-positive', `${key}.widthMeters`, `must be positive (got ${w})`);
  if (w < LIMITS.minWidthMeters || w > LIMITS.maxWidthMeters)
    fail('invalid-request', `${key}.widthMeters`, `must be between ${LIMITS.minWidthMeters} and ${LIMITS.maxWidthMeters} m (got ${w})`);
  const mi = m as MachineInput & Record<string, unknown>;
  const machine: ResolvedMachine = {
    widthMeters: w,
    turnRadiusMeters: readNumber(mi, 'turnRadiusMeters', key, 6, LIMITS.minTurnRadiusMeters, LIMITS.maxTurnRadiusMeters),
    workingSpeedMetersPerSecond: readNumber(mi, 'workingSpeedMetersPerSecond', key, 2.5, 0.01, 100),
    turningSpeedMetersPerSecond: readNumber(mi, 'turningSpeedMetersPerSecond', key, 1.5, 0.01, 100),
    transportSpeedMetersPerSecond: readNumber(mi, 'transportSpeedMetersPerSecond', key, 4, 0.01, 100),
    cuspStopSeconds: readNumber(mi, 'cuspStopSeconds', key, 3, 0, 600),
    reverseAllowed: mi.reverseAllowed === true,
  };
  if (mi.reverseAllowed !== undefined && typeof mi.reverseAllowed !== 'boolean') fail('invalid-request', `${key}.reverseAllowed`, 'must be a boolean');
  if (mi.maxCurvatureRatePerSquareMeter !== undefined)
    machine.maxCurvatureRatePerSquareMeter = readNumber(mi, 'maxCurvatureRatePerSquareMeter', key, 0, 1e-6, 1e6);
  if (mi.workingFuelLitersPerHour !== undefined) machine.workingFuelLitersPerHour = readNumber(mi, 'workingFuelLitersPerHour', key, 0, 0, 1e4);
  if (mi.turningFuelLitersPerHour !== undefined) machine.turningFuelLitersPerHour = readNumber(mi, 'turningFuelLitersPerHour', key, 0, 0, 1e4);
  return machine;
}

function readFitTurns(req: Record<string, unknown>): boolean {
  const h = req.headland;
  const v = isObject(h) ? h.fitTurns : undefined;
  if (v === undefined) return true;
  if (typeof v !== 'boolean') fail('invalid-request', 'headland.fitTurns', `must be true or false (got ${JSON.stringify(v)})`);
  return v;
}

function readPasses(req: Record<string, unknown>): number {
  let v: unknown;
  let path: string;
  if (req.exteriorHeadlandPasses !== undefined) {
    v = req.exteriorHeadlandPasses;
    path = 'exteriorHeadlandPasses';
  } else {
    const h = req.headland;
    if (h !== undefined && !isObject(h)) fail('invalid-request', 'headland', 'must be an object');
    v = h?.passes;
    path = 'headland.passes';
    if (h?.mode === 'none') return 0;
  }
  if (v === undefined || v === null) return 2;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > LIMITS.maxHeadlandPasses)
    fail('invalid-request', path, `must be an integer from 0 to ${LIMITS.maxHeadlandPasses} (got ${JSON.stringify(v)})`);
  return v;
}

/** `headland.smallObstacleSizeMeters`, default the machine's working width. */
function readSmallObstacleSize(req: Record<string, unknown>, widthMeters: number): number {
  const h = req.headland;
  if (!isObject(h)) return widthMeters;
  return readNumber(h, 'smallObstacleSizeMeters', 'headland', widthMeters, 0, 1000);
}

function readOptions(req: Record<string, unknown>): PlanOptionName[] {
  const v = req.options;
  if (v === undefined || v === null || v === '') return [];
  if (typeof v !== 'string') fail('invalid-option', 'options', 'must be a comma-separated string of option names');
  const out: PlanOptionName[] = [];
  for (const raw of v.split(',')) {
    const name = raw.trim();
    if (name === '') continue;
    if (!(KNOWN_OPTIONS as readonly string[]).includes(name))
      fail('invalid-option', 'options', `unknown option "${name}" (known: ${KNOWN_OPTIONS.join(', ')})`);
    if (!out.includes(name as PlanOptionName)) out.push(name as PlanOptionName);
  }
  return out;
}

const ROUTE_OPTION_KEYS = new Set([
  'startPointNodeIndex', 'endPointNodeIndex', 'algorithm', 'skipCount', 'enableHeadlandDrivethrough', 'headlandsFirst',
  'calculateRefillPoints', 'stagingArea', 'refillStrategyType', 'maxOptimizerTime', 'forcedDirection', 'objective',
]);

function readRouteOptions(req: Record<string, unknown>): RouteApiOptions {
  const v = req.routeOptions;
  if (v === undefined || v === null) return {};
  if (!isObject(v)) fail('invalid-request', 'routeOptions', 'must be an object');
  for (const k of Object.keys(v)) if (!ROUTE_OPTION_KEYS.has(k)) fail('invalid-option', `routeOptions.${k}`, `unknown route option "${k}"`);
  const algos = ['optimized', 'boustrophedon', 'snake', 'spiral', 'clusteredSpiral'];
  if (v.algorithm !== undefined && !algos.includes(v.algorithm as string))
    fail('invalid-option', 'routeOptions.algorithm', `must be one of ${algos.join(', ')}`);
  for (const k of ['startPointNodeIndex', 'endPointNodeIndex', 'skipCount']) {
    const x = v[k];
    if (x !== undefined && (typeof x !== 'number' || !Number.isInteger(x) || x < 0)) fail('invalid-request', `routeOptions.${k}`, 'must be a non-negative integer');
  }
  for (const k of ['enableHeadlandDrivethrough', 'headlandsFirst', 'calculateRefillPoints']) {
    if (v[k] !== undefined && typeof v[k] !== 'boolean') fail('invalid-request', `routeOptions.${k}`, 'must be a boolean');
  }
  if (v.maxOptimizerTime !== undefined && (typeof v.maxOptimizerTime !== 'number' || !(v.maxOptimizerTime >= 0) || v.maxOptimizerTime > 600))
    fail('invalid-request', 'routeOptions.maxOptimizerTime', 'must be a number of seconds from 0 to 600');
  if (v.forcedDirection !== undefined && v.forcedDirection !== 'CW' && v.forcedDirection !== 'CCW')
    fail('invalid-option', 'routeOptions.forcedDirection', 'must be "CW" or "CCW"');
  return { ...(v as RouteApiOptions) };
}

function readHeading(req: Record<string, unknown>): number | undefined {
  const t = req.tracks;
  if (t === undefined || t === null) return undefined;
  if (!isObject(t)) fail('invalid-request', 'tracks', 'must be an object');
  const d = t.preferredDirectionDegrees;
  if (d === undefined || d === null) return undefined;
  if (typeof d !== 'number' || !Number.isFinite(d)) fail('invalid-request', 'tracks.preferredDirectionDegrees', 'must be a finite bearing in degrees');
  return ((d % 360) + 360) % 360;
}

function readObstacles(req: Record<string, unknown>): PlanInput['obstacles'] {
  const v = req.obstacles;
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail('invalid-request', 'obstacles', 'must be an array');
  return v.map((o, i) => {
    const p = `obstacles[${i}]`;
    if (!isObject(o) || !isObject(o.geometry) || o.geometry.type !== 'Polygon' || !Array.isArray(o.geometry.coordinates))
      fail('invalid-request', `${p}.geometry`, 'must be a GeoJSON Polygon');
    const ring = (o.geometry.coordinates as unknown[])[0];
    if (!Array.isArray(ring)) fail('invalid-boundary', `${p}.geometry.coordinates[0]`, 'must be a ring of [lon, lat] positions');
    const bufferMeters = readNumber(o, 'bufferMeters', p, 0, 0, 1000);
    const out: PlanInput['obstacles'][number] = { ring: ring as Position[], bufferMeters, passable: o.passable === true };
    if (typeof o.name === 'string') out.name = o.name;
    return out;
  });
}

/** Shape A or B → one defaulted input. Throws `PlanError` naming the offending request path. */
export function normalizeRequest(request: PathPlanRequest): PlanInput {
  if (!isObject(request)) fail('invalid-request', '', 'the request must be a JSON object');
  const req = request as unknown as Record<string, unknown>;
  const { geometry, path } = readGeometry(req);
  const vertices = countVertices(geometry);
  if (vertices > LIMITS.maxVertices)
    fail('too-many-vertices', `${path}.coordinates`, `has ${vertices} positions; at most ${LIMITS.maxVertices} are accepted (simplify the boundary)`);
  const polygons: LonLatPolygon[] = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const polygonPaths = geometry.type === 'Polygon' ? [`${path}.coordinates`] : polygons.map((_, i) => `${path}.coordinates[${i}]`);
  const machine = readMachine(req);
  const input: PlanInput = {
    polygons,
    polygonPaths,
    machine,
    smallObstacleSizeMeters: readSmallObstacleSize(req, machine.widthMeters),
    headlandPasses: readPasses(req),
    fitHeadlandToTurns: readFitTurns(req),
    options: readOptions(req),
    routeOptions: readRouteOptions(req),
    obstacles: readObstacles(req),
    accessPoints: readAccessPoints(req),
  };
  const heading = readHeading(req);
  if (heading !== undefined) input.preferredHeadingDegrees = heading;
  return input;
}
