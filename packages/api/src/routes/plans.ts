/** Quick Start: `POST /api/path-plans/direct` (rich JSON) and `/direct/geojson` (same plan as GeoJSON). */
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { AppEnv, Caller, Deps } from '../context.js';
import { ApiError } from '../errors.js';
import { assertValidGeometry } from '../geometry.js';
import { PlanAbortedError, apiPlanShape, shapePlan } from '../planner.js';
import { planToGeoJson } from '../render.js';
import type { CreditOwnerKind } from '../store/store.js';
import { PathPlanRequestSchema, PlanFeatureCollectionSchema, PlanSchema, OPTION_NAMES, type PathPlanRequestBody } from '../schemas.js';
import { errorResponses, jsonBody, validationHook } from './common.js';

/** Checks the geometry (422), charges credits (402), plans off the event loop, refunds on failure. */
export async function planBillable(
  deps: Deps,
  caller: Caller,
  request: PathPlanRequestBody,
  clientSignal: AbortSignal,
  reason: string,
  /** Accounts tried in order; the first with enough credits pays. */
  accounts: { kind: CreditOwnerKind; id: string }[] = [{ kind: 'user', id: caller.userId }],
): Promise<Record<string, unknown>> {
  const geometry = request.field ?? request.boundary;
  if (geometry) assertValidGeometry(geometry as never, request.field ? 'field' : 'boundary');
  request.obstacles?.forEach((o, i) => assertValidGeometry(o.geometry as never, `obstacles[${i}].geometry`));

  const cost = deps.config.planCostCredits;
  let payer: { kind: CreditOwnerKind; id: string } | undefined;
  if (cost > 0) {
    for (const account of accounts) {
      if ((await deps.store.charge(account.kind, account.id, cost, reason)) !== undefined) {
        payer = account;
        break;
      }
    }
    if (!payer) {
      const balances = await Promise.all(accounts.map((a) => deps.store.balance(a.kind, a.id)));
      const available = Math.max(0, ...balances);
      throw new ApiError(402, 'PaymentRequired', `this plan costs ${cost} credit(s); the account has ${available}. Ask for testing credits.`, [], {
        creditsAvailable: available,
        creditsRequired: cost,
      });
    }
  }
  const limitSeconds = Math.min(
    deps.config.planTimeoutCapSeconds,
    (request.routeOptions?.maxOptimizerTime ?? 10) + deps.config.planTimeoutGraceSeconds,
  );
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new PlanAbortedError('timeout')), limitSeconds * 1000);
  try {
    const plan = await deps.planner.plan(request, AbortSignal.any([clientSignal, timeout.signal]));
    return shapePlan(plan, apiPlanShape(request.options));
  } catch (err) {
    if (payer) await deps.store.grantCredits(payer.kind, payer.id, cost, `refund: ${reason}`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}


export function plansRoutes(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const describe = `Plans one field. Takes shape A or shape B (SERVICE-SPEC 2.1), \`options\` (${OPTION_NAMES.join(', ')}) and \`routeOptions\`. Costs ${deps.config.planCostCredits} credit(s); nothing is charged when planning fails.`;

  const direct = createRoute({
    method: 'post',
    path: '/api/path-plans/direct',
    tags: ['Quick Start'],
    summary: 'Plan a route (rich JSON)',
    description: describe,
    security: [{ ApiKey: [] }],
    request: { body: jsonBody(PathPlanRequestSchema) },
    responses: {
      200: { description: 'The plan', content: { 'application/json': { schema: PlanSchema } } },
      ...errorResponses(400, 401, 402, 413, 415, 422, 429),
    },
  });
  app.openapi(direct, async (c) => {
    const plan = await planBillable(deps, c.get('caller')!, c.req.valid('json'), c.req.raw.signal, 'path-plans/direct');
    return c.json(plan as never, 200);
  });

  const geojson = createRoute({
    method: 'post',
    path: '/api/path-plans/direct/geojson',
    tags: ['Quick Start'],
    summary: 'Plan a route (GeoJSON FeatureCollection)',
    description: `${describe} The plan as an RFC 7946 FeatureCollection with \`metrics\` and \`version\` at the top level.`,
    security: [{ ApiKey: [] }],
    request: { body: jsonBody(PathPlanRequestSchema) },
    responses: {
      200: { description: 'The plan as GeoJSON', content: { 'application/geo+json': { schema: PlanFeatureCollectionSchema } } },
      ...errorResponses(400, 401, 402, 413, 415, 422, 429),
    },
  });
  app.openapi(geojson, async (c) => {
    const plan = await planBillable(deps, c.get('caller')!, c.req.valid('json'), c.req.raw.signal, 'path-plans/direct/geojson');
    c.header('Content-Type', 'application/geo+json');
    return c.body(JSON.stringify(planToGeoJson(plan)), 200) as never;
  });
  return app;
}
