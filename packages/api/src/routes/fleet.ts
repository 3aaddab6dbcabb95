/**
 * Several machines in one field, an extension beyond the 1.5.0 contract: `POST /api/path-plans/fleet` (the
 * fleet plan as JSON) and `/fleet/geojson` (as GeoJSON, every route feature with `machineId` and its times).
 * Billed like one plan (planBillable; with `?boundaryId=` that stored boundary's company pays first, as for
 * `/api/path-plans/direct`); a fleet the planner cannot take (empty, over the limit, duplicate
 * ids, a width not a multiple of the narrowest) is a 422 naming the field (`InvalidFleet`).
 */
import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { planFleet, type FleetPlan, type FleetRequest } from '@furrow/core';
import { fleetToFeatureCollection } from '@furrow/format-geojson';
import { callerOf, type AppEnv, type Deps } from '../context.js';
import { API_VERSION } from '../version.js';
import {
  FleetPlanSchema,
  FleetRequestSchema,
  PlanFeatureCollectionSchema,
  type PathPlanRequestBody,
} from '../schemas.js';
import { errorResponses, jsonBody, validationHook } from './common.js';
import { DirectQuerySchema, companyOfPlannedBoundary, planBillable } from './plans.js';

export function fleetRoutes(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const description =
    'Plans several machines in one field (an extension beyond the 1.5.0 contract): the route shared out among ' +
    "them to finish soonest, each machine's share timed, waits where two would come within the safety distance. " +
    `Costs ${deps.config.planCostCredits} credit(s), as one plan: paid by the caller, or with \`boundaryId\` by ` +
    "that boundary's company first.";
  for (const geojson of [false, true]) {
    const route = createRoute({
      method: 'post',
      path: geojson ? '/api/path-plans/fleet/geojson' : '/api/path-plans/fleet',
      tags: ['Fleets'],
      summary: geojson ? 'Plan a fleet (GeoJSON FeatureCollection)' : 'Plan a fleet (rich JSON)',
      description: geojson
        ? `${description} Every route feature carries \`machineId\`, \`startSeconds\` and \`endSeconds\`; ` +
          'waits are `Wait` points.'
        : description,
      security: [{ ApiKey: [] }],
      request: { query: DirectQuerySchema, body: jsonBody(FleetRequestSchema) },
      responses: {
        200: {
          description: 'The fleet plan',
          content: {
            [geojson ? 'application/geo+json' : 'application/json']: {
              schema: geojson ? PlanFeatureCollectionSchema : FleetPlanSchema,
            },
          },
        },
        ...errorResponses(400, 401, 402, 404, 413, 415, 422, 429),
      },
    });
    app.openapi(route, async (c) => {
      const request = c.req.valid('json');
      const body = request as unknown as PathPlanRequestBody;
      const companyId = await companyOfPlannedBoundary(deps, callerOf(c), c.req.valid('query').boundaryId, body);
      const run = async (signal: AbortSignal): Promise<FleetPlan> => {
        const plan = deps.planner.planFleet
          ? await deps.planner.planFleet(request, signal)
          : planFleet(request as unknown as FleetRequest);
        return { ...plan, version: API_VERSION };
      };
      const reason = geojson ? 'path-plans/fleet/geojson' : 'path-plans/fleet';
      const plan = await planBillable(deps, callerOf(c), body, c.req.raw.signal, reason, companyId, run);
      if (!geojson) return c.json(plan, 200);
      c.header('Content-Type', 'application/geo+json');
      return c.body(JSON.stringify(fleetToFeatureCollection(plan)), 200);
    });
  }
  return app;
}
