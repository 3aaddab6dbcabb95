/** The Web Worker of `planRouteAsync` in browsers (browser.ts): plans each request it is sent. */
import { handlePlanMessage } from './protocol.js';
import type { PlanMessage, WorkerMessage } from './protocol.js';

const scope = globalThis as unknown as {
  addEventListener(type: 'message', l: (e: { data: PlanMessage }) => void): void;
  postMessage(m: WorkerMessage): void;
};
scope.addEventListener('message', (e) => handlePlanMessage(e.data, (out) => scope.postMessage(out)));
