/**
 * `planRoute(request) → Plan`: the whole pipeline, synchronous, pure and deterministic.
 *
 *   normalizeRequest → validate + project (toLocal) → generateHeadlands → searchHeading →
 *   generateTracks → orderTracks → connectTracks → computeCoverage → Plan (fromLocal)
 */
import { PlanError } from './errors.js';
import type { Plan, PlanMetrics, PlanWarning, Position, RouteSegment, PathPlanRequest, FieldGeometry } from './types.js';
import { FURROW_VERSION } from './version.js';
import { normalizeRequest, LIMITS } from './request/normalizeRequest.js';
import type { PlanInput } from './request/normalizeRequest.js';
import { createLocalFrame, flatToLonLat, roundDeg } from './geometry/projection.js';
import type { LocalFrame } from './geometry/projection.js';
import { validatePolygon } from './geometry/validateBoundary.js';
import { areaOf, groupPolygons, differencePolygons, offsetPolygons, ringToFlat, unionPolygons } from './geometry/clipper.js';
import type { PathsD } from './geometry/clipper.js';
import { Region } from './geometry/region.js';
import { polylineLength, hypot } from './geometry/vec.js';
import { generateHeadlands } from './headland/generateHeadlands.js';
import type { HeadlandPass } from './headland/generateHeadlands.js';
import { passToFlat } from './headland/generateHeadlands.js';
import { generateTurnOnlyHeadlands } from './headland/turnOnlyHeadlands.js';
import { headlandRoutePieces, readHeadlandStyle, shapeHeadlandCorners } from './headland/headlandPieces.js';
import { generateTracks } from './tracks/generateTracks.js';
import type { Track, TrackSet } from './tracks/generateTracks.js';
import { searchHeading } from './tracks/searchHeading.js';
import { turnHeadlandPasses, headlandWidenedWarning } from './tracks/widenHeadland.js';
import type { TurnHeadland } from './tracks/widenHeadland.js';
import { assignCellHeadings } from './tracks/cellHeadings.js';
import { generateCurvedTracks } from './tracks/curvedTracks.js';
import { checkPlan } from './check/checkPlan.js';
import { DEFAULT_EXTENSION_FRACTION, extendTracks } from './options/extendTracks.js';
import { addPlanExtras } from './options/planExtras.js';
import { groupCells, orderTracks } from './route/baselineOrder.js';
import type { TrackVisit } from './route/baselineOrder.js';
import { buildConnectorRings, buildNarrowConnectorRings } from './route/connectorRings.js';
import { buildWaypoints } from './route/waypointPath.js';
import { connectTracks, trackPieces } from './route/connectTracks.js';
import type { LocalSegment, Piece, RouteContext, ShorteningBudget } from './route/connectTracks.js';
import { computeCoverage } from './metrics/computeCoverage.js';
import { countCusps, countsAsTurn } from './metrics/manoeuvres.js';
import { LARGE_FIELD_TRACKS, orderFieldTracks, tightestBendRatio } from './route/order/fieldOrder.js';
import type { FieldOrderInput } from './route/order/fieldOrder.js';
import { assembleRoute, refineOrderOnConnectors, skipUnjoinable } from './route/order/connectedOrder.js';
import type { RealCostModel } from './route/order/connectedOrder.js';
import { objectiveRates } from './route/optimize/objective.js';
import { stagingPointLocal, withRefillDetours, withStagingLegs } from './refill/routeExtras.js';
import type { LegRouter } from './refill/legs.js';
import { createConnectionMemo } from './route/connectionMemo.js';
import type { ConnectionMemo } from './route/connectionMemo.js';

/**
 * Refitting joins nothing fits (shortened tracks, a thorough search) is bounded: with a clock, to
 * a fifth of maxOptimizerTime (at least 1 s) from the first refit; without one, to a number of
 * joins. What the budget does not reach stays `turn-not-fitted`, reported.
 */
const REFIT_MIN_MILLISECONDS = 1000;
const REFIT_SHARE_OF_LIMIT = 0.2;
const MAX_SHORTENED_JOINS = 24;
/** Connections `skipUnjoinable` may make beyond the ordering's, per planning. */
const MAX_NEW_CONNECTIONS = 48;

/** What the caller may inject: a milliseconds clock lets the optimizer honour maxOptimizerTime (core reads no clock). */
export interface PlanRuntime {
  now?: () => number;
}

/** The field in the local frame, ready for planning (also used by `checkPlan`). */
export interface LocalField {
  frame: LocalFrame;
  /** Field polygons: shells counter-clockwise, holes clockwise. */
  field: PathsD;
  /** Field minus non-passable obstacles. */
  workable: PathsD;
  /** Obstacle polygons (local) given in the request. */
  obstacles: PathsD;
  /** Area of the field itself (boundary minus its holes, before request obstacles), m² (CONTRACT fieldAreaSquareMeters). */
  fieldAreaSquareMeters?: number;
}

/** Validates and projects the field of a normalised input. */
export function prepareField(input: PlanInput): LocalField {
  const all: Position[] = [];
  for (const poly of input.polygons) if (Array.isArray(poly) && Array.isArray(poly[0])) for (const p of poly[0]) if (Array.isArray(p)) all.push(p as Position);
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

/** Track direction (radians CCW from +x, [0, π)) → bearing in degrees clockwise from north, [0, 180). */
export function directionToBearingDegrees(directionRadians: number): number {
  let b = 90 - (directionRadians * 180) / Math.PI;
  b = ((b % 180) + 180) % 180;
  return Math.round(b * 1e6) / 1e6;
}

export function bearingToDirectionRadians(bearingDegrees: number): number {
  let a = ((90 - bearingDegrees) * Math.PI) / 180;
  a %= Math.PI;
  return a < 0 ? a + Math.PI : a;
}

function ringLonLat(frame: LocalFrame, ring: { x: number; y: number }[]): Position[] {
  return flatToLonLat(frame, ringToFlat(ring));
}

/**
 * Plans a coverage route for one field. Synchronous; throws `PlanError` on bad input.
 *
 * Per-cell headings (tracks/cellHeadings.ts) are chosen on an estimate; when any cell got its own
 * heading, the field is planned a second time with the field heading in every cell, and the
 * per-cell plan is kept only if it is shorter on the real route (less non-working distance), has
 * no more `checkPlan` violations and covers as well (uncovered ratio at most 0.1 point higher).
 */
export function planRoute(request: PathPlanRequest, runtime: PlanRuntime = {}): Plan {
  // The two plannings share what depends on the field alone, and the connections made (route/connectionMemo.ts).
  const shared: SharedWork = { memo: createConnectionMemo() };
  const first = planRouteOnce(request, runtime, true, shared);
  if (!first.ownCellHeadings) return first.plan;
  // maxOptimizerTime bounds the ordering of the whole call: the second planning gets what the first left of it
  const spent = (first.plan as { optimizer?: { timeSpentMilliseconds?: number } }).optimizer?.timeSpentMilliseconds ?? 0;
  const plain = planRouteOnce(request, runtime, false, shared, spent).plan;
  const a = first.plan.metrics, b = plain.metrics;
  // A per-cell plan with no violations has no more than the plain one, whatever that has: not checked then.
  const better = a.nonWorkingDistanceMeters < b.nonWorkingDistanceMeters && a.uncoveredRatio <= b.uncoveredRatio + 0.001 &&
    violationsAtMost(checkPlan(request, first.plan).violations.length, () => checkPlan(request, plain).violations.length);
  const chosen = better ? first.plan : plain;
  // the ordering time reported is that of the whole call (both plannings)
  const report = (chosen as { optimizer?: { timeSpentMilliseconds?: number } }).optimizer;
  const second = (plain as { optimizer?: { timeSpentMilliseconds?: number } }).optimizer?.timeSpentMilliseconds;
  if (report && second !== undefined) report.timeSpentMilliseconds = spent + second;
  return chosen;
}

/** count ≤ other(), without calling other when count is 0. */
function violationsAtMost(count: number, other: () => number): boolean {
  return count === 0 || count <= other();
}

/**
 * Work of one `planRoute` call that does not depend on the tracks (the same request gives the same
 * field, headlands, heading, rings and waypoints): done by the first planning, reused by the second.
 */
interface SharedWork {
  memo: ConnectionMemo;
  prepared?: LocalField;
  fullHeadlands?: ReturnType<typeof generateHeadlands>;
  searchedDirectionRadians?: number;
  shaped?: ReturnType<typeof shapeHeadlandCorners>;
  headlandRoute?: ReturnType<typeof headlandRoutePieces>;
  region?: Region;
  parts?: ReturnType<typeof partLookup>;
  loops?: ReturnType<typeof buildConnectorRings>;
  waypoints?: ReturnType<typeof buildWaypoints>;
  /** Headland passes the skip turns need where the request gave fewer (`widenHeadlandForTurns`): null = as asked. */
  turnHeadland?: TurnHeadland | null;
}

function planRouteOnce(request: PathPlanRequest, runtime: PlanRuntime, cellHeadingsAllowed: boolean, shared: SharedWork, orderingSpentMilliseconds = 0): { plan: Plan; ownCellHeadings: boolean } {
  const input = normalizeRequest(request);
  if (shared.turnHeadland?.widened) input.headlandPasses = shared.turnHeadland.passes;
  const prepared = (shared.prepared ??= prepareField(input));
  const { frame, field, workable, obstacles } = prepared;
  const m = input.machine;
  const w = m.widthMeters;
  const R = m.turnRadiusMeters;
  const fieldArea = prepared.fieldAreaSquareMeters ?? areaOf(field);
  if (!(areaOf(field) > 0)) throw new PlanError('no-workable-area', 'the field has no area left to work after removing obstacles', [{ path: 'field', message: 'no workable area' }]);

  // Bound the work: the track count is the field's extent across the tracks ÷ width.
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (const r of field) for (const p of r) {
    if (p.x < minX) minX = p.x;
    if (p.x > maxX) maxX = p.x;
    if (p.y < minY) minY = p.y;
    if (p.y > maxY) maxY = p.y;
  }
  const extent = hypot(maxX - minX, maxY - minY);
  if (extent / w > LIMITS.maxTracks)
    throw new PlanError('invalid-request', `the field is ${Math.round(extent)} m across: at ${w} m width that is more than ${LIMITS.maxTracks} tracks; use a wider machine or split the field`, [{ path: 'machine.widthMeters', message: 'too many tracks' }]);

  // Headland style (issue 5): mode full / turnOnly / none, corners (headland/).
  const headlandStyle = readHeadlandStyle(request);
  const fullHeadlands = (shared.fullHeadlands ??= generateHeadlands(field, input.headlandPasses, w, headlandStyle.corners, R));

  let heading: Plan['heading'];
  let directionRadians: number;
  if (input.preferredHeadingDegrees !== undefined) {
    directionRadians = bearingToDirectionRadians(input.preferredHeadingDegrees);
    heading = { degrees: input.preferredHeadingDegrees, source: 'preferred' };
  } else if (fullHeadlands.mainland.length > 0) {
    directionRadians = (shared.searchedDirectionRadians ??= searchHeading(field, fullHeadlands.mainland, w, R).directionRadians);
    heading = { degrees: directionToBearingDegrees(directionRadians), source: 'search' };
  } else {
    directionRadians = Math.PI / 2;
    heading = { degrees: 0, source: 'search' };
  }
  // Turn-only headlands lie where the tracks of the chosen heading end (headland/turnOnlyHeadlands.ts).
  // headland.corners: corners rounded to R, or square with corner turns where they fit (headland/corners.ts).
  const shaped = (shared.shaped ??= shapeHeadlandCorners(headlandStyle.mode === 'turnOnly' ? generateTurnOnlyHeadlands(field, input.headlandPasses, w, directionRadians, headlandStyle.corners) : fullHeadlands, headlandStyle, field, {
    turnRadiusMeters: R, reverseAllowed: m.reverseAllowed, sampleStepMeters: 0.5,
    ...(m.maxCurvatureRatePerSquareMeter !== undefined ? { maxCurvatureRatePerSquareMeter: m.maxCurvatureRatePerSquareMeter } : {}),
    ...(request.smoothingStrategy ? { smoothing: request.smoothingStrategy } : {}),
  }));
  const headlands = shaped.headlands;
  const headlandReport = { mode: headlandStyle.mode, ...(headlandStyle.corners ? { corners: headlandStyle.corners, squareCorners: shaped.cornerTurns?.squareCorners.length ?? 0, roundedCorners: shaped.roundedCount } : {}) };
  const mainland = headlands.mainland;
  // Issue 5, tracks.trackType 'curved': offset curves of the boundary's longest smooth chain (tracks/curvedTracks.ts); straight when none fits.
  const curvedSet = request.tracks?.trackType === 'curved' && mainland.length > 0 ? generateCurvedTracks(field, mainland, w, R) : undefined;
  const curvedTracks = curvedSet !== undefined && curvedSet.tracks.length > 0;
  if (curvedSet && curvedTracks) {
    directionRadians = curvedSet.directionRadians;
    if (input.preferredHeadingDegrees === undefined) heading = { degrees: directionToBearingDegrees(directionRadians), source: 'search' };
  }
  const trackSet: TrackSet = curvedSet && curvedTracks ? curvedSet : mainland.length > 0 ? generateTracks(mainland, directionRadians, w) : { directionRadians, tracks: [], lineCount: 0 };
  // Issue 5: boustrophedon cells of the tracks; with a searched heading, each cell re-tracked at its own best heading when that is cheaper (tracks/cellHeadings.ts).
  const cellTracks = cellHeadingsAllowed && !curvedTracks && input.preferredHeadingDegrees === undefined && headlandStyle.mode !== 'turnOnly' && trackSet.tracks.length > 0 ? assignCellHeadings(mainland, trackSet.tracks, directionRadians, w, R) : undefined;
  if (cellTracks) trackSet.tracks = cellTracks.tracks;
  // Issue 5, track ends pushed out towards where the swaths reach the mainland's edge (options/extendTracks.ts): by
  // DEFAULT_EXTENSION_FRACTION of that by default, all of it with the option extendTracks (which reports its gain).
  const unextendedTracks = trackSet.tracks;
  const fullExtension = input.options.includes('extendTracks');
  const extended = trackSet.tracks.length > 0 && !curvedTracks
    ? extendTracks(trackSet, mainland, field, w, w / 2, fullExtension ? 1 : DEFAULT_EXTENSION_FRACTION)
    : undefined;
  if (extended) trackSet.tracks = extended.tracks;
  // Turns need a headland as deep as they reach: with too few passes, plan again with as many as they need.
  if (shared.turnHeadland === undefined) {
    shared.turnHeadland = turnHeadlandPasses(headlandStyle.mode === 'full' && !curvedTracks, input, trackSet.tracks, field, headlandStyle.corners, request.smoothingStrategy);
    if (shared.turnHeadland?.widened) {
      for (const k of Object.keys(shared) as (keyof SharedWork)[]) if (k !== 'memo' && k !== 'turnHeadland') delete shared[k];
      return planRouteOnce(request, runtime, cellHeadingsAllowed, shared, orderingSpentMilliseconds);
    }
  }
  if (trackSet.tracks.length === 0 && headlands.passes.length === 0)
    throw new PlanError('no-workable-area', `the field is too small for a ${w} m machine: no track or headland pass fits`, [{ path: 'machine.widthMeters', message: 'no pass fits' }]);

  const warnings: PlanWarning[] = [];
  if (shared.turnHeadland) warnings.push(headlandWidenedWarning(shared.turnHeadland, w, R, (x, y) => flatToLonLat(frame, [x, y])[0]));
  const algorithm = input.routeOptions.algorithm;
  const orderOpts = {
    widthMeters: w,
    turnRadiusMeters: R,
    pattern: algorithm === 'boustrophedon' ? ('boustrophedon' as const) : ('snake' as const),
    ...(input.routeOptions.skipCount !== undefined && algorithm !== 'boustrophedon' ? { skipCount: input.routeOptions.skipCount } : {}),
  };
  const headlandsFirst = input.routeOptions.headlandsFirst === true;
  const passOrder: HeadlandPass[] = [...headlands.passes].sort((a, b) =>
    headlandsFirst ? a.passIndex - b.passIndex || (a.type === b.type ? 0 : a.type === 'ExteriorHeadland' ? -1 : 1) : b.passIndex - a.passIndex);
  // Passes as loops; square corners driven as corner turns once connected (headland/corners.ts).
  const headlandRoute = (shared.headlandRoute ??= headlandRoutePieces(headlands.passes, passOrder, shaped.cornerTurns));
  const headlandPieces: Piece[] = headlandRoute.pieces;
  const firstPass = headlandsFirst ? passOrder[0] : undefined;
  const cellOf = cellTracks ? cellTracks.cellOf : new Int32Array(trackSet.tracks.length);
  if (!cellTracks) groupCells(trackSet.tracks).forEach((c, i) => { for (const t of c) cellOf[t] = i; });
  // Route order (issue 3): routeOptions.algorithm, skipCount, start / end nodes, staging area, objective, maxOptimizerTime.
  const routeT0 = runtime.now ? runtime.now() : 0;
  // maxOptimizerTime bounds the ordering of the whole call: a planning with cells of their own
  // headings is followed by a second one (planRoute) and takes half; the second takes what is left.
  const fullLimitMs = (input.routeOptions.maxOptimizerTime ?? 10) * 1000;
  const secondFollows = cellTracks !== undefined && cellTracks.cells.some((c) => c.own);
  const limitMs = Math.max(0, (secondFollows ? fullLimitMs / 2 : fullLimitMs) - orderingSpentMilliseconds);
  const staging = stagingPointLocal(frame, input.routeOptions);
  const rates = objectiveRates(m, input.routeOptions.objective);
  const headlandsAfter = !headlandsFirst && passOrder.length > 0;
  const lastPass = headlandsFirst ? passOrder[passOrder.length - 1] : undefined;
  const orderInput: FieldOrderInput = {
    tracks: trackSet.tracks,
    cellOf,
    directionRadians,
    widthMeters: w,
    turnRadiusMeters: R,
    rates,
    routeOptions: limitMs !== fullLimitMs ? { ...input.routeOptions, maxOptimizerTime: limitMs / 1000 } : input.routeOptions,
    ...(lastPass ? { startPoint: lastPass.ring[0] } : staging ? { startPoint: { x: staging[0], y: staging[1] }, startIsStaging: true } : {}),
    ...(staging && !headlandsAfter ? { endPoint: { x: staging[0], y: staging[1] }, endIsStaging: true } : {}),
    ...(runtime.now ? { now: runtime.now } : {}),
  };
  const ordered = orderFieldTracks(orderInput);
  const visits: TrackVisit[] = ordered.visits;
  void orderTracks;
  void orderOpts;
  void firstPass;
  const tracksPieces: Piece[] = trackPieces(trackSet.tracks, visits, cellOf);
  const pieces: Piece[] = headlandsFirst ? [...headlandPieces, ...tracksPieces] : [...tracksPieces, ...headlandPieces];

  // Connector rings keep a 15 % margin on the radius: their arcs are polygons.
  const ringRadius = 1.15 * R;
  const ringOffset = Math.max(ringRadius, (input.headlandPasses * w) / 2);
  const ctx: RouteContext = {
    region: (shared.region ??= new Region(field)),
    waypoints: () => (shared.waypoints ??= buildWaypoints(field, 1.5 * R)),
    ...(shared.parts ??= partLookup(field)),
    loops: () => (shared.loops ??= [...buildConnectorRings(field, ringOffset, ringRadius), ...buildNarrowConnectorRings(field, w / 2, ringRadius)]),
    memo: shared.memo,
    maxRingReachMeters: Math.max(input.headlandPasses * w, ringOffset) + 2 * R,
    turnOptions: {
      turnRadiusMeters: R,
      reverseAllowed: m.reverseAllowed,
      sampleStepMeters: 0.5,
      ...(m.maxCurvatureRatePerSquareMeter !== undefined ? { maxCurvatureRatePerSquareMeter: m.maxCurvatureRatePerSquareMeter } : {}),
      ...(request.smoothingStrategy ? { smoothing: request.smoothingStrategy } : {}),
    },
    widthMeters: w,
    warnings: [],
    ...(input.routeOptions.forcedDirection ? { headlandWinding: input.routeOptions.forcedDirection } : {}),
    ...(input.routeOptions.enableHeadlandDrivethrough === true ? { headlandDrivethrough: true } : {}),
  };
  void pieces;
  // Route order on the real connectors (route/order/connectedOrder.ts): the optimizer's order and each
  // fixed order are costed connector by connector (shared connectors built once), the optimizer is
  // re-run on the real costs learnt, and the winner is put together from the connections made.
  const connectorCost = (segs: LocalSegment[], warningCount: number): { cost: number; defects: number } => {
    let cost = 0;
    let defects = warningCount;
    for (const s of segs) {
      if (s.type !== 'Turn' && s.type !== 'Connector') continue;
      cost += polylineLength(s.xy) * (s.connector === 'staging' ? rates.transportPerMeter : rates.turningPerMeter);
      if (s.connector !== 'staging' && s.connector !== 'unfitted' && s.connector !== 'transport' && (tightestBendRatio(s.xy, R) > 1.05 || !ctx.region.containsPolyline(s.xy))) defects++;
    }
    return { cost, defects };
  };
  const stagingLeg = (xy: Float64Array): LocalSegment => ({ type: 'Connector', xy, connector: 'staging' });
  // Staging and refill legs go round holes and bays inside the field (refill/legs.ts).
  const legRouter: LegRouter = { region: ctx.region, rings: field.map(ringToFlat), waypoints: ctx.waypoints!, turnRadiusMeters: R };
  const connectPieces = (p: Piece[], legIn: boolean, legOut: boolean, abort?: () => boolean, shortenUnfitted?: ShorteningBudget): { segs: LocalSegment[]; warnings: RouteContext['warnings']; aborted?: boolean } => {
    const c: RouteContext = { ...ctx, warnings: [], ...(abort ? { abort } : {}), ...(shortenUnfitted ? { shortenUnfitted } : {}) };
    let segs = connectTracks(p, c);
    if (staging && (legIn || legOut)) segs = withStagingLegs(segs, staging, stagingLeg, { legIn, legOut, router: legRouter });
    return { segs, warnings: c.warnings, ...(c.aborted ? { aborted: true } : {}) };
  };
  /** The track of end `e` as a piece driven so that it leaves through `e` (exit) or enters through it. */
  const pieceAt = (e: number, entering: boolean): Piece => trackPieces(trackSet.tracks, [{ trackIndex: e >> 1, forward: entering ? (e & 1) === 0 : (e & 1) === 1 }], cellOf)[0];
  // Every connection made while costing is kept: the chosen route is put together from them.
  type Parts = { segs: LocalSegment[]; warnings: RouteContext['warnings'] };
  /** A connection not made (out of budget): counts as a join nothing fits. */
  const UNJOINED: Parts = { segs: [{ type: 'Connector', xy: new Float64Array(0), connector: 'unfitted' }], warnings: [] };
  const linkParts = new Map<number, Parts>();
  const headParts = new Map<number, Parts>();
  const tailParts = new Map<number, Parts>();
  const endCount = 2 * trackSet.tracks.length;
  // A connection the ordering's deadline cut short (`abort`) is neither kept nor its cost trusted.
  const costOf = (p: Piece[], legIn: boolean, legOut: boolean, keep: (r: Parts) => void, abort?: () => boolean): { cost: number; defects: number; aborted?: boolean } => {
    const r = connectPieces(p, legIn, legOut, abort);
    if (r.aborted) return { ...connectorCost(r.segs, r.warnings.length), aborted: true };
    keep(r);
    return connectorCost(r.segs, r.warnings.length);
  };
  const now = runtime.now;
  // Connections made while ordering get the deadline (`abort`): a connector search still running
  // at maxOptimizerTime gives up there, so the limit is hard (route/order/connectedOrder.ts).
  // The pieces of a link (track end to track end), of the head (start to the first track) and of
  // the tail. No head (tail) is driven unless headland passes or a staging area come before (after)
  // the tracks.
  const linkPieces = (a: number, b: number): Piece[] => [pieceAt(a, false), pieceAt(b, true)];
  const headPieces = (e: number): Piece[] => (headlandsFirst ? [...headlandPieces, pieceAt(e, true)] : [pieceAt(e, true)]);
  const tailPieces = (e: number): Piece[] => (headlandsFirst ? [pieceAt(e, false)] : [pieceAt(e, false), ...headlandPieces]);
  const drivesHead = headlandsFirst || staging !== undefined;
  const drivesTail = !headlandsFirst || staging !== undefined;
  const model: RealCostModel = {
    link: (a, b, abort) => costOf(linkPieces(a, b), false, false, (r) => linkParts.set(a * endCount + b, r), abort),
    head: (e, abort) => (drivesHead ? costOf(headPieces(e), true, false, (r) => headParts.set(e, r), abort) : { cost: 0, defects: 0 }),
    tail: (e, abort) => (drivesTail ? costOf(tailPieces(e), false, true, (r) => tailParts.set(e, r), abort) : { cost: 0, defects: 0 }),
  };
  const refined = refineOrderOnConnectors(orderInput, ordered, model, {
    ...(now ? { now, outOfTime: () => now() - routeT0 >= limitMs, remainingMilliseconds: () => limitMs - (now() - routeT0) } : {}),
    ...(!now && trackSet.tracks.length > LARGE_FIELD_TRACKS ? { maxRounds: 1 } : {}),
  });
  const routeOrderMs = now ? now() - routeT0 : undefined;
  // The chosen route is put together from its connections; a fixed order (nothing costed) is
  // connected now, as is any route whose parts do not fit together.
  // For `optimized`, connectors not costed yet (the clock ran out) are built now, the ones costed reused.
  const costMore = ordered.alternatives.length > 1;
  const assembling = Number.isFinite(refined.nonWorkingCost) || costMore;
  // Joins nothing fits (connector `unfitted`): the order was chosen on them as they are; those the
  // route uses are connected again with the tracks shortened there (`shortenUnfitted`, warning
  // `track-shortened`), and a track that is still not joined is driven last or left out
  // (`skipUnjoinable`, warning `track-skipped`).
  const unfitted = (r: Parts): boolean => r.segs.some((sg) => sg.connector === 'unfitted');
  // Refitting is bounded: with a clock, by a budget of its own from its first use (a fifth of
  // maxOptimizerTime, at least 1 s); without one, by the number of joins refitted.
  const refitBudgetMs = Math.max(REFIT_MIN_MILLISECONDS, REFIT_SHARE_OF_LIMIT * fullLimitMs);
  let refitUntil: number | undefined;
  let joinsLeft = MAX_SHORTENED_JOINS;
  const exhausted = (): boolean => (now ? refitUntil !== undefined && now() >= refitUntil : joinsLeft <= 0);
  const startRefitClock = (): void => {
    if (now) refitUntil ??= now() + refitBudgetMs;
  };
  const shortening: ShorteningBudget = {
    start: () => {
      startRefitClock();
      if (exhausted()) return false;
      joinsLeft--;
      return true;
    },
    over: () => now !== undefined && exhausted(),
  };
  // Connections tried again in vain, not tried a third time (skipUnjoinable and assembleRoute ask twice).
  const refitFailed = new Map<Map<number, Parts>, Set<number>>();
  const refit = (store: Map<number, Parts>, key: number, r: Parts | undefined, pieces: () => Piece[], legIn: boolean, legOut: boolean): Parts | undefined => {
    if (!r || r === UNJOINED || !unfitted(r)) return r;
    let failed = refitFailed.get(store);
    if (!failed) refitFailed.set(store, (failed = new Set()));
    if (failed.has(key) || exhausted()) return r;
    failed.add(key);
    const again = connectPieces(pieces(), legIn, legOut, undefined, shortening);
    if (again.aborted || unfitted(again)) return r;
    store.set(key, again);
    return again;
  };
  // A connection as kept, or made by `make` (which stores it) where `lookup` decides to; refitted
  // where it does not fit.
  type Lookup = (store: Map<number, Parts>, key: number, make: (abort?: () => boolean) => void) => Parts | undefined;
  const partsVia = (lookup: Lookup) => ({
    link: (a: number, b: number): Parts | undefined => refit(linkParts, a * endCount + b, lookup(linkParts, a * endCount + b, (abort) => model.link(a, b, abort)), () => linkPieces(a, b), false, false),
    head: (e: number): Parts | undefined => (drivesHead ? refit(headParts, e, lookup(headParts, e, (abort) => model.head(e, abort)), () => headPieces(e), true, false) : undefined),
    tail: (e: number): Parts | undefined => (drivesTail ? refit(tailParts, e, lookup(tailParts, e, (abort) => model.tail(e, abort)), () => tailPieces(e), false, true) : undefined),
  });
  const routeParts = partsVia((store, key, make) => store.get(key) ?? (costMore ? (make(), store.get(key)) : undefined));
  // Choosing which tracks to take out makes connections the ordering did not: within the refit
  // budget (and at most MAX_NEW_CONNECTIONS of them); one it does not reach counts as not fitting,
  // so no track is taken out on its account.
  let newConnectionsLeft = MAX_NEW_CONNECTIONS;
  const within: Lookup = (store, key, make) => {
    const have = store.get(key);
    if (have || !costMore) return have;
    startRefitClock();
    if (exhausted() || newConnectionsLeft <= 0) return UNJOINED;
    newConnectionsLeft--;
    make(shortening.over);
    return store.get(key) ?? UNJOINED;
  };
  const kept = assembling ? skipUnjoinable(refined.visits, partsVia(within), (r) => !unfitted(r), (r) => r.warnings.length, (r) => r === UNJOINED) : { visits: refined.visits, skipped: [] };
  const routeVisits = kept.visits;
  const trackMeters = (t: Track): number => (t.xy ? polylineLength(t.xy) : hypot(t.x1 - t.x0, t.y1 - t.y0));
  const assembled = assembling ? assembleRoute(routeVisits, routeParts, (k) => trackMeters(trackSet.tracks[routeVisits[k].trackIndex])) : undefined;
  const final = assembled ?? connectPieces(headlandsFirst ? [...headlandPieces, ...trackPieces(trackSet.tracks, routeVisits, cellOf)] : [...trackPieces(trackSet.tracks, routeVisits, cellOf), ...headlandPieces], true, true, undefined, shortening);
  for (const sk of kept.skipped) {
    const t = trackSet.tracks[sk.visit.trackIndex];
    const len = trackMeters(t);
    final.warnings.push({
      code: 'track-skipped',
      message: `track ${sk.visit.trackIndex} (${Math.round(len)} m) is left out of the route: no manoeuvre within the turning radius (${R} m) fits inside the field ${sk.join === 'into' ? 'into it from the piece before it' : 'out of it to the piece after it'}, even with the tracks shortened; its area counts as uncovered`,
      x: (t.x0 + t.x1) / 2,
      y: (t.y0 + t.y1) / 2,
    });
  }
  const chosen = { result: final };
  const connected = headlandRoute.restore(chosen.result.segs);
  // Refill detours (calculateRefillPoints) become route connectors, so the metrics count them.
  const exteriorRings = headlands.passes.filter((p) => p.type === 'ExteriorHeadland' && p.passIndex === 0).map((p) => ringToFlat(p.ring));
  const refills = withRefillDetours(connected, request, input.routeOptions, w, staging, frame, exteriorRings, (xy): LocalSegment => ({ type: 'Connector', xy, connector: 'refill' }), legRouter);
  const segments = refills ? refills.segments : connected;
  for (const wn of chosen.result.warnings) ctx.warnings.push(wn);

  const metrics = computeMetrics(segments, workable, fieldArea, input);
  if (refills) {
    metrics.refillCount = refills.points.length;
    metrics.refillDetourMeters = Math.round(refills.detourMeters * 100) / 100;
  }
  for (const wn of ctx.warnings) {
    const pw: PlanWarning = { code: wn.code, message: wn.message };
    if (wn.x !== undefined && wn.y !== undefined) pw.geometry = { type: 'Point', coordinates: flatToLonLat(frame, [wn.x, wn.y])[0] };
    warnings.push(pw);
  }

  const route: RouteSegment[] = segments.map((s, i) => {
    const seg: RouteSegment = { sequence: i, type: s.type, coordinates: flatToLonLat(frame, s.xy), lengthMeters: round3(polylineLength(s.xy)) };
    if (s.type === 'Track' || s.type === 'ExteriorHeadland' || s.type === 'InteriorHeadland') seg.widthMeters = w;
    if (s.turnType) seg.turnType = s.turnType;
    if (s.trackIndex !== undefined) seg.trackIndex = s.trackIndex;
    if (s.headlandIndex !== undefined) seg.headlandIndex = s.headlandIndex;
    if (s.connector) seg.connectorKind = s.connector;
    if (s.reverse) seg.reverse = true;
    return seg;
  });

  // Tracks as driven (after any trimming for turns), by index.
  const drivenTrack = new Map<number, Float64Array>();
  for (const s of connected) if (s.type === 'Track' && s.trackIndex !== undefined) drivenTrack.set(s.trackIndex, s.xy);
  const tracks = trackSet.tracks.map((t, i) => {
    const xy = drivenTrack.get(i) ?? Float64Array.from([t.x0, t.y0, t.x1, t.y1]);
    return { index: i, line: t.line, cell: cellOf[i], coordinates: flatToLonLat(frame, xy), lengthMeters: round3(polylineLength(xy)) };
  });
  const nodes: { index: number; trackIndex: number; end: 'start' | 'end'; position: Position }[] = [];
  // Candidate entry / exit nodes (routeOptions.startPointNodeIndex / endPointNodeIndex): node 2i is
  // track i's end at (x0, y0), node 2i + 1 its end at (x1, y1), whichever way the track is driven.
  for (const t of tracks) {
    const tr = trackSet.tracks[t.index];
    nodes.push({ index: nodes.length, trackIndex: t.index, end: 'start', position: flatToLonLat(frame, [tr.x0, tr.y0])[0] });
    nodes.push({ index: nodes.length, trackIndex: t.index, end: 'end', position: flatToLonLat(frame, [tr.x1, tr.y1])[0] });
  }
  const boundary: FieldGeometry = boundaryOf(frame, field);
  const plan: Plan = {
    version: FURROW_VERSION,
    metrics,
    heading,
    route,
    boundary,
    warnings,
    tracks,
    headlandStyle: headlandReport,
    ...(headlands.band ? { headlandAreas: groupPolygons(headlands.band).map((rings) => ({ type: 'Polygon', coordinates: rings.map((r) => ringLonLat(frame, r)) })) } : {}),
    headlands: headlands.passes.map((p, i) => ({ index: i, type: p.type, passIndex: p.passIndex, coordinates: flatToLonLat(frame, passToFlat(p)) })),
    obstacles: obstacles.map((r) => ({ type: 'Polygon', coordinates: [ringLonLat(frame, r)] })),
    nodes,
    machine: { ...m },
    headlandPasses: input.headlandPasses,
    options: input.options,
    routeOptions: input.routeOptions,
    frame: { definition: frame.definition, originLonLat: frame.originLonLat.map(roundDeg) },
  };
  plan.optimizer = {
    ...ordered.report,
    ...(routeOrderMs !== undefined ? { timeSpentMilliseconds: routeOrderMs, estimateMilliseconds: ordered.report.timeSpentMilliseconds } : {}),
    chosen: refined.algorithm,
    realNonWorkingCost: refined.nonWorkingCost,
    realCostRounds: refined.rounds,
    connectorsEvaluated: refined.connectorsEvaluated,
    refineStoppedBy: refined.stoppedBy,
    assembled: assembled !== undefined,
    connected: refined.evaluated,
  };
  if (refills) plan.refillPoints = refills.points;
  if (staging) plan.stagingArea = frame.toLonLat(staging[0], staging[1]).map(roundDeg);
  // Issue 5: guidance lines, cells, crosshatches, the extension's coverage gain, narrow corridors (options/planExtras.ts).
  addPlanExtras(plan, {
    frame, field, workable, tracks: trackSet.tracks, directionRadians, cellOf, headlandPasses: headlands.passes, passCount: input.headlandPasses,
    widthMeters: w, turnRadiusMeters: R, options: input.options, request,
    ...(extended && fullExtension ? { unextendedTracks, extension: extended.extension } : {}),
  });
  return { plan, ownCellHeadings: cellTracks !== undefined && cellTracks.cells.some((c) => c.own) };
}

/** For multi-part fields: which part a point lies in (transport connectors join parts). */
function partLookup(field: PathsD): { partOf?: (x: number, y: number) => number } {
  const parts = groupPolygons(field);
  if (parts.length < 2) return {};
  const regions = parts.map((p) => new Region(p));
  return { partOf: (x, y) => regions.findIndex((r) => r.contains(x, y)) };
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/** Field polygons (local) → GeoJSON Polygon / MultiPolygon in lon/lat, rings in RFC 7946 order. */
function boundaryOf(frame: LocalFrame, field: PathsD): FieldGeometry {
  // Group holes with their shells by containment of a vertex.
  const shells: PathsD = [], holes: PathsD = [];
  for (const r of field) (areaOf([r]) > 0 ? shells : holes).push(r);
  const polys: Position[][][] = shells.map((s) => [ringLonLat(frame, s)]);
  for (const h of holes) {
    const p = h[0];
    const k = shells.findIndex((s) => pointIn(p.x, p.y, s));
    if (k >= 0) polys[k].push(ringLonLat(frame, h));
  }
  return polys.length === 1 ? { type: 'Polygon', coordinates: polys[0] } : { type: 'MultiPolygon', coordinates: polys };
}

function pointIn(x: number, y: number, ring: { x: number; y: number }[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i], b = ring[j];
    if (a.y > y !== b.y > y && x < ((b.x - a.x) * (y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

export function computeMetrics(segments: LocalSegment[], workable: PathsD, fieldArea: number, input: PlanInput): PlanMetrics {
  const m = input.machine;
  let working = 0, nonWorking = 0, turns = 0;
  const turnsByType: Record<string, number> = {};
  const passes: { xy: Float64Array; widthMeters: number }[] = [];
  let connectors = 0;
  for (const s of segments) {
    const len = polylineLength(s.xy);
    if (s.type === 'Turn' || s.type === 'Connector') {
      nonWorking += len;
      if (countsAsTurn(s)) {
        turns++;
        const k = s.turnType ?? 'Dubins';
        turnsByType[k] = (turnsByType[k] ?? 0) + 1;
      } else connectors++;
    } else {
      working += len;
      passes.push({ xy: s.xy, widthMeters: m.widthMeters });
    }
  }
  const cov = computeCoverage(workable, passes);
  // every cusp is a stop to change gear (machine.cuspStopSeconds)
  const cusps = countCusps(segments);
  const timeSeconds = working / m.workingSpeedMetersPerSecond + nonWorking / m.turningSpeedMetersPerSecond + cusps * m.cuspStopSeconds;
  const metrics: PlanMetrics = {
    fieldAreaSquareMeters: r2(fieldArea),
    workableAreaSquareMeters: r2(cov.workableAreaSquareMeters),
    distanceMeters: r2(working + nonWorking),
    workingDistanceMeters: r2(working),
    nonWorkingDistanceMeters: r2(nonWorking),
    timeSeconds: r2(timeSeconds),
    overlapSquareMeters: r2(cov.overlapSquareMeters),
    overlapRatio: r6(cov.overlapRatio),
    uncoveredSquareMeters: r2(cov.uncoveredSquareMeters),
    uncoveredRatio: r6(cov.uncoveredRatio),
    turns,
    turnsByType,
    connectors,
    cusps,
  };
  if (m.workingFuelLitersPerHour !== undefined || m.turningFuelLitersPerHour !== undefined) {
    metrics.fuelLiters = r2(((m.workingFuelLitersPerHour ?? 0) * working) / m.workingSpeedMetersPerSecond / 3600 + ((m.turningFuelLitersPerHour ?? 0) * nonWorking) / m.turningSpeedMetersPerSecond / 3600);
  }
  return metrics;
}

function r2(v: number): number {
  return Math.round(v * 100) / 100;
}
function r6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}
