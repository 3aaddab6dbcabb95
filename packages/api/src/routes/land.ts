/**
 * Land entities (docs/api.md "Full platform"): growers, farms, fields with boundaries, boundary import
 * and export, stored plans. Every read and write is scoped to the companies the caller's user can
 * access; anything else answers 404, exactly like an id that does not exist.
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import * as agopengpsFormat from '@furrow/format-agopengps';
import * as geojsonFormat from '@furrow/format-geojson';
import { isArchiveLimitError } from '@furrow/format-geojson';
import * as isoxmlFormat from '@furrow/format-isoxml';
import * as kmlFormat from '@furrow/format-kml';
import * as shapefileFormat from '@furrow/format-shapefile';
import * as vendorFormat from '@furrow/format-vendor';
import * as wktFormat from '@furrow/format-wkt';
import type { AppEnv, Caller, Deps } from '../context.js';
import { callerOf } from '../context.js';
import { ApiError, badRequest, fromPlanError, notFound } from '../errors.js';
import { assertValidBoundary, assertValidRequestGeometry, ringsToPolygon } from '../geometry.js';
import {
  BoundaryPlanInputsSchema,
  LandEntitySchema,
  PageQuerySchema,
  PathPlanRequestSchema,
  SaveFieldSchema,
  issuesToDetails,
  textProblem,
} from '../schemas.js';
import type { ObstacleInput } from '@furrow/core';
import type {
  BoundaryPlanInputs,
  BoundaryRow,
  FarmRow,
  FieldRow,
  LandRow,
  Page,
  StoredPlanRow,
} from '../store/store.js';
import { errorResponses, jsonBody, validationHook } from './common.js';
import { planBillable } from './plans.js';

const json = (description: string, schema: z.ZodType) => ({ description, content: { 'application/json': { schema } } });
const security = [{ ApiKey: [] }];
const IdParam = (name: string) => z.object({ [name]: z.string().min(1).max(100) });
const PagedSchema = (item: z.ZodType) =>
  z.object({ items: z.array(item), total: z.number(), limit: z.number(), offset: z.number() });

const GrowerSchema = z
  .object({
    growerId: z.string(),
    companyId: z.string(),
    name: z.string(),
    source: z.string(),
    archived: z.boolean(),
    createdAt: z.string(),
  })
  .openapi('Grower');
const FarmSchema = z
  .object({
    farmId: z.string(),
    growerId: z.string(),
    companyId: z.string(),
    name: z.string(),
    source: z.string(),
    archived: z.boolean(),
    createdAt: z.string(),
  })
  .openapi('Farm');
const FieldSchema = z
  .object({
    fieldId: z.string(),
    farmId: z.string(),
    companyId: z.string(),
    name: z.string(),
    archived: z.boolean(),
    createdAt: z.string(),
  })
  .passthrough()
  .openapi('Field');
const BoundarySchema = z
  .object({
    boundaryId: z.string(),
    fieldId: z.string().nullable(),
    companyId: z.string(),
    name: z.string().nullable(),
    geometry: z.record(z.string(), z.unknown()),
    obstacles: z.array(z.record(z.string(), z.unknown())).optional().openapi({
      description: 'Obstacles kept with the boundary (passable or not), as in a path-plan request',
    }),
    accessPoints: z.array(z.array(z.number())).optional().openapi({ description: 'Gates, [lon, lat] each' }),
    stagingArea: z.array(z.number()).optional().openapi({ description: 'Start point, [lon, lat]' }),
    archived: z.boolean(),
    createdAt: z.string(),
  })
  .openapi('Boundary');
const StoredPlanSchema = z
  .object({
    planId: z.string(),
    boundaryId: z.string(),
    fieldId: z.string().nullable(),
    createdAt: z.string(),
    request: z.record(z.string(), z.unknown()),
    plan: z.record(z.string(), z.unknown()),
  })
  .openapi('StoredPlan');

const grower = (g: LandRow) => ({
  growerId: g.id,
  companyId: g.companyId,
  name: g.name,
  source: g.source,
  archived: g.archived,
  createdAt: g.createdAt,
});
const farm = (f: FarmRow) => ({
  farmId: f.id,
  growerId: f.growerId,
  companyId: f.companyId,
  name: f.name,
  source: f.source,
  archived: f.archived,
  createdAt: f.createdAt,
});
const storedPlan = (p: StoredPlanRow) => ({
  planId: p.planId,
  boundaryId: p.boundaryId,
  fieldId: p.fieldId,
  createdAt: p.createdAt,
  request: p.request,
  plan: p.plan,
});
const mapPage = <T, U>(p: Page<T>, f: (t: T) => U) => ({ ...p, items: p.items.map(f) });

export const BOUNDARY_FORMATS = ['geojson', 'wkt', 'kml', 'shapefile', 'isoxml', 'agopengps'] as const;
type BoundaryFormat = (typeof BOUNDARY_FORMATS)[number];

async function exportBoundary(
  b: BoundaryRow,
  format: BoundaryFormat,
): Promise<{ bytes: Uint8Array | string; mediaType: string; ext: string }> {
  const item = {
    geometry: b.geometry,
    properties: { name: b.name ?? b.boundaryId, boundaryId: b.boundaryId, fieldId: b.fieldId },
  };
  switch (format) {
    case 'geojson':
      return { bytes: geojsonFormat.writeBoundaries([item]), mediaType: 'application/geo+json', ext: 'geojson' };
    case 'wkt':
      return { bytes: `${wktFormat.writeBoundaries([item])}\n`, mediaType: 'text/plain; charset=utf-8', ext: 'wkt' };
    case 'kml':
      return {
        bytes: kmlFormat.writeBoundaries([item], { name: b.name ?? 'boundary' }),
        mediaType: 'application/vnd.google-earth.kml+xml',
        ext: 'kml',
      };
    case 'shapefile':
      return {
        bytes: await shapefileFormat.writeBoundaries([item], { name: 'boundary' }),
        mediaType: 'application/zip',
        ext: 'zip',
      };
    case 'isoxml':
      return {
        bytes: await isoxmlFormat.zipTaskData(isoxmlFormat.boundaryToTaskData(item, { field: b.name ?? 'field' })),
        mediaType: 'application/zip',
        ext: 'zip',
      };
    case 'agopengps':
      return {
        bytes: await agopengpsFormat.zipAgOpenGps(
          agopengpsFormat.boundaryToAgOpenGps(item, { field: b.name ?? 'field' }),
        ),
        mediaType: 'application/zip',
        ext: 'zip',
      };
  }
}

function download(bytes: Uint8Array | string, mediaType: string, fileName: string): Response {
  // A body is text or bytes over an ArrayBuffer; the zip writers type theirs over any buffer, so copy (a boundary file
  // is small).
  return new Response(typeof bytes === 'string' ? bytes : new Uint8Array(bytes), {
    status: 200,
    headers: {
      'Content-Type': mediaType,
      'Content-Disposition': `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
    },
  });
}

export function landRoutes(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const { store } = deps;

  async function companyFor(caller: Caller, companyId: string): Promise<string> {
    if (!(await store.canAccessCompany(caller.userId, companyId))) throw notFound('company', companyId);
    return companyId;
  }
  async function growerFor(caller: Caller, id: string): Promise<LandRow> {
    const g = await store.getGrower(caller.userId, id);
    if (!g) throw notFound('grower', id);
    return g;
  }
  async function farmFor(caller: Caller, id: string) {
    const f = await store.getFarm(caller.userId, id);
    if (!f) throw notFound('farm', id);
    return f;
  }
  async function fieldFor(caller: Caller, id: string): Promise<FieldRow> {
    const f = await store.getField(caller.userId, id);
    if (!f) throw notFound('field', id);
    return f;
  }
  async function boundaryFor(caller: Caller, id: string): Promise<BoundaryRow> {
    const b = await store.getBoundary(caller.userId, id);
    if (!b) throw notFound('boundary', id);
    return b;
  }
  async function planFor(caller: Caller, id: string): Promise<StoredPlanRow> {
    const p = await store.getPlan(caller.userId, id);
    if (!p) throw notFound('plan', id);
    return p;
  }

  // ---- growers --------------------------------------------------------------------------
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/companies/{companyId}/growers',
      tags: ['Land'],
      security,
      summary: "Create a grower in a company (companyId is the service's id, not partnerCompanyId)",
      request: { params: IdParam('companyId'), body: jsonBody(LandEntitySchema) },
      responses: { 201: json('The grower', GrowerSchema), ...errorResponses(400, 401, 404, 415, 429) },
    }),
    async (c) => {
      const companyId = await companyFor(callerOf(c), c.req.valid('param').companyId);
      const body = c.req.valid('json');
      const g = await store.createGrower(companyId, {
        name: body.name,
        source: body.source ?? 'api',
        archived: body.archived ?? false,
      });
      return c.json(grower(g), 201);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/companies/{companyId}/growers',
      tags: ['Land'],
      security,
      summary: 'List growers of a company (paged)',
      request: { params: IdParam('companyId'), query: PageQuerySchema },
      responses: { 200: json('Growers', PagedSchema(GrowerSchema)), ...errorResponses(400, 401, 404, 429) },
    }),
    async (c) => {
      const companyId = await companyFor(callerOf(c), c.req.valid('param').companyId);
      return c.json(mapPage(await store.listGrowers(companyId, c.req.valid('query')), grower), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/companies/{companyId}/fields',
      tags: ['Land'],
      security,
      summary: 'List fields of a company (paged), each with its latest boundaryId',
      request: { params: IdParam('companyId'), query: PageQuerySchema },
      responses: { 200: json('Fields', PagedSchema(FieldSchema)), ...errorResponses(400, 401, 404, 429) },
    }),
    async (c) => {
      const companyId = await companyFor(callerOf(c), c.req.valid('param').companyId);
      return c.json(await store.listCompanyFields(companyId, c.req.valid('query')), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/growers/{growerId}',
      tags: ['Land'],
      security,
      summary: 'Get a grower',
      request: { params: IdParam('growerId') },
      responses: { 200: json('The grower', GrowerSchema), ...errorResponses(401, 404, 429) },
    }),
    async (c) => c.json(grower(await growerFor(callerOf(c), c.req.valid('param').growerId)), 200),
  );

  // ---- farms ----------------------------------------------------------------------------
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/growers/{growerId}/farms',
      tags: ['Land'],
      security,
      summary: 'Create a farm of a grower',
      request: { params: IdParam('growerId'), body: jsonBody(LandEntitySchema) },
      responses: { 201: json('The farm', FarmSchema), ...errorResponses(400, 401, 404, 415, 429) },
    }),
    async (c) => {
      const g = await growerFor(callerOf(c), c.req.valid('param').growerId);
      const body = c.req.valid('json');
      const f = await store.createFarm(g, {
        name: body.name,
        source: body.source ?? 'api',
        archived: body.archived ?? false,
      });
      return c.json(farm(f), 201);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/growers/{growerId}/farms',
      tags: ['Land'],
      security,
      summary: 'List farms of a grower (paged)',
      request: { params: IdParam('growerId'), query: PageQuerySchema },
      responses: { 200: json('Farms', PagedSchema(FarmSchema)), ...errorResponses(400, 401, 404, 429) },
    }),
    async (c) => {
      const g = await growerFor(callerOf(c), c.req.valid('param').growerId);
      return c.json(mapPage(await store.listFarms(g.id, c.req.valid('query')), farm), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/farms/{farmId}',
      tags: ['Land'],
      security,
      summary: 'Get a farm',
      request: { params: IdParam('farmId') },
      responses: { 200: json('The farm', FarmSchema), ...errorResponses(401, 404, 429) },
    }),
    async (c) => c.json(farm(await farmFor(callerOf(c), c.req.valid('param').farmId)), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/farms/{farmId}/fields',
      tags: ['Land'],
      security,
      summary: 'List fields of a farm (paged)',
      request: { params: IdParam('farmId'), query: PageQuerySchema },
      responses: { 200: json('Fields', PagedSchema(FieldSchema)), ...errorResponses(400, 401, 404, 429) },
    }),
    async (c) => {
      const f = await farmFor(callerOf(c), c.req.valid('param').farmId);
      return c.json(await store.listFields(f.id, c.req.valid('query')), 200);
    },
  );

  // ---- fields and boundaries -------------------------------------------------------------
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/fields/save',
      tags: ['Land'],
      security,
      summary: "Create a field with its boundary (rings of [lon, lat]; validated like a plan's field)",
      request: { body: jsonBody(SaveFieldSchema) },
      responses: {
        201: json('The field and its boundary', z.object({ field: FieldSchema, vBoundary: BoundarySchema })),
        ...errorResponses(400, 401, 404, 415, 422, 429),
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const f = await farmFor(callerOf(c), body.farmId);
      const geometry = ringsToPolygon(body.boundary);
      assertValidBoundary(geometry, 'boundary');
      assertValidRequestGeometry({ obstacles: body.obstacles });
      const planInputs: BoundaryPlanInputs = {
        ...(body.obstacles?.length ? { obstacles: body.obstacles as ObstacleInput[] } : {}),
        ...(body.accessPoints?.length ? { accessPoints: body.accessPoints } : {}),
        ...(body.stagingArea ? { stagingArea: body.stagingArea } : {}),
      };
      const saved = await store.saveField(f, { name: body.name, geometry, planInputs });
      return c.json(
        { field: { ...saved.field, boundaryId: saved.boundary.boundaryId }, vBoundary: saved.boundary },
        201,
      );
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/fields/{fieldId}',
      tags: ['Land'],
      security,
      summary: 'Get a field with its boundaries',
      request: { params: IdParam('fieldId') },
      responses: { 200: json('The field', FieldSchema), ...errorResponses(401, 404, 429) },
    }),
    async (c) => {
      const f = await fieldFor(callerOf(c), c.req.valid('param').fieldId);
      const boundaries = await store.listBoundaries(f.fieldId, { limit: 500, offset: 0, includeArchived: false });
      return c.json({ ...f, boundaries: boundaries.items }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/fields/{fieldId}/boundaries',
      tags: ['Land'],
      security,
      summary: 'List boundaries of a field (paged)',
      request: { params: IdParam('fieldId'), query: PageQuerySchema },
      responses: { 200: json('Boundaries', PagedSchema(BoundarySchema)), ...errorResponses(400, 401, 404, 429) },
    }),
    async (c) => {
      const f = await fieldFor(callerOf(c), c.req.valid('param').fieldId);
      return c.json(await store.listBoundaries(f.fieldId, c.req.valid('query')), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/fields/{fieldId}/boundaries/import',
      tags: ['Land'],
      security,
      summary:
        'Import boundaries from a file: GeoJSON, WKT, KML/KMZ, zipped Shapefile or ISO-XML (format detected from ' +
        'the content)',
      description:
        'Send the file as the raw request body (any Content-Type); `filename` helps the detection. Every polygon ' +
        'found becomes a boundary of the field. Archives are unpacked within limits (entries, unpacked bytes, ' +
        'compression ratio; see the formats guide): 413 past them.',
      request: {
        params: IdParam('fieldId'),
        query: z.object({ filename: z.string().max(200).optional() }),
        body: { content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
      },
      responses: {
        201: json('The imported boundaries', z.object({ items: z.array(BoundarySchema) })),
        ...errorResponses(400, 401, 404, 413, 422, 429),
      },
    }),
    async (c) => {
      const f = await fieldFor(callerOf(c), c.req.valid('param').fieldId);
      const parsed = await readBoundaryFile(new Uint8Array(await c.req.arrayBuffer()), c.req.valid('query').filename);
      const items = await store.addBoundaries(
        f.companyId,
        f.fieldId,
        parsed.map((p, i) => ({
          name: typeof p.properties.name === 'string' ? p.properties.name : `${f.name} ${i + 1}`,
          geometry: p.geometry as BoundaryRow['geometry'],
        })),
      );
      return c.json({ items }, 201);
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/boundaries/read',
      tags: ['Land'],
      security,
      summary: 'Read the boundaries of a file without storing them (GeoJSON, WKT, KML/KMZ, zipped Shapefile, ISO-XML)',
      description:
        'The same reading as the import (raw request body, `filename` helps the detection, archive limits), for ' +
        'a preview: the polygons come back as GeoJSON geometries with their names; nothing is stored.',
      request: {
        query: z.object({ filename: z.string().max(200).optional() }),
        body: { content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } },
      },
      responses: {
        200: json(
          'The boundaries found',
          z.object({
            items: z.array(z.object({ name: z.string().nullable(), geometry: z.record(z.string(), z.unknown()) })),
          }),
        ),
        ...errorResponses(400, 401, 413, 422, 429),
      },
    }),
    async (c) => {
      const parsed = await readBoundaryFile(new Uint8Array(await c.req.arrayBuffer()), c.req.valid('query').filename);
      const items = parsed.map((p) => ({
        name: typeof p.properties.name === 'string' ? p.properties.name : null,
        geometry: p.geometry as unknown as Record<string, unknown>,
      }));
      return c.json({ items }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/boundaries/{boundaryId}',
      tags: ['Land'],
      security,
      summary: 'Get a boundary (GeoJSON geometry), with the id of its newest stored plan',
      description:
        '`latestPlanId` is the newest stored plan of this boundary (null when it has none): a client opening the ' +
        'field shows that plan, or plans it, without listing the plans first.',
      request: { params: IdParam('boundaryId') },
      responses: {
        200: json('The boundary', BoundarySchema.extend({ latestPlanId: z.string().nullable() })),
        ...errorResponses(401, 404, 429),
      },
    }),
    async (c) => {
      const b = await boundaryFor(callerOf(c), c.req.valid('param').boundaryId);
      return c.json({ ...b, latestPlanId: await store.latestPlanId(b.boundaryId) }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/boundaries/{boundaryId}/plan-inputs',
      tags: ['Land'],
      security,
      summary: "Replace what the boundary's plans take besides its polygon: obstacles, gates, start point",
      description:
        'The body replaces the whole set (a member left out is removed): `obstacles` (passable or not), ' +
        '`accessPoints` (the gates) and `stagingArea` (the start point), named as in a path-plan request.',
      request: { params: IdParam('boundaryId'), body: jsonBody(BoundaryPlanInputsSchema) },
      responses: { 200: json('The boundary', BoundarySchema), ...errorResponses(400, 401, 404, 415, 422, 429) },
    }),
    async (c) => {
      const { boundaryId } = c.req.valid('param');
      const body = c.req.valid('json');
      assertValidRequestGeometry({ obstacles: body.obstacles });
      const inputs: BoundaryPlanInputs = {
        ...(body.obstacles?.length ? { obstacles: body.obstacles as ObstacleInput[] } : {}),
        ...(body.accessPoints?.length ? { accessPoints: body.accessPoints } : {}),
        ...(body.stagingArea ? { stagingArea: body.stagingArea } : {}),
      };
      const b = await store.setPlanInputs(callerOf(c).userId, boundaryId, inputs);
      if (!b) throw notFound('boundary', boundaryId);
      return c.json(b, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/boundaries/{boundaryId}/export',
      tags: ['Land'],
      security,
      summary: `Export a boundary: ${BOUNDARY_FORMATS.join(', ')}`,
      request: {
        params: IdParam('boundaryId'),
        query: z.object({ format: z.enum(BOUNDARY_FORMATS).default('geojson') }),
      },
      responses: { 200: { description: 'The file' }, ...errorResponses(400, 401, 404, 429) },
    }),
    async (c) => {
      const b = await boundaryFor(callerOf(c), c.req.valid('param').boundaryId);
      const out = await exportBoundary(b, c.req.valid('query').format);
      return download(out.bytes, out.mediaType, `${b.name ?? 'boundary'}.${out.ext}`);
    },
  );

  // ---- stored plans ---------------------------------------------------------------------
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/boundaries/{boundaryId}/plans',
      tags: ['Plans'],
      security,
      summary: 'Plan a stored boundary and keep the plan with its options',
      description:
        '`request` is a path-plan request (shape A or B) without its field: the stored boundary is used. Costs ' +
        "credits like a direct plan (the company's balance first, then the user's).",
      request: {
        params: IdParam('boundaryId'),
        body: jsonBody(z.object({ request: z.record(z.string(), z.unknown()) }).openapi('StorePlanRequest')),
      },
      responses: {
        201: json('The stored plan', StoredPlanSchema),
        ...errorResponses(400, 401, 402, 404, 415, 422, 429),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const b = await boundaryFor(caller, c.req.valid('param').boundaryId);
      const { field: _f, boundary: _b, ...given } = c.req.valid('json').request;
      const rest = withBoundaryInputs(given, b);
      const request =
        'machine' in rest || 'headland' in rest || 'tracks' in rest
          ? { ...rest, field: b.geometry }
          : { ...rest, boundary: b.geometry };
      const parsed = PathPlanRequestSchema.safeParse(request);
      if (!parsed.success) {
        const details = issuesToDetails(parsed.error.issues, ['request']);
        throw new ApiError(400, 'ValidationFailed', `${details[0].path}: ${details[0].message}`, details);
      }
      const plan = await planBillable(
        deps,
        caller,
        parsed.data,
        c.req.raw.signal,
        `boundaries/${b.boundaryId}/plans`,
        b.companyId,
      );
      const { field: _x, boundary: _y, ...options } = parsed.data;
      const saved = await store.savePlan({ boundary: b, createdBy: caller.userId, request: options, plan });
      return c.json(storedPlan(saved), 201);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/fields/{fieldId}/plans',
      tags: ['Plans'],
      security,
      summary: 'List stored plans of a field (paged)',
      request: { params: IdParam('fieldId'), query: PageQuerySchema },
      responses: { 200: json('Plans', PagedSchema(StoredPlanSchema)), ...errorResponses(400, 401, 404, 429) },
    }),
    async (c) => {
      const f = await fieldFor(callerOf(c), c.req.valid('param').fieldId);
      return c.json(mapPage(await store.listPlans(f.fieldId, c.req.valid('query')), storedPlan), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/plans/{planId}',
      tags: ['Plans'],
      security,
      summary: 'Get a stored plan',
      request: { params: IdParam('planId') },
      responses: { 200: json('The plan', StoredPlanSchema), ...errorResponses(401, 404, 429) },
    }),
    async (c) => c.json(storedPlan(await planFor(callerOf(c), c.req.valid('param').planId)), 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/plans/{planId}/export',
      tags: ['Plans'],
      security,
      summary: `Export a stored plan: ${vendorFormat.PLAN_FORMATS.join(', ')}`,
      request: {
        params: IdParam('planId'),
        query: z.object({ format: z.enum(vendorFormat.PLAN_FORMATS).default('geojson') }),
      },
      responses: { 200: { description: 'The file' }, ...errorResponses(400, 401, 404, 429) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const p = await planFor(caller, c.req.valid('param').planId);
      const field = p.fieldId ? await store.getField(caller.userId, p.fieldId) : undefined;
      const out = await vendorFormat.writePlan(p.plan, c.req.valid('query').format, { field: field?.name ?? 'plan' });
      return download(out.bytes, out.mediaType, out.fileName);
    },
  );

  // ---- archive --------------------------------------------------------------------------
  for (const [kind, table, idName] of [
    ['growers', 'growers', 'growerId'],
    ['farms', 'farms', 'farmId'],
    ['fields', 'fields', 'fieldId'],
    ['boundaries', 'boundaries', 'boundaryId'],
  ] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/api/${kind}/{${idName}}/archive`,
        tags: ['Land'],
        security,
        summary:
          `Archive (or with {"archived": false} restore) a ${kind.replace(/s$/, '').replace(/ie$/, 'y')}; ` +
          `archived ones leave lists unless includeArchived=true`,
        request: {
          params: IdParam(idName),
          body: {
            required: false,
            content: { 'application/json': { schema: z.strictObject({ archived: z.boolean().optional() }) } },
          },
        },
        responses: {
          200: json('Archived state', z.object({ id: z.string(), archived: z.boolean() })),
          ...errorResponses(400, 401, 404, 429),
        },
      }),
      async (c) => {
        const id = (c.req.valid('param') as Record<string, string>)[idName];
        const archived = (c.req.valid('json') as { archived?: boolean } | undefined)?.archived ?? true;
        if (!(await store.setArchived(table, callerOf(c).userId, id, archived)))
          throw notFound(kind.replace(/s$/, ''), id);
        return c.json({ id, archived }, 200);
      },
    );
  }
  return app;
}

/**
 * A request for a stored boundary with what the boundary keeps (its obstacles, gates and start point)
 * where the request gives none of its own.
 */
export function withBoundaryInputs(request: Record<string, unknown>, b: BoundaryPlanInputs): Record<string, unknown> {
  const out = { ...request };
  if (b.obstacles && out['obstacles'] === undefined) out['obstacles'] = b.obstacles;
  if (b.accessPoints && out['accessPoints'] === undefined) out['accessPoints'] = b.accessPoints;
  const ro = out['routeOptions'];
  if (b.stagingArea && (ro === undefined || (typeof ro === 'object' && ro !== null && !('stagingArea' in ro))))
    out['routeOptions'] = { ...(ro as object | undefined), stagingArea: b.stagingArea };
  return out;
}

/**
 * The boundaries of a file, read through the format packages (format detected from the content):
 * 400 for an empty body, 413 past the archive limits, 422 in words when it is no boundary.
 */
async function readBoundaryFile(
  bytes: Uint8Array,
  filename: string | undefined,
): Promise<Awaited<ReturnType<typeof vendorFormat.readAnyBoundary>>> {
  if (bytes.length === 0) throw badRequest('(body)', 'send the boundary file as the request body');
  let parsed: Awaited<ReturnType<typeof vendorFormat.readAnyBoundary>>;
  try {
    parsed = await vendorFormat.readAnyBoundary(bytes, filename);
  } catch (err) {
    if (isArchiveLimitError(err)) throw new ApiError(413, 'PayloadTooLarge', err.message, err.details);
    const e = fromPlanError(err);
    if (e) throw new ApiError(422, 'InvalidGeometry', e.message, e.details, e.extra);
    throw new ApiError(
      422,
      'InvalidGeometry',
      `the file could not be read as a boundary: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (parsed.length === 0) throw new ApiError(422, 'InvalidGeometry', 'the file holds no polygon');
  parsed.forEach((p, i) => {
    assertValidBoundary(p.geometry, `boundaries[${i}]`);
    const name = p.properties.name;
    const problem = typeof name === 'string' ? textProblem(name) : undefined;
    if (problem) throw badRequest(`boundaries[${i}].name`, problem);
  });
  return parsed;
}
