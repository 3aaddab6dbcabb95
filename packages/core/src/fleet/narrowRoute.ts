/**
 * Fleets of several widths, the coverage-keeping candidate: the whole field's route planned for the narrowest
 * width (the single-machine plan's passes), shared among every machine that can work a pass of that width. A wider
 * machine does so with its boom centred on the pass and only the middle band of the narrow width switched on
 * (section control): any machine whose sections are not given, or whose sections include a middle run adding up to
 * the narrow width. Its route pieces keep the pass's `widthMeters`, so checkPlan and the metrics measure the narrow
 * swath. The route is planned for the tightest limits among the machines sharing it.
 */
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import type { PathPlanRequest, Plan } from '../types.js';
import type { FleetMachineInput, FleetRequest } from './types.js';
import { machineRequest } from './validateFleet.js';

/** Section edges may miss the narrow band's edges by this much, m. */
const EDGE_TOLERANCE_METERS = 0.01;

/** Whether `machine` can work a pass `narrowMeters` wide with its boom centred on it (the middle band on). */
export function worksNarrowBand(machine: ResolvedMachine, narrowMeters: number): boolean {
  const w = machine.widthMeters;
  if (Math.abs(w - narrowMeters) < 1e-6) return true;
  if (w < narrowMeters) return false;
  const sections = machine.sectionWidthsMeters;
  if (!sections) return true;
  const edges = [0];
  for (const s of sections) edges.push(edges[edges.length - 1] + s);
  const has = (v: number): boolean => edges.some((e) => Math.abs(e - v) < EDGE_TOLERANCE_METERS);
  const margin = (w - narrowMeters) / 2;
  return has(margin) && has(margin + narrowMeters);
}

/** The machines (indices) that share the narrow route: the narrowest class first, then the wider ones able to. */
export function narrowRouteMembers(classes: readonly number[][], machines: readonly ResolvedMachine[]): number[] {
  const narrow = machines[classes[0][0]].widthMeters;
  const wider = classes
    .slice(1)
    .flat()
    .filter((i) => worksNarrowBand(machines[i], narrow));
  return [...classes[0], ...wider];
}

/** Limits that shape a route: a route planned for the same ones is the same route. */
function limits(m: FleetMachineInput): string {
  return JSON.stringify([m.turnRadiusMeters, m.maxCurvatureRatePerSquareMeter, m.reverseAllowed === true]);
}

/**
 * The whole field's route for the machines `members` (narrowest first): `whole` (planned for the narrowest class)
 * where their tightest limits are that class's, else planned again for them.
 */
export function narrowRoutePlan(
  request: FleetRequest,
  members: readonly number[],
  narrowClass: readonly number[],
  whole: Plan,
  plan: (r: PathPlanRequest) => Plan,
  classMachine: (members: readonly number[]) => FleetMachineInput,
): Plan {
  const tightest = classMachine(members);
  if (limits(tightest) === limits(classMachine(narrowClass))) return whole;
  return plan(machineRequest(request, tightest));
}
