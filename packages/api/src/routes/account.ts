/** The caller's own account: `GET /api/user/current`, credits, and API key management. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppEnv, Deps } from '../context.js';
import { callerOf } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { CreateKeySchema, KeySchema } from '../schemas.js';
import type { UserRow } from '../store/store.js';
import { errorResponses, jsonBody, validationHook } from './common.js';
import { CreatedKeySchema, createUserKey } from './user-keys.js';

export function publicUser(u: UserRow) {
  return {
    userId: u.userId,
    partnerUserId: u.partnerUserId,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    countryCode: u.countryCode,
    name: u.displayName ?? ([u.firstName, u.lastName].filter(Boolean).join(' ') || null),
  };
}

const UserSchema = z
  .object({
    userId: z.string(),
    partnerUserId: z.string().nullable(),
    email: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    countryCode: z.string().nullable(),
    name: z.string().nullable(),
  })
  .openapi('User');

export function accountRoutes(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/user/current',
      tags: ['Account'],
      summary: "The key's user and its company access (validates a key)",
      security: [{ ApiKey: [] }],
      responses: {
        200: {
          description: 'User, company access, credits',
          content: {
            'application/json': {
              schema: z.object({
                user: UserSchema,
                companies: z.array(
                  z.object({
                    companyId: z.string(),
                    partnerCompanyId: z.string().nullable(),
                    name: z.string(),
                    countryCode: z.string(),
                    role: z.enum(['admin', 'member']),
                  }),
                ),
                key: z.object({
                  keyId: z.string().nullable(),
                  partnerAdmin: z.boolean(),
                  via: z.enum(['api-key', 'session']),
                }),
                credits: z.object({ balance: z.number() }),
              }),
            },
          },
        },
        ...errorResponses(401, 429),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const user = await deps.store.getUser(caller.userId);
      if (!user) throw new ApiError(401, 'Unauthorized', 'the user of this credential no longer exists');
      const companies = await deps.store.companiesOf(caller.userId);
      return c.json(
        {
          user: publicUser(user),
          companies: companies.map((co) => ({
            companyId: co.companyId,
            partnerCompanyId: co.partnerCompanyId,
            name: co.name,
            countryCode: co.countryCode,
            role: co.role,
          })),
          key: { keyId: caller.keyId ?? null, partnerAdmin: caller.partnerAdmin, via: caller.via },
          credits: { balance: await deps.store.balance('user', caller.userId) },
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/credits',
      tags: ['Account'],
      summary: "Credit balances of the caller's user and of the companies it can access",
      security: [{ ApiKey: [] }],
      responses: {
        200: {
          description: 'Balances',
          content: {
            'application/json': {
              schema: z.object({
                user: z.object({ userId: z.string(), balance: z.number() }),
                companies: z.array(z.object({ companyId: z.string(), balance: z.number() })),
                planCostCredits: z.number().openapi({ description: 'What one plan costs, in credits' }),
              }),
            },
          },
        },
        ...errorResponses(401, 429),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const companies = await deps.store.companiesOf(caller.userId);
      return c.json(
        {
          user: { userId: caller.userId, balance: await deps.store.balance('user', caller.userId) },
          companies: await Promise.all(
            companies.map(async (co) => ({
              companyId: co.companyId,
              balance: await deps.store.balance('company', co.companyId),
            })),
          ),
          planCostCredits: deps.config.planCostCredits,
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/api-keys',
      tags: ['API keys'],
      summary: 'Create an API key (the secret is shown only in this response)',
      description:
        "Creates a key for the caller's own user. A partner admin key may add `partnerUserId` to create a " +
        '(non-admin) key for a user it provisioned.',
      security: [{ ApiKey: [] }],
      request: { body: jsonBody(CreateKeySchema) },
      responses: {
        201: {
          description: 'The new key',
          content: { 'application/json': { schema: CreatedKeySchema } },
        },
        ...errorResponses(400, 401, 403, 404, 415, 429),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      let userId = caller.userId;
      if (body.partnerUserId !== undefined) {
        if (!caller.partnerAdmin)
          throw new ApiError(
            403,
            'NotAuthorized',
            'only a partner admin key may create keys for provisioned users (partnerUserId)',
          );
        const user = await deps.store.userByPartnerId(caller.userId, body.partnerUserId);
        if (!user) throw notFound('partner user', body.partnerUserId);
        userId = user.userId;
      }
      return c.json(await createUserKey(deps, userId, body), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/api-keys',
      tags: ['API keys'],
      summary: "List the keys of the caller's user (and, for partner admins, of its provisioned users); never secrets",
      security: [{ ApiKey: [] }],
      responses: {
        200: {
          description: 'Keys',
          content: { 'application/json': { schema: z.object({ items: z.array(KeySchema) }) } },
        },
        ...errorResponses(401, 403, 429),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      return c.json({ items: await deps.store.listKeys(caller.userId) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/api-keys/{keyId}',
      tags: ['API keys'],
      summary: 'Revoke a key',
      security: [{ ApiKey: [] }],
      request: { params: z.object({ keyId: z.string().min(1).max(100) }) },
      responses: {
        200: { description: 'The revoked key', content: { 'application/json': { schema: KeySchema } } },
        ...errorResponses(401, 403, 404, 429),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const { keyId } = c.req.valid('param');
      const row = await deps.store.revokeKey(caller.userId, keyId);
      if (!row) throw notFound('API key', keyId);
      return c.json(row, 200);
    },
  );
  return app;
}
