/**
 * A planning's route faults, as the choices between plannings weigh them (tracks/stripFallback.ts,
 * tracks/cellHeadingChoice.ts): warnings of a route that leaves something out or cannot join it,
 * and of those the joins nothing drivable fits (drawn straight, or leaving the field: checkPlan's
 * violations). A strip pass left out on its own (`stripPass`) is a strip left, not a fault.
 */
const ROUTE_FAULTS = new Set(['headland-pass-skipped', 'track-skipped', 'turn-not-fitted', 'connector-leaves-field']);
const UNDRIVABLE = new Set(['turn-not-fitted', 'connector-leaves-field']);

/** Whether a warning is a route fault. */
export function isRouteFault(wn: { code: string; stripPass?: true }): boolean {
  return ROUTE_FAULTS.has(wn.code) && !wn.stripPass;
}

/** How many of the warnings are route faults (`all`), and of them joins the machine cannot drive. */
export function routeFaults(warnings: readonly { code: string; stripPass?: true }[]): {
  all: number;
  undrivable: number;
} {
  let all = 0,
    undrivable = 0;
  for (const wn of warnings) {
    if (isRouteFault(wn)) all++;
    if (UNDRIVABLE.has(wn.code)) undrivable++;
  }
  return { all, undrivable };
}
