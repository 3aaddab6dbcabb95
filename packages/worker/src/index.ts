/**
 * `planRouteAsync(request, { signal, onProgress })` for Node: `planRoute` in a worker thread, so the
 * event loop stays free; cancelled by aborting the signal (the thread is terminated at once).
 * In browsers the package resolves to ./browser.js (a Web Worker).
 */
import { Worker } from 'node:worker_threads';
import type { PathPlanRequest, Plan } from '@furrow/core';
import { planInWorker } from './settle.js';
import type { PlanAsyncOptions, WorkerHandle } from './settle.js';
import type { WorkerMessage } from './protocol.js';

export type { PlanAsyncOptions } from './settle.js';

/**
 * The worker's entry is built JavaScript (dist/node-worker.js): a raw .ts worker does not load
 * under vitest or tsx on Node 20, so run from the sources this points at the build.
 */
function workerEntry(): URL {
  return new URL(import.meta.url.endsWith('.ts') ? '../dist/node-worker.js' : './node-worker.js', import.meta.url);
}

function startNodeWorker(): WorkerHandle {
  const w = new Worker(workerEntry());
  return {
    post: (m) => w.postMessage(m),
    onMessage: (l) => void w.on('message', (m: WorkerMessage) => l(m)),
    onError: (l) => {
      w.on('error', l);
      w.on('exit', (code) => l(new Error(`the planning worker exited (code ${code}) before it answered`)));
    },
    terminate: () => void w.terminate(),
  };
}

/**
 * Plans `request` in a worker thread; rejects with `PlanError` on bad input, with an AbortError when `signal` aborts.
 */
export function planRouteAsync(request: PathPlanRequest, options: PlanAsyncOptions = {}): Promise<Plan> {
  return planInWorker(startNodeWorker, request, options);
}
