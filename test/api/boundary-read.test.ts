/** POST /api/boundaries/read: a file's boundaries through the format packages, nothing stored. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '@furrow/api';
import { call, makeApp, rawInit, readCorpusField, type TestApp } from './support.js';

let store: Store;
let t: TestApp;

beforeAll(async () => {
  store = await openStore('memory:');
  t = await makeApp(store);
});
afterAll(async () => {
  await store?.close();
});

describe('reading a boundary file without storing it', () => {
  it('returns the polygons of GeoJSON and of WKT, with the same ring', async () => {
    const feature = readCorpusField('be-wal-000');
    const gj = await t.app.request(
      '/api/boundaries/read?filename=field.geojson',
      rawInit('POST', t.adminKey, JSON.stringify(feature), 'application/octet-stream'),
    );
    expect(gj.status).toBe(200);
    const items = ((await gj.json()) as { items: { geometry: { type: string; coordinates: number[][][] } }[] }).items;
    expect(items).toHaveLength(1);
    expect(items[0].geometry.type).toBe('Polygon');
    const ring = items[0].geometry.coordinates[0];
    const wkt = `POLYGON((${ring.map(([x, y]) => `${x} ${y}`).join(', ')}))`;
    const fromWkt = await t.app.request(
      '/api/boundaries/read?filename=f.wkt',
      rawInit('POST', t.adminKey, wkt, 'text/plain'),
    );
    expect(fromWkt.status).toBe(200);
    const wktItems = ((await fromWkt.json()) as { items: { geometry: { coordinates: number[][][] } }[] }).items;
    expect(wktItems[0].geometry.coordinates[0]).toHaveLength(ring.length);
    // Nothing was stored: the caller still has no company with fields.
    expect((await call(t, 'GET', '/api/user/current')).body.companies ?? []).toEqual([]);
  });

  it('says in words why a file is no boundary (422), and asks for a body (400)', async () => {
    const bad = await t.app.request(
      '/api/boundaries/read?filename=broken.kml',
      rawInit('POST', t.adminKey, '<kml><Document><Placemark><Polygon>', 'application/octet-stream'),
    );
    expect(bad.status).toBe(422);
    const body = (await bad.json()) as { error?: { message?: string }; message?: string };
    expect(body.error?.message ?? body.message).toMatch(/[a-z]{3,} .*[a-z]{3,}/);
    const empty = await t.app.request(
      '/api/boundaries/read',
      rawInit('POST', t.adminKey, '', 'application/octet-stream'),
    );
    expect(empty.status).toBe(400);
  });

  it('tells what a plan costs with the balances', async () => {
    const credits = await call(t, 'GET', '/api/credits');
    expect(credits.status).toBe(200);
    expect(credits.body.planCostCredits).toBe(1);
  });
});
