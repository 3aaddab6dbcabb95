/**
 * A machine's way in from its `startPoint` to where its share starts: a declared transport leg, routed as the
 * single plan's staging legs are (refill/legs.ts): inside the field round holes and non-passable obstacles, from a
 * point outside in at the boundary point that leaves the way clear, corners rounded to the machine's turning
 * radius. Driven at the transport speed before the share; its time holds the share's start back (not a wait).
 */
import type { LocalField } from '../geometry/prepareField.js';
import { ringToFlat } from '../geometry/clipper.js';
import { Region } from '../geometry/region.js';
import { simplificationTolerance } from '../geometry/simplifyBoundary.js';
import { legLengthMeters, routeLeg } from '../refill/legs.js';
import type { LegRouter } from '../refill/legs.js';
import type { XY } from '../refill/refill.js';
import { buildWaypoints } from '../turns/waypointPath.js';
import type { Waypoints } from '../turns/waypointPath.js';

/** Where a machine comes from (local xy), how fast, and the router of its way in (legs made once per end point). */
export interface Approach {
  x: number;
  y: number;
  speedMetersPerSecond: number;
  router: LegRouter;
  legs: Map<string, XY[]>;
}

/** Per fleet machine, its approach, or undefined (no start point: it starts where its share starts). */
export type Approaches = readonly (Approach | undefined)[];

/** The router of the fleet's approaches: the field less its non-passable obstacles, turns of radius `R`. */
export function approachRouter(prepared: LocalField, turnRadiusMeters: number): LegRouter {
  const area = prepared.workable;
  let waypoints: Waypoints | undefined;
  return {
    region: new Region(area),
    rings: area.map(ringToFlat),
    waypoints: () => (waypoints ??= buildWaypoints(area, 1.5 * turnRadiusMeters + simplificationTolerance(area))),
    turnRadiusMeters,
  };
}

/** The leg from the approach's start to (x, y), both included. */
export function approachLeg(a: Approach, x: number, y: number): XY[] {
  const key = `${x},${y}`;
  let leg = a.legs.get(key);
  if (!leg) {
    leg = routeLeg(a.router, [a.x, a.y], [x, y]);
    a.legs.set(key, leg);
  }
  return leg;
}

/** Seconds to come from the approach's start to where `pieces` start (0 with none). */
export function approachSeconds(approach: Approach | undefined, pieces: readonly { xy: Float64Array }[]): number {
  if (!approach || pieces.length === 0) return 0;
  const xy = pieces[0].xy;
  return legLengthMeters(approachLeg(approach, xy[0], xy[1])) / approach.speedMetersPerSecond;
}
