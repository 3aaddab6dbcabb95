/** POST /api/path-plans/traffic (and /geojson) through `app.request()` with the real planner in process. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRoute } from '@furrow/core';
import { inProcessPlanner, openStore, type Store } from '@furrow/api';
import { jsonInit, makeApp, square, type TestApp } from './support.js';

let store: Store;
let t: TestApp;

beforeAll(async () => {
  store = await openStore('memory:');
  t = await makeApp(store, { credits: 100, planner: inProcessPlanner(planRoute as never) });
});
afterAll(async () => {
  await store?.close();
});

const body = (sprayerMeters = 36, over: Record<string, unknown> = {}) => ({
  field: square(8.54, 47.37, 0.004),
  traffic: { gaugeMeters: 3, tyreWidthMeters: 0.6, compareIndependent: false, ...over },
  operations: [
    { kind: 'drill', machine: { widthMeters: 12 } },
    { kind: 'sprayer', machine: { widthMeters: sprayerMeters, turnRadiusMeters: 9 } },
  ],
});

const call = async (path: string, b: unknown) => {
  const res = await t.app.request(path, jsonInit('POST', t.adminKey, b));
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as any };
};

describe('POST /api/path-plans/traffic', () => {
  it('plans the drill and the sprayer on one grid, with tramline passes and the trafficked share', async () => {
    const r = await call('/api/path-plans/traffic', body());
    expect(r.status).toBe(200);
    expect(r.body.operations).toHaveLength(2);
    expect(r.body.tramlineMultiple).toBe(3);
    expect(r.body.operations[0].tramlinePasses.length).toBeGreaterThan(2);
    expect(r.body.system.traffickedShare).toBeGreaterThan(0.02);
    expect(r.body.system.traffickedShare).toBeLessThan(0.3);
    expect(r.body.operations[1].plan.heading.degrees).toBeCloseTo(r.body.referenceLine.headingDegrees, 6);
  });

  it('answers 422 naming the sprayer width and the widths that fit', async () => {
    const r = await call('/api/path-plans/traffic', body(30));
    expect(r.status).toBe(422);
    expect(r.body.error.details[0].path).toBe('operations[1].machine.widthMeters');
    expect(r.body.error.details[0].message).toContain('24 or 36 m');
  });

  it('answers 422 for tyres as wide as the gauge', async () => {
    const r = await call('/api/path-plans/traffic', body(36, { tyreWidthMeters: 2.95 }));
    expect(r.status).toBe(422);
    expect(r.body.error.details[0].path).toBe('traffic.tyreWidthMeters');
  });

  it('returns GeoJSON with the shared guidance line, lanes and tramline passes', async () => {
    const r = await call('/api/path-plans/traffic/geojson', body());
    expect(r.status).toBe(200);
    expect(r.type).toContain('application/geo+json');
    const types = new Set(r.body.features.map((f: any) => f.properties.type));
    for (const ty of ['GuidanceLine', 'Lane', 'TramlinePass', 'Track']) expect(types.has(ty)).toBe(true);
    expect(r.body.features.filter((f: any) => f.properties.type === 'GuidanceLine')).toHaveLength(1);
  });

  it('is documented in the OpenAPI document as an extension', async () => {
    const res = await t.app.request('/openapi.json');
    const doc = (await res.json()) as any;
    expect(doc.paths['/api/path-plans/traffic'].post.description).toContain('beyond the 1.5.0 contract');
  });
});
