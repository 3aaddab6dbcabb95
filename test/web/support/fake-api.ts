/**
 * A contract fake of the furrow API for the web app's browser suite: the endpoints the app and
 * the partner example call (docs/api.md "Full platform"), in memory, with single-use
 * launch codes (600 s), Bearer sessions, and the web app's real static handler (`webAppResponse`).
 * The end-to-end suite (web-e2e.browser.test.ts) runs the same flow against the real server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { webAppResponse } from '@furrow/web';
import { fakePlan, type FakePlanRequest } from './fake-plan.js';

export interface FakeApiOptions {
  adminKey: string;
  /**
   * Partner embedding settings returned beside the session (`partner` member), as a future API
   * might; the real API does not, and the partner passes them in the returnUrl instead.
   */
  partnerSettings?: { allowedOrigins: string[]; theme?: Record<string, string> };
  /** Launch code lifetime, seconds (600 in the spec; tests shorten it to test expiry). */
  launchCodeSeconds?: number;
}

export interface FakeApi {
  url: string;
  /** Requests seen, for assertions: method + path + whether a Bearer token came along. */
  log: { method: string; path: string; bearer: boolean; apiKey: boolean }[];
  plansSaved: Record<string, unknown>[];
  close(): Promise<void>;
}

function b64url(o: unknown): string {
  return Buffer.from(JSON.stringify(o)).toString('base64url');
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function error(res: ServerResponse, status: number, code: string, message: string): void {
  send(res, status, { error: { code, message }, correlationId: randomUUID() });
}

export async function startFakeApi(opts: FakeApiOptions): Promise<FakeApi> {
  const users = new Map<string, { userId: string; partnerUserId: string }>();
  const companies = new Map<string, { companyId: string; name: string }>();
  const boundaries = new Map<string, { boundaryId: string; fieldId: string; name: string; rings: number[][][] }>();
  const codes = new Map<string, { userId: string; expiresAtMs: number; used: boolean; returnUrl: string }>();
  const sessions = new Map<string, { userId: string; expiresAtMs: number }>();
  const log: FakeApi['log'] = [];
  const plansSaved: Record<string, unknown>[] = [];
  const codeSeconds = opts.launchCodeSeconds ?? 600;
  let url = '';

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const u = new URL(req.url ?? '/', url);
    const method = req.method ?? 'GET';
    const auth = req.headers['authorization'];
    const apiKey = req.headers['x-api-key'];
    log.push({
      method,
      path: u.pathname,
      bearer: typeof auth === 'string' && auth.startsWith('Bearer '),
      apiKey: apiKey !== undefined,
    });

    if (!u.pathname.startsWith('/api/')) {
      const r = await webAppResponse(new Request(u, { method }));
      if (!r) return error(res, 404, 'NotFound', `no route for ${method} ${u.pathname}`);
      res.writeHead(r.status, Object.fromEntries(r.headers));
      res.end(Buffer.from(await r.arrayBuffer()));
      return;
    }
    const isAdmin = apiKey === opts.adminKey;
    let sessionUser: string | undefined;
    if (typeof auth === 'string' && auth.startsWith('Bearer ')) {
      const s = sessions.get(auth.slice(7));
      if (s && s.expiresAtMs > Date.now()) sessionUser = s.userId;
    }
    const p = u.pathname;
    if (method === 'POST' && p === '/api/partner/launch/exchange') {
      const body = await readJson(req);
      const c = codes.get(String(body['code']));
      // Like the real API: one answer for unknown, expired and replayed codes.
      if (!c || c.userId !== body['userId'] || c.used || c.expiresAtMs <= Date.now()) {
        return error(
          res,
          401,
          'Unauthorized',
          'the launch code is unknown, expired or already used; ask the partner for a new launch',
        );
      }
      c.used = true;
      const exp = Math.floor(Date.now() / 1000) + 3600;
      const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: c.userId, exp })}.fake`;
      sessions.set(token, { userId: c.userId, expiresAtMs: exp * 1000 });
      return send(res, 200, {
        token,
        tokenType: 'Bearer',
        expiresInSec: 3600,
        userId: c.userId,
        returnUrl: c.returnUrl,
        ...(opts.partnerSettings ? { partner: opts.partnerSettings } : {}),
      });
    }
    if (!isAdmin && !sessionUser) return error(res, 401, 'Unauthorized', 'missing or invalid credentials');
    if (p.startsWith('/api/partner/') && !isAdmin)
      return send(res, 403, {
        correlationId: randomUUID(),
        errorCode: 'NotAuthorized',
        message: 'partner admin key required',
      });

    if (method === 'GET' && p === '/api/user/current') {
      return send(res, 200, {
        user: { userId: sessionUser ?? 'admin' },
        companies: [...companies.values()].map((c) => ({ companyId: c.companyId, name: c.name })),
        ...(opts.partnerSettings ? { partner: opts.partnerSettings } : {}),
      });
    }
    if (method === 'GET' && p === '/api/credits') {
      // The contract's shape; the fake does not charge, so the balances stay.
      return send(res, 200, {
        user: { userId: sessionUser ?? 'admin', balance: 100 },
        companies: [...companies.values()].map((c) => ({ companyId: c.companyId, balance: 50 })),
        planCostCredits: 1,
      });
    }
    if (method === 'POST' && p === '/api/partner/users') {
      const b = await readJson(req);
      const key = String(b['partnerUserId']);
      const user = users.get(key) ?? { userId: randomUUID(), partnerUserId: key };
      users.set(key, user);
      return send(res, 200, { userId: user.userId });
    }
    if (method === 'POST' && p === '/api/partner/companies') {
      const b = await readJson(req);
      const key = String(b['partnerCompanyId']);
      const c = companies.get(key) ?? { companyId: randomUUID(), name: String(b['name']) };
      companies.set(key, c);
      return send(res, 200, { companyId: c.companyId });
    }
    if (method === 'POST' && p === '/api/partner/company-accesses') return send(res, 200, { granted: true });
    if (method === 'POST' && p === '/api/partner/credits')
      return send(res, 200, { balance: (await readJson(req))['credits'] });
    if (method === 'POST' && /^\/api\/companies\/[^/]+\/growers$/.test(p))
      return send(res, 201, { growerId: randomUUID() });
    if (method === 'POST' && /^\/api\/growers\/[^/]+\/farms$/.test(p)) return send(res, 201, { farmId: randomUUID() });
    if (method === 'POST' && p === '/api/fields/save') {
      const b = await readJson(req);
      const rec = {
        boundaryId: randomUUID(),
        fieldId: randomUUID(),
        name: String(b['name']),
        rings: b['boundary'] as number[][][],
      };
      boundaries.set(rec.boundaryId, rec);
      return send(res, 201, {
        field: { fieldId: rec.fieldId, name: rec.name },
        vBoundary: { boundaryId: rec.boundaryId },
      });
    }
    if (method === 'POST' && p === '/api/partner/launch') {
      const b = await readJson(req);
      const user = users.get(String(b['userId']));
      if (!user) return error(res, 404, 'NotFound', 'unknown partner user');
      const code = randomUUID().replace(/-/g, '');
      // Test-only knob of the fake: a shorter lifetime to exercise expiry.
      const ttl = typeof b['testTtlSeconds'] === 'number' ? b['testTtlSeconds'] : codeSeconds;
      const returnUrl = new URL(String(b['returnUrl'] ?? '/'), url);
      if (returnUrl.origin !== url)
        return error(res, 400, 'ValidationFailed', `returnUrl: origin ${returnUrl.origin} is not allowed`);
      codes.set(code, {
        userId: user.userId,
        expiresAtMs: Date.now() + ttl * 1000,
        used: false,
        returnUrl: returnUrl.toString(),
      });
      const launchUrl = `${url}/launch?code=${code}&userId=${user.userId}&returnUrl=${encodeURIComponent(returnUrl.toString())}`;
      return send(res, 201, { code, userId: user.userId, launchUrl, expiresInSec: codeSeconds });
    }
    let m = /^\/api\/boundaries\/([^/]+)$/.exec(p);
    if (method === 'GET' && m) {
      const b = boundaries.get(m[1]);
      if (!b) return error(res, 404, 'NotFound', 'no such boundary');
      return send(res, 200, {
        boundaryId: b.boundaryId,
        fieldId: b.fieldId,
        name: b.name,
        geometry: { type: 'Polygon', coordinates: b.rings },
      });
    }
    if (method === 'POST' && p === '/api/path-plans/direct/geojson') {
      const b = (await readJson(req)) as FakePlanRequest;
      return send(res, 200, fakePlan(b), { 'content-type': 'application/geo+json' });
    }
    m = /^\/api\/companies\/([^/]+)\/fields$/.exec(p);
    if (method === 'GET' && m) {
      const items = [...boundaries.values()].map((b) => ({
        fieldId: b.fieldId,
        name: b.name,
        companyId: m![1],
        boundaryId: b.boundaryId,
      }));
      return send(res, 200, { items, total: items.length, limit: 500, offset: 0 });
    }
    m = /^\/api\/boundaries\/([^/]+)\/plans$/.exec(p);
    if (method === 'POST' && m) {
      const b = await readJson(req);
      const boundary = boundaries.get(m[1]);
      if (!boundary) return error(res, 404, 'NotFound', 'no such boundary');
      const planId = randomUUID();
      const request = {
        ...(b['request'] as Record<string, unknown>),
        field: { type: 'Polygon', coordinates: boundary.rings },
      };
      plansSaved.push({
        planId,
        boundaryId: m[1],
        fieldId: boundary.fieldId,
        ...b,
        geojson: fakePlan(request as FakePlanRequest),
      });
      return send(res, 201, { planId, boundaryId: m[1], fieldId: boundary.fieldId, request: b['request'] });
    }
    m = /^\/api\/fields\/([^/]+)\/plans$/.exec(p);
    if (method === 'GET' && m) {
      const all = plansSaved.filter((x) => x['fieldId'] === m![1]);
      const offset = Number(u.searchParams.get('offset') ?? '0');
      const limit = Number(u.searchParams.get('limit') ?? '50');
      const items = all.slice(offset, offset + limit).map(({ geojson: _g, ...rest }) => rest);
      return send(res, 200, { items, total: all.length, limit, offset });
    }
    m = /^\/api\/plans\/([^/]+)\/export$/.exec(p);
    if (method === 'GET' && m && u.searchParams.get('format') === 'geojson') {
      const saved = plansSaved.find((x) => x['planId'] === m![1]);
      if (!saved) return error(res, 404, 'NotFound', 'no such plan');
      return send(res, 200, saved['geojson'], { 'content-type': 'application/geo+json' });
    }
    if (method === 'GET' && m) {
      res.writeHead(200, { 'content-type': 'application/vnd.google-earth.kml+xml' });
      res.end(`<kml><!-- plan ${m[1]} as ${u.searchParams.get('format')} --></kml>`);
      return;
    }
    return error(res, 404, 'NotFound', `no route for ${method} ${p}`);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => error(res, 500, 'InternalError', String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    log,
    plansSaved,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
