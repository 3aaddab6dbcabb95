/**
 * A route's faults: warnings of a route that leaves something out or cannot join it
 * (tracks/stripFaults.ts), and of those the joins nothing drivable fits (drawn straight, or leaving
 * the field: checkPlan's violations), which the objective prices (objective.ts, choice/facts.ts).
 * A strip pass left out on its own (`stripPass`) is a strip left, not a fault.
 */
const ROUTE_FAULTS = new Set(['headland-pass-skipped', 'track-skipped', 'turn-not-fitted', 'connector-leaves-field']);
export const UNDRIVABLE_WARNINGS: ReadonlySet<string> = new Set(['turn-not-fitted', 'connector-leaves-field']);

/** Whether a warning is a route fault. */
export function isRouteFault(wn: { code: string; stripPass?: true }): boolean {
  return ROUTE_FAULTS.has(wn.code) && !wn.stripPass;
}
