/** An API error in words for the pages (kept apart from the pages so that small pages need no map). */
import { ApiError } from './api.js';

export function describeError(err: unknown, prefix: string): string {
  if (err instanceof ApiError) {
    if (err.status === 401) return `${prefix}: your session has ended. Open the planner again from your farm software.`;
    if (err.status === 404) return `${prefix}: not found, or not shared with your organisation.`;
    return `${prefix}: ${err.message}`;
  }
  return `${prefix}.`;
}
