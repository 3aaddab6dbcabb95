import type { SmoothingStrategyType } from '../types.js';
import type { TurnOptions } from './types.js';

/**
 * The manoeuvre options of a machine: its turning radius, reversing, curvature-rate limit, smoothing; sampled every 0.5
 * m.
 */
export function machineTurnOptions(
  machine: { turnRadiusMeters: number; reverseAllowed: boolean; maxCurvatureRatePerSquareMeter?: number },
  smoothing?: SmoothingStrategyType,
): TurnOptions {
  return {
    turnRadiusMeters: machine.turnRadiusMeters,
    reverseAllowed: machine.reverseAllowed,
    sampleStepMeters: 0.5,
    ...(machine.maxCurvatureRatePerSquareMeter !== undefined
      ? { maxCurvatureRatePerSquareMeter: machine.maxCurvatureRatePerSquareMeter }
      : {}),
    ...(smoothing ? { smoothing } : {}),
  };
}
