/**
 * Partner provisioning (partner-admin keys only; the app's middleware answers 403 otherwise):
 * users, companies, company accesses, testing credits, launch codes. Idempotent on the partner's
 * ids, scoped to the calling partner (its admin user is the namespace of the ids it sends).
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { SignJWT } from 'jose';
import type { AppEnv, Deps } from '../context.js';
import { callerOf } from '../context.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import {
  CompanyAccessSchema,
  GrantCreditsSchema,
  LaunchExchangeSchema,
  LaunchSchema,
  PartnerCompanySchema,
  PartnerUserSchema,
} from '../schemas.js';
import { launchedField } from '../plan-ahead.js';
import type { CompanyRow } from '../store/store.js';
import { publicUser } from './account.js';
import { errorResponses, jsonBody, validationHook } from './common.js';

const json = (description: string, schema: z.ZodType) => ({ description, content: { 'application/json': { schema } } });

function publicCompany(c: CompanyRow) {
  return {
    companyId: c.companyId,
    partnerCompanyId: c.partnerCompanyId,
    name: c.name,
    countryCode: c.countryCode,
    createdAt: c.createdAt,
  };
}

/** A returnUrl must stay on the web app's origin or an allowed one (no open redirect). */
export function checkReturnUrl(returnUrl: string | undefined, appUrl: string, allowedOrigins: string[]): string {
  const base = new URL(appUrl);
  if (returnUrl === undefined || returnUrl === '') return `${base.origin}/`;
  if (returnUrl.startsWith('/') && !returnUrl.startsWith('//') && !returnUrl.startsWith('/\\')) {
    return new URL(returnUrl, base.origin).toString();
  }
  let url: URL;
  try {
    url = new URL(returnUrl);
  } catch {
    throw badRequest('returnUrl', 'must be an absolute http(s) URL on the web application, or a path starting with /');
  }
  const origins = new Set([base.origin, ...allowedOrigins.map((o) => new URL(o).origin)]);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !origins.has(url.origin)) {
    throw badRequest(
      'returnUrl',
      `origin ${url.origin} is not allowed; use ${base.origin} or an origin configured in FURROW_RETURN_URL_ORIGINS`,
    );
  }
  return url.toString();
}

export function partnerRoutes(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const security = [{ ApiKey: [] }];
  const tags = ['Partner'];

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/partner/users',
      tags,
      security,
      summary: "Create (or find) a user by the partner's id",
      description:
        'Idempotent on partnerUserId: a repeat returns the existing user (200) instead of creating another (201). ' +
        'firstName and lastName are required only on first creation.',
      request: { body: jsonBody(PartnerUserSchema) },
      responses: {
        200: json('Existing user', z.object({ userId: z.string(), created: z.boolean() }).passthrough()),
        201: json('Created user', z.object({ userId: z.string(), created: z.boolean() }).passthrough()),
        ...errorResponses(400, 401, 403, 415, 429),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      if (body.firstName === undefined || body.lastName === undefined) {
        const existing = await deps.store.userByPartnerId(caller.userId, body.partnerUserId);
        if (existing) return c.json({ ...publicUser(existing), created: false }, 200);
        const missing = body.firstName === undefined ? 'firstName' : 'lastName';
        throw badRequest(missing, 'required when the user is created (first call for this partnerUserId)');
      }
      const { user, created } = await deps.store.provisionUser(caller.userId, body);
      return c.json({ ...publicUser(user), created }, created ? 201 : 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/partner/companies',
      tags,
      security,
      summary: "Create (or find) a company by the partner's id",
      description:
        "Idempotent on partnerCompanyId. The key's user gets admin access to a company it creates. name and " +
        'countryCode are required on first creation.',
      request: { body: jsonBody(PartnerCompanySchema) },
      responses: {
        200: json('Existing company', z.object({ companyId: z.string(), created: z.boolean() }).passthrough()),
        201: json('Created company', z.object({ companyId: z.string(), created: z.boolean() }).passthrough()),
        ...errorResponses(400, 401, 403, 415, 429),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      if (body.name === undefined || body.countryCode === undefined) {
        const existing = await deps.store.companyByPartnerId(caller.userId, body.partnerCompanyId);
        if (existing) return c.json({ ...publicCompany(existing), created: false }, 200);
        throw badRequest(
          body.name === undefined ? 'name' : 'countryCode',
          'required when the company is created (first call for this partnerCompanyId)',
        );
      }
      const { company, created } = await deps.store.provisionCompany(caller.userId, caller.userId, body);
      return c.json({ ...publicCompany(company), created }, created ? 201 : 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/partner/company-accesses',
      tags,
      security,
      summary: 'Give a provisioned user access to a provisioned company',
      description: 'Idempotent: a repeat returns the existing access. role defaults to member.',
      request: { body: jsonBody(CompanyAccessSchema) },
      responses: {
        200: json(
          'Existing access',
          z.object({ userId: z.string(), companyId: z.string(), role: z.string(), created: z.boolean() }),
        ),
        201: json(
          'Access granted',
          z.object({ userId: z.string(), companyId: z.string(), role: z.string(), created: z.boolean() }),
        ),
        ...errorResponses(400, 401, 403, 404, 415, 429),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      const user = await deps.store.userByPartnerId(caller.userId, body.partnerUserId);
      if (!user) throw notFound('partner user', body.partnerUserId);
      const company = await deps.store.companyByPartnerId(caller.userId, body.partnerCompanyId);
      if (!company) throw notFound('partner company', body.partnerCompanyId);
      const { access, created } = await deps.store.grantAccess(user.userId, company.companyId, body.role ?? 'member');
      return c.json(
        { ...access, partnerUserId: body.partnerUserId, partnerCompanyId: body.partnerCompanyId, created },
        created ? 201 : 200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/partner/credits',
      tags,
      security,
      summary: 'Grant testing credits to a provisioned user or company',
      request: { body: jsonBody(GrantCreditsSchema) },
      responses: {
        200: json(
          'New balance',
          z.object({ ownerKind: z.enum(['user', 'company']), ownerId: z.string(), balance: z.number() }),
        ),
        ...errorResponses(400, 401, 403, 404, 415, 429),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      if (body.partnerUserId !== undefined) {
        const user = await deps.store.userByPartnerId(caller.userId, body.partnerUserId);
        if (!user) throw notFound('partner user', body.partnerUserId);
        const balance = await deps.store.grantCredits(
          'user',
          user.userId,
          body.credits,
          `testing credits from ${caller.userId}`,
        );
        return c.json({ ownerKind: 'user' as const, ownerId: user.userId, balance }, 200);
      }
      const company = await deps.store.companyByPartnerId(caller.userId, body.partnerCompanyId!);
      if (!company) throw notFound('partner company', body.partnerCompanyId!);
      const balance = await deps.store.grantCredits(
        'company',
        company.companyId,
        body.credits,
        `testing credits from ${caller.userId}`,
      );
      return c.json({ ownerKind: 'company' as const, ownerId: company.companyId, balance }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/partner/launch',
      tags,
      security,
      summary: 'Issue a single-use launch code (600 s) for an end user',
      description:
        "`userId` is the partner's id for the end user (partnerUserId). `returnUrl` must be on the web " +
        "application's origin (or an allowed one).",
      request: { body: jsonBody(LaunchSchema) },
      responses: {
        201: json(
          'Launch code',
          z.object({ code: z.string(), userId: z.string(), launchUrl: z.string(), expiresInSec: z.number() }),
        ),
        ...errorResponses(400, 401, 403, 404, 415, 429),
      },
    }),
    async (c) => {
      const caller = callerOf(c);
      const body = c.req.valid('json');
      const user = await deps.store.userByPartnerId(caller.userId, body.userId);
      if (!user) throw notFound('partner user', body.userId);
      const returnUrl = checkReturnUrl(body.returnUrl, deps.config.appUrl, deps.config.returnUrlOrigins);
      const code = await deps.store.createLaunchCode(
        user.userId,
        caller.userId,
        returnUrl,
        deps.config.launchCodeSeconds,
      );
      // The partner sends the user to the launch URL now: the field's first plan is started while the browser
      // gets there (taken by the app's plan request, charged then; plan-ahead.ts).
      if (deps.planAhead) {
        const ahead = deps.planAhead;
        void launchedField(deps, user.userId, returnUrl)
          .then((field) => field && ahead.afterLaunch(user.userId, field))
          .catch((err: unknown) => deps.logger.info({ err: String(err) }, 'no plan ahead of the launch'));
      }
      const launch = new URL('/launch', deps.config.appUrl);
      launch.searchParams.set('code', code);
      launch.searchParams.set('userId', user.userId);
      launch.searchParams.set('returnUrl', returnUrl);
      return c.json(
        { code, userId: user.userId, launchUrl: launch.toString(), expiresInSec: deps.config.launchCodeSeconds },
        201,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/partner/launch/exchange',
      tags,
      summary: 'Exchange a launch code for a session (no API key: the code is the credential)',
      description:
        'Single use: a replayed, expired or unknown code fails with 401. The JWT is a session of the end user, not ' +
        'of the partner admin; send it as `Authorization: Bearer <token>`.',
      request: { body: jsonBody(LaunchExchangeSchema) },
      responses: {
        200: json(
          'Session',
          z
            .object({
              token: z.string(),
              tokenType: z.literal('Bearer'),
              expiresInSec: z.number(),
              userId: z.string(),
              returnUrl: z.string().nullable(),
              field: z
                .record(z.string(), z.unknown())
                .nullable()
                .openapi({
                  description:
                    'The field the returnUrl opens (`/path-planning/boundary/{boundaryId}`), as ' +
                    '`GET /api/boundaries/{boundaryId}` answers it to this user (with `latestPlanId`); null when the ' +
                    'returnUrl opens another page or the user cannot see that boundary. A client draws it without ' +
                    'asking for it again.',
                }),
            })
            .passthrough(),
        ),
        ...errorResponses(400, 401, 415, 429),
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const used = await deps.store.consumeLaunchCode(body.code, body.userId);
      if (!used)
        throw new ApiError(
          401,
          'Unauthorized',
          'the launch code is unknown, expired or already used; ask the partner for a new launch',
        );
      const user = await deps.store.getUser(used.userId);
      const token = await new SignJWT({ scope: 'session' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(used.userId)
        .setIssuer('furrow')
        .setAudience('furrow-web')
        .setIssuedAt()
        .setExpirationTime(`${deps.config.sessionSeconds}s`)
        .sign(await deps.jwtSecret());
      // The field the user is sent to, in the answer (the app draws it without asking for it), and planned
      // while the browser loads the app (when the app will plan it), started once the answer is ready.
      // (the code is used by now: a failed look-up leaves the field out of the answer, never fails the exchange)
      const field = await launchedField(deps, used.userId, used.returnUrl).catch((err: unknown) => {
        deps.logger.info({ err: String(err) }, 'the launched field could not be read for the exchange');
        return undefined;
      });
      if (field) deps.planAhead?.afterLaunch(used.userId, field);
      return c.json(
        {
          token,
          tokenType: 'Bearer' as const,
          expiresInSec: deps.config.sessionSeconds,
          userId: used.userId,
          returnUrl: used.returnUrl,
          user: user ? publicUser(user) : null,
          field: field ?? null,
        },
        200,
      );
    },
  );
  return app;
}
