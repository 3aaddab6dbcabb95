/**
 * Fleets of several widths: the field is cut into one region per width class, across the tracks'
 * direction, each region's share of the area in proportion to its class's working rate (Σ width × speed),
 * and each region planned alone for its class. Not yet written: see planFleet.
 */
import { PlanError } from '../errors.js';
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import type { PathPlanRequest, Plan } from '../types.js';
import type { FleetMachineInput, FleetRequest } from './types.js';

export function planWidthRegions(
  _request: FleetRequest,
  _classes: number[][],
  _machines: readonly ResolvedMachine[],
  _plan: (r: PathPlanRequest) => Plan,
  _classMachine: (members: number[]) => FleetMachineInput,
): Plan[] {
  throw new PlanError('infeasible', 'fleets of several widths are not planned yet', [
    { path: 'fleet', message: 'mixed' },
  ]);
}
