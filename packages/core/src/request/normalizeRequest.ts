/**
 * The request stage: a path-plan request (shape A or B, exactly as the API takes it) → one set of
 * fully resolved settings (`PlanSettings`): every default applied from `DEFAULTS`, every number
 * checked against `LIMITS`, options and route options validated. The boundary's geometry is
 * validated in `geometry/validateBoundary.ts`.
 */
import { PlanError } from '../errors.js';
import type { PlanErrorDetail } from '../errors.js';
import type {
  FieldGeometry,
  MachineInput,
  PathPlanRequest,
  Position,
  RefillStrategyType,
  RouteAlgorithm,
  RouteApiOptions,
  RouteObjective,
  SmoothingStrategyType,
} from '../types.js';
import { readAccessPoints } from './accessPoints.js';
import { readTrackReference, type TrackReference } from './trackReference.js';

export { LIMITS, DEFAULTS } from './limits.js';
import { LIMITS, DEFAULTS } from './limits.js';

/** Lines skipped between consecutive passes by default: as many as a forward U of radius R needs (0 when w ≥ 2R). */
export function defaultSkipCount(widthMeters: number, turnRadiusMeters: number): number {
  return Math.max(0, Math.ceil((2 * turnRadiusMeters) / widthMeters - 1e-9) - 1);
}

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
  /**
   * The boom's sections, left to right, m (machine.sections equal ones, or
   * machine.sectionWidthsMeters); they add up to widthMeters. Absent: sections of any width.
   */
  sectionWidthsMeters?: number[];
}

/** One polygon of the field: rings of [lon, lat], the first the shell, the rest holes. */
export type LonLatPolygon = Position[][];

/**
 * Headland style: full perimeter, only where the tracks end, or none; corners rounded or square (absent = the offset's
 * own).
 */
export interface HeadlandStyle {
  mode: 'full' | 'turnOnly' | 'none';
  corners?: 'rounded' | 'square';
}

/** routeOptions with every default applied. */
export interface ResolvedRouteOptions {
  algorithm: RouteAlgorithm;
  /** Lines skipped between consecutive passes (`defaultSkipCount` when not given). */
  skipCount: number;
  startPointNodeIndex?: number;
  endPointNodeIndex?: number;
  headlandsFirst: boolean;
  enableHeadlandDrivethrough: boolean;
  calculateRefillPoints: boolean;
  /** [lon, lat] WGS84 (checked where it is projected). */
  stagingArea?: Position;
  refillStrategyType: RefillStrategyType;
  /** Limit on the ordering's time (honoured with a clock), seconds. */
  maxOptimizerTimeSeconds: number;
  forcedDirection?: 'CW' | 'CCW';
  objective: RouteObjective;
}

/** The request, fully resolved: what every planner stage reads. */
export interface PlanSettings {
  /** Polygons of the field in lon/lat (a Polygon gives one). Holes are no-go zones. */
  polygons: LonLatPolygon[];
  /** Request path of each polygon's coordinates, for error messages (e.g. `field.coordinates`). */
  polygonPaths: string[];
  machine: ResolvedMachine;
  headlandPasses: number;
  headland: HeadlandStyle;
  trackType: 'straight' | 'curved';
  /** Widen the headland to what the forward turns need (`headland.fitTurns`, default true). */
  fitHeadlandToTurns: boolean;
  /** Preferred bearing, degrees clockwise from north, or undefined for the heading search. */
  preferredHeadingDegrees?: number;
  /** `tracks.referenceLine`: the straight tracks on its lane grid (request/trackReference.ts). */
  trackReference?: TrackReference;
  smoothingStrategy?: SmoothingStrategyType;
  options: PlanOptionName[];
  routeOptions: ResolvedRouteOptions;
  /** routeOptions as the request gave them (the plan echoes them). */
  requestedRouteOptions: RouteApiOptions;
  /**
   * No-go zones smaller than this (largest extent, meters) get no headland rounds: tracks swerve
   * round them (`headland.smallObstacleSizeMeters`; default the working width; 0: every zone gets rounds).
   */
  smallObstacleSizeMeters: number;
  /** Obstacle polygons from `obstacles`, lon/lat rings (shell only), with buffers. */
  obstacles: { ring: Position[]; bufferMeters: number; passable: boolean; name?: string }[];
  /** The field's gates, [lon, lat] (`accessPoints`; empty when none were given). */
  accessPoints: Position[];
  /** The machine's capacity model, present exactly when `routeOptions.calculateRefillPoints` is set. */
  refillCapacity?: RefillCapacity;
}

/** What one tank holds (liters, or kilograms for a hopper) and what a hectare takes (the same unit). */
export interface RefillCapacity {
  tankCapacity: number;
  applicationRatePerHectare: number;
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
  if (typeof v !== 'number' || !Number.isFinite(v))
    fail('invalid-request', `${path}.${key}`, 'must be a finite number');
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
  if (key === undefined)
    fail(
      'invalid-request',
      'field',
      'a field boundary is required (`field` or `boundary`, a GeoJSON Polygon or MultiPolygon)',
    );
  let g = req[key] as unknown;
  // Accept a Feature wrapping the geometry, as GeoJSON files usually hold one.
  if (isObject(g) && g.type === 'Feature' && isObject(g.geometry)) g = g.geometry;
  if (!isObject(g)) fail('invalid-boundary', key, 'must be a GeoJSON Polygon or MultiPolygon object');
  if (g.type !== 'Polygon' && g.type !== 'MultiPolygon')
    fail('invalid-boundary', `${key}.type`, `must be "Polygon" or "MultiPolygon" (got ${JSON.stringify(g.type)})`);
  if (!Array.isArray(g.coordinates)) fail('invalid-boundary', `${key}.coordinates`, 'must be an array of rings');
  return { geometry: g as unknown as FieldGeometry, path: key };
}

function readMachine(req: Record<string, unknown>): ResolvedMachine {
  const key = req.machine !== undefined ? 'machine' : req.equipment !== undefined ? 'equipment' : undefined;
  if (key === undefined)
    fail('width-not-positive', 'machine.widthMeters', 'the working width is required (`machine.widthMeters`)');
  const m = req[key];
  if (!isObject(m)) fail('invalid-request', key, 'must be an object');
  const w = m.widthMeters;
  if (typeof w !== 'number' || !Number.isFinite(w))
    fail('width-not-positive', `${key}.widthMeters`, 'must be a positive number of meters');
  if (w <= 0) fail('width-not-positive', `${key}.widthMeters`, `must be positive (got ${w})`);
  if (w < LIMITS.minWidthMeters || w > LIMITS.maxWidthMeters)
    fail(
      'invalid-request',
      `${key}.widthMeters`,
      `must be between ${LIMITS.minWidthMeters} and ${LIMITS.maxWidthMeters} m (got ${w})`,
    );
  const mi = m as MachineInput & Record<string, unknown>;
  const machine: ResolvedMachine = {
    widthMeters: w,
    turnRadiusMeters: readNumber(
      mi,
      'turnRadiusMeters',
      key,
      DEFAULTS.turnRadiusMeters,
      LIMITS.minTurnRadiusMeters,
      LIMITS.maxTurnRadiusMeters,
    ),
    workingSpeedMetersPerSecond: readNumber(
      mi,
      'workingSpeedMetersPerSecond',
      key,
      DEFAULTS.workingSpeedMetersPerSecond,
      LIMITS.minSpeedMetersPerSecond,
      LIMITS.maxSpeedMetersPerSecond,
    ),
    turningSpeedMetersPerSecond: readNumber(
      mi,
      'turningSpeedMetersPerSecond',
      key,
      DEFAULTS.turningSpeedMetersPerSecond,
      LIMITS.minSpeedMetersPerSecond,
      LIMITS.maxSpeedMetersPerSecond,
    ),
    transportSpeedMetersPerSecond: readNumber(
      mi,
      'transportSpeedMetersPerSecond',
      key,
      DEFAULTS.transportSpeedMetersPerSecond,
      LIMITS.minSpeedMetersPerSecond,
      LIMITS.maxSpeedMetersPerSecond,
    ),
    cuspStopSeconds: readNumber(
      mi,
      'cuspStopSeconds',
      key,
      DEFAULTS.cuspStopSeconds,
      LIMITS.minCuspStopSeconds,
      LIMITS.maxCuspStopSeconds,
    ),
    reverseAllowed: mi.reverseAllowed === undefined ? DEFAULTS.reverseAllowed : mi.reverseAllowed === true,
  };
  if (mi.reverseAllowed !== undefined && typeof mi.reverseAllowed !== 'boolean')
    fail('invalid-request', `${key}.reverseAllowed`, 'must be a boolean');
  if (mi.maxCurvatureRatePerSquareMeter !== undefined)
    machine.maxCurvatureRatePerSquareMeter = readNumber(
      mi,
      'maxCurvatureRatePerSquareMeter',
      key,
      0,
      LIMITS.minCurvatureRatePerSquareMeter,
      LIMITS.maxCurvatureRatePerSquareMeter,
    );
  const sections = readSections(mi, key, w);
  if (sections) machine.sectionWidthsMeters = sections;
  if (mi.workingFuelLitersPerHour !== undefined)
    machine.workingFuelLitersPerHour = readNumber(
      mi,
      'workingFuelLitersPerHour',
      key,
      0,
      LIMITS.minFuelLitersPerHour,
      LIMITS.maxFuelLitersPerHour,
    );
  if (mi.turningFuelLitersPerHour !== undefined)
    machine.turningFuelLitersPerHour = readNumber(
      mi,
      'turningFuelLitersPerHour',
      key,
      0,
      LIMITS.minFuelLitersPerHour,
      LIMITS.maxFuelLitersPerHour,
    );
  return machine;
}

/** Most sections a boom may have. */
export const MAX_SECTIONS = 256;
/** Section widths may miss the working width by this much, m. */
const SECTION_SUM_TOLERANCE_METERS = 0.01;

/**
 * machine.sections (a positive integer: equal sections) and machine.sectionWidthsMeters (positive
 * widths adding up to the working width; as many as `sections` when both are given), as widths.
 */
function readSections(mi: Record<string, unknown>, key: string, widthMeters: number): number[] | undefined {
  const n = mi.sections,
    ws = mi.sectionWidthsMeters;
  if (n !== undefined && (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_SECTIONS))
    fail('invalid-sections', `${key}.sections`, `must be a whole number from 1 to ${MAX_SECTIONS} (got ${String(n)})`);
  if (ws === undefined) return n === undefined ? undefined : Array.from({ length: n }, () => widthMeters / n);
  if (!Array.isArray(ws) || ws.length < 1 || ws.length > MAX_SECTIONS)
    fail('invalid-sections', `${key}.sectionWidthsMeters`, `must be a list of 1 to ${MAX_SECTIONS} widths`);
  ws.forEach((v, i) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)
      fail('invalid-sections', `${key}.sectionWidthsMeters[${i}]`, 'must be a positive number of meters');
  });
  const widths = ws as number[];
  if (n !== undefined && widths.length !== n)
    fail(
      'invalid-sections',
      `${key}.sectionWidthsMeters`,
      `must list ${n} widths, one per section (got ${widths.length})`,
    );
  const sum = widths.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - widthMeters) > SECTION_SUM_TOLERANCE_METERS)
    fail(
      'invalid-sections',
      `${key}.sectionWidthsMeters`,
      `must add up to the working width ${widthMeters} m (they add up to ${Math.round(sum * 1000) / 1000} m)`,
    );
  return [...widths];
}

/** The capacity model of the request's machine (or equipment), which refill points need: both figures positive. */
function readRefillCapacity(req: Record<string, unknown>): RefillCapacity {
  const path = req.machine !== undefined ? 'machine' : 'equipment';
  const m = req[path] as Record<string, unknown>;
  const check = (key: keyof RefillCapacity): number => {
    const v = m[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
      throw new PlanError(
        'invalid-option',
        `${path}.${key}: routeOptions.calculateRefillPoints needs a positive ${key} (tank in liters or kilograms, ` +
          `rate in the same unit per hectare)`,
        [{ path: `${path}.${key}`, message: 'must be a positive number when calculateRefillPoints is set' }],
      );
    }
    return v;
  };
  return { tankCapacity: check('tankCapacity'), applicationRatePerHectare: check('applicationRatePerHectare') };
}

function readFitTurns(req: Record<string, unknown>): boolean {
  const h = req.headland;
  const v = isObject(h) ? h.fitTurns : undefined;
  if (v === undefined) return DEFAULTS.fitHeadlandToTurns;
  if (typeof v !== 'boolean')
    fail('invalid-request', 'headland.fitTurns', `must be true or false (got ${JSON.stringify(v)})`);
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
  if (v === undefined || v === null) return DEFAULTS.headlandPasses;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < LIMITS.minHeadlandPasses || v > LIMITS.maxHeadlandPasses)
    fail(
      'invalid-request',
      path,
      `must be an integer from ${LIMITS.minHeadlandPasses} to ${LIMITS.maxHeadlandPasses} (got ${JSON.stringify(v)})`,
    );
  return v;
}

/** `headland.smallObstacleSizeMeters`, default the machine's working width. */
function readSmallObstacleSize(req: Record<string, unknown>, widthMeters: number): number {
  const h = req.headland;
  if (!isObject(h)) return widthMeters;
  return readNumber(
    h,
    'smallObstacleSizeMeters',
    'headland',
    widthMeters,
    LIMITS.minSmallObstacleSizeMeters,
    LIMITS.maxSmallObstacleSizeMeters,
  );
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
  'startPointNodeIndex',
  'endPointNodeIndex',
  'algorithm',
  'skipCount',
  'enableHeadlandDrivethrough',
  'headlandsFirst',
  'calculateRefillPoints',
  'stagingArea',
  'refillStrategyType',
  'maxOptimizerTime',
  'forcedDirection',
  'objective',
]);

const ROUTE_ALGORITHMS: readonly RouteAlgorithm[] = [
  'optimized',
  'boustrophedon',
  'snake',
  'spiral',
  'clusteredSpiral',
];
const REFILL_STRATEGIES: readonly RefillStrategyType[] = ['Exact', 'StartOfTrack', 'ClosestExternalHeadland'];

/** routeOptions as given, validated (not defaulted: the plan echoes them). */
function readRouteOptions(req: Record<string, unknown>): RouteApiOptions {
  const v = req.routeOptions;
  if (v === undefined || v === null) return {};
  if (!isObject(v)) fail('invalid-request', 'routeOptions', 'must be an object');
  for (const k of Object.keys(v))
    if (!ROUTE_OPTION_KEYS.has(k)) fail('invalid-option', `routeOptions.${k}`, `unknown route option "${k}"`);
  if (v.algorithm !== undefined && !ROUTE_ALGORITHMS.includes(v.algorithm as RouteAlgorithm))
    fail('invalid-option', 'routeOptions.algorithm', `must be one of ${ROUTE_ALGORITHMS.join(', ')}`);
  for (const k of ['startPointNodeIndex', 'endPointNodeIndex', 'skipCount']) {
    const x = v[k],
      max = k === 'skipCount' ? LIMITS.maxSkipCount : LIMITS.maxNodeIndex;
    if (x !== undefined && (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > max))
      fail('invalid-request', `routeOptions.${k}`, `must be an integer from 0 to ${max}`);
  }
  for (const k of ['enableHeadlandDrivethrough', 'headlandsFirst', 'calculateRefillPoints']) {
    if (v[k] !== undefined && typeof v[k] !== 'boolean')
      fail('invalid-request', `routeOptions.${k}`, 'must be a boolean');
  }
  if (
    v.maxOptimizerTime !== undefined &&
    (typeof v.maxOptimizerTime !== 'number' ||
      !(v.maxOptimizerTime >= LIMITS.minOptimizerTimeSeconds) ||
      v.maxOptimizerTime > LIMITS.maxOptimizerTimeSeconds)
  )
    fail(
      'invalid-request',
      'routeOptions.maxOptimizerTime',
      `must be a number of seconds from ${LIMITS.minOptimizerTimeSeconds} to ${LIMITS.maxOptimizerTimeSeconds}`,
    );
  if (v.refillStrategyType !== undefined && !REFILL_STRATEGIES.includes(v.refillStrategyType as RefillStrategyType))
    fail('invalid-option', 'routeOptions.refillStrategyType', `must be one of ${REFILL_STRATEGIES.join(', ')}`);
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
  if (typeof d !== 'number' || !Number.isFinite(d))
    fail('invalid-request', 'tracks.preferredDirectionDegrees', 'must be a finite bearing in degrees');
  if (Math.abs(d) > LIMITS.maxHeadingDegrees)
    fail(
      'invalid-request',
      'tracks.preferredDirectionDegrees',
      `must be from -${LIMITS.maxHeadingDegrees} to ${LIMITS.maxHeadingDegrees} degrees (got ${d})`,
    );
  return ((d % 360) + 360) % 360;
}

function readObstacles(req: Record<string, unknown>): PlanSettings['obstacles'] {
  const v = req.obstacles;
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail('invalid-request', 'obstacles', 'must be an array');
  if (v.length > LIMITS.maxObstacles)
    fail('invalid-request', 'obstacles', `has ${v.length} zones; at most ${LIMITS.maxObstacles} are accepted`);
  return v.map((o, i) => {
    const p = `obstacles[${i}]`;
    if (
      !isObject(o) ||
      !isObject(o.geometry) ||
      o.geometry.type !== 'Polygon' ||
      !Array.isArray(o.geometry.coordinates)
    )
      fail('invalid-request', `${p}.geometry`, 'must be a GeoJSON Polygon');
    const ring = (o.geometry.coordinates as unknown[])[0];
    if (!Array.isArray(ring))
      fail('invalid-boundary', `${p}.geometry.coordinates[0]`, 'must be a ring of [lon, lat] positions');
    const bufferMeters = readNumber(
      o,
      'bufferMeters',
      p,
      DEFAULTS.obstacleBufferMeters,
      LIMITS.minObstacleBufferMeters,
      LIMITS.maxObstacleBufferMeters,
    );
    const out: PlanSettings['obstacles'][number] = {
      ring: ring as Position[],
      bufferMeters,
      passable: o.passable === true,
    };
    if (typeof o.name === 'string') out.name = o.name;
    return out;
  });
}

/**
 * routeOptions.maxOptimizerTime, seconds, defaulted (`DEFAULTS`): also what bounds a plan's run time in the HTTP API.
 */
export function maxOptimizerTimeSeconds(ro: RouteApiOptions | undefined): number {
  return ro?.maxOptimizerTime ?? DEFAULTS.maxOptimizerTimeSeconds;
}

/** routeOptions (validated) with every default applied; `widthMeters` and `turnRadiusMeters` give the default skip. */
export function resolveRouteOptions(
  ro: RouteApiOptions,
  widthMeters: number,
  turnRadiusMeters: number,
): ResolvedRouteOptions {
  return {
    algorithm: ro.algorithm ?? DEFAULTS.algorithm,
    skipCount: ro.skipCount ?? defaultSkipCount(widthMeters, turnRadiusMeters),
    ...(ro.startPointNodeIndex !== undefined ? { startPointNodeIndex: ro.startPointNodeIndex } : {}),
    ...(ro.endPointNodeIndex !== undefined ? { endPointNodeIndex: ro.endPointNodeIndex } : {}),
    headlandsFirst: ro.headlandsFirst === true,
    enableHeadlandDrivethrough: ro.enableHeadlandDrivethrough === true,
    calculateRefillPoints: ro.calculateRefillPoints === true,
    ...(ro.stagingArea !== undefined ? { stagingArea: ro.stagingArea } : {}),
    refillStrategyType: ro.refillStrategyType ?? DEFAULTS.refillStrategyType,
    maxOptimizerTimeSeconds: maxOptimizerTimeSeconds(ro),
    ...(ro.forcedDirection ? { forcedDirection: ro.forcedDirection } : {}),
    objective: ro.objective ?? DEFAULTS.objective,
  };
}

function readHeadlandStyle(req: Record<string, unknown>): HeadlandStyle {
  const h = req.headland as { mode?: unknown; corners?: unknown } | undefined;
  const mode = h?.mode ?? DEFAULTS.headlandMode;
  if (mode !== 'full' && mode !== 'turnOnly' && mode !== 'none')
    throw new PlanError(
      'invalid-request',
      `headland.mode must be "full", "turnOnly" or "none" (got ${JSON.stringify(mode)})`,
      [{ path: 'headland.mode', message: 'unknown headland mode' }],
    );
  const corners = h?.corners;
  if (corners !== undefined && corners !== 'rounded' && corners !== 'square')
    throw new PlanError(
      'invalid-request',
      `headland.corners must be "rounded" or "square" (got ${JSON.stringify(corners)})`,
      [{ path: 'headland.corners', message: 'unknown corner style' }],
    );
  return corners ? { mode, corners } : { mode };
}

/** Shape A or B → fully resolved settings. Throws `PlanError` naming the offending request path. */
export function normalizeRequest(request: PathPlanRequest): PlanSettings {
  if (!isObject(request)) fail('invalid-request', '', 'the request must be a JSON object');
  const req = request as unknown as Record<string, unknown>;
  const { geometry, path } = readGeometry(req);
  const vertices = countVertices(geometry);
  if (vertices > LIMITS.maxVertices)
    fail(
      'too-many-vertices',
      `${path}.coordinates`,
      `has ${vertices} positions; at most ${LIMITS.maxVertices} are accepted (simplify the boundary)`,
    );
  const polygons: LonLatPolygon[] = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const polygonPaths =
    geometry.type === 'Polygon' ? [`${path}.coordinates`] : polygons.map((_, i) => `${path}.coordinates[${i}]`);
  const machine = readMachine(req);
  const smallObstacleSizeMeters = readSmallObstacleSize(req, machine.widthMeters);
  const headlandPasses = readPasses(req);
  const options = readOptions(req);
  const requestedRouteOptions = readRouteOptions(req);
  const settings: PlanSettings = {
    polygons,
    polygonPaths,
    machine,
    smallObstacleSizeMeters,
    headlandPasses,
    headland: readHeadlandStyle(req),
    trackType:
      (req.tracks as { trackType?: unknown } | undefined)?.trackType === 'curved' ? 'curved' : DEFAULTS.trackType,
    fitHeadlandToTurns: readFitTurns(req),
    options,
    routeOptions: resolveRouteOptions(requestedRouteOptions, machine.widthMeters, machine.turnRadiusMeters),
    requestedRouteOptions,
    obstacles: readObstacles(req),
    accessPoints: readAccessPoints(req),
  };
  const heading = readHeading(req);
  if (heading !== undefined) settings.preferredHeadingDegrees = heading;
  const reference = readTrackReference(req);
  if (reference) settings.trackReference = reference;
  const smoothing = (request as PathPlanRequest).smoothingStrategy;
  if (smoothing) settings.smoothingStrategy = smoothing;
  if (settings.routeOptions.calculateRefillPoints) settings.refillCapacity = readRefillCapacity(req);
  return settings;
}
