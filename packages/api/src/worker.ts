/** Worker-thread entry of the planning pool (piscina loads the built `dist/worker.js`). */
import { libraryPlanRoute, runPlan, type WorkerResult } from './planner.js';

const planRoute = libraryPlanRoute();

export default function plan(task: { request: unknown }): Promise<WorkerResult> {
  return runPlan(planRoute, task.request);
}
