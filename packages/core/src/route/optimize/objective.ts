/**
 * Objective weights (routeOptions.objective): what one meter of each kind of driving costs.
 * `distance`: meters; `time`: seconds (meters ÷ the machine's speed for that kind of driving);
 * `fuel`: liters (seconds × liters per hour ÷ 3600). Transition costs of an OrderingProblem are
 * built as connector meters × turningPerMeter (in-field) or × transportPerMeter (to and from a
 * staging area), working costs as meters × workingPerMeter.
 */
import type { RouteObjective } from '../../types.js';
import { secondsPerMeter } from '../../objective.js';
import { DEFAULTS } from '../../request/normalizeRequest.js';
import type { ResolvedMachine } from '../../request/normalizeRequest.js';

/** The machine's speeds (resolved) and fuel rates (the objective's defaults when absent). */
export type ObjectiveMachine = Pick<
  ResolvedMachine,
  | 'workingSpeedMetersPerSecond'
  | 'turningSpeedMetersPerSecond'
  | 'transportSpeedMetersPerSecond'
  | 'workingFuelLitersPerHour'
  | 'turningFuelLitersPerHour'
>;

export interface ObjectiveRates {
  objective: RouteObjective;
  workingPerMeter: number;
  turningPerMeter: number;
  transportPerMeter: number;
}

export function objectiveRates(machine: ObjectiveMachine, objective: RouteObjective): ObjectiveRates {
  const work = machine.workingSpeedMetersPerSecond;
  const turn = machine.turningSpeedMetersPerSecond;
  const transport = machine.transportSpeedMetersPerSecond;
  if (objective === 'distance') return { objective, workingPerMeter: 1, turningPerMeter: 1, transportPerMeter: 1 };
  if (objective === 'time') {
    // the planner's objective's rates (objective.ts): the route's order and the choice between plannings agree
    const rate = secondsPerMeter(machine);
    return {
      objective,
      workingPerMeter: rate.working,
      turningPerMeter: rate.turning,
      transportPerMeter: rate.transport,
    };
  }
  const workFuel = machine.workingFuelLitersPerHour ?? DEFAULTS.objectiveWorkingFuelLitersPerHour;
  const turnFuel = machine.turningFuelLitersPerHour ?? DEFAULTS.objectiveTurningFuelLitersPerHour;
  return {
    objective,
    workingPerMeter: workFuel / 3600 / work,
    turningPerMeter: turnFuel / 3600 / turn,
    transportPerMeter: turnFuel / 3600 / transport,
  };
}
