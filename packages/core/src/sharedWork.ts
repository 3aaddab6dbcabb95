/** What the plannings of one `planRoute` call share (plan.ts). */
import type { LocalField } from './geometry/prepareField.js';
import type { PathsD } from './geometry/clipper.js';
import type { HeadlandStage } from './headland/planHeadlands.js';
import type { headlandRoutePieces } from './headland/headlandPieces.js';
import type { ChosenHeading } from './tracks/planTracks.js';
import type { RouteField } from './route/routeTracks.js';
import type { ConnectionMemo } from './route/connectionMemo.js';
import type { TurnHeadland } from './tracks/widenHeadland.js';

/**
 * Work of one `planRoute` call that does not depend on the tracks (the same request gives the same
 * field, headlands, heading and connector rings): done by the first planning, reused by the others.
 */
export interface SharedWork {
  memo: ConnectionMemo;
  prepared?: LocalField;
  /**
   * The field simplified where it is dense (geometry/simplifyBoundary.ts): for headland offsets and connector rings.
   */
  simple?: PathsD;
  headlands?: HeadlandStage<ChosenHeading>;
  headlandRoute?: ReturnType<typeof headlandRoutePieces>;
  routeField?: RouteField;
  /** Headland passes the turns need where the request gave fewer (tracks/widenHeadland.ts): null = they fit. */
  turnHeadland?: TurnHeadland | null;
}
