/**
 * `/api/user/api-keys`: the signed-in user's own (personal) API keys — what the web app's profile
 * page manages. Open to a launch session and to an API key alike; it only ever sees and touches
 * keys of the caller's own user, and the keys it makes are never partner-admin keys: a key acts
 * as its user, on the companies that user can access, and nothing more.
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppEnv, Deps } from '../context.js';
import { callerOf } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { CreateKeySchema, KeySchema } from '../schemas.js';
import { errorResponses, jsonBody, validationHook } from './common.js';

/** `expiresAt` of a key request as a stored ISO time: null when absent, 400 unless in the future. */
function keyExpiry(expiresAt: string | undefined): string | null {
  if (expiresAt === undefined) return null;
  const at = Date.parse(expiresAt);
  if (!(at > Date.now()))
    throw new ApiError(400, 'ValidationFailed', 'expiresAt: must be in the future', [
      { path: 'expiresAt', message: 'must be in the future' },
    ]);
  return new Date(at).toISOString();
}

const CreatePersonalKeySchema = CreateKeySchema.omit({ partnerUserId: true }).openapi('CreatePersonalApiKey');

/** The answer to a key creation: the only one that ever carries the secret (`apiKey`). */
export const CreatedKeySchema = z
  .object({
    keyId: z.string(),
    apiKey: z.string(),
    userId: z.string(),
    name: z.string(),
    expiresAt: z.string().nullable(),
  })
  .openapi('CreatedApiKey');

/** Creates a (never partner-admin) key of `userId` and the body answering it. */
export async function createUserKey(
  deps: Pick<Deps, 'store'>,
  userId: string,
  body: { name: string; expiresAt?: string },
): Promise<z.infer<typeof CreatedKeySchema>> {
  const expiresAt = keyExpiry(body.expiresAt);
  const made = await deps.store.createKey(userId, body.name, false, expiresAt ?? undefined);
  return { keyId: made.keyId, apiKey: made.apiKey, userId, name: body.name, expiresAt };
}

export function userKeyRoutes(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/user/api-keys',
      tags: ['API keys'],
      summary: "List the signed-in user's own API keys (never secrets)",
      description:
        "Works with a launch session (the web app's profile page) or an API key; only keys of the caller's own " +
        'user are listed.',
      security: [{ ApiKey: [] }],
      responses: {
        200: {
          description: 'Keys',
          content: { 'application/json': { schema: z.object({ items: z.array(KeySchema) }) } },
        },
        ...errorResponses(401, 429),
      },
    }),
    async (c) => c.json({ items: await deps.store.listOwnKeys(callerOf(c).userId) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/user/api-keys',
      tags: ['API keys'],
      summary: 'Create a personal API key (the secret is shown only in this response)',
      description:
        "The key acts as the caller's user on the companies it can access; it is never a partner-admin key, " +
        'whatever the caller is. Only its SHA-256 digest is stored.',
      security: [{ ApiKey: [] }],
      request: { body: jsonBody(CreatePersonalKeySchema) },
      responses: {
        201: {
          description: 'The new key',
          content: { 'application/json': { schema: CreatedKeySchema } },
        },
        ...errorResponses(400, 401, 415, 429),
      },
    }),
    async (c) => c.json(await createUserKey(deps, callerOf(c).userId, c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/user/api-keys/{keyId}',
      tags: ['API keys'],
      summary: "Revoke one of the signed-in user's own keys",
      description:
        'A key of another user (also one a partner provisioned) answers 404, like a key that does not exist.',
      security: [{ ApiKey: [] }],
      request: { params: z.object({ keyId: z.string().min(1).max(100) }) },
      responses: {
        200: { description: 'The revoked key', content: { 'application/json': { schema: KeySchema } } },
        ...errorResponses(401, 404, 429),
      },
    }),
    async (c) => {
      const { keyId } = c.req.valid('param');
      const row = await deps.store.revokeOwnKey(callerOf(c).userId, keyId);
      if (!row) throw notFound('API key', keyId);
      return c.json(row, 200);
    },
  );
  return app;
}
