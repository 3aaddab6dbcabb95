/**
 * The full platform through `app.request()`: the spec's typical sequence, launch codes and sessions,
 * validation of provisioning, boundary import / export, stored plans, key management, credits,
 * and the auth matrix (no key, wrong key, revoked key, non-admin key, other company's key) on
 * every route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '@furrow/api';
import { call, jsonInit, makeApp, readCorpusField, shapeB, square, type TestApp } from './support.js';

let store: Store;
let A: TestApp; // partner A (admin key)
let B: TestApp; // partner B (admin key): "another company's key"

interface World {
  companyId: string;
  growerId: string;
  farmId: string;
  fieldId: string;
  boundaryId: string;
  planId: string;
  userKey: string;
  userKeyId: string;
  endUserId: string;
}
let a: World;

/** The spec's typical sequence for one partner; returns every id. */
async function provision(t: TestApp, tag: string): Promise<World> {
  expect((await call(t, 'GET', '/api/user/current')).status).toBe(200);
  const user = await call(t, 'POST', '/api/partner/users', {
    partnerUserId: `${tag}-user`,
    email: `${tag}@example.org`,
    firstName: 'End',
    lastName: 'User',
    countryCode: 'DE',
  });
  expect(user.status).toBe(201);
  const company = await call(t, 'POST', '/api/partner/companies', {
    partnerCompanyId: `${tag}-co`,
    name: `${tag} farms`,
    countryCode: 'DE',
  });
  expect(company.status).toBe(201);
  const access = await call(t, 'POST', '/api/partner/company-accesses', {
    partnerUserId: `${tag}-user`,
    partnerCompanyId: `${tag}-co`,
  });
  expect(access.status).toBe(201);
  const { companyId } = company.body;
  const grower = await call(t, 'POST', `/api/companies/${companyId}/growers`, {
    name: 'Grower',
    source: 'api',
    archived: false,
  });
  expect(grower.status).toBe(201);
  const farm = await call(t, 'POST', `/api/growers/${grower.body.growerId}/farms`, {
    name: 'Farm',
    source: 'api',
    archived: false,
  });
  expect(farm.status).toBe(201);
  const field = await call(t, 'POST', '/api/fields/save', {
    farmId: farm.body.farmId,
    name: 'North',
    boundary: square().coordinates,
  });
  expect(field.status).toBe(201);
  const plan = await call(t, 'POST', `/api/boundaries/${field.body.vBoundary.boundaryId}/plans`, {
    request: { equipment: { widthMeters: 6 }, exteriorHeadlandPasses: 1 },
  });
  expect(plan.status).toBe(201);
  const key = await call(t, 'POST', '/api/api-keys', { name: 'end user key', partnerUserId: `${tag}-user` });
  expect(key.status).toBe(201);
  return {
    companyId,
    growerId: grower.body.growerId,
    farmId: farm.body.farmId,
    fieldId: field.body.field.fieldId,
    boundaryId: field.body.vBoundary.boundaryId,
    planId: plan.body.planId,
    userKey: key.body.apiKey,
    userKeyId: key.body.keyId,
    endUserId: user.body.userId,
  };
}

beforeAll(async () => {
  store = await openStore('memory:');
  A = await makeApp(store);
  B = await makeApp(store);
  a = await provision(A, 'a');
  await provision(B, 'b');
});
afterAll(async () => {
  await store?.close();
});

describe('typical sequence and launch', () => {
  it('returns the ids the spec names', () => {
    for (const id of [a.companyId, a.growerId, a.farmId, a.fieldId, a.boundaryId, a.planId])
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('issues a launch code for the end user and exchanges it once for a session of that user', async () => {
    const returnUrl = `http://app.test/path-planning/boundary/${a.boundaryId}?embedded=true&chrome=false`;
    const launch = await call(A, 'POST', '/api/partner/launch', { userId: 'a-user', returnUrl });
    expect(launch.status).toBe(201);
    expect(launch.body.userId).toBe(a.endUserId);
    expect(launch.body.expiresInSec).toBe(600);
    const url = new URL(launch.body.launchUrl);
    expect(url.origin + url.pathname).toBe('http://app.test/launch');
    expect(url.searchParams.get('code')).toBe(launch.body.code);
    expect(url.searchParams.get('userId')).toBe(a.endUserId);
    expect(url.searchParams.get('returnUrl')).toBe(returnUrl);

    const exchange = await call(
      A,
      'POST',
      '/api/partner/launch/exchange',
      { code: launch.body.code, userId: a.endUserId },
      null,
    );
    expect(exchange.status).toBe(200);
    expect(exchange.body.tokenType).toBe('Bearer');
    expect(exchange.body.returnUrl).toBe(returnUrl);
    const bearer = { Authorization: `Bearer ${exchange.body.token}` };

    const me = await A.app.request('/api/user/current', { headers: bearer });
    expect(me.status).toBe(200);
    const meBody = await me.json();
    expect(meBody.user.userId).toBe(a.endUserId);
    expect(meBody.user.userId).not.toBe(A.adminUserId);
    expect(meBody.key.partnerAdmin).toBe(false);
    // The session reads the end user's boundary and cannot call partner routes.
    expect((await A.app.request(`/api/boundaries/${a.boundaryId}`, { headers: bearer })).status).toBe(200);
    const partner = await A.app.request('/api/partner/users', {
      method: 'POST',
      headers: { ...bearer, 'Content-Type': 'application/json' },
      body: '{"partnerUserId":"x"}',
    });
    expect(partner.status).toBe(403);

    const replay = await call(
      A,
      'POST',
      '/api/partner/launch/exchange',
      { code: launch.body.code, userId: a.endUserId },
      null,
    );
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('Unauthorized');
  });

  it('rejects open redirects and unknown users; accepts app paths', async () => {
    const evil = await call(A, 'POST', '/api/partner/launch', {
      userId: 'a-user',
      returnUrl: 'https://evil.example/steal',
    });
    expect(evil.status).toBe(400);
    expect(evil.body.error.details[0].path).toBe('returnUrl');
    const sneaky = await call(A, 'POST', '/api/partner/launch', { userId: 'a-user', returnUrl: '//evil.example/x' });
    expect(sneaky.status).toBe(400);
    const path = await call(A, 'POST', '/api/partner/launch', {
      userId: 'a-user',
      returnUrl: `/path-planning/boundary/${a.boundaryId}`,
    });
    expect(path.status).toBe(201);
    expect(new URL(path.body.launchUrl).searchParams.get('returnUrl')).toBe(
      `http://app.test/path-planning/boundary/${a.boundaryId}`,
    );
    expect((await call(A, 'POST', '/api/partner/launch', { userId: 'nobody' })).status).toBe(404);
    // Partner B cannot launch partner A's user.
    expect((await call(B, 'POST', '/api/partner/launch', { userId: 'a-user' })).status).toBe(404);
  });

  it('rejects a tampered or foreign session token', async () => {
    const res = await A.app.request('/api/user/current', {
      headers: { Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl' },
    });
    expect(res.status).toBe(401);
  });
});

describe('provisioning validation', () => {
  it.each([
    [{ partnerUserId: 'v1', email: 'not-an-email', firstName: 'A', lastName: 'B' }, 'email'],
    [{ partnerUserId: 'v2', firstName: 'A', lastName: 'B', countryCode: 'DEU' }, 'countryCode'],
    [{ partnerUserId: 'v3', firstName: 'A', lastName: 'B', countryCode: 'D1' }, 'countryCode'],
    [{ partnerUserId: 'v4', firstName: 'A' }, 'lastName'],
    [{ partnerUserId: '', firstName: 'A', lastName: 'B' }, 'partnerUserId'],
  ])('400 for user %j', async (body, path) => {
    const res = await call(A, 'POST', '/api/partner/users', body);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('needs names only on first creation', async () => {
    const again = await call(A, 'POST', '/api/partner/users', { partnerUserId: 'a-user' });
    expect(again.status).toBe(200);
    expect(again.body.userId).toBe(a.endUserId);
    const co = await call(A, 'POST', '/api/partner/companies', { partnerCompanyId: 'a-co' });
    expect(co.status).toBe(200);
    expect(co.body.companyId).toBe(a.companyId);
    const fresh = await call(A, 'POST', '/api/partner/companies', { partnerCompanyId: 'new-co', countryCode: 'FR' });
    expect(fresh.status).toBe(400);
    expect(fresh.body.error.details[0].path).toBe('name');
  });

  it('scopes partner ids per partner: the same partnerUserId at B is another user', async () => {
    const b = await call(B, 'POST', '/api/partner/users', {
      partnerUserId: 'a-user',
      firstName: 'Other',
      lastName: 'Person',
    });
    expect(b.status).toBe(201);
    expect(b.body.userId).not.toBe(a.endUserId);
  });
});

describe('fields, boundaries, plans', () => {
  it('validates a saved boundary like a plan field (422) and writes nothing', async () => {
    const before = await call(A, 'GET', `/api/farms/${a.farmId}/fields`);
    const open = square().coordinates.map((r) => r.slice(0, -1));
    const res = await call(A, 'POST', '/api/fields/save', { farmId: a.farmId, name: 'Broken', boundary: open });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].path).toBe('boundary.coordinates[0]');
    // A bow-tie (self-intersecting outer ring) is caught by the planner's own validation.
    const bowTie = [
      [
        [8.6, 50],
        [8.62, 50.02],
        [8.62, 50],
        [8.6, 50.01],
        [8.6, 50],
      ],
    ];
    const crossed = await call(A, 'POST', '/api/fields/save', { farmId: a.farmId, name: 'Bow-tie', boundary: bowTie });
    expect(crossed.status).toBe(422);
    expect(JSON.stringify(crossed.body.error)).toMatch(/intersect/i);
    expect(crossed.body.error.details[0].path).toMatch(/^boundary/);
    const after = await call(A, 'GET', `/api/farms/${a.farmId}/fields`);
    expect(after.body.total).toBe(before.body.total);
  });

  it('lists and pages, archives and restores', async () => {
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await call(A, 'POST', '/api/fields/save', {
            farmId: a.farmId,
            name: `P${i}`,
            boundary: square(8.6 + i * 0.01).coordinates,
          })
        ).status,
      ).toBe(201);
    }
    const page = await call(A, 'GET', `/api/farms/${a.farmId}/fields?limit=2&offset=1`);
    expect(page.status).toBe(200);
    expect(page.body.items.length).toBe(2);
    expect(page.body.total).toBe(4);
    const all = await call(A, 'GET', `/api/companies/${a.companyId}/fields?limit=500`);
    expect(all.body.items.find((f: { fieldId: string }) => f.fieldId === a.fieldId).boundaryId).toBe(a.boundaryId);
    const arch = await call(A, 'POST', `/api/fields/${page.body.items[0].fieldId}/archive`);
    expect(arch.status).toBe(200);
    expect((await call(A, 'GET', `/api/farms/${a.farmId}/fields`)).body.total).toBe(3);
    expect((await call(A, 'GET', `/api/farms/${a.farmId}/fields?includeArchived=true`)).body.total).toBe(4);
    await call(A, 'POST', `/api/fields/${page.body.items[0].fieldId}/archive`, { archived: false });
    expect((await call(A, 'GET', `/api/farms/${a.farmId}/fields`)).body.total).toBe(4);
    expect((await call(A, 'GET', `/api/farms/${a.farmId}/fields?limit=0`)).status).toBe(400);
  });

  it('plans a stored boundary, keeps the plan with its options, lists it, exports it in every plan format', async () => {
    const stored = await call(A, 'GET', `/api/plans/${a.planId}`);
    expect(stored.status).toBe(200);
    expect(stored.body.request).toEqual({ equipment: { widthMeters: 6 }, exteriorHeadlandPasses: 1 });
    expect(stored.body.plan.version).toBe('1.5.0');
    const list = await call(A, 'GET', `/api/fields/${a.fieldId}/plans`);
    expect(list.body.items.map((p: { planId: string }) => p.planId)).toContain(a.planId);
    const { PLAN_FORMATS } = await import('@furrow/format-vendor');
    for (const format of PLAN_FORMATS) {
      const res = await A.app.request(`/api/plans/${a.planId}/export?format=${format}`, jsonInit('GET', A.adminKey));
      expect(res.status, format).toBe(200);
      expect(res.headers.get('Content-Disposition')).toMatch(/attachment; filename="/);
      expect((await res.arrayBuffer()).byteLength, format).toBeGreaterThan(50);
    }
    expect((await call(A, 'GET', `/api/plans/${a.planId}/export?format=docx`)).status).toBe(400);
  });

  it('rejects a stored-plan request with bad options (400 naming request.*)', async () => {
    const res = await call(A, 'POST', `/api/boundaries/${a.boundaryId}/plans`, {
      request: { equipment: { widthMeters: 6 }, options: 'bogus' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('request.options');
  });

  it('imports GeoJSON, WKT and KML boundaries and exports every boundary format; GeoJSON round-trips', async () => {
    const corpus = readCorpusField('be-wal-000');
    const upload = async (body: string, filename: string) => {
      const res = await A.app.request(`/api/fields/${a.fieldId}/boundaries/import?filename=${filename}`, {
        method: 'POST',
        headers: { 'X-API-KEY': A.adminKey, 'Content-Type': 'application/octet-stream' },
        body,
      });
      return { status: res.status, body: await res.json() };
    };
    const g = await upload(JSON.stringify(corpus), 'field.geojson');
    expect(g.status).toBe(201);
    expect(g.body.items.length).toBe(1);
    const boundaryId = g.body.items[0].boundaryId;
    const wkt = await upload('POLYGON((8.54 47.37, 8.544 47.37, 8.544 47.374, 8.54 47.374, 8.54 47.37))', 'f.wkt');
    expect(wkt.status).toBe(201);
    const kml = await upload(
      '<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>K</name><Polygon><outerBoundaryIs><LinearRing><coordinates>8.54,47.37 8.544,47.37 8.544,47.374 8.54,47.374 8.54,47.37</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></kml>',
      'f.kml',
    );
    expect(kml.status).toBe(201);
    expect((await upload('this is not a boundary', 'x.txt')).status).toBe(422);

    for (const format of ['geojson', 'wkt', 'kml', 'shapefile', 'isoxml', 'agopengps']) {
      const res = await A.app.request(
        `/api/boundaries/${boundaryId}/export?format=${format}`,
        jsonInit('GET', A.adminKey),
      );
      expect(res.status, format).toBe(200);
      expect((await res.arrayBuffer()).byteLength, format).toBeGreaterThan(50);
    }
    const exported = await (
      await A.app.request(`/api/boundaries/${boundaryId}/export?format=geojson`, jsonInit('GET', A.adminKey))
    ).text();
    const back = await upload(exported, 'back.geojson');
    expect(back.status).toBe(201);
    const original = (await call(A, 'GET', `/api/boundaries/${boundaryId}`)).body.geometry;
    expect(back.body.items[0].geometry).toEqual(original);
  });
});

describe('boundary formats round trip', () => {
  it.each(['geojson', 'wkt', 'kml', 'shapefile', 'isoxml'])(
    'exports %s and imports it back to the same polygon',
    async (format) => {
      const res = await A.app.request(
        `/api/boundaries/${a.boundaryId}/export?format=${format}`,
        jsonInit('GET', A.adminKey),
      );
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1];
      const back = await A.app.request(`/api/fields/${a.fieldId}/boundaries/import?filename=${name}`, {
        method: 'POST',
        headers: { 'X-API-KEY': A.adminKey, 'Content-Type': 'application/octet-stream' },
        body: bytes,
      });
      const body = await back.json();
      expect(back.status, JSON.stringify(body).slice(0, 300)).toBe(201);
      expect(body.items.length).toBe(1);
      const ring = (g: { type: string; coordinates: any }) =>
        (g.type === 'Polygon' ? g.coordinates[0] : g.coordinates[0][0]) as number[][];
      const original = ring(square());
      const imported = ring(body.items[0].geometry);
      expect(imported.length).toBe(original.length);
      // Same corners (formats may start the ring elsewhere or wind it the other way).
      const key = (p: number[]) => `${p[0].toFixed(7)},${p[1].toFixed(7)}`;
      expect(new Set(imported.map(key))).toEqual(new Set(original.map(key)));
    },
  );

  it('exports an AgOpenGPS field folder and imports it back: every corner within 1 cm', async () => {
    const res = await A.app.request(
      `/api/boundaries/${a.boundaryId}/export?format=agopengps`,
      jsonInit('GET', A.adminKey),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/zip');
    const back = await A.app.request(`/api/fields/${a.fieldId}/boundaries/import?filename=field.zip`, {
      method: 'POST',
      headers: { 'X-API-KEY': A.adminKey, 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array(await res.arrayBuffer()),
    });
    const body = await back.json();
    expect(back.status, JSON.stringify(body).slice(0, 300)).toBe(201);
    const imported = body.items[0].geometry.coordinates[0] as number[][];
    // the fence is densified (AgOpenGPS's spacing): each original corner is one of its points
    for (const corner of square().coordinates[0] as number[][]) {
      const nearest = Math.min(
        ...imported.map((p) => Math.hypot((p[0] - corner[0]) * 75_000, (p[1] - corner[1]) * 111_000)),
      );
      expect(nearest).toBeLessThan(0.01);
    }
  });
});

describe('keys and credits', () => {
  it('lists keys without secrets and revokes them', async () => {
    const list = await call(A, 'GET', '/api/api-keys');
    expect(list.status).toBe(200);
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(a.userKey);
    expect(text).not.toMatch(/apiKey|key_hash|keyHash/);
    expect(list.body.items.map((k: { keyId: string }) => k.keyId)).toContain(a.userKeyId);
    // B cannot see or revoke A's keys.
    expect((await call(B, 'DELETE', `/api/api-keys/${a.userKeyId}`)).status).toBe(404);
    // A non-admin key cannot create keys for partner users.
    expect((await call(A, 'POST', '/api/api-keys', { name: 'x', partnerUserId: 'a-user' }, a.userKey)).status).toBe(
      403,
    );
  });

  it('grants testing credits; a provisioned user without credits gets 402 until then', async () => {
    const user = await call(A, 'POST', '/api/partner/users', {
      partnerUserId: 'poor',
      firstName: 'P',
      lastName: 'Oor',
    });
    const key = await call(A, 'POST', '/api/api-keys', { name: 'poor', partnerUserId: 'poor' });
    const denied = await call(A, 'POST', '/api/path-plans/direct', shapeB(), key.body.apiKey);
    expect(denied.status).toBe(402);
    expect(denied.body).toMatchObject({ creditsAvailable: 0, creditsRequired: 1 });
    const grant = await call(A, 'POST', '/api/partner/credits', { partnerUserId: 'poor', credits: 3 });
    expect(grant.status).toBe(200);
    expect(grant.body).toEqual({ ownerKind: 'user', ownerId: user.body.userId, balance: 3 });
    expect((await call(A, 'POST', '/api/path-plans/direct', shapeB(), key.body.apiKey)).status).toBe(200);
    expect((await call(A, 'GET', '/api/credits', undefined, key.body.apiKey)).body.user.balance).toBe(2);
    expect((await call(A, 'POST', '/api/partner/credits', { credits: 3 })).status).toBe(400);
    expect((await call(B, 'POST', '/api/partner/credits', { partnerUserId: 'poor', credits: 3 })).status).toBe(404);
  });
});

describe('auth matrix on every route', () => {
  let revokedKey: string;
  let nonAdminOtherKey: string;
  let spareKeyId: string;
  let spareOwnKeyId: string;
  let profileId: string;
  let spareProfileId: string;
  beforeAll(async () => {
    const profile = (name: string) =>
      call(A, 'POST', `/api/companies/${a.companyId}/machine-profiles`, { name, machine: { widthMeters: 6 } });
    profileId = (await profile('kept')).body.profileId;
    spareProfileId = (await profile('spare')).body.profileId;
    spareKeyId = (await call(A, 'POST', '/api/api-keys', { name: 'spare' })).body.keyId;
    spareOwnKeyId = (await call(A, 'POST', '/api/user/api-keys', { name: 'spare personal' })).body.keyId;
    const k = await call(A, 'POST', '/api/api-keys', { name: 'revoke me' });
    revokedKey = k.body.apiKey;
    expect((await call(A, 'DELETE', `/api/api-keys/${k.body.keyId}`)).status).toBe(200);
    // A non-admin key of a user of partner A with no access to company a-co.
    await call(A, 'POST', '/api/partner/users', { partnerUserId: 'outsider', firstName: 'O', lastName: 'S' });
    nonAdminOtherKey = (await call(A, 'POST', '/api/api-keys', { name: 'outsider', partnerUserId: 'outsider' })).body
      .apiKey;
    expect((await call(A, 'POST', '/api/partner/credits', { partnerUserId: 'outsider', credits: 10 })).status).toBe(
      200,
    );
  });

  type Route = {
    method: string;
    path: () => string;
    body?: () => unknown;
    partner?: boolean;
    tenant?: boolean;
    ownerIsAdmin?: boolean;
  };
  const routes: Route[] = [
    { method: 'POST', path: () => '/api/path-plans/direct', body: () => shapeB() },
    { method: 'POST', path: () => '/api/path-plans/direct/geojson', body: () => shapeB() },
    { method: 'GET', path: () => '/api/user/current' },
    { method: 'GET', path: () => '/api/credits' },
    { method: 'GET', path: () => '/api/api-keys' },
    { method: 'POST', path: () => '/api/api-keys', body: () => ({ name: 'm' }) },
    { method: 'DELETE', path: () => `/api/api-keys/${spareKeyId}`, tenant: true, ownerIsAdmin: true },
    { method: 'GET', path: () => '/api/user/api-keys' },
    { method: 'POST', path: () => '/api/user/api-keys', body: () => ({ name: 'm' }) },
    { method: 'DELETE', path: () => `/api/user/api-keys/${spareOwnKeyId}`, tenant: true, ownerIsAdmin: true },
    { method: 'POST', path: () => '/api/partner/users', body: () => ({ partnerUserId: 'a-user' }), partner: true },
    { method: 'POST', path: () => '/api/partner/companies', body: () => ({ partnerCompanyId: 'a-co' }), partner: true },
    {
      method: 'POST',
      path: () => '/api/partner/company-accesses',
      body: () => ({ partnerUserId: 'a-user', partnerCompanyId: 'a-co' }),
      partner: true,
    },
    {
      method: 'POST',
      path: () => '/api/partner/credits',
      body: () => ({ partnerUserId: 'a-user', credits: 1 }),
      partner: true,
    },
    { method: 'POST', path: () => '/api/partner/launch', body: () => ({ userId: 'a-user' }), partner: true },
    { method: 'POST', path: () => `/api/companies/${a.companyId}/growers`, body: () => ({ name: 'G' }), tenant: true },
    { method: 'GET', path: () => `/api/companies/${a.companyId}/growers`, tenant: true },
    { method: 'GET', path: () => `/api/companies/${a.companyId}/fields`, tenant: true },
    { method: 'GET', path: () => `/api/growers/${a.growerId}`, tenant: true },
    { method: 'POST', path: () => `/api/growers/${a.growerId}/farms`, body: () => ({ name: 'F' }), tenant: true },
    { method: 'GET', path: () => `/api/growers/${a.growerId}/farms`, tenant: true },
    { method: 'GET', path: () => `/api/farms/${a.farmId}`, tenant: true },
    { method: 'GET', path: () => `/api/farms/${a.farmId}/fields`, tenant: true },
    {
      method: 'POST',
      path: () => '/api/fields/save',
      body: () => ({ farmId: a.farmId, name: 'X', boundary: square().coordinates }),
      tenant: true,
    },
    { method: 'GET', path: () => `/api/fields/${a.fieldId}`, tenant: true },
    { method: 'GET', path: () => `/api/fields/${a.fieldId}/boundaries`, tenant: true },
    { method: 'GET', path: () => `/api/fields/${a.fieldId}/plans`, tenant: true },
    { method: 'GET', path: () => `/api/boundaries/${a.boundaryId}`, tenant: true },
    {
      method: 'POST',
      path: () => `/api/fields/${a.fieldId}/boundaries/import?filename=b.geojson`,
      body: () => ({ type: 'Feature', properties: {}, geometry: square() }),
      tenant: true,
    },
    // Reads a file for a preview: any caller, nothing stored, no company involved.
    {
      method: 'POST',
      path: () => '/api/boundaries/read?filename=b.geojson',
      body: () => ({ type: 'Feature', properties: {}, geometry: square() }),
    },
    { method: 'GET', path: () => `/api/boundaries/${a.boundaryId}/export?format=wkt`, tenant: true },
    {
      method: 'PUT',
      path: () => `/api/boundaries/${a.boundaryId}/plan-inputs`,
      body: () => ({ accessPoints: [[8.54, 47.372]] }),
      tenant: true,
    },
    {
      method: 'POST',
      path: () => `/api/boundaries/${a.boundaryId}/plans`,
      body: () => ({ request: { equipment: { widthMeters: 6 } } }),
      tenant: true,
    },
    { method: 'GET', path: () => `/api/companies/${a.companyId}/machine-profiles`, tenant: true },
    {
      method: 'POST',
      path: () => `/api/companies/${a.companyId}/machine-profiles`,
      body: () => ({ name: 'Drill 4 m', machine: { widthMeters: 4 } }),
      tenant: true,
    },
    { method: 'GET', path: () => `/api/machine-profiles/${profileId}`, tenant: true },
    {
      method: 'PUT',
      path: () => `/api/machine-profiles/${profileId}`,
      body: () => ({ name: 'kept', machine: { widthMeters: 8 } }),
      tenant: true,
    },
    { method: 'DELETE', path: () => `/api/machine-profiles/${spareProfileId}`, tenant: true },
    { method: 'GET', path: () => `/api/plans/${a.planId}`, tenant: true },
    { method: 'GET', path: () => `/api/plans/${a.planId}/export?format=geojson`, tenant: true },
    {
      method: 'POST',
      path: () => `/api/growers/${a.growerId}/archive`,
      body: () => ({ archived: false }),
      tenant: true,
    },
    { method: 'POST', path: () => `/api/farms/${a.farmId}/archive`, body: () => ({ archived: false }), tenant: true },
    { method: 'POST', path: () => `/api/fields/${a.fieldId}/archive`, body: () => ({ archived: false }), tenant: true },
    {
      method: 'POST',
      path: () => `/api/boundaries/${a.boundaryId}/archive`,
      body: () => ({ archived: false }),
      tenant: true,
    },
    // Terrain, scenarios, sequencing, portal pushes; see test/portals/api.test.ts)
    {
      method: 'POST',
      path: () => '/api/terrain/analyze',
      body: () => ({
        field: shapeB().boundary,
        grid: {
          type: 'ElevationGrid',
          crs: 'EPSG:4326',
          origin: [8.539, 47.375],
          cellSize: 0.001,
          columns: 7,
          rows: 7,
          elevations: new Array(49).fill(100),
        },
      }),
    },
    {
      method: 'POST',
      path: () => '/api/path-plans/terrain',
      body: () => ({
        request: shapeB(),
        grid: {
          type: 'ElevationGrid',
          crs: 'EPSG:4326',
          origin: [8.539, 47.375],
          cellSize: 0.001,
          columns: 7,
          rows: 7,
          elevations: new Array(49).fill(100),
        },
      }),
    },
    {
      method: 'POST',
      path: () => '/api/path-plans/scenarios',
      body: () => ({ request: shapeB(), scenarios: [{ name: 'a', equipment: { widthMeters: 6 } }] }),
    },
    {
      method: 'POST',
      path: () => '/api/path-plans/sequence',
      body: () => ({ depot: [8.53, 47.37], fields: [{ id: 'a', request: shapeB() }] }),
    },
    { method: 'GET', path: () => `/api/companies/${a.companyId}/portals`, tenant: true },
    ...(['deere', 'trimble'] as const).map((portal) => ({
      method: 'POST',
      path: () => `/api/companies/${a.companyId}/portals/${portal}/push`,
      body: () => ({
        organizationId: 'o',
        fieldId: 'f',
        dryRun: true,
        plan: {
          boundary: shapeB().boundary,
          route: [
            {
              sequence: 0,
              type: 'Track',
              coordinates: [
                [8.541, 47.371],
                [8.543, 47.373],
              ],
              lengthMeters: 250,
            },
          ],
        },
      }),
      tenant: true,
    })),
  ];

  it('covers every route of the OpenAPI document', async () => {
    const doc = await (await A.app.request('/openapi.json')).json();
    // Route groups of issues 7 and 8 (by OpenAPI tag); jobs, terrain and portal routes have their own suites.
    const mine = new Set(['Quick Start', 'Account', 'API keys', 'Partner', 'Land', 'Plans', 'Machine profiles']);
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops as Record<string, { tags?: string[] }>)
        .filter(([, op]) => (op.tags ?? []).some((tag) => mine.has(tag)))
        .map(([m]) => `${m.toUpperCase()} ${p}`),
    );
    expect(documented.length).toBeGreaterThanOrEqual(35);
    const tested = new Set(
      routes.map(
        (r) =>
          `${r.method} ${r
            .path()
            .split('?')[0]
            .replace(/[0-9a-f]{8}-[0-9a-f-]{27}|[0-9a-f]{16}/g, '{id}')}`,
      ),
    );
    for (const op of documented) {
      if (op === 'POST /api/partner/launch/exchange') continue; // no key: tested above
      expect(tested, op).toContain(op.replace(/\{[A-Za-z]+\}/g, '{id}'));
    }
  });

  it.each(routes.map((r) => [`${r.method} ${r.path.toString().slice(6, 60)}`, r] as const))('%s', async (_name, r) => {
    const send = (key: string | null) => call(A, r.method, r.path(), r.body?.(), key);
    for (const [label, key] of [
      ['no key', null],
      ['wrong key', 'fk_0123456789abcdef_wrong'],
      ['revoked key', revokedKey],
    ] as const) {
      const res = await send(key);
      expect(res.status, label).toBe(401);
      expect(res.body.error.code, label).toBe('Unauthorized');
    }
    const nonAdmin = await send(nonAdminOtherKey);
    if (r.partner) {
      expect(nonAdmin.status, 'non-admin key').toBe(403);
      expect(nonAdmin.body.errorCode).toBe('NotAuthorized');
    } else if (r.tenant) {
      expect(nonAdmin.status, 'non-admin key without company access').toBe(404);
    } else {
      expect(nonAdmin.status, 'non-admin key on its own account').toBeLessThan(300);
    }
    const other = await call(B, r.method, r.path(), r.body?.(), B.adminKey);
    if (r.tenant) expect(other.status, "other company's key").toBe(404);
    // Partner ids are per partner: B either finds nothing of A's (404), creates its own record, or is told a name is missing.
    else if (r.partner) expect([200, 201, 400, 404], "other partner's key").toContain(other.status);
    const own = await send(r.partner || r.ownerIsAdmin ? A.adminKey : r.tenant ? a.userKey : A.adminKey);
    if (r.method === 'DELETE') expect(own.status, 'owner').toBe(200);
    else expect(own.status, 'owner').toBeLessThan(300);
  });
});

describe('session secret from the environment', () => {
  it('accepts sessions signed with the configured secret and rejects others and expired ones', async () => {
    const { SignJWT } = await import('jose');
    const { createApp, createRateLimiter } = await import('@furrow/api');
    const secret = 'a-configured-secret-of-at-least-32-chars';
    const app = createApp({ store, jwtSecret: secret, limiter: createRateLimiter({ points: 100, windowSeconds: 60 }) });
    const sign = (key: string) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(a.endUserId)
        .setIssuer('furrow')
        .setAudience('furrow-web')
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(key));
    const ok = await app.request('/api/user/current', { headers: { Authorization: `Bearer ${await sign(secret)}` } });
    expect(ok.status).toBe(200);
    expect((await ok.json()).user.userId).toBe(a.endUserId);
    const forged = await app.request('/api/user/current', {
      headers: { Authorization: `Bearer ${await sign('another-secret-of-at-least-32-chars!!')}` },
    });
    expect(forged.status).toBe(401);
    expect((await forged.json()).error.message).toMatch(/invalid/);
    const stale = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(a.endUserId)
      .setIssuer('furrow')
      .setAudience('furrow-web')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(secret));
    const expired = await app.request('/api/user/current', { headers: { Authorization: `Bearer ${stale}` } });
    expect(expired.status).toBe(401);
    expect((await expired.json()).error.message).toMatch(/session has expired/);
  });
});
