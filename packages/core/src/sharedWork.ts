/** What the two plannings of one `planRoute` call share (plan.ts). */
import type { Plan } from './types.js';
import type { LocalField } from './geometry/prepareField.js';
import type { PathsD } from './geometry/clipper.js';
import type { generateHeadlands } from './headland/generateHeadlands.js';
import type { headlandRoutePieces } from './headland/headlandPieces.js';
import type { ShapedHeadlands } from './headland/planHeadlands.js';
import type { RouteField } from './route/routeTracks.js';
import type { ConnectionMemo } from './route/connectionMemo.js';
import type { withoutSmallObstacles } from './headland/smallObstacles.js';

/**
 * Work of one `planRoute` call that does not depend on the tracks (the same request gives the same
 * field, headlands, heading and connector rings): done by the first planning, reused by the second.
 */
export interface SharedWork {
  memo: ConnectionMemo;
  prepared?: LocalField;
  /** The field simplified where it is dense (geometry/simplifyBoundary.ts): for headland offsets and connector rings. */
  simple?: PathsD;
  fullHeadlands?: ReturnType<typeof generateHeadlands>;
  searchedDirectionRadians?: number;
  shaped?: ShapedHeadlands;
  headlandRoute?: ReturnType<typeof headlandRoutePieces>;
  routeField?: RouteField;
  smallObstacles?: ReturnType<typeof withoutSmallObstacles>;
  /** Set when the wall-clock cap kept a field from being planned a second time with one heading. */
  secondSkipped?: boolean;
}

export type PlanWithOptimizer = Plan & { optimizer?: { timeSpentMilliseconds?: number; [key: string]: unknown } };
