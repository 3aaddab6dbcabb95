/**
 * Public shapes of fleet planning (`planFleet`): several machines working one field at once.
 * Everything is plain JSON; times are seconds from the moment the fleet starts.
 */
import type { MachineInput, PathPlanRequest, Plan, PlanWarning, Position, RouteSegment } from '../types.js';

/** One machine of a fleet: a machine description with an id (and optionally where it starts). */
export interface FleetMachineInput extends MachineInput {
  /** Unique within the fleet; appears as `machineId` in every output. */
  id: string;
  /**
   * [lon, lat] where the machine comes from at the start: it cannot start its share before it has come from there
   * (its way in, routed inside the field round holes and obstacles as `FleetApproach` says, at its transport speed),
   * and the layout search also lets machines exchange shares, so each tends to get the share that starts nearest.
   */
  startPoint?: Position;
}

/** A request for several machines in one field: the usual request with a `fleet` instead of one machine. */
export interface FleetRequest extends PathPlanRequest {
  fleet: FleetMachineInput[];
  /** Two machines are never closer than this at the same moment, meters (default: the largest working width). */
  safetyDistanceMeters?: number;
}

/** A route piece with the times the machine drives it (uniform pace between them). */
export interface TimedRouteSegment extends RouteSegment {
  startSeconds: number;
  endSeconds: number;
}

/** A stop the scheduler put in so that two machines keep the safety distance. */
export interface FleetWait {
  machineId: string;
  /** [lon, lat] where the machine stands. */
  position: Position;
  /** The segment (its `sequence` in the machine's route) the machine waits before. */
  beforeSequence: number;
  startSeconds: number;
  durationSeconds: number;
  /** The machine it gives way to. */
  givesWayTo: string;
}

/** One machine's share: a plan of its own (checkPlan judges it like any plan), timed, with its waits. */
export interface FleetMachinePlan extends Plan {
  machineId: string;
  route: TimedRouteSegment[];
  waits: FleetWait[];
  /** When the machine starts and finishes its share, seconds. */
  startSeconds: number;
  finishSeconds: number;
  /**
   * For a machine with a `startPoint`: the time it takes to come from there to where its route starts (`approach`
   * at its transport speed), seconds; its first segment starts no earlier (not a wait).
   */
  approachSeconds?: number;
  /** For a machine with a `startPoint` and a share: its way in, a transport leg (not part of `route`). */
  approach?: FleetApproach;
}

/**
 * A machine's way in from its start point to its route's first point, a declared transport leg: routed inside the
 * field round holes and non-passable obstacles (from a point outside, in at the boundary where the way is clear),
 * corners rounded to its turning radius; driven at its transport speed from `startSeconds` (0) to `endSeconds`.
 * Not checked against the other machines: the scheduler times the shares only.
 */
export interface FleetApproach {
  /** [lon, lat] from the start point to the route's first point. */
  coordinates: Position[];
  lengthMeters: number;
  startSeconds: number;
  endSeconds: number;
}

export interface FleetSummary {
  machineCount: number;
  /** When the last machine finishes, seconds. */
  makespanSeconds: number;
  /** Σ of the machines' busy times (driving, turning, cusps and waits), seconds. */
  totalTimeSeconds: number;
  /** Σ of the waits, seconds. */
  waitSeconds: number;
  /**
   * A lower bound on the makespan for any split of the planned route, seconds: the route's time (passes, turns,
   * cusps) less the k − 1 longest connector runs a split can leave out, at the machines' combined pace; at least
   * `workLowerBoundSeconds`. For a fleet of several widths (one route per width's strip), the work-only bound; for
   * the pair route (two plannings, its passes 6 m and 12 m wide) too: its passes' area (length × their width) at
   * the fleet's combined rate, or its longest pass at the fastest speed — no machine works faster than its width ×
   * speed, so no timetable of those passes ends sooner. The contiguous split's bound is its slowest strip alone;
   * the smallest over the candidates weighed is given (true of each of them).
   */
  lowerBoundSeconds: number;
  /** makespan ÷ lower bound − 1. */
  gapRatio: number;
  /**
   * A lower bound for any plan of these passes, seconds: the working passes' time at the fleet's combined rate
   * (Σ width × working speed), or the longest single pass at the fastest working speed, whichever is larger (the
   * smallest over the candidates' passes).
   */
  workLowerBoundSeconds: number;
  /** makespan ÷ work lower bound − 1. */
  workGapRatio: number;
  safetyDistanceMeters: number;
  /** The single-machine plan's time, seconds (the whole field, one machine of the narrowest width class). */
  singleMachineTimeSeconds: number;
  /**
   * Coverage of the union of the machines' passes (the same passes as the single plans'; for several widths measured
   * on all the machines' passes together).
   */
  uncoveredRatio: number;
  /**
   * The contiguous split's makespan with no machine waiting (one strip per machine of equal work, each planned
   * alone: its slowest strip's time), seconds; absent for one machine, when a strip cannot be planned, or when the
   * split's planning stopped early (a strip alone took longer than the shared route's objective).
   */
  contiguousSplitSeconds?: number;
  /**
   * The candidates planned and the one kept (`chosen`): `shared-route` (the single route shared out; for several
   * widths, one strip per width, each its route shared out), for several widths `narrow-route` (the whole field's
   * route for the narrowest width, shared by every machine that can work it, a wider one with only the middle band
   * of its boom on), for two widths `pair-route` (the wide machines on groups of the narrow plan's neighbouring
   * tracks, one pass along each group's middle, the narrow ones on the rest; pairRoute.ts), and `contiguous-split`
   * (its strips timed together, waits included). A candidate that keeps
   * the single-machine plan's coverage (within 0.2 point of the field; several widths: the narrowest width's plan)
   * beats one that does not; then fewer conflicts no wait could clear, then the fleet's objective (makespan +
   * unworked ground priced as objective.ts prices it, at the fleet's combined rate); a tie keeps the one listed
   * first. `algorithm`: the single route's; `moves`: the kept candidate's search moves.
   */
  search: {
    algorithm: string;
    chosen: 'shared-route' | 'contiguous-split' | 'narrow-route' | 'pair-route';
    /**
     * A candidate `pruned` (the split, once one strip alone took longer than the shared route's objective: it
     * could not win) gives only `makespanSeconds`, that strip's time, a lower bound on its makespan.
     */
    candidates: {
      algorithm: string;
      makespanSeconds: number;
      objectiveSeconds?: number;
      unresolved?: number;
      uncoveredRatio?: number;
      pruned?: true;
    }[];
    moves: number;
  };
}

export interface FleetPlan {
  version: string;
  fleet: FleetSummary;
  machines: FleetMachinePlan[];
  boundary: Plan['boundary'];
  heading: Plan['heading'];
  warnings: PlanWarning[];
}
