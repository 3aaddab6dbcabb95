/**
 * Routes of terrain analysis, equipment scenarios, field sequencing and pushes to the
 * manufacturer portals. Two route groups, mounted by the app through `routes/registry.ts`.
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import {
  analyzeFieldTerrain,
  compareScenariosAsync,
  contourTracks,
  planWithTerrainAsync,
  isPlanError,
  keyContourLine,
  PlanError,
  cornerStartNodes,
  sequenceFields,
  visitsFromPlans,
  type FieldPlanVariant,
  type ElevationGrid,
  type EquipmentScenario,
  type PathPlanRequest,
  type Plan,
  type SequencingField,
  type TransportInput,
} from '@furrow/core';
import { readElevationGridJson, readGeoTiffDem } from '@furrow/format-dem';
import { callerOf, type AppEnv, type Deps } from '../context.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { lonLat } from '../geometry.js';
import { errorResponses, jsonBody, validationHook } from '../routes/common.js';
import { planBillable } from '../routes/plans.js';
import {
  FieldGeometrySchema,
  MachineSchema,
  PathPlanRequestSchema,
  PositionSchema,
  type PathPlanRequestBody,
} from '../schemas.js';
import { portalRegistryFromEnv, type PortalRegistry } from './config.js';
import { PORTAL_ID, PORTAL_ID_RULE, isPortalError, type PortalError } from './errors.js';
import { previewDeerePush } from './deere.js';
import { previewTrimblePush } from './trimble.js';

const security = [{ ApiKey: [] }];

// ---------- terrain ----------

const TerrainRequestSchema = z
  .strictObject({
    field: FieldGeometrySchema,
    grid: z.record(z.string(), z.unknown()).optional().openapi({
      description: 'JSON elevation grid (docs/terrain.md): type, crs, origin, cellSize, columns, rows, elevations',
    }),
    gridGeoTiffBase64: z
      .string()
      .max(14_000_000)
      .optional()
      .openapi({ description: 'A GeoTIFF DEM, base64 (instead of grid)' }),
    crs: z
      .string()
      .max(500)
      .optional()
      .openapi({ description: 'CRS of a GeoTIFF without an EPSG code (EPSG:… or a proj4 definition)' }),
    objective: z.enum(['contour', 'minimizeCrossSlope']).optional(),
    maxCrossSlopeDegrees: z.number().finite().min(0).max(90).optional(),
    keyContour: z
      .boolean()
      .optional()
      .openapi({ description: 'Also return the key contour line (median elevation) for contour-following guidance' }),
    contourTracks: z
      .strictObject({
        widthMeters: z.number().finite().min(0.5).max(100),
        insetMeters: z.number().finite().min(0).max(500).optional(),
      })
      .optional()
      .openapi({
        description:
          'Also return curved tracks along the key contour, one working width apart, kept insetMeters from the ' +
          'boundary',
      }),
  })
  .openapi('TerrainRequest');

async function gridOf(body: z.infer<typeof TerrainRequestSchema>): Promise<ElevationGrid> {
  if ((body.grid === undefined) === (body.gridGeoTiffBase64 === undefined)) {
    throw new ApiError(400, 'ValidationFailed', 'give exactly one of grid and gridGeoTiffBase64', [
      { path: 'grid', message: 'exactly one of grid, gridGeoTiffBase64' },
    ]);
  }
  if (body.grid !== undefined) return readElevationGridJson(body.grid, 'grid');
  return readGeoTiffDem(Buffer.from(body.gridGeoTiffBase64 as string, 'base64'), {
    fileName: 'gridGeoTiffBase64',
    ...(body.crs ? { crs: body.crs } : {}),
  });
}

const TerrainPlanRequestSchema = z
  .strictObject({
    request: PathPlanRequestSchema,
    grid: TerrainRequestSchema.shape.grid,
    gridGeoTiffBase64: TerrainRequestSchema.shape.gridGeoTiffBase64,
    crs: TerrainRequestSchema.shape.crs,
    objective: TerrainRequestSchema.shape.objective,
    maxCrossSlopeDegrees: TerrainRequestSchema.shape.maxCrossSlopeDegrees,
  })
  .openapi('TerrainPlanRequest');

// ---------- scenarios and sequencing ----------

const ScenarioSchema = z
  .strictObject({
    name: z.string().min(1).max(100),
    equipment: MachineSchema.partial(),
    headlandPasses: z.number().int().min(0).max(20).optional(),
    routeOptions: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('EquipmentScenario');

const ScenariosRequestSchema = z
  .strictObject({
    request: PathPlanRequestSchema,
    scenarios: z.array(ScenarioSchema).min(1).max(20),
    objective: z.enum(['time', 'distance', 'fuel']).optional(),
    includePlans: z.boolean().optional(),
  })
  .openapi('ScenariosRequest');

const SequenceRequestSchema = z
  .strictObject({
    depot: PositionSchema.openapi({ description: 'Staging area, [lon, lat]' }),
    end: PositionSchema.optional(),
    fields: z
      .array(z.strictObject({ id: z.string().min(1).max(100), request: PathPlanRequestSchema }))
      .min(1)
      .max(30),
    transport: z
      .union([
        z.strictObject({
          mode: z.literal('straightLine'),
          detourFactor: z.number().finite().min(1).max(10).optional(),
        }),
        z.strictObject({
          mode: z.literal('matrix'),
          points: z.array(PositionSchema).min(1).max(500),
          distancesMeters: z.array(z.array(z.number().finite().min(0))),
          durationsSeconds: z.array(z.array(z.number().finite().min(0))).optional(),
          matchToleranceMeters: z.number().finite().min(0).max(10_000).optional(),
        }),
      ])
      .optional(),
    transportSpeedMetersPerSecond: z.number().finite().min(0.1).max(50).optional(),
    transportFuelLitersPerHour: z.number().finite().min(0).max(1000).optional(),
    objective: z.enum(['time', 'distance', 'fuel']).optional(),
    workdaySeconds: z
      .number()
      .finite()
      .min(0)
      .max(86_400 * 7)
      .optional(),
    entryCandidates: z
      .enum(['planned', 'corners'])
      .optional()
      .openapi({
        description:
          "`planned` (default): each field's route as planned or reversed. `corners`: also re-plan each field from " +
          'the ends of its first and last tracks (routeOptions.startPointNodeIndex; up to 4 more plans and ' +
          'credits per field) so entries and exits can face the neighbouring fields',
      }),
  })
  .openapi('SequenceRequest');

/** The request's transport as the sequencer takes it (matrix points as [lon, lat]). */
function transportInput(t: NonNullable<z.infer<typeof SequenceRequestSchema>['transport']>): TransportInput {
  return t.mode === 'matrix' ? { ...t, points: t.points.map(lonLat) } : t;
}

const Json = z.record(z.string(), z.unknown());

export function planningExtrasRoutes(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/terrain/analyze',
      tags: ['Terrain [Beta]'],
      summary:
        'Slope and aspect of a field from a DEM; the heading that follows the contour (or limits the cross slope)',
      description:
        'Takes the field and a DEM (JSON elevation grid or a base64 GeoTIFF). Returns the best track heading for ' +
        'the objective with its slope figures, the figures every 5°, the elevation range and, on request, the ' +
        'key contour line. Free of charge.',
      security,
      request: { body: jsonBody(TerrainRequestSchema) },
      responses: {
        200: { description: 'Terrain analysis', content: { 'application/json': { schema: Json } } },
        ...errorResponses(400, 401, 413, 422, 429),
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const grid = await gridOf(body);
      const field = body.field as Plan['boundary'];
      const terrain = analyzeFieldTerrain(field, grid, {
        ...(body.objective ? { objective: body.objective } : {}),
        ...(body.maxCrossSlopeDegrees !== undefined ? { maxCrossSlopeDegrees: body.maxCrossSlopeDegrees } : {}),
      });
      const out: Record<string, unknown> = { ...terrain };
      if (body.keyContour) out.keyContour = keyContourLine(field, grid);
      if (body.contourTracks) {
        const ct = contourTracks(field, grid, {
          widthMeters: body.contourTracks.widthMeters,
          ...(body.contourTracks.insetMeters !== undefined ? { insetMeters: body.contourTracks.insetMeters } : {}),
        });
        out.contourTracks = {
          levelMeters: Number.isFinite(ct.levelMeters) ? ct.levelMeters : null,
          widthMeters: ct.widthMeters,
          tracks: ct.tracks,
        };
      }
      return c.json(out, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/path-plans/terrain',
      tags: ['Terrain [Beta]'],
      summary: 'Plan a field with the heading its terrain recommends, and report the slope driven',
      description:
        `Like POST /api/path-plans/direct (${deps.config.planCostCredits} credit(s)), with a DEM: ` +
        `unless \`request.tracks.preferredDirectionDegrees\` fixes the heading, the tracks follow the contour ` +
        `(objective \`contour\`) or run up and down the slope (\`minimizeCrossSlope\`). The plan gains ` +
        `\`terrain\`: the recommended heading and its figures, the elevation range, and slope statistics per ` +
        `pass and for the route.`,
      security,
      request: { body: jsonBody(TerrainPlanRequestSchema) },
      responses: {
        200: { description: 'The plan with terrain', content: { 'application/json': { schema: Json } } },
        ...errorResponses(400, 401, 402, 413, 422, 429),
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      // The request schema holds one of them (shape A's field or shape B's boundary).
      const field = body.request.field ?? body.request.boundary;
      if (!field) throw badRequest('request.field', 'required: the field boundary');
      const grid = await gridOf({ field, ...body });
      const caller = callerOf(c);
      const plan = await planWithTerrainAsync(
        body.request as PathPlanRequest,
        {
          grid,
          ...(body.objective ? { objective: body.objective } : {}),
          ...(body.maxCrossSlopeDegrees !== undefined ? { maxCrossSlopeDegrees: body.maxCrossSlopeDegrees } : {}),
        },
        async (req) => planBillable(deps, caller, req as PathPlanRequestBody, c.req.raw.signal, 'path-plans/terrain'),
      );
      return c.json(plan, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/path-plans/scenarios',
      tags: ['Quick Start'],
      summary: 'Plan one field for several equipment sets and compare their KPIs',
      description:
        `Each scenario's equipment is merged over the request's machine/equipment and planned like POST ` +
        `/api/path-plans/direct (${deps.config.planCostCredits} credit(s) per scenario that plans; failures are ` +
        `not charged). Returns KPIs side by side, the ranking and the best by objective (time, distance or fuel).`,
      security,
      request: { body: jsonBody(ScenariosRequestSchema) },
      responses: {
        200: { description: 'Scenario comparison', content: { 'application/json': { schema: Json } } },
        ...errorResponses(400, 401, 402, 413, 422, 429),
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const caller = callerOf(c);
      const signal = c.req.raw.signal;
      const result = await compareScenariosAsync(
        body.request as PathPlanRequest,
        body.scenarios as EquipmentScenario[],
        async (req) => {
          try {
            return planBillable(deps, caller, req as PathPlanRequestBody, signal, 'path-plans/scenarios');
          } catch (err) {
            // Out of credits stops the whole call; a scenario that cannot plan is reported with the others.
            if (err instanceof ApiError && err.status === 402) throw new ScenarioAbort(err);
            if (err instanceof ApiError && err.status === 422)
              throw new PlanError('infeasible', err.message, err.details);
            throw err;
          }
        },
        {
          ...(body.objective ? { objective: body.objective } : {}),
          ...(body.includePlans ? { includePlans: true } : {}),
        },
      ).catch((err: unknown) => {
        if (err instanceof ScenarioAbort) throw err.apiError;
        throw err;
      });
      return c.json(result, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/path-plans/sequence',
      tags: ['Quick Start'],
      summary: 'Plan several fields and the order to work them from a staging area [Beta]',
      description:
        `Plans every field (${deps.config.planCostCredits} credit(s) each), then chooses the order and ` +
        `each field's entry/exit (the route as planned or reversed) for the cheapest transport by straight lines ` +
        `or a supplied distance matrix. Returns the day's sequence, legs and metrics with each field's plan ` +
        `metrics.`,
      security,
      request: { body: jsonBody(SequenceRequestSchema) },
      responses: {
        200: { description: 'The day', content: { 'application/json': { schema: Json } } },
        ...errorResponses(400, 401, 402, 413, 422, 429),
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const caller = callerOf(c);
      const ids = new Set<string>();
      body.fields.forEach((f, i) => {
        if (ids.has(f.id))
          throw new ApiError(400, 'ValidationFailed', `fields[${i}].id "${f.id}" is used twice`, [
            { path: `fields[${i}].id`, message: 'duplicate' },
          ]);
        ids.add(f.id);
      });
      const fields: SequencingField[] = [];
      const variantsOf = new Map<string, FieldPlanVariant[]>();
      const planField = async (i: number, id: string, request: PathPlanRequestBody): Promise<Plan> => {
        try {
          return await planBillable(deps, caller, request, c.req.raw.signal, 'path-plans/sequence');
        } catch (err) {
          if (err instanceof ApiError) {
            throw new ApiError(
              err.status,
              err.code,
              `fields[${i}] ("${id}"): ${err.message}`,
              err.details.map((d) => ({ ...d, path: `fields[${i}].request.${d.path}` })),
              err.extra,
              err.headers,
            );
          }
          if (isPlanError(err)) {
            const e = err as PlanError;
            throw new PlanError(
              e.code,
              `fields[${i}] ("${id}"): ${e.message}`,
              (e.details ?? []).map((d) => ({ ...d, path: `fields[${i}].request.${d.path}` })),
            );
          }
          throw err;
        }
      };
      for (const [i, f] of body.fields.entries()) {
        const base = await planField(i, f.id, f.request);
        const variants: FieldPlanVariant[] = [{ plan: base }];
        if (body.entryCandidates === 'corners' && f.request.routeOptions?.startPointNodeIndex === undefined) {
          for (const node of cornerStartNodes(base)) {
            const req = {
              ...f.request,
              routeOptions: { ...(f.request.routeOptions ?? {}), startPointNodeIndex: node },
            } as PathPlanRequestBody;
            try {
              variants.push({ plan: await planField(i, f.id, req), startPointNodeIndex: node });
            } catch (err) {
              if (err instanceof ApiError && err.status === 402) throw err;
              // A start node this field cannot use is simply not a candidate.
            }
          }
        }
        variantsOf.set(f.id, variants);
        fields.push({
          id: f.id,
          visits: visitsFromPlans(variants),
          areaSquareMeters: base.metrics.fieldAreaSquareMeters,
        });
      }
      const day = sequenceFields({
        depot: lonLat(body.depot),
        ...(body.end ? { end: lonLat(body.end) } : {}),
        fields,
        ...(body.transport ? { transport: transportInput(body.transport) } : {}),
        ...(body.transportSpeedMetersPerSecond !== undefined
          ? { transportSpeedMetersPerSecond: body.transportSpeedMetersPerSecond }
          : {}),
        ...(body.transportFuelLitersPerHour !== undefined
          ? { transportFuelLitersPerHour: body.transportFuelLitersPerHour }
          : {}),
        ...(body.objective ? { objective: body.objective } : {}),
        ...(body.workdaySeconds !== undefined ? { workdaySeconds: body.workdaySeconds } : {}),
      });
      // Per field: the plan the chosen visit drives (its start node, whether reversed) and its metrics.
      const fieldPlans: Record<string, unknown> = {};
      for (const stop of day.stops) {
        const variant = variantsOf.get(stop.fieldId)![stop.visit.planIndex ?? 0];
        fieldPlans[stop.fieldId] = {
          startPointNodeIndex: variant.startPointNodeIndex ?? null,
          reversed: stop.visit.reversed ?? false,
          metrics: variant.plan.metrics,
        };
      }
      return c.json({ ...day, fieldPlans }, 200);
    },
  );

  return app;
}

class ScenarioAbort extends Error {
  constructor(readonly apiError: ApiError) {
    super(apiError.message);
  }
}

// ---------- portals ----------

export interface PortalRoutesOptions {
  /** Default: FURROW_PORTALS (JSON) or FURROW_PORTALS_FILE (a JSON file, rotated refresh tokens written back). */
  registry?: PortalRegistry;
}

const PushRequestSchema = z
  .strictObject({
    organizationId: z
      .string()
      .regex(PORTAL_ID, PORTAL_ID_RULE)
      .openapi({ description: "The portal's organization id" }),
    fieldId: z
      .string()
      .regex(PORTAL_ID, PORTAL_ID_RULE)
      .openapi({ description: "The portal's id of the (existing) field" }),
    plan: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'A plan as returned by POST /api/path-plans/direct' }),
    planId: z.string().min(1).max(200).optional().openapi({ description: 'Or the id of a stored plan' }),
    boundary: z.boolean().optional().openapi({ description: 'Push the boundary too (default true)' }),
    boundaryName: z.string().min(1).max(200).optional(),
    guidanceLineName: z.string().min(1).max(200).optional(),
    workPlan: z
      .strictObject({
        workType: z.enum(['dtiTillage', 'dtiSeeding', 'dtiApplication', 'dtiHarvest']),
        year: z.number().int().min(2000).max(2100),
        instructions: z.string().max(255).optional(),
        workOrder: z.string().max(255).optional(),
      })
      .optional()
      .openapi({ description: 'Also create a work plan that selects the pushed guidance line' }),
    dryRun: z
      .boolean()
      .optional()
      .openapi({ description: 'Send nothing; answer with the requests that would be sent' }),
  })
  .openapi('PortalPushRequest');

function toApiError(err: PortalError): ApiError {
  const map: Record<PortalError['code'], [number, string]> = {
    'portal-config': [409, 'PortalNotConfigured'],
    'portal-auth-failed': [502, 'PortalAuthFailed'],
    'portal-forbidden': [502, 'PortalForbidden'],
    'portal-not-found': [422, 'PortalTargetNotFound'],
    'portal-rejected': [502, 'PortalRejected'],
    'portal-conflict': [409, 'PortalConflict'],
    'portal-rate-limited': [503, 'PortalRateLimited'],
    'portal-unavailable': [503, 'PortalUnavailable'],
    'portal-network': [504, 'PortalUnreachable'],
    'portal-bad-plan': [422, 'PortalBadPlan'],
  };
  const [status, code] = map[err.code];
  return new ApiError(
    status,
    code,
    err.message,
    [
      {
        path: 'portal',
        message: `${err.portal}: ${err.code}${err.status ? ` (HTTP ${err.status})` : ''}, ${err.attempts} attempt(s)`,
      },
    ],
    { reason: err.code },
  );
}

export function portalRoutes(deps: Deps, options: PortalRoutesOptions = {}): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  let registry = options.registry;
  const reg = (): PortalRegistry => (registry ??= portalRegistryFromEnv());
  const params = z.object({ companyId: z.string().min(1).max(200) });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/companies/{companyId}/portals',
      tags: ['Portals'],
      summary: 'Portals this company can push plans to',
      security,
      request: { params },
      responses: {
        200: {
          description: 'Configured portals',
          content: {
            'application/json': {
              schema: z.object({ companyId: z.string(), portals: z.array(z.enum(['deere', 'trimble'])) }),
            },
          },
        },
        ...errorResponses(401, 404, 429),
      },
    }),
    async (c) => {
      const { companyId } = c.req.valid('param');
      if (!(await deps.store.canAccessCompany(callerOf(c).userId, companyId))) throw notFound('company', companyId);
      return c.json({ companyId, portals: reg().configured(companyId) }, 200);
    },
  );

  const pushRoute = (portal: 'deere' | 'trimble') =>
    createRoute({
      method: 'post',
      path: `/api/companies/{companyId}/portals/${portal}/push`,
      tags: ['Portals'],
      summary:
        portal === 'deere'
          ? "Push a plan's boundary, AB guidance line and optionally a work plan to John Deere Operations Center"
          : "Push a plan's boundary and AB guidance line to Trimble Agriculture",
      description:
        "Uses the company's portal configuration (OAuth2 client credentials or refresh token, base URLs; " +
        'docs/portals.md). The field must exist at the portal. With `dryRun: true` nothing is sent: the answer ' +
        'lists the requests that would be. Portal failures answer 409 / 422 / 502 / 503 / 504 with `reason` = ' +
        'the portal error code.',
      security,
      request: {
        params,
        body: jsonBody(portal === 'deere' ? PushRequestSchema : PushRequestSchema.omit({ workPlan: true })),
      },
      responses: {
        200: {
          description: 'Created at the portal (or, with dryRun, the requests that would be sent)',
          content: { 'application/json': { schema: Json } },
        },
        ...errorResponses(400, 401, 404, 409, 422, 429),
      },
    });

  for (const portal of ['deere', 'trimble'] as const) {
    app.openapi(pushRoute(portal), async (c) => {
      const { companyId } = c.req.valid('param');
      const body = c.req.valid('json') as z.infer<typeof PushRequestSchema>;
      const caller = callerOf(c);
      if (!(await deps.store.canAccessCompany(caller.userId, companyId))) throw notFound('company', companyId);
      if ((body.plan === undefined) === (body.planId === undefined)) {
        throw new ApiError(400, 'ValidationFailed', 'give exactly one of plan and planId', [
          { path: 'plan', message: 'exactly one of plan, planId' },
        ]);
      }
      let plan: Plan;
      if (body.planId !== undefined) {
        const stored = await deps.store.getPlan(caller.userId, body.planId);
        if (!stored) throw notFound('plan', body.planId);
        plan = stored.plan;
      } else {
        plan = body.plan as unknown as Plan;
        if (!Array.isArray(plan.route) || typeof plan.boundary !== 'object' || plan.boundary === null) {
          throw new ApiError(
            400,
            'ValidationFailed',
            'plan must be a plan as returned by POST /api/path-plans/direct (route, boundary)',
            [{ path: 'plan', message: 'needs route and boundary' }],
          );
        }
      }
      const target = { organizationId: body.organizationId, fieldId: body.fieldId };
      const opts = {
        ...(body.boundary !== undefined ? { boundary: body.boundary } : {}),
        ...(body.boundaryName ? { boundaryName: body.boundaryName } : {}),
        ...(body.guidanceLineName ? { guidanceLineName: body.guidanceLineName } : {}),
      };
      try {
        if (body.dryRun) {
          const config = reg().configOf(companyId, portal);
          const baseUrl = config?.baseUrl;
          const previewOpts = { ...opts, guidanceCurves: config?.guidanceCurves };
          const requests =
            portal === 'deere'
              ? previewDeerePush(
                  plan,
                  target,
                  { ...previewOpts, ...(body.workPlan ? { workPlan: body.workPlan } : {}) },
                  baseUrl,
                )
              : previewTrimblePush(plan, target, previewOpts, baseUrl);
          return c.json({ portal, companyId, dryRun: true, requests }, 200);
        }
        const pushed =
          portal === 'deere'
            ? await reg()
                .deereFor(companyId)
                .pushPlan(plan, target, { ...opts, ...(body.workPlan ? { workPlan: body.workPlan } : {}) })
            : await reg().trimbleFor(companyId).pushPlan(plan, target, opts);
        return c.json({ portal, companyId, pushed }, 200);
      } catch (err) {
        if (isPortalError(err)) throw toApiError(err);
        throw err;
      }
    });
  }
  return app;
}
