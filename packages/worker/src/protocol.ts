/**
 * Messages between `planRouteAsync` and its worker (the same in Node and in browsers): the
 * request goes in, stage progress and then the plan (or the error) come out.
 */
import { isPlanError, planRoute } from '@furrow/core';
import type { PathPlanRequest, Plan, PlanErrorCode, PlanErrorDetail, PlanProgress } from '@furrow/core';

export interface PlanMessage {
  type: 'plan';
  request: PathPlanRequest;
}

export type WorkerMessage =
  | { type: 'progress'; progress: PlanProgress }
  | { type: 'done'; plan: Plan }
  | { type: 'error'; error: { name: string; message: string; code?: PlanErrorCode; details?: PlanErrorDetail[] } };

/** What a worker does with a plan message: plans, posting progress, then the plan or the error. */
export function handlePlanMessage(message: PlanMessage, post: (m: WorkerMessage) => void): void {
  try {
    const plan = planRoute(message.request, { onProgress: (progress) => post({ type: 'progress', progress }) });
    post({ type: 'done', plan });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    post({
      type: 'error',
      error: { name: e.name, message: e.message, ...(isPlanError(e) ? { code: e.code, details: e.details } : {}) },
    });
  }
}
