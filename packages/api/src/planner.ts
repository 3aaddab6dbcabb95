/**
 * Runs `planRoute` from @furrow/core, either in a worker-thread pool (piscina; the default for the
 * server, so a heavy plan never stalls the event loop) or in-process (tests, tiny deployments).
 * Both honour an AbortSignal: the pool terminates the worker running an aborted plan.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import {
  PlanError,
  isPlanError,
  maxOptimizerTimeSeconds,
  planFleet,
  planRoute,
  type FleetPlan,
  type PathPlanRequest,
  type Plan,
  type PlanErrorCode,
  type PlanErrorDetail,
  type PlanRuntime,
} from '@furrow/core';
import { Piscina } from 'piscina';
import { gzipPlanJson, planFromGzip } from './plan-gzip.js';
import { API_VERSION } from './version.js';

/** `planRoute(request, runtime)` of @furrow/core, or a stand-in with its signature (tests). */
export type PlanFunction = (request: PathPlanRequest, runtime?: PlanRuntime) => Plan | Promise<Plan>;

/** A plan as the API answers it (`shapePlan`): the API's version, the planner's as `plannerVersion` when it differs. */
export type ApiPlan = Plan & { plannerVersion?: string };

export interface Planner {
  /** `request`: a path-plan request as the API validated it (schemas.ts); core checks it again. */
  plan(request: unknown, signal: AbortSignal): Promise<Plan>;
  /**
   * Plans, shapes the plan for the API (`shapePlan`) and serialises it on the planning thread: the
   * JSON text and the metrics. A stored plan (guidance jobs) is never needed as an object on the
   * event loop, and a string crosses from the worker far cheaper than the plan's object tree.
   * Optional: `planJson` falls back to `plan` for planners without it.
   */
  planToJson?(request: unknown, signal: AbortSignal, shape: PlanShape): Promise<PlanJson>;
  /** Several machines in one field (`planFleet` of @furrow/core); planners without it plan fleets in-process. */
  planFleet?(request: unknown, signal: AbortSignal): Promise<FleetPlan>;
  readonly threads: number;
  close(): Promise<void>;
}

/** `planFleet` of @furrow/core as a planning function for the worker and the in-process planner (returns no `Plan`). */
export const fleetPlanFunction = planFleet as unknown as PlanFunction;

/** How the API shapes a plan: its version, and whether the crosshatches were asked for. */
export interface PlanShape {
  version: string;
  keepCrosshatches: boolean;
  /** Serialise gzip-compressed (`PlanJson.gzip`) instead of as text: how guidance jobs store plans. */
  gzip?: boolean;
}

/** A serialised plan: its JSON text, or with `PlanShape.gzip` that text gzip-compressed, in base64. */
export type PlanJson = ({ json: string; gzip?: undefined } | { gzip: string; json?: undefined }) & {
  metrics: Plan['metrics'];
};

/** The API's shape for a request's `options` (a comma-separated list). */
export function apiPlanShape(options: unknown): PlanShape {
  const names = new Set(
    String(options ?? '')
      .split(',')
      .map((o) => o.trim()),
  );
  return { version: API_VERSION, keepCrosshatches: names.has('useCrossHatches') };
}

/**
 * The API's plan: the API version (the planner's as `plannerVersion` when it differs), crosshatches only on request.
 */
export function shapePlan(plan: Plan, shape: PlanShape): ApiPlan {
  const out: ApiPlan = { ...plan, version: shape.version };
  if (plan.version !== undefined && plan.version !== shape.version) out.plannerVersion = plan.version;
  if (!shape.keepCrosshatches) delete out.crosshatches;
  return out;
}

function toPlanJson(plan: Plan, shape: PlanShape): PlanJson {
  const json = JSON.stringify(shapePlan(plan, shape));
  return shape.gzip ? { gzip: gzipPlanJson(json), metrics: plan.metrics } : { json, metrics: plan.metrics };
}

/**
 * Seconds one plan may run: its maxOptimizerTime (core's default when the request gives none)
 * plus `planTimeoutGraceSeconds`, at most `planTimeoutCapSeconds`.
 */
export function planTimeLimitSeconds(
  limits: { planTimeoutCapSeconds: number; planTimeoutGraceSeconds: number },
  request: { routeOptions?: { maxOptimizerTime?: number } },
): number {
  return Math.min(
    limits.planTimeoutCapSeconds,
    maxOptimizerTimeSeconds(request.routeOptions) + limits.planTimeoutGraceSeconds,
  );
}

/** `planner.planToJson` where the planner has it, else `plan` and the serialisation here. */
export async function planJson(
  planner: Planner,
  request: unknown,
  signal: AbortSignal,
  shape: PlanShape,
): Promise<PlanJson> {
  if (planner.planToJson) return planner.planToJson(request, signal, shape);
  return toPlanJson(await planner.plan(request, signal), shape);
}

/**
 * What a worker sends back: a plan (or, asked to serialise, its JSON), or a PlanError's fields (structured clone drops
 * its class).
 */
export type WorkerResult =
  | { ok: true; plan: Plan }
  | ({ ok: true; plan?: undefined } & PlanJson)
  | { ok: false; planError?: { code: PlanErrorCode; message: string; details: PlanErrorDetail[] }; message?: string };

/** Runs the planner; with `shape`, returns the shaped plan's JSON instead of the plan. */
export async function runPlan(plan: PlanFunction, request: unknown, shape?: PlanShape): Promise<WorkerResult> {
  try {
    // The API's request type allows a height in positions (core's `Position` does not; it ignores
    // one), and core's normalizeRequest checks every field of whatever it is given: passed as it is.
    // The planner is pure; its clock (milliseconds) caps the call (the ordering runs on a counted work budget).
    const planned = await plan(request as PathPlanRequest, { now: () => performance.now() });
    return shape ? { ok: true, ...toPlanJson(planned, shape) } : { ok: true, plan: planned };
  } catch (err) {
    if (isPlanError(err))
      return { ok: false, planError: { code: err.code, message: err.message, details: err.details ?? [] } };
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

function failure(result: Extract<WorkerResult, { ok: false }>): Error {
  if (result.planError) return new PlanError(result.planError.code, result.planError.message, result.planError.details);
  return new Error(`planner failed: ${result.message}`);
}

function unwrap(result: WorkerResult): Plan {
  if (!result.ok) throw failure(result);
  if (result.plan) return result.plan;
  return result.json !== undefined ? (JSON.parse(result.json) as Plan) : planFromGzip(result.gzip);
}

/** A worker's answer to a serialising task (a worker that ignored `shape` sent the plan: serialised here). */
function unwrapJson(result: WorkerResult, shape: PlanShape): PlanJson {
  if (!result.ok) throw failure(result);
  if (result.plan) return toPlanJson(result.plan, shape);
  const { ok: _ok, plan: _plan, ...serialised } = result;
  return serialised;
}

export class PlanAbortedError extends Error {
  constructor(readonly reason: 'timeout' | 'client-closed') {
    super(reason === 'timeout' ? 'planning exceeded its time limit' : 'the client closed the connection');
    this.name = 'PlanAbortedError';
  }
}

function abortReason(signal: AbortSignal): PlanAbortedError {
  const r = signal.reason;
  if (r instanceof PlanAbortedError) return r;
  return new PlanAbortedError('client-closed');
}

/** In-process planner: simple, but a synchronous planRoute blocks the event loop while it runs. */
export function inProcessPlanner(plan: PlanFunction = planRoute): Planner {
  const fleet = inProcessRunner(fleetPlanFunction);
  return {
    threads: 0,
    plan: inProcessRunner(plan),
    planFleet: async (request, signal) => (await fleet(request, signal)) as unknown as FleetPlan,
    async close() {},
  };
}

/** Runs a planning function in-process, answering at once when the signal aborts. */
function inProcessRunner(plan: PlanFunction): (request: unknown, signal: AbortSignal) => Promise<Plan> {
  return async (request, signal) => {
    if (signal.aborted) throw abortReason(signal);
    // The work itself cannot be interrupted in-process; the caller gets its answer at once.
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortReason(signal));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return unwrap(await Promise.race([runPlan(plan, request), aborted]));
    } finally {
      signal.removeEventListener('abort', onAbort!);
    }
  };
}

/** The built worker entry (`dist/worker.js`); a raw .ts worker cannot load under vitest. */
export function workerFile(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const built = here.endsWith('/src/')
    ? fileURLToPath(new URL('../dist/worker.js', import.meta.url))
    : `${here}worker.js`;
  return built;
}

const LOADER_FLAGS = ['--import', '--require', '-r', '--loader', '--experimental-loader'];

/**
 * The Node options for the pool's threads: the parent's (Node's default) unless they load module
 * hooks or preload code (tsx, ts-node), then none. The worker entry is built JavaScript, and a
 * loader such as tsx transforms it again in every thread (esbuild lowers the private class fields
 * to WeakMap lookups: under `tsx`, a planning thread planned the corpus 20 % slower). Not the
 * parent's other flags in that case: V8's (`--max-old-space-size`) are process-wide, already in
 * force in every thread, and a worker refuses them in an explicit `execArgv`.
 */
export function workerExecArgv(execArgv: readonly string[]): string[] | undefined {
  const loads = execArgv.some((arg) => LOADER_FLAGS.includes(arg.split('=', 1)[0]));
  return loads ? [] : undefined;
}

/**
 * A plan (a 480 × 320 m field with a bent side, 6 m wide, 2 headland passes, twice): run once per
 * planning thread at start-up (`poolPlanner({ warmUp: true })`), so the first plan a user asks for
 * does not also pay for loading and compiling the planner in a cold thread (~3 times a warm plan).
 */
export const WARM_UP_REQUEST = {
  field: {
    type: 'Polygon',
    coordinates: [
      [
        [10, 50],
        [10.0067, 50],
        [10.007, 50.0016],
        [10.0067, 50.00288],
        [10, 50.00288],
        [10, 50],
      ],
    ],
  },
  machine: { widthMeters: 6, turnRadiusMeters: 6 },
  headland: { passes: 2 },
  routeOptions: { algorithm: 'optimized' },
} as const;

/** Warm-up plans per thread: V8 optimises what has run hot a few times (a thread's second real plan was still slow). */
const WARM_UP_ROUNDS = 2;

export function poolPlanner(opts: { threads?: number; filename?: string; warmUp?: boolean } = {}): Planner {
  const threads = Math.max(1, opts.threads ?? availableParallelism());
  const filename = opts.filename ?? workerFile();
  if (!existsSync(filename)) {
    throw new Error(`worker entry ${filename} is missing: build first (npx tsc --build packages/api)`);
  }
  const pool = new Piscina({
    filename,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    execArgv: workerExecArgv(process.execArgv),
  });
  // One small plan per thread, not awaited: a plan asked for meanwhile waits at most that long.
  if (opts.warmUp)
    for (let i = 0; i < WARM_UP_ROUNDS * threads; i++) pool.run({ request: WARM_UP_REQUEST }).catch(() => undefined);
  return {
    threads,
    async plan(request, signal) {
      if (signal.aborted) throw abortReason(signal);
      try {
        return unwrap((await pool.run({ request }, { signal })) as WorkerResult);
      } catch (err) {
        if (signal.aborted) throw abortReason(signal);
        throw err;
      }
    },
    async planFleet(request, signal) {
      if (signal.aborted) throw abortReason(signal);
      try {
        return unwrap((await pool.run({ request, fleet: true }, { signal })) as WorkerResult) as unknown as FleetPlan;
      } catch (err) {
        if (signal.aborted) throw abortReason(signal);
        throw err;
      }
    },
    async planToJson(request, signal, shape) {
      if (signal.aborted) throw abortReason(signal);
      try {
        return unwrapJson((await pool.run({ request, shape }, { signal })) as WorkerResult, shape);
      } catch (err) {
        if (signal.aborted) throw abortReason(signal);
        throw err;
      }
    },
    close: () => pool.close({ force: true }),
  };
}
