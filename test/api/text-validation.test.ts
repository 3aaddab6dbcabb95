/**
 * Every stored string is storable text: a NUL or invalid UTF-8 anywhere in a JSON body is a 400
 * naming the field (not a 500 from the database, not a silent U+FFFD), on every route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '@furrow/api';
import { jsonInit, makeApp, rawInit, square, type TestApp } from './support.js';

let store: Store;
let A: TestApp;
let farmId: string;
let fieldId: string;
let boundaryId: string;

async function call(method: string, path: string, body?: unknown) {
  const res = await A.app.request(path, jsonInit(method, A.adminKey, body));
  return { status: res.status, body: (await res.json()) as any };
}

/** A JSON body whose `name` member holds raw bytes that are not UTF-8. */
function rawBody(prefix: string, badBytes: number[], suffix: string): Uint8Array {
  const enc = new TextEncoder();
  return new Uint8Array([...enc.encode(prefix), ...badBytes, ...enc.encode(suffix)]);
}

beforeAll(async () => {
  store = await openStore('memory:');
  A = await makeApp(store);
  await call('POST', '/api/partner/users', { partnerUserId: 'text-user', firstName: 'T', lastName: 'U' });
  const company = await call('POST', '/api/partner/companies', {
    partnerCompanyId: 'text-co',
    name: 'Text farms',
    countryCode: 'DE',
  });
  const grower = await call('POST', `/api/companies/${company.body.companyId}/growers`, { name: 'Grower' });
  farmId = (await call('POST', `/api/growers/${grower.body.growerId}/farms`, { name: 'Farm' })).body.farmId;
  const field = await call('POST', '/api/fields/save', { farmId, name: 'North', boundary: square().coordinates });
  fieldId = field.body.field.fieldId;
  boundaryId = field.body.vBoundary.boundaryId;
});
afterAll(async () => {
  await store?.close();
});

describe('NUL characters', () => {
  const nul = 'a\u0000b';
  const cases: [string, string, () => unknown, string][] = [
    ['fields/save name', '/api/fields/save', () => ({ farmId, name: nul, boundary: square().coordinates }), 'name'],
    ['grower name', '/api/companies/{companyId}/growers', () => ({ name: nul }), 'name'],
    [
      'partnerCompanyId',
      '/api/partner/companies',
      () => ({ partnerCompanyId: nul, name: 'x', countryCode: 'DE' }),
      'partnerCompanyId',
    ],
    ['api-key name', '/api/api-keys', () => ({ name: nul }), 'name'],
    [
      'partnerUserId',
      '/api/partner/users',
      () => ({ partnerUserId: nul, firstName: 'F', lastName: 'L' }),
      'partnerUserId',
    ],
    [
      'firstName',
      '/api/partner/users',
      () => ({ partnerUserId: 'nul-first', firstName: nul, lastName: 'L' }),
      'firstName',
    ],
    [
      'a stored plan request (obstacle name)',
      '/api/boundaries/{boundaryId}/plans',
      () => ({
        request: { equipment: { widthMeters: 6 }, obstacles: [{ geometry: square(8.541, 47.371, 0.0005), name: nul }] },
      }),
      'request.obstacles[0].name',
    ],
  ];
  it.each(cases)('%s → 400 naming the field', async (_label, path, body, field) => {
    const companies = await call('GET', '/api/user/current');
    const url = path.replace('{companyId}', companies.body.companies[0].companyId).replace('{boundaryId}', boundaryId);
    const res = await call('POST', url, body());
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('ValidationFailed');
    expect(res.body.error.details[0]).toEqual({ path: field, message: 'must not contain a NUL character (U+0000)' });
  });

  it('accepts other text, U+FFFD and emoji included', async () => {
    const res = await call('POST', '/api/fields/save', {
      farmId,
      name: 'Süd \uFFFD 🚜',
      boundary: square().coordinates,
    });
    expect(res.status).toBe(201);
    expect(res.body.field.name).toBe('Süd \uFFFD 🚜');
  });
});

describe('invalid UTF-8', () => {
  it('refuses bytes that are not UTF-8 (400 naming the field) instead of storing U+FFFD', async () => {
    const body = rawBody(
      `{"farmId":"${farmId}","name":"bad `,
      [0xc3, 0x28],
      `","boundary":${JSON.stringify(square().coordinates)}}`,
    );
    const res = await A.app.request('/api/fields/save', rawInit('POST', A.adminKey, body));
    expect(res.status).toBe(400);
    const json = (await res.json()) as any;
    expect(json.error.details[0]).toEqual({
      path: 'name',
      message: 'is not valid UTF-8 text (send the body encoded as UTF-8)',
    });
    const fields = await call('GET', `/api/farms/${farmId}/fields`);
    expect(fields.body.items.some((f: { name: string }) => f.name.startsWith('bad'))).toBe(false);
  });

  it('refuses a lone surrogate escape', async () => {
    const res = await A.app.request('/api/api-keys', rawInit('POST', A.adminKey, '{"name":"x\\ud800y"}'));
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.details[0].path).toBe('name');
  });
});

describe('names read from imported files', () => {
  it('refuses a boundary name holding a NUL (400 naming it) and stores nothing', async () => {
    const file = JSON.stringify({ type: 'Feature', properties: { name: 'x\u0000y' }, geometry: square() });
    const res = await A.app.request(
      `/api/fields/${fieldId}/boundaries/import?filename=b.geojson`,
      rawInit('POST', A.adminKey, file, 'application/geo+json'),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.details[0].path).toBe('boundaries[0].name');
    expect((await call('GET', `/api/fields/${fieldId}/boundaries`)).body.total).toBe(1);
  });
});
