/**
 * Public data shapes of furrow: the path-plan request (shapes A and B)
 * and the Plan returned by `planRoute`.
 *
 * Everything here is plain JSON: `JSON.parse(JSON.stringify(plan))` is the same plan.
 * Positions at the edges are WGS84 [lon, lat]; core geometry works in a local metric frame.
 */

/** [longitude, latitude] in degrees (WGS84), RFC 7946 order. */
export type Position = [number, number];
export type Ring = Position[];

export interface GeoJsonPolygon {
  type: 'Polygon';
  coordinates: Ring[];
}
export interface GeoJsonMultiPolygon {
  type: 'MultiPolygon';
  coordinates: Ring[][];
}
export type FieldGeometry = GeoJsonPolygon | GeoJsonMultiPolygon;

/** Machine / equipment description. Every number carries its unit in its name. */
export interface MachineInput {
  /** Working width of the implement (swath width), meters. Required, > 0. */
  widthMeters: number;
  /** Minimum turning radius of the tractor + implement centre, meters (default 6). */
  turnRadiusMeters?: number;
  /** Maximum rate of change of curvature along the path (steering-rate / jerk limit), 1/m². */
  maxCurvatureRatePerSquareMeter?: number;
  /** Whether the machine may reverse in turns (fishtail / K-turns, Reeds-Shepp). */
  reverseAllowed?: boolean;
  /** Speed while working a pass, m/s (default 2.5 ≈ 9 km/h). */
  workingSpeedMetersPerSecond?: number;
  /** Speed in turns and connectors inside the field, m/s (default 1.5). */
  turningSpeedMetersPerSecond?: number;
  /** Speed when transporting between field parts or to a staging area, m/s (default 4). */
  transportSpeedMetersPerSecond?: number;
  /** Time each cusp of a reversing manoeuvre costs (stop, change gear, start), seconds (default 3). */
  cuspStopSeconds?: number;
  /** Fuel burnt while working, liters per hour. */
  workingFuelLitersPerHour?: number;
  /** Fuel burnt while turning / transporting, liters per hour. */
  turningFuelLitersPerHour?: number;
  /** Tank or hopper capacity (liters or kilograms, same unit as the rate), for refill planning. */
  tankCapacity?: number;
  /** Application rate per hectare (same unit as tankCapacity). */
  applicationRatePerHectare?: number;
  /** Lateral offset of the implement centre from the tractor centre line, meters (+ = right). */
  implementOffsetMeters?: number;
  /**
   * Sections of the boom the machine switches on and off (section control), a whole number ≥ 1,
   * of equal widths unless `sectionWidthsMeters` says otherwise. Absent: sections of any width.
   */
  sections?: number;
  /** Widths of the sections, left to right, meters: positive, adding up to widthMeters. */
  sectionWidthsMeters?: number[];
}

/** Exclusion zone given in the request (in addition to the boundary's holes). */
export interface ObstacleInput {
  /** Polygon in lon/lat (GeoJSON Polygon). */
  geometry: GeoJsonPolygon;
  /** A passable zone may be driven over but is never worked. Default false (a pond, a building). */
  passable?: boolean;
  /** Extra buffer around the zone, meters (default 0). */
  bufferMeters?: number;
  name?: string;
}

export type RouteAlgorithm = 'optimized' | 'boustrophedon' | 'snake' | 'spiral' | 'clusteredSpiral';
export type RefillStrategyType = 'Exact' | 'StartOfTrack' | 'ClosestExternalHeadland';
export type RouteObjective = 'distance' | 'time' | 'fuel';

/** routeOptions (schema RouteApiOptions). */
export interface RouteApiOptions {
  startPointNodeIndex?: number;
  endPointNodeIndex?: number;
  algorithm?: RouteAlgorithm;
  skipCount?: number;
  enableHeadlandDrivethrough?: boolean;
  headlandsFirst?: boolean;
  calculateRefillPoints?: boolean;
  /** [lon, lat] WGS84. */
  stagingArea?: Position;
  refillStrategyType?: RefillStrategyType;
  /** Hard limit on optimizer time, seconds (default 10). */
  maxOptimizerTime?: number;
  forcedDirection?: 'CW' | 'CCW';
  objective?: RouteObjective;
}

/** Values of SmoothingStrategyType: how turn and connector geometry is smoothed. */
export type SmoothingStrategyType = 'None' | 'Arcs' | 'Clothoids';

export interface HeadlandInput {
  /** Number of exterior headland passes (default 2). */
  passes?: number;
  /** full perimeter (default), only where tracks end, or none. */
  mode?: 'full' | 'turnOnly' | 'none';
  corners?: 'square' | 'rounded';
  /**
   * Widen the exterior headland to the depth the forward turns need when `passes` is less
   * (default true; warning `headland-widened` with the figures). false keeps the passes asked:
   * turns that do not fit are joined with the tracks shortened, or by longer manoeuvres.
   */
  fitTurns?: boolean;
  /**
   * No-go zones (holes, non-passable obstacles) whose largest extent is below this, meters, get no
   * headland rounds: tracks and headland passes swerve round them with sections off (a zone a pass
   * cannot swerve round, at a corner, keeps its rounds). Default: the machine's working width; 0
   * gives every zone its rounds.
   */
  smallObstacleSizeMeters?: number;
}

export interface TracksInput {
  /** Preferred track bearing in degrees clockwise from north; omitted = best heading search. */
  preferredDirectionDegrees?: number;
  trackType?: 'straight' | 'curved';
  /**
   * Straight tracks on a lane grid: the track centre lines lie at `offsetMeters + i · widthMeters`
   * (i any integer) to the right of the line through `point` along `preferredDirectionDegrees`
   * (which it needs), seen facing along that heading. Omitted: the planner offsets the tracks to
   * leave the least unworked.
   */
  referenceLine?: { point: Position; offsetMeters?: number };
}

/**
 * A path-plan request: shape A (`field`, `machine`, `headland`, `tracks`) or shape B
 * (`boundary`, `equipment`, `exteriorHeadlandPasses`). Both may carry `options` and `routeOptions`.
 */
export interface PathPlanRequest {
  // shape A
  field?: FieldGeometry;
  machine?: MachineInput;
  headland?: HeadlandInput;
  tracks?: TracksInput;
  // shape B
  boundary?: FieldGeometry;
  equipment?: MachineInput;
  exteriorHeadlandPasses?: number;
  // both
  obstacles?: ObstacleInput[];
  /** Comma-separated option names: useCrossHatches, excludePassable, extendTracks. */
  options?: string;
  routeOptions?: RouteApiOptions;
  smoothingStrategy?: SmoothingStrategyType;
  /**
   * The field's access points (gates), [lon, lat] each: the route starts near the first, and
   * transit legs between zones run through the gates nearest where they leave and enter.
   */
  accessPoints?: Position[];
}

/** Metrics, as named in the plan JSON. */
export interface PlanMetrics {
  fieldAreaSquareMeters: number;
  workableAreaSquareMeters: number;
  distanceMeters: number;
  workingDistanceMeters: number;
  nonWorkingDistanceMeters: number;
  timeSeconds: number;
  overlapSquareMeters: number;
  overlapRatio: number;
  uncoveredSquareMeters: number;
  uncoveredRatio: number;
  /** Turns, and connectors that reverse (K-turns, fishtails, reversing searches). */
  turns: number;
  /** Cusps along the route (changes between forward and reverse); each costs machine.cuspStopSeconds of timeSeconds. */
  cusps?: number;
  /** Turns counted by turnType. */
  turnsByType?: Record<string, number>;
  fuelLiters?: number;
  [extra: string]: unknown;
}

/** GuidanceGeometryType (spec 2.4) plus the non-working route pieces. */
export type GuidanceGeometryType = 'Track' | 'ExteriorHeadland' | 'InteriorHeadland';
export type RouteSegmentType = GuidanceGeometryType | 'Turn' | 'Connector';

export type TurnType =
  'U' | 'PerfectU' | 'Bulb' | 'PTurn' | 'Fishtail' | 'Dubins' | 'ReedsShepp' | 'HeadlandTraversal' | 'Corner';

/** One piece of the route, in driving order. */
export interface RouteSegment {
  /** Position in the route, from 0. */
  sequence: number;
  type: RouteSegmentType;
  /** lon/lat polyline; starts within 0.05 m of where the previous segment ended. */
  coordinates: Position[];
  lengthMeters: number;
  /** For working passes. */
  widthMeters?: number;
  /** For Turn segments. */
  turnType?: TurnType;
  /** Index into plan.tracks / plan.headlands for working passes. */
  trackIndex?: number;
  headlandIndex?: number;
  /** True where the machine drives backwards (only when reverse is allowed). */
  reverse?: boolean;
  /** Free-form extras (cellIndex, connector kind, ...). */
  [extra: string]: unknown;
}

export interface PlanWarning {
  code: string;
  message: string;
  /** Where, in lon/lat: a Point or the LineString it is about. */
  geometry?: { type: string; coordinates: unknown };
  /** The route piece it is about (`route[].sequence`), when it is about one. */
  sequence?: number;
  /** The feature it applies to when it has no one place (`field`, `headland`, …). */
  feature?: string;
}

/**
 * A zone: a stretch of the route the machine works without leaving the field. Zones are joined by
 * transit legs (`Connector` pieces with `connectorKind: "transport"`, each with a warning).
 */
export interface PlanZone {
  index: number;
  /** `sequence` of the zone's first and last route piece. */
  firstSequence: number;
  lastSequence: number;
  start: Position;
  end: Position;
  workingDistanceMeters: number;
  /** The access point (index into the request's `accessPoints`) nearest the zone's start / end, and how far. */
  entryAccessPoint?: number;
  entryAccessPointMeters?: number;
  exitAccessPoint?: number;
  exitAccessPointMeters?: number;
}

export interface Plan {
  /** Version of furrow that made the plan. */
  version: string;
  metrics: PlanMetrics;
  /** Working heading actually used, degrees clockwise from north, and how it was chosen. */
  heading: { degrees: number; source: 'preferred' | 'search' };
  /** The route in driving order. */
  route: RouteSegment[];
  /** The field as planned (outer ring + holes), lon/lat. */
  boundary: FieldGeometry;
  warnings: PlanWarning[];
  /** The route's zones, in driving order (one for a field the machine works without leaving it). */
  zones?: PlanZone[];
  /** The field's gates the plan was made with (the request's `accessPoints`, [lon, lat]); absent when none. */
  accessPoints?: Position[];
  /** The variants the planner tried and why one was kept (objective.ts, choice/). */
  choice?: PlanChoice;
  [extra: string]: unknown;
}

/** One variant the planner tried: its settings, how it ended, and its objective (seconds of machine time). */
export interface PlanChoiceVariant {
  /** Exterior headland passes planned. */
  headlandPasses: number;
  /** Strip passes: all a strip needs, one through the largest strip, or none. */
  strips: 'all' | 'single' | 'none';
  /** Whether cells could take headings of their own. */
  cellHeadings: boolean;
  /** Whether strips could be driven along their centre lines. */
  centreLines: boolean;
  /** Why it was tried: asked, turns-need, halfway, passes-asked, one-heading, no-strips. */
  why: string;
  /**
   * kept; planned (another was better); bound (its route alone cost more than the kept plan);
   * replaced (not routed: the turns need a deeper headland).
   */
  status: 'kept' | 'planned' | 'bound' | 'replaced';
  /** The objective, seconds (for `bound`, its route part: a lower bound). */
  objectiveSeconds?: number;
  /**
   * The objective's parts, seconds: workSeconds, turnSeconds, transportSeconds, cuspSeconds,
   * unworkedSeconds, undrivableSeconds, offFieldSeconds.
   */
  parts?: Record<string, number>;
}

export interface PlanChoice {
  variants: PlanChoiceVariant[];
}
