/**
 * Pool worker of the benchmark: like dist/worker.js, but the planner module can be chosen with
 * FURROW_BENCH_PLANNER (default @furrow/core), so the bench runs while core's index does not yet
 * export planRoute.
 */
const mod = await import(process.env.FURROW_BENCH_PLANNER || '@furrow/core');
const { runPlan } = await import('../dist/planner.js');

export default function plan({ request }) {
  return runPlan(mod.planRoute ?? mod.stubPlanRoute, request);
}
