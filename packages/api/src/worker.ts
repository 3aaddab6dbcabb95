/** Worker-thread entry of the planning pool (piscina loads the built `dist/worker.js`). */
import { planRoute } from '@furrow/core';
import { runPlan, type PlanShape, type WorkerResult } from './planner.js';

/** With `shape`, the plan comes back as JSON text (serialised here, off the event loop). */
export default function plan(task: { request: unknown; shape?: PlanShape }): Promise<WorkerResult> {
  return runPlan(planRoute, task.request, task.shape);
}
