/**
 * Bulk guidance jobs over HTTP (docs/jobs.md):
 * `POST /api/guidance-jobs` → 202 + Location + Retry-After: 5; `GET /api/guidance-jobs/{jobId}`;
 * `GET /api/guidance-jobs/{jobId}/results` (paged, item order); `DELETE /api/guidance-jobs/{jobId}`.
 * A job belongs to one company; callers without access to it get 404, like an unknown id.
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppEnv, Caller, Deps } from '../context.js';
import { callerOf } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { PathPlanRequestSchema, issuesToDetails } from '../schemas.js';
import { isUuid } from '../store/store.js';
import { errorResponses, jsonBody, validationHook } from '../routes/common.js';
import { withBoundaryInputs } from '../routes/land.js';
import type { BoundaryPlanInputs } from '../store/store.js';
import {
  cancelJob,
  getJob,
  getResults,
  insertJob,
  isActive,
  withGeometry,
  type JobView,
  type NewJobItem,
} from './engine.js';
import { jobServiceFor } from './service.js';
import { estimateWork } from './estimate.js';

export const MAX_JOB_ITEMS = 10_000;
export const RETRY_AFTER_SECONDS = 5;

const security = [{ ApiKey: [] }];
const json = (description: string, schema: z.ZodType) => ({ description, content: { 'application/json': { schema } } });

const SubmitSchema = z
  .strictObject({
    companyId: z
      .string()
      .optional()
      .openapi({
        description:
          'Company the job, its inline boundaries and plans belong to (default: the company of the first ' +
          "`boundaryId` item, or the caller's only company)",
      }),
    defaults: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'Request fields every item starts from (shape A or B, without geometry)' }),
    items: z
      .array(z.record(z.string(), z.unknown()))
      .min(1)
      .max(MAX_JOB_ITEMS)
      .openapi({
        description:
          'Each a path-plan request (shape A or B, optional `name`) or `{ "boundaryId": "…" }` with request fields ' +
          "overriding `defaults`; a `boundaryId` item plans the boundary's stored plan inputs (obstacles, gates, " +
          'start point: `PUT /api/boundaries/{boundaryId}/plan-inputs`) where the item and `defaults` give none',
      }),
  })
  .openapi('GuidanceJobRequest');

const ProgressSchema = z.object({
  done: z.number(),
  failed: z.number(),
  cancelled: z.number(),
  running: z.number(),
  queued: z.number(),
  total: z.number(),
});
const JobSchema = z
  .object({
    jobId: z.string(),
    companyId: z.string(),
    status: z.enum(['queued', 'running', 'completed', 'completed_with_errors', 'failed', 'cancelled']),
    progress: ProgressSchema,
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
  })
  .openapi('GuidanceJob');
const ItemResultSchema = z
  .object({
    index: z.number(),
    boundaryId: z.string(),
    status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
    attempts: z.number(),
    planId: z.string().optional().openapi({ description: 'Stored plan (GET /api/plans/{planId}, …/export)' }),
    metrics: z.record(z.string(), z.unknown()).optional(),
    error: z
      .object({
        code: z.string(),
        message: z.string(),
        reason: z.string().optional(),
        details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
      })
      .optional(),
  })
  .openapi('GuidanceJobItemResult');
const ResultsSchema = z
  .object({
    jobId: z.string(),
    status: JobSchema.shape.status,
    items: z.array(ItemResultSchema),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
  })
  .openapi('GuidanceJobResults');
const JobIdParam = z.object({ jobId: z.string().min(1).max(100) });
const ResultsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Item fields override defaults; nested objects (machine, routeOptions, …) merge member by member. */
export function mergeRequest(
  defaults: Record<string, unknown>,
  item: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...defaults };
  for (const [k, v] of Object.entries(item)) {
    out[k] =
      isPlainObject(v) && isPlainObject(out[k]) && k !== 'field' && k !== 'boundary'
        ? mergeRequest(out[k] as Record<string, unknown>, v)
        : v;
  }
  return out;
}

function validationError(details: { path: string; message: string }[]): ApiError {
  return new ApiError(400, 'ValidationFailed', `${details[0].path}: ${details[0].message}`, details);
}

function jobResponse(view: JobView): Record<string, unknown> {
  return {
    ...view,
    links: { self: `/api/guidance-jobs/${view.jobId}`, results: `/api/guidance-jobs/${view.jobId}/results` },
  };
}

export function jobRoutes(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const { store } = deps;
  const service = () =>
    jobServiceFor(store, deps.planner, {
      planCostCredits: deps.config.planCostCredits,
      planTimeoutCapSeconds: deps.config.planTimeoutCapSeconds,
      planTimeoutGraceSeconds: deps.config.planTimeoutGraceSeconds,
    });

  async function jobFor(caller: Caller, jobId: string): Promise<JobView> {
    const view = isUuid(jobId) ? await getJob(store, caller.userId, jobId) : undefined;
    if (!view) throw notFound('guidance job', jobId);
    return view;
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/guidance-jobs',
      tags: ['Guidance jobs'],
      security,
      summary: 'Submit a bulk guidance job (asynchronous; poll every 5 s)',
      description:
        `Plans many fields: each item is a path-plan request or a stored boundary with overrides. ` +
        `Answers 202 at once with the job (Location, Retry-After: ${RETRY_AFTER_SECONDS}); items are planned by ` +
        `workers, each stored as a plan of the job's company and charged ${deps.config.planCostCredits} ` +
        `credit(s) once when planned (company first, then the caller).`,
      request: { body: jsonBody(SubmitSchema) },
      responses: { 202: json('The job, queued', JobSchema), ...errorResponses(400, 401, 402, 404, 413, 415, 429) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      const defaults = body.defaults ?? {};
      if ('field' in defaults || 'boundary' in defaults)
        throw validationError([
          {
            path: 'defaults',
            message: 'defaults carry no geometry: put `field`/`boundary` or `boundaryId` in each item',
          },
        ]);

      // Stored boundaries the items name, scoped to the caller.
      const boundaries = new Map<string, { companyId: string; geometry: unknown; inputs: BoundaryPlanInputs }>();
      for (let i = 0; i < body.items.length; i++) {
        const id = body.items[i].boundaryId;
        if (id === undefined) continue;
        if (typeof id !== 'string')
          throw validationError([{ path: `items[${i}].boundaryId`, message: 'must be a string' }]);
        if (boundaries.has(id)) continue;
        const b = await store.getBoundary(caller.userId, id);
        if (!b)
          throw validationError([
            {
              path: `items[${i}].boundaryId`,
              message: `boundary "${id}" was not found (or is not accessible with this key)`,
            },
          ]);
        const inputs: BoundaryPlanInputs = {
          ...(b.obstacles ? { obstacles: b.obstacles } : {}),
          ...(b.accessPoints ? { accessPoints: b.accessPoints } : {}),
          ...(b.stagingArea ? { stagingArea: b.stagingArea } : {}),
        };
        boundaries.set(id, { companyId: b.companyId, geometry: b.geometry, inputs });
      }

      let companyId = body.companyId;
      if (companyId !== undefined) {
        if (!(await store.canAccessCompany(caller.userId, companyId))) throw notFound('company', companyId);
      } else {
        const first = boundaries.values().next();
        if (!first.done) companyId = first.value.companyId;
        else {
          const companies = await store.companiesOf(caller.userId);
          if (companies.length !== 1)
            throw validationError([
              {
                path: 'companyId',
                message:
                  companies.length === 0
                    ? 'the caller has no company; a job stores its plans in a company (ask your partner admin for ' +
                      'access)'
                    : 'required: the caller has several companies',
              },
            ]);
          companyId = companies[0].companyId;
        }
      }

      const items: NewJobItem[] = [];
      const details: { path: string; message: string }[] = [];
      for (let i = 0; i < body.items.length; i++) {
        const { boundaryId, name, ...fields } = body.items[i];
        let merged = mergeRequest(defaults, fields);
        let geometry: unknown;
        if (typeof boundaryId === 'string') {
          const b = boundaries.get(boundaryId)!;
          if (b.companyId !== companyId) {
            details.push({
              path: `items[${i}].boundaryId`,
              message: `boundary "${boundaryId}" belongs to another company than the job's (${companyId})`,
            });
            continue;
          }
          if ('field' in fields || 'boundary' in fields) {
            details.push({
              path: `items[${i}]`,
              message: 'give `boundaryId` or a geometry (`field`/`boundary`), not both',
            });
            continue;
          }
          geometry = b.geometry;
          // What the boundary keeps for its plans, as the web's plans of it (and `…/plans`) use it.
          merged = withBoundaryInputs(merged, b.inputs);
        } else {
          geometry = merged.field ?? merged.boundary;
        }
        const parsed = PathPlanRequestSchema.safeParse(withGeometry(merged, geometry));
        if (!parsed.success) {
          details.push(...issuesToDetails(parsed.error.issues, ['items', i]));
          continue;
        }
        const { field: _f, boundary: _b, ...request } = parsed.data as Record<string, unknown>;
        const workEstimate = estimateWork(geometry, request);
        items.push(
          typeof boundaryId === 'string'
            ? { boundaryId, request, workEstimate }
            : {
                geometry: parsed.data.field ?? parsed.data.boundary,
                name: typeof name === 'string' ? name.slice(0, 200) : null,
                request,
                workEstimate,
              },
        );
      }
      if (details.length > 0) throw validationError(details.slice(0, 100));

      const cost = deps.config.planCostCredits;
      if (cost > 0) {
        const available = Math.max(
          await store.balance('company', companyId),
          await store.balance('user', caller.userId),
        );
        if (available < cost) {
          throw new ApiError(
            402,
            'PaymentRequired',
            `each planned item costs ${cost} credit(s); the account has ${available}. Ask for testing credits.`,
            [],
            {
              creditsAvailable: available,
              creditsRequired: cost,
            },
          );
        }
      }

      const jobs = await service();
      const jobId = await insertJob(
        store,
        { companyId, createdBy: caller.userId, defaults: body.defaults ?? null, items },
        (tx, id, queued) => jobs.enqueue(tx, id, queued),
      );
      jobs.submitted();
      const view = await jobFor(caller, jobId);
      c.header('Location', `/api/guidance-jobs/${jobId}`);
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return c.json(jobResponse(view), 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/guidance-jobs/{jobId}',
      tags: ['Guidance jobs'],
      security,
      summary: 'Status and progress of a guidance job (Retry-After while it runs)',
      request: { params: JobIdParam },
      responses: { 200: json('The job', JobSchema), ...errorResponses(401, 404, 429) },
    }),
    async (c) => {
      const view = await jobFor(callerOf(c), c.req.valid('param').jobId);
      if (isActive(view)) c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return c.json(jobResponse(view), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/guidance-jobs/{jobId}/results',
      tags: ['Guidance jobs'],
      security,
      summary: 'Per-item results in item order (paged): the stored plan id and metrics, or the error',
      request: { params: JobIdParam, query: ResultsQuery },
      responses: { 200: json('One page of results', ResultsSchema), ...errorResponses(400, 401, 404, 429) },
    }),
    async (c) => {
      const view = await jobFor(callerOf(c), c.req.valid('param').jobId);
      const page = c.req.valid('query');
      const items = await getResults(store, view.jobId, page);
      if (isActive(view)) c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return c.json(
        {
          jobId: view.jobId,
          status: view.status,
          items,
          total: view.progress.total,
          limit: page.limit,
          offset: page.offset,
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/guidance-jobs/{jobId}',
      tags: ['Guidance jobs'],
      security,
      summary: 'Cancel a guidance job: items not yet started are cancelled (and not charged); running ones finish',
      request: { params: JobIdParam },
      responses: { 200: json('The job after cancelling', JobSchema), ...errorResponses(401, 404, 409, 429) },
    }),
    async (c) => {
      const caller = callerOf(c);
      const before = await jobFor(caller, c.req.valid('param').jobId);
      if (before.status !== 'cancelled' && !isActive(before))
        throw new ApiError(
          409,
          'JobFinished',
          `guidance job "${before.jobId}" already finished (${before.status}); nothing to cancel`,
        );
      await cancelJob(store, before.jobId);
      const view = await jobFor(caller, before.jobId);
      if (isActive(view)) c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return c.json(jobResponse(view), 200);
    },
  );
  return app;
}
