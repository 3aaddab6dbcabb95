/**
 * What the route stage reads: the field as it sees it (built once per `planRoute` call, shared by
 * its plannings) and one planning's input (routeTracks.ts, routeConnections.ts).
 */
import type { PathsD } from '../geometry/clipper.js';
import type { Region } from '../geometry/region.js';
import type { LocalFrame } from '../geometry/projection.js';
import type { Waypoints } from '../turns/waypointPath.js';
import type { LoopPath } from '../turns/connectorRings.js';
import type { TurnOptions } from '../turns/types.js';
import type { HeadlandPass } from '../headland/generateHeadlands.js';
import type { HeadlandRoutePieces } from '../headland/headlandPieces.js';
import type { Track } from '../tracks/generateTracks.js';
import type { ResolvedMachine, ResolvedRouteOptions } from '../request/normalizeRequest.js';
import type { ConnectionMemo } from './connectionMemo.js';

/** What the route stage needs of the field (built once per `planRoute` call, reused by a second planning). */
export interface RouteField {
  field: PathsD;
  frame: LocalFrame;
  region: Region;
  waypoints: () => Waypoints;
  partOf?: (x: number, y: number) => number;
  loops: () => LoopPath[];
  /** Whether `loops` has built the rings. */
  loopsBuilt: () => boolean;
  memo: ConnectionMemo;
  /** Counted work (milliseconds of the work clock) the route stages of the call's earlier plannings spent. */
  spentWorkMilliseconds: number;
}

export interface RouteStageInput {
  routeField: RouteField;
  machine: ResolvedMachine;
  headlandPasses: number;
  routeOptions: ResolvedRouteOptions;
  turnOptions: TurnOptions;
  tracks: Track[];
  cellOf: Int32Array;
  directionRadians: number;
  /** Passes in driving order, and their pieces. */
  passOrder: HeadlandPass[];
  headlandRoute: HeadlandRoutePieces;
  /** A clock, milliseconds, bounding the ordering instead of the work budget (clock.ts); plan.ts gives none. */
  now?: () => number;
  /** The wall-clock cap of the call: true once it has passed (the ordering stops where it is). */
  outOfTime?: () => boolean;
  /**
   * The same cap as the cheap way is taken past it (clock.ts `SafetyCap.hurry`): joins not costed yet are connected
   * cheaply, none refitted or tried anew.
   */
  hurry?: (what: string, late?: boolean) => boolean;
  /** Whether a second planning follows this one (it then takes half of maxOptimizerTime). */
  secondFollows: boolean;
  /** Ordering time an earlier planning of the same call spent, ms. */
  orderingSpentMilliseconds: number;
  /** The field's access points (gates), local: the route starts at the first (ends at it when it is the only one). */
  gates?: { x: number; y: number }[];
  /**
   * The headland passes driven between two of the tracks (route/passesBetween.ts) rather than after them, where that
   * joins what the route after them cannot (a variant, choice/).
   */
  passesBetween?: boolean;
}
