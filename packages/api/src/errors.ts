/**
 * HTTP errors of the API. Routes throw `ApiError`; the app's single `onError` turns it, a
 * library `PlanError`, a Hono `HTTPException` or anything else into the JSON bodies pinned by
 * docs/api.md "Errors", always with the request's correlation id.
 */
import { isPlanError, type PlanErrorCode, type PlanErrorDetail } from '@furrow/core';

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    /** Members added at the top level of the body (402 and 429 use them). */
    readonly extra: Record<string, unknown> = {},
    /** Headers added to the response (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const notFound = (what: string, id: string): ApiError =>
  new ApiError(404, 'NotFound', `${what} "${id}" was not found (or is not accessible with this key)`);

export const badRequest = (path: string, message: string): ApiError =>
  new ApiError(400, 'ValidationFailed', `${path}: ${message}`, [{ path, message }]);

/** Library codes that describe the request's shape (400); the others describe its geometry (422). */
const REQUEST_CODES: ReadonlySet<PlanErrorCode> = new Set(['invalid-request', 'width-not-positive', 'invalid-option']);

export function fromPlanError(err: unknown): ApiError | undefined {
  if (!isPlanError(err)) return undefined;
  const e = err as Error & { code: PlanErrorCode; details?: PlanErrorDetail[] };
  const status = REQUEST_CODES.has(e.code) ? 400 : 422;
  // machine.sections / sectionWidthsMeters that do not describe the boom: 422 naming the field
  const code =
    status === 400 || e.code === 'invalid-sections'
      ? 'ValidationFailed'
      : e.code === 'invalid-fleet'
        ? 'InvalidFleet'
        : 'InvalidGeometry';
  return new ApiError(status, code, e.message, e.details ?? [], { reason: e.code });
}

/** The JSON body of an error response, shaped per status (docs/api.md "Errors"). */
export function errorBody(err: ApiError, correlationId: string): Record<string, unknown> {
  switch (err.status) {
    case 402:
      return { ...err.extra, message: err.message, correlationId };
    case 403:
      return { correlationId, errorCode: 'NotAuthorized', message: err.message };
    case 429:
      return { error: { code: 'RATE_LIMIT_EXCEEDED', message: err.message }, ...err.extra, correlationId };
    default: {
      const error: Record<string, unknown> = { code: err.code, message: err.message };
      if (err.details.length > 0 || err.status === 400 || err.status === 413 || err.status === 422)
        error.details = err.details;
      if (err.extra.reason !== undefined) error.reason = err.extra.reason;
      return { error, correlationId };
    }
  }
}
