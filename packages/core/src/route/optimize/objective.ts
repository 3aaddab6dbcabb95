/**
 * Objective weights (routeOptions.objective): what one meter of each kind of driving costs.
 * `distance`: meters; `time`: seconds (meters ÷ the machine's speed for that kind of driving);
 * `fuel`: liters (seconds × liters per hour ÷ 3600). Transition costs of an OrderingProblem are
 * built as connector meters × turningPerMeter (in-field) or × transportPerMeter (to and from a
 * staging area), working costs as meters × workingPerMeter.
 */
import type { MachineInput, RouteObjective } from '../../types.js';

export const DEFAULT_WORKING_SPEED_METERS_PER_SECOND = 2.5;
export const DEFAULT_TURNING_SPEED_METERS_PER_SECOND = 1.5;
export const DEFAULT_TRANSPORT_SPEED_METERS_PER_SECOND = 4;
/** Used for the fuel objective when the machine does not say (a mid-size tractor). */
export const DEFAULT_WORKING_FUEL_LITERS_PER_HOUR = 20;
export const DEFAULT_TURNING_FUEL_LITERS_PER_HOUR = 12;

export interface ObjectiveRates {
  objective: RouteObjective;
  workingPerMeter: number;
  turningPerMeter: number;
  transportPerMeter: number;
}

export function objectiveRates(machine: MachineInput, objective: RouteObjective = 'distance'): ObjectiveRates {
  const work = machine.workingSpeedMetersPerSecond ?? DEFAULT_WORKING_SPEED_METERS_PER_SECOND;
  const turn = machine.turningSpeedMetersPerSecond ?? DEFAULT_TURNING_SPEED_METERS_PER_SECOND;
  const transport = machine.transportSpeedMetersPerSecond ?? DEFAULT_TRANSPORT_SPEED_METERS_PER_SECOND;
  if (objective === 'distance') return { objective, workingPerMeter: 1, turningPerMeter: 1, transportPerMeter: 1 };
  if (objective === 'time') return { objective, workingPerMeter: 1 / work, turningPerMeter: 1 / turn, transportPerMeter: 1 / transport };
  const workFuel = machine.workingFuelLitersPerHour ?? DEFAULT_WORKING_FUEL_LITERS_PER_HOUR;
  const turnFuel = machine.turningFuelLitersPerHour ?? DEFAULT_TURNING_FUEL_LITERS_PER_HOUR;
  return {
    objective,
    workingPerMeter: workFuel / 3600 / work,
    turningPerMeter: turnFuel / 3600 / turn,
    transportPerMeter: turnFuel / 3600 / transport,
  };
}
