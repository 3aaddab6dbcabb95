/** Plan JSON on the wire: gzip for clients that accept it; a stored plan's ETag answers 304. */
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessPlanner, openStore, type Store } from '@furrow/api';
import { call, jsonInit, makeApp, shapeA, square, type TestApp } from './support.js';

let store: Store;
let t: TestApp;

beforeAll(async () => {
  store = await openStore('memory:');
  // The real planner: its plans are the size the web app fetches.
  t = await makeApp(store, { planner: inProcessPlanner() });
});
afterAll(async () => {
  await store?.close();
});

describe('plan JSON transfer', () => {
  it('gzips a direct plan for a client that accepts gzip, and sends it plain otherwise', async () => {
    const plain = await t.app.request('/api/path-plans/direct/geojson', jsonInit('POST', t.adminKey, shapeA()));
    expect(plain.status).toBe(200);
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(1024);
    const zipped = await t.app.request(
      '/api/path-plans/direct/geojson',
      jsonInit('POST', t.adminKey, shapeA(), { 'Accept-Encoding': 'gzip, br' }),
    );
    expect(zipped.headers.get('Content-Encoding')).toBe('gzip');
    expect(zipped.headers.get('Vary')).toMatch(/Accept-Encoding/i);
    const bytes = Buffer.from(await zipped.arrayBuffer());
    expect(bytes.length).toBeLessThan(text.length);
    expect(JSON.parse(gunzipSync(bytes).toString()).type).toBe('FeatureCollection');
  });

  it('tags a stored plan with an ETag and answers a matching If-None-Match with 304', async () => {
    const company = await call(t, 'POST', '/api/partner/companies', {
      partnerCompanyId: 'transfer-co',
      name: 'Transfer farms',
      countryCode: 'DE',
    });
    expect(company.status).toBe(201);
    const grower = await call(t, 'POST', `/api/companies/${company.body.companyId}/growers`, { name: 'G' });
    const farm = await call(t, 'POST', `/api/growers/${grower.body.growerId}/farms`, { name: 'F' });
    const field = await call(t, 'POST', '/api/fields/save', {
      farmId: farm.body.farmId,
      name: 'North',
      boundary: square().coordinates,
    });
    expect(field.status).toBe(201);
    const stored = await call(t, 'POST', `/api/boundaries/${field.body.vBoundary.boundaryId}/plans`, {
      request: { equipment: { widthMeters: 6 }, exteriorHeadlandPasses: 1 },
    });
    expect(stored.status).toBe(201);
    const planId: string = stored.body.planId;
    const first = await t.app.request(`/api/plans/${planId}/export?format=geojson`, jsonInit('GET', t.adminKey));
    expect(first.status).toBe(200);
    const tag = first.headers.get('ETag');
    expect(tag).toMatch(/^"[^"]+"$/);
    expect(first.headers.get('Cache-Control')).toBe('private, no-cache');
    const again = await t.app.request(
      `/api/plans/${planId}/export?format=geojson`,
      jsonInit('GET', t.adminKey, undefined, { 'If-None-Match': tag! }),
    );
    expect(again.status).toBe(304);
  });
});
