/** Worker-thread entry of the planning pool (piscina loads the built `dist/worker.js`). */
import { planRoute } from '@furrow/core';
import { fleetPlanFunction, runPlan, type PlanShape, type WorkerResult } from './planner.js';

/** With `shape`, the plan comes back as JSON text (serialised here, off the event loop); `fleet`: `planFleet`. */
export default function plan(task: { request: unknown; shape?: PlanShape; fleet?: boolean }): Promise<WorkerResult> {
  if (task.fleet) return runPlan(fleetPlanFunction, task.request);
  return runPlan(planRoute, task.request, task.shape);
}
