/**
 * The fleet part of a request, checked before anything is planned: a `PlanError` naming the field
 * (`fleet`, `fleet[2].id`, `fleet[1].widthMeters`, `safetyDistanceMeters`) for an empty fleet, too
 * many machines, duplicate ids, a width that is not a whole multiple of the narrowest, or a machine the
 * single-machine request rules reject.
 */
import { PlanError } from '../errors.js';
import type { PlanErrorDetail } from '../errors.js';
import { normalizeRequest } from '../request/normalizeRequest.js';
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import { isLonLat } from '../request/position.js';
import type { PathPlanRequest } from '../types.js';
import type { FleetMachineInput, FleetRequest } from './types.js';

/** The most machines one fleet request may carry. */
export const MAX_FLEET_MACHINES = 20;
/** How far a width may be off a whole multiple of the narrowest, relative. */
const MULTIPLE_TOLERANCE = 1e-6;

function fail(path: string, message: string): never {
  throw new PlanError('invalid-fleet', `${path}: ${message}`, [{ path, message }]);
}

/** The request for one machine of the fleet (the fleet and its safety distance taken out). */
export function machineRequest(request: FleetRequest, machine: FleetMachineInput): PathPlanRequest {
  const { fleet: _fleet, safetyDistanceMeters: _safety, ...rest } = request;
  const { id: _id, startPoint: _start, ...spec } = machine;
  const out: PathPlanRequest = { ...rest, machine: spec };
  delete out.equipment;
  return out;
}

/** Every machine resolved (defaults applied), in the fleet's order; throws `PlanError` on a bad fleet. */
export function validateFleet(request: FleetRequest): ResolvedMachine[] {
  const fleet = (request as { fleet?: unknown }).fleet;
  if (!Array.isArray(fleet)) fail('fleet', 'give the fleet as a list of machines, each with an id and a widthMeters');
  if (fleet.length === 0) fail('fleet', 'the fleet is empty: give at least one machine');
  if (fleet.length > MAX_FLEET_MACHINES)
    fail('fleet', `at most ${MAX_FLEET_MACHINES} machines may share a field, this fleet has ${fleet.length}`);
  const seen = new Set<string>();
  const resolved: ResolvedMachine[] = [];
  fleet.forEach((m: unknown, i: number) => {
    if (typeof m !== 'object' || m === null)
      fail(`fleet[${i}]`, 'each machine is an object with an id and a widthMeters');
    const id = (m as { id?: unknown }).id;
    if (typeof id !== 'string' || id.trim() === '') fail(`fleet[${i}].id`, 'each machine needs a non-empty string id');
    if (seen.has(id)) fail(`fleet[${i}].id`, `duplicate machine id "${id}": ids must be unique within the fleet`);
    seen.add(id);
    checkStartPoint((m as { startPoint?: unknown }).startPoint, i);
    resolved.push(resolveMachine(request, m as FleetMachineInput, i));
  });
  const narrowest = Math.min(...resolved.map((m) => m.widthMeters));
  resolved.forEach((m, i) => {
    const ratio = m.widthMeters / narrowest;
    if (Math.abs(ratio - Math.round(ratio)) > MULTIPLE_TOLERANCE * ratio)
      fail(
        `fleet[${i}].widthMeters`,
        `${m.widthMeters} m is not a whole multiple of the narrowest machine's ${narrowest} m`,
      );
  });
  const safety = request.safetyDistanceMeters;
  if (safety !== undefined && !(typeof safety === 'number' && Number.isFinite(safety) && safety >= 0 && safety <= 1000))
    fail('safetyDistanceMeters', 'give a number of meters from 0 to 1000 (default: the largest working width)');
  return resolved;
}

/** A machine's `startPoint`, if given: [lon, lat] in degrees. */
function checkStartPoint(p: unknown, i: number): void {
  if (p === undefined) return;
  if (isLonLat(p, true)) return;
  fail(`fleet[${i}].startPoint`, 'give [lon, lat] in degrees (lon −180 to 180, lat −90 to 90)');
}

/** One machine through the single-machine rules, its errors' paths moved under `fleet[i]`. */
function resolveMachine(request: FleetRequest, machine: FleetMachineInput, i: number): ResolvedMachine {
  try {
    return normalizeRequest(machineRequest(request, machine)).machine;
  } catch (e) {
    if (!(e instanceof PlanError)) throw e;
    const details: PlanErrorDetail[] = e.details.map((d) => ({
      path: d.path.replace(/^(machine|equipment)\b/, `fleet[${i}]`),
      message: d.message,
    }));
    throw new PlanError(e.code, e.message.replace(/\b(machine|equipment)\./g, `fleet[${i}].`), details);
  }
}
