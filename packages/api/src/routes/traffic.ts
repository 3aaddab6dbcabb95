/**
 * `POST /api/path-plans/traffic` and `/traffic/geojson`: a controlled-traffic system (several
 * operations on one field on one set of lanes, the drill's tramlines, the trafficked share). An
 * extension beyond the 1.5.0 contract: each operation is planned like POST /api/path-plans/direct
 * (and billed as one plan), twice when the independent comparison is asked.
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { LIMITS, planTrafficSystemAsync, type TrafficSystemRequest } from '@furrow/core';
import { trafficFeatureCollection } from '@furrow/format-geojson';
import { callerOf, type AppEnv, type Deps } from '../context.js';
import { errorResponses, jsonBody, validationHook } from './common.js';
import { planBillable } from './plans.js';
import {
  FieldGeometrySchema,
  MachineSchema,
  ObstacleSchema,
  PositionSchema,
  RouteApiOptionsSchema,
  type PathPlanRequestBody,
} from '../schemas.js';

const meters = (max: number): z.ZodNumber => z.number().finite().positive().max(max);

const TrafficMachineSchema = MachineSchema.extend({
  gaugeMeters: meters(LIMITS.maxWidthMeters)
    .optional()
    .openapi({ description: 'Track gauge, wheel centre to wheel centre, meters (default traffic.gaugeMeters)' }),
  tyreWidthMeters: meters(10)
    .optional()
    .openapi({ description: 'Tyre width, meters (default traffic.tyreWidthMeters)' }),
});

const OperationSchema = z.strictObject({
  name: z.string().max(100).optional(),
  kind: z.enum(['drill', 'sprayer', 'harvester', 'spreader', 'other']).openapi({
    description:
      'The drill sets the base width and lays the tramlines; sprayers drive them; the others share the lanes',
  }),
  machine: TrafficMachineSchema,
  routeOptions: RouteApiOptionsSchema.optional(),
});

export const TrafficRequestSchema = z
  .strictObject({
    field: FieldGeometrySchema,
    obstacles: z.array(ObstacleSchema).max(LIMITS.maxObstacles).optional(),
    headland: z
      .strictObject({
        passes: z.number().int().min(LIMITS.minHeadlandPasses).max(LIMITS.maxHeadlandPasses).optional(),
        mode: z.enum(['full', 'turnOnly', 'none']).optional(),
        corners: z.enum(['square', 'rounded']).optional(),
        fitTurns: z.boolean().optional(),
      })
      .optional()
      .openapi({
        description:
          "The drill's headland; every other operation gets as many passes as fill the same depth (at least one)",
      }),
    options: z.string().max(200).optional(),
    smoothingStrategy: z.enum(['None', 'Arcs', 'Clothoids']).optional(),
    traffic: z.strictObject({
      gaugeMeters: meters(LIMITS.maxWidthMeters).openapi({ description: 'Track gauge of the machines, meters' }),
      tyreWidthMeters: meters(10).openapi({ description: 'Tyre width, meters' }),
      tyreMarginMeters: z.number().finite().min(0).max(5).optional().openapi({
        description: 'Added to the tyre width where the drill shuts rows off over a tramline (default 0.1 m)',
      }),
      firstPass: z.enum(['full', 'half']).optional().openapi({
        description: "The drill's first pass beside the reference line: full (default) or half width",
      }),
      rowSpacingMeters: meters(5).optional().openapi({
        description: 'Drill row spacing: with it, each tramline lane lists the rows to shut off',
      }),
      referenceLine: z
        .strictObject({ point: PositionSchema, headingDegrees: z.number().finite().min(-360).max(360) })
        .optional()
        .openapi({
          description:
            'The AB line the lanes run along (a point, a bearing). Default: the heading the planner ' +
            'picks for the drill, the line along it touching the field',
        }),
      includeTurns: z.boolean().optional().openapi({
        description: "Also report the share with the turns' and connectors' wheel footprints (default false)",
      }),
      compareIndependent: z.boolean().optional().openapi({
        description: 'Also plan each operation alone at its own best heading (default true; bills each plan)',
      }),
    }),
    operations: z.array(OperationSchema).min(1).max(8),
  })
  .openapi('TrafficSystemRequest', {
    example: {
      field: {
        type: 'Polygon',
        coordinates: [
          [
            [8.54, 47.37],
            [8.5453, 47.37],
            [8.5453, 47.3727],
            [8.54, 47.3727],
            [8.54, 47.37],
          ],
        ],
      },
      traffic: { gaugeMeters: 3, tyreWidthMeters: 0.6 },
      operations: [
        { kind: 'drill', machine: { widthMeters: 12 } },
        { kind: 'sprayer', machine: { widthMeters: 36, turnRadiusMeters: 9 } },
        { kind: 'harvester', machine: { widthMeters: 12, turnRadiusMeters: 8 } },
      ],
    },
  });

const Json = z.record(z.string(), z.unknown());

const DESCRIPTION =
  'Extension beyond the 1.5.0 contract. Plans every operation on one lane grid (one heading, tracks on ' +
  'lines a base width apart: the drill width), marks the drill passes that carry the sprayer tramlines ' +
  '(lane offsets, shut-off bands, rows), and returns the trafficked share (union of the wheel footprints ' +
  '÷ field area) beside the same operations planned each alone at its own best heading. Each planning ' +
  'costs one plan. 422 names the field and the nearest values that fit: an operation width that is no ' +
  "whole multiple of the drill's (operations[i].machine.widthMeters), a gauge wider than a machine " +
  '(traffic.gaugeMeters), tyres as wide as the gauge (traffic.tyreWidthMeters).';

export function trafficRoutes(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  for (const geojson of [false, true])
    app.openapi(
      createRoute({
        method: 'post',
        path: geojson ? '/api/path-plans/traffic/geojson' : '/api/path-plans/traffic',
        tags: ['Extensions'],
        summary: geojson
          ? 'Controlled traffic as GeoJSON: lanes, tramline passes and every operation route [extension]'
          : 'Plan several operations on one field on one set of lanes (controlled traffic) [extension]',
        description: DESCRIPTION,
        security: [{ ApiKey: [] }],
        request: { body: jsonBody(TrafficRequestSchema) },
        responses: {
          200: {
            description: geojson ? 'FeatureCollection' : 'The traffic system',
            content: { [geojson ? 'application/geo+json' : 'application/json']: { schema: Json } },
          },
          ...errorResponses(400, 401, 402, 413, 422, 429),
        },
      }),
      async (c) => {
        const body = c.req.valid('json');
        const caller = callerOf(c);
        const signal = c.req.raw.signal;
        const result = await planTrafficSystemAsync(body as TrafficSystemRequest, (req) =>
          planBillable(deps, caller, req as PathPlanRequestBody, signal, 'path-plans/traffic'),
        );
        if (!geojson) return c.json(result, 200);
        return c.body(JSON.stringify(trafficFeatureCollection(result)), 200, {
          'content-type': 'application/geo+json',
        });
      },
    );
  return app;
}
