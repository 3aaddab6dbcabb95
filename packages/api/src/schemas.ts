/**
 * Request and response schemas (zod 4, with OpenAPI metadata): the single source of validation
 * and of the OpenAPI 3.1 document. Shape checks (types, ranges, unknown names) answer 400 with
 * the field's path; geometric validity is checked separately and answers 422.
 */
import { z } from '@hono/zod-openapi';
import { DEFAULTS, LIMITS, MAX_FLEET_MACHINES } from '@furrow/core';
import { API_VERSION } from './version.js';

export const OPTION_NAMES = ['useCrossHatches', 'excludePassable', 'extendTracks'] as const;

const num = (min: number, max: number) => z.number().finite().min(min).max(max);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What makes a string unstorable, or undefined: a NUL character (PostgreSQL text and jsonb refuse
 * it) or a lone UTF-16 surrogate (no UTF-8 form). The one text check of every request body
 * (`jsonBodies` walks each body's strings with it) and of names read from imported files.
 */
export function textProblem(s: string): string | undefined {
  if (s.includes('\u0000')) return 'must not contain a NUL character (U+0000)';
  if (LONE_SURROGATE.test(s)) return 'must be valid Unicode text (it holds a lone surrogate)';
  return undefined;
}

/**
 * The first unstorable string of a parsed JSON body (keys included), with its path. With
 * `invalidUtf8` (the raw body was not valid UTF-8: each bad byte decoded as U+FFFD) the first
 * string holding U+FFFD is named instead.
 */
export function firstTextProblem(value: unknown, invalidUtf8 = false): { path: string; message: string } | undefined {
  const problemOf = (s: string): string | undefined =>
    invalidUtf8 && s.includes('\uFFFD') ? 'is not valid UTF-8 text (send the body encoded as UTF-8)' : textProblem(s);
  const walk = (v: unknown, path: (string | number)[]): { path: string; message: string } | undefined => {
    if (typeof v === 'string') {
      const message = problemOf(v);
      return message ? { path: formatPath(path), message } : undefined;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const hit = walk(v[i], [...path, i]);
        if (hit) return hit;
      }
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        const keyProblem = problemOf(k);
        if (keyProblem) return { path: formatPath([...path, k]), message: `(a member name) ${keyProblem}` };
        const hit = walk(child, [...path, k]);
        if (hit) return hit;
      }
    }
    return undefined;
  };
  return (
    walk(value, []) ??
    (invalidUtf8 ? { path: '(body)', message: 'is not valid UTF-8 (send the body encoded as UTF-8)' } : undefined)
  );
}

export const PositionSchema = z
  .array(z.number().finite())
  .min(2)
  .max(3)
  .openapi('Position', {
    description: '[longitude, latitude] in WGS84 degrees (RFC 7946 order)',
    example: [8.5, 47.4],
  });

/** The small field the OpenAPI examples plan (Zurich, about 600 × 550 m). */
const EXAMPLE_FIELD = {
  type: 'Polygon',
  coordinates: [
    [
      [8.54, 47.37],
      [8.548, 47.37],
      [8.548, 47.375],
      [8.54, 47.375],
      [8.54, 47.37],
    ],
  ],
};

const RingSchema = z
  .array(PositionSchema)
  .openapi({ description: 'A closed ring: first and last positions equal, at least 4 positions' });

export const PolygonSchema = z
  .strictObject({ type: z.literal('Polygon'), coordinates: z.array(RingSchema).min(1) })
  .openapi('Polygon', { description: 'GeoJSON Polygon: the outer ring first, then holes (no-go zones)' });

export const MultiPolygonSchema = z
  .strictObject({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(RingSchema).min(1)).min(1) })
  .openapi('MultiPolygon');

export const FieldGeometrySchema = z
  .discriminatedUnion('type', [PolygonSchema, MultiPolygonSchema])
  .openapi('FieldGeometry', { description: 'GeoJSON Polygon or MultiPolygon in lon/lat; holes are no-go zones' });

export const MachineSchema = z
  .strictObject({
    widthMeters: num(LIMITS.minWidthMeters, LIMITS.maxWidthMeters).openapi({
      description: 'Working (swath) width, meters',
      example: 6,
    }),
    turnRadiusMeters: num(LIMITS.minTurnRadiusMeters, LIMITS.maxTurnRadiusMeters)
      .optional()
      .openapi({ description: `Minimum turning radius, meters (default ${DEFAULTS.turnRadiusMeters})` }),
    maxCurvatureRatePerSquareMeter: num(LIMITS.minCurvatureRatePerSquareMeter, LIMITS.maxCurvatureRatePerSquareMeter)
      .optional()
      .openapi({ description: 'Steering-rate (curvature-rate) limit, 1/m²' }),
    reverseAllowed: z.boolean().optional(),
    workingSpeedMetersPerSecond: num(LIMITS.minSpeedMetersPerSecond, LIMITS.maxSpeedMetersPerSecond).optional(),
    turningSpeedMetersPerSecond: num(LIMITS.minSpeedMetersPerSecond, LIMITS.maxSpeedMetersPerSecond).optional(),
    transportSpeedMetersPerSecond: num(LIMITS.minSpeedMetersPerSecond, LIMITS.maxSpeedMetersPerSecond).optional(),
    cuspStopSeconds: num(LIMITS.minCuspStopSeconds, LIMITS.maxCuspStopSeconds)
      .optional()
      .openapi({
        description: `Time each cusp of a reversing manoeuvre costs, seconds (default ${DEFAULTS.cuspStopSeconds})`,
      }),
    workingFuelLitersPerHour: num(LIMITS.minFuelLitersPerHour, LIMITS.maxFuelLitersPerHour).optional(),
    turningFuelLitersPerHour: num(LIMITS.minFuelLitersPerHour, LIMITS.maxFuelLitersPerHour).optional(),
    tankCapacity: num(0, 1e7)
      .optional()
      .openapi({ description: 'Tank or hopper capacity (liters or kg), for refill planning' }),
    applicationRatePerHectare: num(0, 1e6)
      .optional()
      .openapi({ description: 'Application rate per hectare, same unit as tankCapacity' }),
    implementOffsetMeters: num(-50, 50).optional(),
    // checked by the planner (core normalizeRequest): a bad value answers 422 naming the field
    sections: z
      .unknown()
      .optional()
      .openapi({
        type: 'integer',
        minimum: 1,
        description:
          'Sections of the boom switched on and off (section control), of equal widths unless ' +
          'sectionWidthsMeters says otherwise; centre-line passes carry the active width along them',
      }),
    sectionWidthsMeters: z
      .unknown()
      .optional()
      .openapi({
        type: 'array',
        items: { type: 'number', exclusiveMinimum: 0 },
        description: 'Widths of the sections, left to right, meters; they add up to widthMeters',
      }),
  })
  .openapi('Machine', {
    description: "Machine / equipment. Shape B's `equipment` takes the same fields as shape A's `machine`.",
  });

/** A [lon, lat] pair in WGS84 degrees. */
export const LonLatSchema = z.tuple([num(-180, 180), num(-90, 90)]);

export const ObstacleSchema = z
  .strictObject({
    geometry: PolygonSchema,
    passable: z.boolean().optional(),
    bufferMeters: num(LIMITS.minObstacleBufferMeters, LIMITS.maxObstacleBufferMeters).optional(),
    name: z.string().max(200).optional(),
  })
  .openapi('Obstacle');

export const RouteApiOptionsSchema = z
  .strictObject({
    startPointNodeIndex: z.number().int().min(0).max(LIMITS.maxNodeIndex).optional(),
    endPointNodeIndex: z.number().int().min(0).max(LIMITS.maxNodeIndex).optional(),
    algorithm: z.enum(['optimized', 'boustrophedon', 'snake', 'spiral', 'clusteredSpiral']).optional(),
    skipCount: z.number().int().min(0).max(LIMITS.maxSkipCount).optional(),
    enableHeadlandDrivethrough: z.boolean().optional(),
    headlandsFirst: z.boolean().optional(),
    calculateRefillPoints: z.boolean().optional(),
    stagingArea: z
      .tuple([num(-180, 180), num(-90, 90)])
      .optional()
      .openapi({ description: '[lon, lat] WGS84 of the staging area' }),
    refillStrategyType: z.enum(['Exact', 'StartOfTrack', 'ClosestExternalHeadland']).optional(),
    maxOptimizerTime: z
      .number()
      .int()
      .min(LIMITS.minOptimizerTimeSeconds)
      .max(LIMITS.maxOptimizerTimeSeconds)
      .optional()
      .openapi({ description: `Optimizer time limit, seconds (default ${DEFAULTS.maxOptimizerTimeSeconds})` }),
    forcedDirection: z.enum(['CW', 'CCW']).optional(),
    objective: z.enum(['distance', 'time', 'fuel']).optional(),
  })
  .openapi('RouteApiOptions');

export const PathPlanRequestSchema = z
  .strictObject({
    field: FieldGeometrySchema.optional().openapi({ description: 'Shape A: the field boundary' }),
    machine: MachineSchema.optional().openapi({ description: 'Shape A: the machine' }),
    headland: z
      .strictObject({
        passes: z.number().int().min(LIMITS.minHeadlandPasses).max(LIMITS.maxHeadlandPasses).optional(),
        mode: z.enum(['full', 'turnOnly', 'none']).optional(),
        corners: z.enum(['square', 'rounded']).optional(),
        fitTurns: z
          .boolean()
          .optional()
          .openapi({ description: 'Widen the headland to the depth the forward turns need (default true)' }),
        smallObstacleSizeMeters: num(LIMITS.minSmallObstacleSizeMeters, LIMITS.maxSmallObstacleSizeMeters)
          .optional()
          .openapi({
            description:
              'No-go zones smaller than this (largest extent, m) get no headland rounds: tracks swerve round them. ' +
              'Default: the working width; 0: every zone gets rounds',
          }),
      })
      .optional(),
    tracks: z
      .strictObject({
        preferredDirectionDegrees: num(-LIMITS.maxHeadingDegrees, LIMITS.maxHeadingDegrees)
          .optional()
          .openapi({ description: 'Preferred bearing, degrees clockwise from north' }),
        trackType: z.enum(['straight', 'curved']).optional(),
        referenceLine: z
          .strictObject({
            point: z.tuple([num(-180, 180), num(-90, 90)]),
            offsetMeters: num(-10_000, 10_000).optional(),
          })
          .optional()
          .openapi({
            description:
              'Extension: straight tracks on a lane grid, their centre lines offsetMeters + i·widthMeters ' +
              'to the right of the line through point along preferredDirectionDegrees (which it needs)',
          }),
      })
      .optional(),
    boundary: FieldGeometrySchema.optional().openapi({
      description: 'Shape B: the field boundary (GeoJSON Polygon or MultiPolygon)',
    }),
    equipment: MachineSchema.optional().openapi({ description: 'Shape B: the machine (same fields as `machine`)' }),
    exteriorHeadlandPasses: z.number().int().min(LIMITS.minHeadlandPasses).max(LIMITS.maxHeadlandPasses).optional(),
    obstacles: z.array(ObstacleSchema).max(LIMITS.maxObstacles).optional(),
    options: z
      .string()
      .max(200)
      .optional()
      .openapi({ description: `Comma-separated option names: ${OPTION_NAMES.join(', ')}`, example: 'useCrossHatches' }),
    routeOptions: RouteApiOptionsSchema.optional(),
    smoothingStrategy: z.enum(['None', 'Arcs', 'Clothoids']).optional().openapi('SmoothingStrategyType'),
    accessPoints: z
      .array(z.tuple([num(-180, 180), num(-90, 90)]))
      .max(LIMITS.maxAccessPoints)
      .optional()
      .openapi({
        description:
          "The field's access points (gates), [lon, lat] each: the route starts at the track end nearest the " +
          'first; transit legs between zones run through the gates nearest where they leave and enter',
        example: [[8.54, 47.37]],
      }),
  })
  .superRefine((r, ctx) => {
    if (r.field !== undefined && r.boundary !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['boundary'],
        message: 'give either `field` (shape A) or `boundary` (shape B), not both',
      });
    if (r.field === undefined && r.boundary === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['field'],
        message: 'required: the field boundary (`field` in shape A, `boundary` in shape B)',
      });
    if (r.machine !== undefined && r.equipment !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['equipment'],
        message: 'give either `machine` (shape A) or `equipment` (shape B), not both',
      });
    if (r.machine === undefined && r.equipment === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['machine'],
        message: 'required: the machine (`machine.widthMeters` or `equipment.widthMeters`)',
      });
    if (r.headland?.passes !== undefined && r.exteriorHeadlandPasses !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['exteriorHeadlandPasses'],
        message: 'give either `headland.passes` or `exteriorHeadlandPasses`, not both',
      });
    if (r.options !== undefined) {
      for (const name of r.options.split(',').map((s) => s.trim())) {
        if (name === '') continue;
        if (!(OPTION_NAMES as readonly string[]).includes(name))
          ctx.addIssue({
            code: 'custom',
            path: ['options'],
            message: `unknown option "${name}"; known: ${OPTION_NAMES.join(', ')}`,
          });
      }
    }
  })
  .openapi('PathPlanRequest', {
    description:
      'Shape A (`field`, `machine`, `headland`, `tracks`) or shape B (`boundary`, `equipment`, ' +
      '`exteriorHeadlandPasses`); both take `obstacles`, `options`, `routeOptions`.',
    example: {
      field: EXAMPLE_FIELD,
      machine: { widthMeters: 6 },
      headland: { passes: 2 },
      tracks: { preferredDirectionDegrees: 90 },
    },
  });

export type PathPlanRequestBody = z.infer<typeof PathPlanRequestSchema>;

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
    correlationId: z.string(),
  })
  .openapi('Error');

export const ForbiddenSchema = z
  .object({ correlationId: z.string(), errorCode: z.literal('NotAuthorized'), message: z.string() })
  .openapi('Forbidden');

export const PaymentRequiredSchema = z
  .object({ creditsAvailable: z.number(), creditsRequired: z.number(), message: z.string(), correlationId: z.string() })
  .openapi('PaymentRequired');

export const RateLimitedSchema = z
  .object({
    error: z.object({ code: z.literal('RATE_LIMIT_EXCEEDED'), message: z.string() }),
    limit: z.number(),
    windowSeconds: z.number(),
    retryAfterSeconds: z.number(),
    correlationId: z.string(),
  })
  .openapi('RateLimited');

export const MetricsSchema = z
  .object({
    fieldAreaSquareMeters: z.number(),
    workableAreaSquareMeters: z.number(),
    distanceMeters: z.number(),
    workingDistanceMeters: z.number(),
    nonWorkingDistanceMeters: z.number(),
    timeSeconds: z.number(),
    overlapSquareMeters: z.number(),
    overlapRatio: z.number(),
    uncoveredSquareMeters: z.number(),
    uncoveredRatio: z.number(),
    turns: z.number(),
  })
  .passthrough()
  .openapi('PlanMetrics');

export const PlanWarningSchema = z
  .object({
    code: z.string().openapi({ example: 'transit-leg' }),
    message: z.string(),
    geometry: z
      .object({ type: z.string(), coordinates: z.unknown() })
      .optional()
      .openapi({ description: 'Where it applies, lon/lat: a Point, or the LineString / Polygon it is about' }),
    sequence: z.number().int().optional().openapi({ description: 'The route piece it is about (`route[].sequence`)' }),
    feature: z
      .string()
      .optional()
      .openapi({ description: 'The feature it applies to when it has no one place (e.g. `field`)' }),
  })
  .passthrough()
  .openapi('PlanWarning', {
    description:
      'A quality problem of the plan: every warning has a code, a message and a place (geometry, sequence or feature)',
  });

export const PlanZoneSchema = z
  .object({
    index: z.number().int(),
    firstSequence: z.number().int(),
    lastSequence: z.number().int(),
    start: PositionSchema,
    end: PositionSchema,
    workingDistanceMeters: z.number(),
    entryAccessPoint: z.number().int().optional(),
    entryAccessPointMeters: z.number().optional(),
    exitAccessPoint: z.number().int().optional(),
    exitAccessPointMeters: z.number().optional(),
  })
  .passthrough()
  .openapi('PlanZone', {
    description:
      'A stretch of the route worked without leaving the field; zones are joined by transit legs (Connector pieces ' +
      'with connectorKind "transport", each warned)',
  });

export const PlanSchema = z
  .object({
    version: z.string().openapi({ example: API_VERSION }),
    metrics: MetricsSchema,
    route: z.array(z.record(z.string(), z.unknown())).optional(),
    warnings: z.array(PlanWarningSchema).optional(),
    zones: z.array(PlanZoneSchema).optional(),
    crosshatches: z
      .array(z.unknown())
      .optional()
      .openapi({ description: 'Present only with option useCrossHatches (schema Crosshatch)' }),
  })
  .passthrough()
  .openapi('Plan');

export const PlanFeatureCollectionSchema = z
  .object({
    type: z.literal('FeatureCollection'),
    features: z.array(z.record(z.string(), z.unknown())),
    metrics: MetricsSchema,
    version: z.string(),
  })
  .passthrough()
  .openapi('PlanFeatureCollection');

export const GuidanceGeometryTypeSchema = z
  .enum(['Track', 'ExteriorHeadland', 'InteriorHeadland'])
  .openapi('GuidanceGeometryType');

// ---- partner and land entities ---------------------------------------------------------

export const CountryCodeSchema = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be a 2-letter ISO 3166-1 alpha-2 code')
  .transform((s) => s.toUpperCase());

export const PartnerUserSchema = z
  .strictObject({
    partnerUserId: z.string().min(1).max(200),
    email: z.email().max(320).optional(),
    firstName: z.string().min(1).max(200).optional(),
    lastName: z.string().min(1).max(200).optional(),
    countryCode: CountryCodeSchema.optional(),
  })
  .openapi('PartnerUser');

export const PartnerCompanySchema = z
  .strictObject({
    partnerCompanyId: z.string().min(1).max(200),
    name: z.string().min(1).max(200).optional(),
    countryCode: CountryCodeSchema.optional(),
  })
  .openapi('PartnerCompany');

export const CompanyAccessSchema = z
  .strictObject({
    partnerUserId: z.string().min(1).max(200),
    partnerCompanyId: z.string().min(1).max(200),
    role: z.enum(['admin', 'member']).optional(),
  })
  .openapi('CompanyAccessRequest');

export const LandEntitySchema = z
  .strictObject({
    name: z.string().min(1).max(200),
    source: z.string().min(1).max(50).optional().openapi({ example: 'api' }),
    archived: z.boolean().optional(),
  })
  .openapi('LandEntityRequest');

export const SaveFieldSchema = z
  .strictObject({
    farmId: z.string().min(1),
    name: z.string().min(1).max(200),
    boundary: z
      .array(z.array(PositionSchema))
      .min(1)
      .openapi({ description: 'Rings of [lon, lat] pairs, each closed; the first the outer ring, the rest holes' }),
    obstacles: z
      .array(ObstacleSchema)
      .max(LIMITS.maxObstacles)
      .optional()
      .openapi({
        description:
          'Obstacles kept with the boundary (as in a path-plan request; `passable: true` for ground that may be ' +
          'driven over but is not worked): every plan of the stored boundary takes them',
      }),
    accessPoints: z
      .array(LonLatSchema)
      .max(LIMITS.maxAccessPoints)
      .optional()
      .openapi({ description: "The field's gates, [lon, lat] each (the path-plan request's `accessPoints`)" }),
    stagingArea: LonLatSchema.optional().openapi({
      description: "Where the machine starts and ends, [lon, lat] (the request's `routeOptions.stagingArea`)",
    }),
  })
  .openapi('SaveFieldRequest');

/** What a stored boundary's plans take besides its polygon (replaced whole by `PUT …/plan-inputs`). */
export const BoundaryPlanInputsSchema = z
  .strictObject({
    obstacles: z.array(ObstacleSchema).max(LIMITS.maxObstacles).optional(),
    accessPoints: z.array(LonLatSchema).max(LIMITS.maxAccessPoints).optional(),
    stagingArea: LonLatSchema.optional(),
  })
  .openapi('BoundaryPlanInputs');

/** Machine settings of a profile: a path-plan request's `machine`, with sections checked here. */
export const ProfileMachineSchema = MachineSchema.extend({
  sections: z.number().int().min(1).max(1000).optional().openapi({ description: 'Sections of the boom (≥ 1)' }),
  sectionWidthsMeters: z
    .array(num(0.01, LIMITS.maxWidthMeters))
    .min(1)
    .max(1000)
    .optional()
    .openapi({ description: 'Widths of the sections, left to right, meters; they add up to widthMeters' }),
})
  .superRefine((m, ctx) => {
    const widths = m.sectionWidthsMeters;
    if (!widths) return;
    const sum = widths.reduce((a, b) => a + b, 0);
    if (Math.abs(sum - m.widthMeters) > 1e-6 * Math.max(1, m.widthMeters))
      ctx.addIssue({
        code: 'custom',
        path: ['sectionWidthsMeters'],
        message: `must add up to widthMeters (${m.widthMeters}); they add up to ${sum}`,
      });
    if (m.sections !== undefined && m.sections !== widths.length)
      ctx.addIssue({
        code: 'custom',
        path: ['sections'],
        message: `is ${m.sections} but sectionWidthsMeters gives ${widths.length} widths`,
      });
  })
  .openapi('ProfileMachine');

export const MachineProfileRequestSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(80).openapi({ example: 'Sprayer 24 m' }),
    machine: ProfileMachineSchema,
  })
  .openapi('MachineProfileRequest');

/** An API key as listed (never its secret). */
export const KeySchema = z
  .object({
    keyId: z.string(),
    userId: z.string(),
    name: z.string(),
    partnerAdmin: z.boolean(),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
  })
  .openapi('ApiKey');

export const CreateKeySchema = z
  .strictObject({
    name: z.string().min(1).max(200),
    partnerUserId: z.string().min(1).max(200).optional(),
    expiresAt: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({
        description:
          'When the key stops working (ISO 8601 with a time zone; must be in the future). Omitted: the key works ' +
          'until revoked.',
      }),
  })
  .openapi('CreateApiKeyRequest');

export const LaunchSchema = z
  .strictObject({
    userId: z.string().min(1).max(200).openapi({ description: "The partner's id for the end user (partnerUserId)" }),
    returnUrl: z.string().max(2000).optional(),
  })
  .openapi('LaunchRequest');

export const LaunchExchangeSchema = z
  .strictObject({
    code: z.string().min(1).max(200),
    userId: z.string().min(1).max(200).openapi({ description: "The service's user id returned by the launch call" }),
  })
  .openapi('LaunchExchangeRequest');

export const GrantCreditsSchema = z
  .strictObject({
    credits: z.number().int().min(1).max(1_000_000_000),
    partnerUserId: z.string().min(1).max(200).optional(),
    partnerCompanyId: z.string().min(1).max(200).optional(),
  })
  .superRefine((r, ctx) => {
    if ((r.partnerUserId === undefined) === (r.partnerCompanyId === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['partnerUserId'],
        message: 'give exactly one of partnerUserId or partnerCompanyId',
      });
  })
  .openapi('GrantCreditsRequest');

export const PageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  includeArchived: z
    .enum(['true', 'false'])
    .default('false')
    .transform((s) => s === 'true'),
});

/** Turns zod issues into `details` with paths like `machine.widthMeters` or `field.coordinates[0][3]`. */
export function issuesToDetails(
  issues: readonly z.core.$ZodIssue[],
  prefix: (string | number)[] = [],
): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  for (const issue of issues) {
    const base = [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: formatPath([...base, key]), message: `unknown field "${key}"` });
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // Report the branch that got furthest (discriminated unions report one).
      const deepest = issue.errors.reduce((a, b) => (b.length < a.length ? b : a));
      out.push(...issuesToDetails(deepest, base));
    } else {
      out.push({ path: formatPath(base), message: issue.message });
    }
  }
  return out;
}

export function formatPath(path: (string | number)[]): string {
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s === '' ? p : `.${p}`;
  return s === '' ? '(body)' : s;
}

/** A machine of a fleet: a machine with an id (and optionally where it comes from). */
export const FleetMachineSchema = MachineSchema.extend({
  id: z.string().max(100).openapi({ description: 'Unique within the fleet; `machineId` in the output', example: 'm1' }),
  startPoint: PositionSchema.optional().openapi({
    description:
      '[lon, lat] where the machine comes from: it starts its share once it has come from there (a straight line at ' +
      'its transport speed, not routed), and machines may exchange shares so that each starts near its point',
  }),
}).openapi('FleetMachine');

const { machine: _machine, equipment: _equipment, ...fieldShape } = PathPlanRequestSchema.shape;

/**
 * A fleet request (an extension beyond the 1.5.0 contract): the path-plan request's field, headland, tracks and
 * options with a `fleet` instead of one machine. The fleet's own rules (1 to MAX_FLEET_MACHINES machines, unique
 * ids, widths whole multiples of the narrowest) are the planner's: broken, they answer 422 naming the field.
 */
export const FleetRequestSchema = z
  .strictObject({
    ...fieldShape,
    fleet: z.array(FleetMachineSchema).openapi({
      description: `The machines (1 to ${MAX_FLEET_MACHINES}); widths equal, or whole multiples of the narrowest`,
    }),
    safetyDistanceMeters: num(0, 1000)
      .optional()
      .openapi({ description: 'Two machines are never closer than this at one moment (default: the largest width)' }),
  })
  .superRefine((r, ctx) => {
    if (r.field !== undefined && r.boundary !== undefined)
      ctx.addIssue({ code: 'custom', path: ['boundary'], message: 'give either `field` or `boundary`, not both' });
    if (r.field === undefined && r.boundary === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['field'],
        message: 'required: the field boundary (`field` or `boundary`)',
      });
  })
  .openapi('FleetRequest', {
    description:
      'Several machines in one field (extension beyond the 1.5.0 contract). ' +
      'The field as in PathPlanRequest, `fleet` instead of `machine`.',
    example: {
      field: EXAMPLE_FIELD,
      fleet: [
        { id: 'm1', widthMeters: 6 },
        { id: 'm2', widthMeters: 6 },
      ],
    },
  });

export type FleetRequestBody = z.infer<typeof FleetRequestSchema>;

export const FleetPlanSchema = z
  .object({
    version: z.string().openapi({ example: API_VERSION }),
    fleet: z
      .object({
        machineCount: z.number(),
        makespanSeconds: z.number().openapi({ description: 'When the last machine finishes, seconds' }),
        totalTimeSeconds: z.number(),
        waitSeconds: z.number(),
        lowerBoundSeconds: z.number().openapi({ description: 'A lower bound on the makespan, seconds' }),
        gapRatio: z.number().openapi({ description: 'makespan ÷ lower bound − 1' }),
        workLowerBoundSeconds: z.number(),
        workGapRatio: z.number(),
        safetyDistanceMeters: z.number(),
      })
      .passthrough(),
    machines: z
      .array(
        z
          .object({
            machineId: z.string(),
            metrics: MetricsSchema,
            route: z.array(z.record(z.string(), z.unknown())).openapi({
              description: 'Route segments with `startSeconds` and `endSeconds`',
            }),
            waits: z.array(z.record(z.string(), z.unknown())).openapi({
              description:
                'Waits: machineId, position [lon, lat], beforeSequence, startSeconds, durationSeconds, givesWayTo',
            }),
            startSeconds: z.number(),
            finishSeconds: z.number(),
            approachSeconds: z
              .number()
              .optional()
              .openapi({
                description:
                  'With a startPoint: seconds to come from there to where the route starts ' +
                  '(`approach` at the transport speed)',
              }),
            approach: z
              .object({
                coordinates: z.array(z.array(z.number())),
                lengthMeters: z.number(),
                startSeconds: z.number(),
                endSeconds: z.number(),
              })
              .optional()
              .openapi({
                description:
                  'With a startPoint: the way in, a transport leg from it to the route start ([lon, lat]), routed ' +
                  'inside the field round holes and non-passable obstacles; not part of `route`',
              }),
          })
          .passthrough(),
      )
      .openapi({ description: "Each machine's share: a plan of its own, timed, with its waits" }),
    warnings: z.array(PlanWarningSchema).optional(),
  })
  .passthrough()
  .openapi('FleetPlan');
