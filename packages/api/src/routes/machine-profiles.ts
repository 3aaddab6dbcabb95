/**
 * Machine profiles of a company (docs/api.md "Machine profiles"): a named machine (width, turn
 * radius, reverse, speeds, sections, tank) the web app picks from a list instead of typing it each
 * time. Scoped like the land entities: a company or profile the caller cannot access answers 404.
 * A body that is not a valid profile answers 422 naming the field (`machine.widthMeters`, `name`).
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppEnv, Caller, Deps } from '../context.js';
import { callerOf } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { MachineProfileRequestSchema, issuesToDetails, textProblem } from '../schemas.js';
import { DuplicateProfileName, MachineProfiles, type MachineProfileRow } from '../store/machine-profiles.js';
import { errorResponses, jsonBody, validationHook } from './common.js';

const security = [{ ApiKey: [] }];
const json = (description: string, schema: z.ZodType) => ({ description, content: { 'application/json': { schema } } });

const MachineProfileSchema = z
  .object({
    profileId: z.string(),
    companyId: z.string(),
    name: z.string(),
    machine: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('MachineProfile');

const profile = (p: MachineProfileRow) => ({
  profileId: p.profileId,
  companyId: p.companyId,
  name: p.name,
  machine: p.machine,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

/** A body that fails the profile schema is 422 naming each field; bad path or query parameters stay 400. */
const profileValidationHook: typeof validationHook = (result) => {
  if (result.success || !result.error || result.target !== 'json') return validationHook(result);
  const details = issuesToDetails(result.error.issues);
  throw new ApiError(422, 'ValidationFailed', `${details[0]?.path}: ${details[0]?.message}`, details);
};

/** 422 for a name the store cannot keep (NUL, lone surrogates). */
function checkedName(name: string): string {
  const problem = textProblem(name);
  if (problem) throw new ApiError(422, 'ValidationFailed', `name: ${problem}`, [{ path: 'name', message: problem }]);
  return name;
}

const conflict = (err: DuplicateProfileName) =>
  new ApiError(409, 'Conflict', `name: ${err.message}`, [{ path: 'name', message: err.message }]);

export function machineProfileRoutes(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: profileValidationHook });
  const profiles = new MachineProfiles(deps.store.db);

  async function companyFor(caller: Caller, companyId: string): Promise<string> {
    if (!(await deps.store.canAccessCompany(caller.userId, companyId))) throw notFound('company', companyId);
    return companyId;
  }
  async function profileFor(caller: Caller, profileId: string): Promise<MachineProfileRow> {
    const p = await profiles.get(caller.userId, profileId);
    if (!p) throw notFound('machine profile', profileId);
    return p;
  }
  async function saved<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      throw err instanceof DuplicateProfileName ? conflict(err) : err;
    }
  }

  const CompanyParam = z.object({ companyId: z.string().min(1).max(100) });
  const ProfileParam = z.object({ profileId: z.string().min(1).max(100) });
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/companies/{companyId}/machine-profiles',
      tags: ['Machine profiles'],
      security,
      summary: "List a company's machine profiles (by name)",
      request: { params: CompanyParam },
      responses: {
        200: json('Profiles', z.object({ items: z.array(MachineProfileSchema) })),
        ...errorResponses(400, 401, 404, 429),
      },
    }),
    async (c) => {
      const companyId = await companyFor(callerOf(c), c.req.valid('param').companyId);
      return c.json({ items: (await profiles.list(companyId)).map(profile) }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/companies/{companyId}/machine-profiles',
      tags: ['Machine profiles'],
      security,
      summary: 'Save a machine profile for the company (its name unique in the company)',
      request: { params: CompanyParam, body: jsonBody(MachineProfileRequestSchema) },
      responses: {
        201: json('The profile', MachineProfileSchema),
        ...errorResponses(400, 401, 404, 409, 415, 422, 429),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const companyId = await companyFor(caller, c.req.valid('param').companyId);
      const body = c.req.valid('json');
      const made = await saved(() =>
        profiles.create(companyId, caller.userId, { name: checkedName(body.name), machine: body.machine }),
      );
      return c.json(profile(made), 201);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/machine-profiles/{profileId}',
      tags: ['Machine profiles'],
      security,
      summary: 'Get a machine profile',
      request: { params: ProfileParam },
      responses: { 200: json('The profile', MachineProfileSchema), ...errorResponses(400, 401, 404, 429) },
    }),
    async (c) => c.json(profile(await profileFor(callerOf(c), c.req.valid('param').profileId)), 200),
  );
  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/machine-profiles/{profileId}',
      tags: ['Machine profiles'],
      security,
      summary: 'Replace the name and machine of a profile',
      request: { params: ProfileParam, body: jsonBody(MachineProfileRequestSchema) },
      responses: {
        200: json('The profile', MachineProfileSchema),
        ...errorResponses(400, 401, 404, 409, 415, 422, 429),
      },
    }),
    async (c) => {
      const p = await profileFor(callerOf(c), c.req.valid('param').profileId);
      const body = c.req.valid('json');
      const updated = await saved(() =>
        profiles.update(p.profileId, { name: checkedName(body.name), machine: body.machine }),
      );
      return c.json(profile(updated), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/machine-profiles/{profileId}',
      tags: ['Machine profiles'],
      security,
      summary: 'Delete a machine profile',
      request: { params: ProfileParam },
      responses: { 200: json('The deleted profile', MachineProfileSchema), ...errorResponses(400, 401, 404, 429) },
    }),
    async (c) => {
      const p = await profileFor(callerOf(c), c.req.valid('param').profileId);
      if (!(await profiles.remove(p.profileId))) throw notFound('machine profile', p.profileId);
      return c.json(profile(p), 200);
    },
  );
  return app;
}
