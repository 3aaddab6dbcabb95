/** POST /api/path-plans/fleet (an extension beyond the 1.5.0 contract) through `app.request()`. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '@furrow/api';
import { call, makeApp, square, type TestApp } from './support.js';

let store: Store;
let t: TestApp;

beforeAll(async () => {
  store = await openStore('memory:');
  t = await makeApp(store);
}, 600_000);
afterAll(async () => {
  await store?.close();
});

const field = square(8.54, 47.37, 0.0015);
const machine = (id: string, widthMeters = 6) => ({ id, widthMeters, turnRadiusMeters: 6 });

describe('POST /api/path-plans/fleet', () => {
  it('plans two machines: timed routes, waits, makespan and its lower bound', async () => {
    const { status, body } = await call(t, 'POST', '/api/path-plans/fleet', {
      field,
      fleet: [machine('a'), machine('b')],
    });
    expect(status).toBe(200);
    expect(body.version).toBe('1.5.0');
    expect(body.machines.map((m: { machineId: string }) => m.machineId)).toEqual(['a', 'b']);
    for (const m of body.machines) {
      expect(m.route.length).toBeGreaterThan(0);
      expect(m.route.every((s: { startSeconds: number; endSeconds: number }) => s.endSeconds >= s.startSeconds)).toBe(
        true,
      );
      expect(Array.isArray(m.waits)).toBe(true);
    }
    expect(body.fleet.makespanSeconds).toBe(
      Math.max(...body.machines.map((m: { finishSeconds: number }) => m.finishSeconds)),
    );
    expect(body.fleet.lowerBoundSeconds).toBeLessThanOrEqual(body.fleet.makespanSeconds);
  }, 120_000);

  it('answers GeoJSON with machineId and times on every route feature', async () => {
    const res = await t.app.request('/api/path-plans/fleet/geojson', {
      method: 'POST',
      headers: { 'X-API-KEY': t.adminKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ field, fleet: [machine('a'), machine('b')] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('application/geo+json');
    const fc = await res.json();
    const lines = fc.features.filter((f: { geometry: { type: string } }) => f.geometry.type === 'LineString');
    expect(lines.length).toBeGreaterThan(0);
    for (const f of lines) {
      expect(['a', 'b']).toContain(f.properties.machineId);
      expect(typeof f.properties.startSeconds).toBe('number');
      expect(typeof f.properties.endSeconds).toBe('number');
    }
  }, 120_000);

  it.each([
    ['an empty fleet', [], 'fleet', /empty/],
    ['duplicate ids', [machine('a'), machine('a')], 'fleet[1].id', /duplicate/],
    ['a width that is not a multiple', [machine('a', 6), machine('b', 9)], 'fleet[1].widthMeters', /multiple/],
    ['21 machines', Array.from({ length: 21 }, (_, i) => machine(`m${i}`)), 'fleet', /at most 20/],
  ])('%s: 422 naming the field, no credit taken', async (_what, fleet, path, message) => {
    const before = await call(t, 'GET', '/api/user/current');
    const { status, body } = await call(t, 'POST', '/api/path-plans/fleet', { field, fleet });
    expect(status).toBe(422);
    expect(body.error.code).toBe('InvalidFleet');
    expect(body.error.details[0].path).toBe(path);
    expect(body.error.message).toMatch(message);
    const after = await call(t, 'GET', '/api/user/current');
    expect(JSON.stringify(after.body)).toBe(JSON.stringify(before.body));
  });

  it('is in the OpenAPI document', async () => {
    const { body } = await call(t, 'GET', '/openapi.json');
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining(['/api/path-plans/fleet', '/api/path-plans/fleet/geojson']),
    );
    expect(body.components.schemas.FleetRequest.properties.fleet).toBeDefined();
  });
});
