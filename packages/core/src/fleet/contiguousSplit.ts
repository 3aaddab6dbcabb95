/**
 * The contiguous split, the fleet's plainest plan and the planner's second candidate: the field cut across its
 * tracks (along the heading) into one strip per machine, the strips' areas in proportion to the machines' working
 * rates (width × working speed: equal work), each strip planned alone for its machine at that heading (with its
 * own headland, so every headland pass goes to the strip it lies in). Alone, its makespan is the slowest strip's
 * time; planFleet times the strips together (schedule.ts) so that the machines keep the safety distance.
 */
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import type { PathPlanRequest, Plan } from '../types.js';
import { splitField } from './splitField.js';
import type { FleetRequest } from './types.js';
import { machineRequest } from './validateFleet.js';

/**
 * One plan per machine of the fleet (in its order): its strip of the field, planned alone at `headingDegrees`.
 * `stop`: asked after each strip's plan; true ends the planning there (the plans so far are returned).
 */
export function contiguousSplitPlans(
  request: FleetRequest,
  machines: readonly ResolvedMachine[],
  headingDegrees: number,
  plan: (r: PathPlanRequest) => Plan,
  stop: (p: Plan) => boolean = () => false,
): Plan[] {
  const weights = machines.map((m) => m.widthMeters * m.workingSpeedMetersPerSecond);
  const strips = splitField(machineRequest(request, request.fleet[0]), headingDegrees, weights);
  const plans: Plan[] = [];
  for (let i = 0; i < strips.length; i++) {
    const r = machineRequest(request, request.fleet[i]);
    delete r.boundary;
    const p = plan({ ...r, field: strips[i], tracks: { ...r.tracks, preferredDirectionDegrees: headingDegrees } });
    plans.push(p);
    if (i < strips.length - 1 && stop(p)) break;
  }
  return plans;
}

/** The split's makespan with no machine waiting for another: its slowest strip's time, seconds. */
export function contiguousSplitSeconds(plans: readonly Plan[]): number {
  return Math.max(0, ...plans.map((p) => p.metrics.timeSeconds));
}
