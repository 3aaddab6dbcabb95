/**
 * Personal API keys (`/api/user/api-keys`), what the web app's profile page manages: a launch
 * session creates, lists and revokes its own user's keys; the secret comes back once and is
 * stored only as a digest; the key acts as that user (never as a partner admin); keys of other
 * users — another end user, or the partner that provisioned this one — are 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret, openStore, type Store } from '@furrow/api';
import { jsonInit, makeApp, type TestApp } from './support.js';

let store: Store;
let t: TestApp;

async function call(method: string, path: string, auth: { key?: string; bearer?: string }, body?: unknown) {
  const headers: Record<string, string> = auth.bearer ? { Authorization: `Bearer ${auth.bearer}` } : {};
  const res = await t.app.request(path, jsonInit(method, auth.key, body, headers));
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A provisioned end user with a company, and a launch session of that user. */
async function endUser(tag: string): Promise<{ userId: string; companyId: string; session: string }> {
  const admin = { key: t.adminKey };
  const user = await call('POST', '/api/partner/users', admin, {
    partnerUserId: `${tag}-user`,
    firstName: 'End',
    lastName: tag,
  });
  expect(user.status).toBe(201);
  const company = await call('POST', '/api/partner/companies', admin, {
    partnerCompanyId: `${tag}-co`,
    name: `${tag} farms`,
    countryCode: 'DE',
  });
  expect(
    (
      await call('POST', '/api/partner/company-accesses', admin, {
        partnerUserId: `${tag}-user`,
        partnerCompanyId: `${tag}-co`,
      })
    ).status,
  ).toBe(201);
  const launch = await call('POST', '/api/partner/launch', admin, { userId: `${tag}-user` });
  expect(launch.status).toBe(201);
  const exchange = await call(
    'POST',
    '/api/partner/launch/exchange',
    {},
    { code: launch.body.code, userId: launch.body.userId },
  );
  expect(exchange.status).toBe(200);
  return { userId: user.body.userId, companyId: company.body.companyId, session: exchange.body.token };
}

beforeAll(async () => {
  store = await openStore('memory:');
  t = await makeApp(store);
});
afterAll(async () => {
  await store.close();
});

describe('personal API keys of the signed-in user', () => {
  it('a launch session creates a key (shown once, stored as a digest) that acts as its user', async () => {
    const u = await endUser('alice');
    const made = await call('POST', '/api/user/api-keys', { bearer: u.session }, { name: 'tractor terminal' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ userId: u.userId, name: 'tractor terminal', expiresAt: null });
    expect(made.body.apiKey).toMatch(/^fk_/);

    // Stored hashed: the row holds the digest, never the secret.
    const row = await store.findKeyByHash(hashSecret(made.body.apiKey));
    expect(row?.keyId).toBe(made.body.keyId);
    expect(row?.partnerAdmin).toBe(false);

    // The key is the user: its companies, no partner rights.
    const current = await call('GET', '/api/user/current', { key: made.body.apiKey });
    expect(current.status).toBe(200);
    expect(current.body.user.userId).toBe(u.userId);
    expect(current.body.key).toMatchObject({ keyId: made.body.keyId, partnerAdmin: false, via: 'api-key' });
    expect(current.body.companies.map((c: { companyId: string }) => c.companyId)).toEqual([u.companyId]);
    expect(
      (
        await call(
          'POST',
          '/api/partner/users',
          { key: made.body.apiKey },
          { partnerUserId: 'x', firstName: 'a', lastName: 'b' },
        )
      ).status,
    ).toBe(403);

    // Listed without its secret; shown once means no later answer carries it.
    const listed = await call('GET', '/api/user/api-keys', { bearer: u.session });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((k: { keyId: string }) => k.keyId)).toEqual([made.body.keyId]);
    const secret = made.body.apiKey.slice(made.body.apiKey.indexOf('_', 3) + 1); // fk_<keyId>_<secret>
    expect(JSON.stringify(listed.body)).not.toContain(secret);
  });

  it('revokes its own key; the key then answers 401', async () => {
    const u = await endUser('bob');
    const made = await call('POST', '/api/user/api-keys', { bearer: u.session }, { name: 'to revoke' });
    expect((await call('GET', '/api/user/current', { key: made.body.apiKey })).status).toBe(200);
    const revoked = await call('DELETE', `/api/user/api-keys/${made.body.keyId}`, { bearer: u.session });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    expect((await call('GET', '/api/user/current', { key: made.body.apiKey })).status).toBe(401);
  });

  it("another user's key is 404 to list, revoke and mistake for one's own", async () => {
    const carol = await endUser('carol');
    const dave = await endUser('dave');
    const carols = await call('POST', '/api/user/api-keys', { bearer: carol.session }, { name: 'carol' });
    const daves = await call('GET', '/api/user/api-keys', { bearer: dave.session });
    expect(daves.body.items.map((k: { keyId: string }) => k.keyId)).not.toContain(carols.body.keyId);
    const del = await call('DELETE', `/api/user/api-keys/${carols.body.keyId}`, { bearer: dave.session });
    expect(del.status).toBe(404);
    expect(del.body.error.code).toBe('NotFound');
    // Still working: dave's attempt did nothing.
    expect((await call('GET', '/api/user/current', { key: carols.body.apiKey })).status).toBe(200);
    // Nor may the provisioning partner revoke it through the personal endpoint, or see it there.
    expect((await call('DELETE', `/api/user/api-keys/${carols.body.keyId}`, { key: t.adminKey })).status).toBe(404);
    const partnerOwn = await call('GET', '/api/user/api-keys', { key: t.adminKey });
    expect(partnerOwn.body.items.every((k: { userId: string }) => k.userId === t.adminUserId)).toBe(true);
  });

  it("an end user's key cannot reach the partner's keys either", async () => {
    const erin = await endUser('erin');
    const partnerKey = await call('POST', '/api/user/api-keys', { key: t.adminKey }, { name: 'partner personal' });
    expect(partnerKey.status).toBe(201);
    // Made by a partner admin, the personal key still carries no partner rights.
    expect((await call('GET', '/api/user/current', { key: partnerKey.body.apiKey })).body.key.partnerAdmin).toBe(false);
    expect((await call('DELETE', `/api/user/api-keys/${partnerKey.body.keyId}`, { bearer: erin.session })).status).toBe(
      404,
    );
  });

  it('validates the request: a name, no partnerUserId, a future expiry; needs a credential', async () => {
    const u = await endUser('frank');
    const bad = await call('POST', '/api/user/api-keys', { bearer: u.session }, { name: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('name');
    expect(
      (await call('POST', '/api/user/api-keys', { bearer: u.session }, { name: 'x', partnerUserId: 'someone' })).status,
    ).toBe(400);
    const past = await call(
      'POST',
      '/api/user/api-keys',
      { bearer: u.session },
      { name: 'x', expiresAt: new Date(Date.now() - 1000).toISOString() },
    );
    expect(past.status).toBe(400);
    expect((await call('GET', '/api/user/api-keys', {})).status).toBe(401);
    expect((await call('POST', '/api/user/api-keys', {}, { name: 'x' })).status).toBe(401);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await (await t.app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths['/api/user/api-keys']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/user/api-keys/{keyId}'])).toEqual(['delete']);
  });
});
