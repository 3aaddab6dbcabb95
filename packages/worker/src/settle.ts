/**
 * The caller's side of `planRouteAsync`, shared by the Node and browser entries: one worker per
 * call, ended as soon as the plan (or an error) arrives, or at once on abort — the planner is
 * synchronous inside the worker, so terminating the worker is what cancels it.
 */
import { PlanError } from '@furrow/core';
import type { PathPlanRequest, Plan, PlanProgress } from '@furrow/core';
import type { PlanMessage, WorkerMessage } from './protocol.js';

export interface PlanAsyncOptions {
  /** Aborting it ends the worker and rejects with an `AbortError` (DOMException). */
  signal?: AbortSignal;
  /** Called as each planning stage starts (core progress.ts). */
  onProgress?: (progress: PlanProgress) => void;
}

/** The parts of a worker `planRouteAsync` needs (worker_threads Worker, Web Worker). */
export interface WorkerHandle {
  post(message: PlanMessage): void;
  onMessage(listener: (message: WorkerMessage) => void): void;
  onError(listener: (error: Error) => void): void;
  terminate(): void;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The planning was aborted', 'AbortError');
}

export function planInWorker(
  start: () => WorkerHandle,
  request: PathPlanRequest,
  options: PlanAsyncOptions = {},
): Promise<Plan> {
  const { signal, onProgress } = options;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise<Plan>((resolve, reject) => {
    const worker = start();
    let settled = false;
    const finish = (then: () => void): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      worker.terminate();
      then();
    };
    const onAbort = (): void => finish(() => reject(abortError(signal!)));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.onMessage((m) => {
      if (settled) return;
      if (m.type === 'progress') onProgress?.(m.progress);
      else if (m.type === 'done') finish(() => resolve(m.plan));
      else
        finish(() => {
          const e = m.error.code
            ? new PlanError(m.error.code, m.error.message, m.error.details ?? [])
            : Object.assign(new Error(m.error.message), { name: m.error.name });
          reject(e);
        });
    });
    worker.onError((e) => finish(() => reject(e)));
    worker.post({ type: 'plan', request });
  });
}
