/**
 * `planRouteAsync(request, { signal, onProgress, workerUrl })` for browsers: `planRoute` in a Web
 * Worker, so the page stays responsive; cancelled by aborting the signal (the worker is terminated).
 * `workerUrl` is where the page serves the bundled browser-worker.js (a bundler that understands
 * `new URL(…, import.meta.url)` workers finds it without one).
 */
import type { PathPlanRequest, Plan } from '@furrow/core';
import { planInWorker } from './settle.js';
import type { PlanAsyncOptions, WorkerHandle } from './settle.js';
import type { WorkerMessage } from './protocol.js';

export type { PlanAsyncOptions } from './settle.js';

export interface BrowserPlanOptions extends PlanAsyncOptions {
  /** URL of the bundled worker script (a module worker). */
  workerUrl?: string | URL;
}

export function planRouteAsync(request: PathPlanRequest, options: BrowserPlanOptions = {}): Promise<Plan> {
  const url = options.workerUrl ?? new URL('./browser-worker.js', import.meta.url);
  const start = (): WorkerHandle => {
    const w = new Worker(url, { type: 'module' });
    return {
      post: (m) => w.postMessage(m),
      onMessage: (l) => w.addEventListener('message', (e: MessageEvent<WorkerMessage>) => l(e.data)),
      onError: (l) =>
        w.addEventListener('error', (e: ErrorEvent) => l(new Error(e.message || 'the planning worker failed'))),
      terminate: () => w.terminate(),
    };
  };
  return planInWorker(start, request, options);
}
