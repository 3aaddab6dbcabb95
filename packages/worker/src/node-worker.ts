/** The worker thread of `planRouteAsync` in Node (index.ts): plans each request it is sent. */
import { parentPort } from 'node:worker_threads';
import { handlePlanMessage } from './protocol.js';
import type { PlanMessage } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('node-worker.js runs as a worker thread of planRouteAsync');
port.on('message', (m: PlanMessage) => handlePlanMessage(m, (out) => port.postMessage(out)));
