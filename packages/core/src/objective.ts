/**
 * The planner's one objective: seconds of machine time. Every choice between plannings in core
 * (headland passes, strip passes, per-cell headings; choice/) is made with it, and so are the
 * fleet and traffic planners.
 *
 * objective = working metres ÷ working speed + in-field turn and connector metres ÷ turning speed
 *           + transport metres ÷ transport speed + cusps × cuspStopSeconds
 *           + unworked m² ÷ (width × working speed) × UNWORKED_RETURN_FACTOR
 *           + UNDRIVABLE_JOIN_SECONDS per join the machine cannot drive
 *           + OFF_FIELD_SECONDS_PER_METER per metre driven off the field (declared transport legs aside).
 *
 * The unworked ground is priced as the time to come back and work it: at the machine's width and
 * working speed, times UNWORKED_RETURN_FACTOR, what a patch costs over working it in the pass
 * (driving there and back, short passes with a turn at each end, and the crop's loss meanwhile).
 * Lower is better; plannings within TIE_SECONDS are tied, and a tie goes to the planning listed
 * first (choice/planVariants.ts), so the choice is deterministic.
 */

/** What the objective reads of a machine (request/normalizeRequest.ts `ResolvedMachine` has it). */
export interface PlanObjectiveMachine {
  widthMeters: number;
  workingSpeedMetersPerSecond: number;
  turningSpeedMetersPerSecond: number;
  transportSpeedMetersPerSecond: number;
  cuspStopSeconds: number;
}

/** What a planning is weighed by. */
export interface ObjectiveFacts {
  workingMeters: number;
  /** Turns and connectors inside the field. */
  turningMeters: number;
  /** Declared transport legs (`connectorKind: "transport"`). */
  transportMeters: number;
  cusps: number;
  uncoveredSquareMeters: number;
  /** Joins nothing drivable fits (`turn-not-fitted`, `connector-leaves-field`). */
  undrivableJoins: number;
  /** Metres of turns and connectors off the field. */
  offFieldMeters: number;
}

/** The objective's parts, seconds each. */
export interface ObjectiveParts {
  workSeconds: number;
  turnSeconds: number;
  transportSeconds: number;
  cuspSeconds: number;
  unworkedSeconds: number;
  undrivableSeconds: number;
  offFieldSeconds: number;
}

export interface Objective {
  /** The sum of the parts. */
  seconds: number;
  parts: ObjectiveParts;
}

/**
 * A m² left unworked costs this many times the time to work it in the pass. At the old weighing of
 * the widened headland (unworked share + 0.05 × non-working ÷ working) a point of the field unworked
 * was worth about 33 times its working time; the cell-heading rule traded 0.1 point of it for any
 * shorter route. 25 keeps coverage first without buying a tenth of a point with an hour of driving.
 */
export const UNWORKED_RETURN_FACTOR = 25;
/**
 * A join the machine cannot drive: the route fails there, and the driver takes over, manoeuvres by
 * hand or plans again — an hour, so that no amount of ground left out of a drivable plan is worth one.
 */
export const UNDRIVABLE_JOIN_SECONDS = 3600;
/** Each metre driven off the field (into a hedge, a neighbour's crop, a no-go zone). */
export const OFF_FIELD_SECONDS_PER_METER = 60;
/** Plannings closer than this are tied (the first listed wins). */
export const TIE_SECONDS = 0.01;

/** Seconds per metre of each kind of driving: the objective's rates (route/optimize/objective.ts's `time`). */
export function secondsPerMeter(m: Omit<PlanObjectiveMachine, 'widthMeters' | 'cuspStopSeconds'>): {
  working: number;
  turning: number;
  transport: number;
} {
  return {
    working: 1 / m.workingSpeedMetersPerSecond,
    turning: 1 / m.turningSpeedMetersPerSecond,
    transport: 1 / m.transportSpeedMetersPerSecond,
  };
}

/** The objective of a planning. */
export function objectiveOf(f: ObjectiveFacts, m: PlanObjectiveMachine): Objective {
  const rate = secondsPerMeter(m);
  const parts: ObjectiveParts = {
    workSeconds: f.workingMeters * rate.working,
    turnSeconds: f.turningMeters * rate.turning,
    transportSeconds: f.transportMeters * rate.transport,
    cuspSeconds: f.cusps * m.cuspStopSeconds,
    unworkedSeconds: unworkedSeconds(f.uncoveredSquareMeters, m),
    undrivableSeconds: f.undrivableJoins * UNDRIVABLE_JOIN_SECONDS,
    offFieldSeconds: f.offFieldMeters * OFF_FIELD_SECONDS_PER_METER,
  };
  let seconds = 0;
  for (const v of Object.values(parts)) seconds += v;
  return { seconds, parts };
}

/** The unworked part alone: `squareMeters` priced as the time to come back and work them. */
export function unworkedSeconds(squareMeters: number, m: PlanObjectiveMachine): number {
  return (squareMeters / (m.widthMeters * m.workingSpeedMetersPerSecond)) * UNWORKED_RETURN_FACTOR;
}

/** Whether objective `a` beats `b` (strictly, beyond TIE_SECONDS): a tie keeps the one listed first. */
export function beats(aSeconds: number, bSeconds: number): boolean {
  return aSeconds < bSeconds - TIE_SECONDS;
}
