/**
 * How long a machine takes over each piece of its route: working passes at its working speed, turns
 * and connectors at its turning speed (as metrics/computeMetrics.ts times a plan), and a stop of
 * `cuspStopSeconds` for each cusp, counted where the piece reverses the direction of travel (the rule of
 * metrics/manoeuvres.ts, kept per piece here). A piece is driven at an even pace between its times.
 */
import type { ResolvedMachine } from '../request/normalizeRequest.js';
import { polylineLength } from '../geometry/vec.js';
import { cuspsPerSegment } from '../metrics/manoeuvres.js';

export interface DrivenPiece {
  xy: Float64Array;
  working: boolean;
}

/** The cusps of each piece along a route: a reversal of more than 90° between chords of at least 1 cm. */
export function cuspsPerPiece(pieces: readonly DrivenPiece[]): number[] {
  return cuspsPerSegment(pieces);
}

/** Seconds the machine spends on each piece of its route, in order. */
export function pieceSeconds(pieces: readonly DrivenPiece[], machine: ResolvedMachine): number[] {
  const cusps = cuspsPerPiece(pieces);
  return pieces.map((p, i) => {
    const speed = p.working ? machine.workingSpeedMetersPerSecond : machine.turningSpeedMetersPerSecond;
    return polylineLength(p.xy) / speed + cusps[i] * machine.cuspStopSeconds;
  });
}
