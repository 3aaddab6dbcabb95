/** Stable error codes of the library. The API maps them to HTTP statuses in one place. */
export type PlanErrorCode =
  | 'invalid-request'
  | 'invalid-boundary'
  | 'self-intersection'
  | 'hole-outside-shell'
  | 'too-many-vertices'
  | 'width-not-positive'
  | 'invalid-option'
  | 'invalid-sections'
  | 'no-workable-area'
  | 'infeasible'
  /** A fleet (planFleet) that cannot be planned as given: empty, too many machines, duplicate ids, bad widths. */
  | 'invalid-fleet';

export interface PlanErrorDetail {
  /** Path of the offending request field, e.g. `machine.widthMeters` or `field.coordinates[0][3]`. */
  path: string;
  message: string;
}

/** Thrown by `planRoute` and the checks on bad input; `code` is stable, `message` says what to do. */
export class PlanError extends Error {
  readonly code: PlanErrorCode;
  readonly details: PlanErrorDetail[];

  constructor(code: PlanErrorCode, message: string, details: PlanErrorDetail[] = []) {
    super(message);
    this.name = 'PlanError';
    this.code = code;
    this.details = details;
  }
}

export function isPlanError(err: unknown): err is PlanError {
  return err instanceof PlanError || (err instanceof Error && err.name === 'PlanError' && 'code' in err);
}
