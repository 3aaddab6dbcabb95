/** Shared pieces of route definitions: the validation hook, error responses for the OpenAPI document. */
import type { z } from '@hono/zod-openapi';
import { ApiError } from '../errors.js';
import { ErrorSchema, ForbiddenSchema, PaymentRequiredSchema, RateLimitedSchema, issuesToDetails } from '../schemas.js';

/** zod-openapi's hook: a failed validation becomes one 400 naming every offending field. */
export const validationHook = (result: {
  success: boolean;
  error?: { issues: readonly z.core.$ZodIssue[] };
  target?: string;
}): void => {
  if (result.success || !result.error) return;
  const details = issuesToDetails(result.error.issues);
  const where = result.target === 'param' ? 'path parameter ' : result.target === 'query' ? 'query parameter ' : '';
  throw new ApiError(400, 'ValidationFailed', `${where}${details[0]?.path}: ${details[0]?.message}`, details);
};

export function jsonBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { 'application/json': { schema } } };
}

const errorDocs: Record<number, { description: string; schema: z.ZodType }> = {
  400: { description: 'Bad JSON or invalid request fields (each named in details[].path)', schema: ErrorSchema },
  401: { description: 'API key missing, invalid or revoked', schema: ErrorSchema },
  402: { description: 'Not enough credits', schema: PaymentRequiredSchema },
  403: { description: 'Key valid but not allowed (no partner admin flag)', schema: ForbiddenSchema },
  404: { description: 'Not found, or not accessible with this key', schema: ErrorSchema },
  409: { description: 'Conflict', schema: ErrorSchema },
  413: { description: 'Request body too large', schema: ErrorSchema },
  415: { description: 'Body is not application/json', schema: ErrorSchema },
  422: { description: 'Invalid geometry', schema: ErrorSchema },
  429: { description: 'Rate limit exceeded (see Retry-After)', schema: RateLimitedSchema },
};

export function errorResponses(...statuses: number[]) {
  const out: Record<number, { description: string; content: { 'application/json': { schema: z.ZodType } } }> = {};
  for (const s of statuses)
    out[s] = {
      description: errorDocs[s].description,
      content: { 'application/json': { schema: errorDocs[s].schema } },
    };
  return out;
}
