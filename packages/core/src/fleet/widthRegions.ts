/**
 * Fleets of several widths: the field is planned once for the narrowest class (its heading decides the
 * cuts), then cut across the tracks into one strip per width class (splitField.ts), each strip's share of
 * the area in proportion to its class's working rate (Σ width × working speed), and each strip planned
 * alone for its class, at that heading; then cut once more, in proportion to the rates the strips' plans
 * showed (area ÷ time, turns and headlands included), and planned again. Each class then shares its strip's
 * route out among its machines. The whole field's plan for the narrowest class is returned too: planFleet weighs
 * it, shared among that class alone, as a candidate (the wider machines idle) where the strips leave ground unworked.
 */
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import type { PathPlanRequest, Plan } from '../types.js';
import { splitField } from './splitField.js';
import type { FleetMachineInput, FleetRequest } from './types.js';
import { machineRequest } from './validateFleet.js';

export function planWidthRegions(
  request: FleetRequest,
  classes: number[][],
  machines: readonly ResolvedMachine[],
  plan: (r: PathPlanRequest) => Plan,
  classMachine: (members: number[]) => FleetMachineInput,
): { whole: Plan; strips: Plan[] } {
  const whole = plan(machineRequest(request, classMachine(classes[0])));
  const heading = whole.heading.degrees;
  const rates = classes.map((c) =>
    c.reduce((s, i) => s + machines[i].widthMeters * machines[i].workingSpeedMetersPerSecond, 0),
  );
  const base = machineRequest(request, classMachine(classes[0]));
  const planRegions = (weights: number[]): Plan[] =>
    splitField(base, heading, weights).map((field, i) => {
      const r = machineRequest(request, classMachine(classes[i]));
      delete r.boundary;
      return plan({ ...r, field, tracks: { ...r.tracks, preferredDirectionDegrees: heading } });
    });
  const first = planRegions(rates);
  // The rate each class showed on its strip, for its machines together (the share's time ÷ machines).
  const shown = first.map((p, i) => {
    const seconds = p.metrics.timeSeconds / classes[i].length;
    return seconds > 0 ? p.metrics.workableAreaSquareMeters / seconds : rates[i];
  });
  return { whole, strips: planRegions(shown) };
}
