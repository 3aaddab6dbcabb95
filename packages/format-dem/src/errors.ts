import { PlanError } from '@furrow/core';

/** A `PlanError('invalid-request')` naming the file and what is wrong with it. */
export function demError(file: string, message: string, path = 'terrain.grid'): PlanError {
  return new PlanError('invalid-request', `${file}: ${message}`, [{ path, message }]);
}
