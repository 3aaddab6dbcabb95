/** Quick Start: `POST /api/path-plans/direct` (rich JSON) and `/direct/geojson` (same plan as GeoJSON). */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { callerOf, type AppEnv, type Caller, type Deps } from '../context.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { assertValidRequestGeometry } from '../geometry.js';
import { PlanAbortedError, apiPlanShape, planTimeLimitSeconds, shapePlan, type ApiPlan } from '../planner.js';
import { planToGeoJson } from '../render.js';
import { planPayers, type CreditAccount } from '../store/store.js';
import {
  PathPlanRequestSchema,
  PlanFeatureCollectionSchema,
  PlanSchema,
  OPTION_NAMES,
  type PathPlanRequestBody,
} from '../schemas.js';
import { errorResponses, jsonBody, validationHook } from './common.js';

/**
 * Validates the request's geometry (422) before any credit is taken, waits for a planning slot
 * (`planGate`: 429 when as many plans as it takes already run and wait), charges the first of
 * `payers` with enough credits (402 when none has), plans off the event loop, refunds on failure.
 */
export async function planBillable<T = ApiPlan>(
  deps: Deps,
  caller: Caller,
  request: PathPlanRequestBody,
  clientSignal: AbortSignal,
  reason: string,
  /** The company whose field is planned: it pays first (`planPayers`), then the caller's user. */
  companyId?: string,
  /** What is planned (default: the route of `request`, shaped for the API). */
  run: (signal: AbortSignal) => Promise<T> = async (signal) =>
    shapePlan(await deps.planner.plan(request, signal), apiPlanShape(request.options)) as T,
): Promise<T> {
  assertValidRequestGeometry(request);
  // A slot before any credit: a plan refused because the server is busy (429) costs nothing.
  const release = await deps.planGate.acquire(clientSignal);
  try {
    return await chargeAndPlan(deps, caller, request, clientSignal, reason, companyId, run);
  } finally {
    release();
  }
}

async function chargeAndPlan<T>(
  deps: Deps,
  caller: Caller,
  request: PathPlanRequestBody,
  clientSignal: AbortSignal,
  reason: string,
  companyId: string | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const payers = planPayers(companyId, caller.userId);
  const cost = deps.config.planCostCredits;
  let payer: CreditAccount | undefined;
  if (cost > 0) {
    payer = await deps.store.chargeFirst(payers, cost, reason);
    if (!payer) {
      const balances = await Promise.all(payers.map((a) => deps.store.balance(a.kind, a.id)));
      const available = Math.max(0, ...balances);
      throw new ApiError(
        402,
        'PaymentRequired',
        `this plan costs ${cost} credit(s); the account has ${available}. Ask for testing credits.`,
        [],
        {
          creditsAvailable: available,
          creditsRequired: cost,
        },
      );
    }
  }
  const limitSeconds = planTimeLimitSeconds(deps.config, request);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new PlanAbortedError('timeout')), limitSeconds * 1000);
  try {
    return await run(AbortSignal.any([clientSignal, timeout.signal]));
  } catch (err) {
    if (payer) await deps.store.grantCredits(payer.kind, payer.id, cost, `refund: ${reason}`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** The same polygons, position by position (longitude and latitude; a height is ignored). */
function sameGeometry(a: unknown, b: unknown): boolean {
  const x = a as { type?: unknown; coordinates?: unknown };
  const y = b as { type?: unknown; coordinates?: unknown };
  const same = (u: unknown, v: unknown): boolean => {
    if (!Array.isArray(u) || !Array.isArray(v)) return false;
    if (typeof u[0] === 'number') return u[0] === v[0] && u[1] === v[1];
    return u.length === v.length && u.every((item, i) => same(item, v[i]));
  };
  return x.type === y.type && same(x.coordinates, y.coordinates);
}

/**
 * The company that pays for a direct plan: with `boundaryId`, the plan is for that stored
 * boundary (its field must be the boundary's geometry) and the boundary's company pays first.
 */
export async function companyOfPlannedBoundary(
  deps: Deps,
  caller: Caller,
  boundaryId: string | undefined,
  request: PathPlanRequestBody,
): Promise<string | undefined> {
  if (boundaryId === undefined) return undefined;
  const stored = await deps.store.getBoundary(caller.userId, boundaryId);
  if (!stored) throw notFound('boundary', boundaryId);
  const path = request.field !== undefined ? 'field' : 'boundary';
  if (!sameGeometry(request.field ?? request.boundary, stored.geometry)) {
    throw badRequest(
      path,
      `differs from the stored boundary "${boundaryId}" (boundaryId): a plan for a stored boundary plans its geometry`,
    );
  }
  return stored.companyId;
}

/** A Server-Timing header of a plan: `wait` (a slot, the credits), `plan`, `render` (GeoJSON / JSON), ms. */
function serverTiming(startedMs: number, planStartMs: number, planEndMs: number, doneMs: number): string {
  const ms = (v: number) => Math.max(0, v).toFixed(1);
  return `wait;dur=${ms(planStartMs - startedMs)}, plan;dur=${ms(planEndMs - planStartMs)}, render;dur=${ms(
    doneMs - planEndMs,
  )}`;
}

export const DirectQuerySchema = z.object({
  boundaryId: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .openapi({
      description:
        "The stored boundary this plan is for (the request's field must be its geometry): the boundary's company " +
        'pays, then the caller',
    }),
});

export function plansRoutes(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const describe =
    `Plans one field. Takes shape A or shape B, \`options\` (${OPTION_NAMES.join(', ')}) and ` +
    `\`routeOptions\`. Costs ${deps.config.planCostCredits} credit(s), paid by the caller, or with ` +
    `\`boundaryId\` by that boundary's company first; nothing is charged when the request is invalid or ` +
    `planning fails.`;
  const variants = [
    {
      path: '/api/path-plans/direct',
      summary: 'Plan a route (rich JSON)',
      extra: '',
      mediaType: 'application/json',
      schema: PlanSchema,
      geojson: false,
    },
    {
      path: '/api/path-plans/direct/geojson',
      summary: 'Plan a route (GeoJSON FeatureCollection)',
      extra: ' The plan as an RFC 7946 FeatureCollection with `metrics` and `version` at the top level.',
      mediaType: 'application/geo+json',
      schema: PlanFeatureCollectionSchema,
      geojson: true,
    },
  ] as const;
  for (const v of variants) {
    const route = createRoute({
      method: 'post',
      path: v.path,
      tags: ['Quick Start'],
      summary: v.summary,
      description: describe + v.extra,
      security: [{ ApiKey: [] }],
      request: { query: DirectQuerySchema, body: jsonBody(PathPlanRequestSchema) },
      responses: {
        200: { description: 'The plan', content: { [v.mediaType]: { schema: v.schema } } },
        ...errorResponses(400, 401, 402, 404, 413, 415, 422, 429),
      },
    });
    app.openapi(route, async (c) => {
      const caller = callerOf(c);
      const request = c.req.valid('json');
      const companyId = await companyOfPlannedBoundary(deps, caller, c.req.valid('query').boundaryId, request);
      // Where the server's time goes (Server-Timing, ms): waiting (slot, credits), planning, rendering.
      const startedMs = performance.now();
      let planStartMs = startedMs;
      let planEndMs = startedMs;
      const plan = await planBillable(
        deps,
        caller,
        request,
        c.req.raw.signal,
        v.path.slice('/api/'.length),
        companyId,
        async (signal) => {
          planStartMs = performance.now();
          try {
            // Planned ahead of the launch into this field (plan-ahead.ts)? A failure there is planned again.
            const ahead = deps.planAhead?.take(caller.userId, request);
            if (ahead) {
              const plan = await ahead.catch(() => undefined);
              if (plan) return plan;
            }
            return shapePlan(await deps.planner.plan(request, signal), apiPlanShape(request.options));
          } finally {
            planEndMs = performance.now();
          }
        },
      );
      const body = v.geojson ? JSON.stringify(planToGeoJson(plan)) : undefined;
      c.header('Server-Timing', serverTiming(startedMs, planStartMs, planEndMs, performance.now()));
      if (body === undefined) return c.json(plan, 200);
      c.header('Content-Type', 'application/geo+json');
      return c.body(body, 200);
    });
  }
  return app;
}
