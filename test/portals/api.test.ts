/** Terrain, scenarios, sequencing and portal pushes through the HTTP API (`app.request()`): terrain, scenarios, sequencing, portal pushes. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessPlanner, openStore, type Store } from '@furrow/api';
import { planRoute } from '@furrow/core';
import { jsonInit, makeApp, shapeA, square, type TestApp } from '../api/support.js';
import { DEERE_CLIENT, DeereStandIn } from './deere-standin.js';
import { TRIMBLE_CLIENT, TrimbleStandIn } from './trimble-standin.js';

let store: Store;
let t: TestApp;
const deere = new DeereStandIn();
const trimble = new TrimbleStandIn();
let companyId = '';
let otherCompanyId = '';
let abOnlyCompanyId = '';

const call = async (method: string, path: string, body?: unknown, key = t.adminKey) => {
  const res = await t.app.request(path, jsonInit(method, key, body));
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

beforeAll(async () => {
  await deere.start();
  await trimble.start();
  process.env.FURROW_PORTALS = JSON.stringify({}); // replaced below once the company exists
  store = await openStore('memory:');
  t = await makeApp(store, { credits: 20 });
  const co = await call('POST', '/api/partner/companies', {
    partnerCompanyId: 'p11',
    name: 'Portal farms',
    countryCode: 'DE',
  });
  companyId = co.body.companyId;
  otherCompanyId = (
    await call('POST', '/api/partner/companies', {
      partnerCompanyId: 'p11-other',
      name: 'No portals',
      countryCode: 'DE',
    })
  ).body.companyId;
  abOnlyCompanyId = (
    await call('POST', '/api/partner/companies', {
      partnerCompanyId: 'p11-ab-only',
      name: 'AB lines only',
      countryCode: 'DE',
    })
  ).body.companyId;
  process.env.FURROW_PORTALS = JSON.stringify({
    [abOnlyCompanyId]: {
      deere: {
        baseUrl: deere.baseUrl,
        guidanceCurves: false,
        oauth: {
          tokenUrl: deere.tokenUrl,
          clientId: DEERE_CLIENT.id,
          clientSecret: DEERE_CLIENT.secret,
          grant: { type: 'refresh_token', refreshToken: DEERE_CLIENT.refreshToken },
        },
      },
    },
    [companyId]: {
      deere: {
        baseUrl: deere.baseUrl,
        oauth: {
          tokenUrl: deere.tokenUrl,
          clientId: DEERE_CLIENT.id,
          clientSecret: DEERE_CLIENT.secret,
          grant: { type: 'refresh_token', refreshToken: DEERE_CLIENT.refreshToken },
        },
        retry: { maxRetries: 1, baseDelayMs: 1 },
      },
      trimble: {
        baseUrl: trimble.baseUrl,
        oauth: {
          tokenUrl: trimble.tokenUrl,
          clientId: TRIMBLE_CLIENT.id,
          clientSecret: TRIMBLE_CLIENT.secret,
          grant: { type: 'client_credentials', scope: TRIMBLE_CLIENT.name },
        },
      },
    },
  });
});
afterAll(async () => {
  delete process.env.FURROW_PORTALS;
  await store?.close();
  await deere.stop();
  await trimble.stop();
});

describe('POST /api/terrain/analyze', () => {
  const field = square(8.54, 47.37, 0.004);
  /** A lon/lat grid over the square rising `grade` m per m towards the north. */
  const grid = (grade: number) => {
    const cell = 0.0002,
      cols = 30,
      rows = 30,
      north = 47.3765,
      west = 8.5385;
    const elevations: number[][] = [];
    for (let r = 0; r < rows; r++)
      elevations.push(Array.from({ length: cols }, () => 400 + grade * (north - (r + 0.5) * cell - 47.37) * 111_200));
    return {
      type: 'ElevationGrid',
      crs: 'EPSG:4326',
      origin: [west, north],
      cellSize: cell,
      columns: cols,
      rows,
      elevations,
    };
  };

  it('returns the contour heading (east-west on a north-rising plane) and the key contour', async () => {
    const r = await call('POST', '/api/terrain/analyze', { field, grid: grid(0.04), keyContour: true });
    expect(r.status).toBe(200);
    const gap = Math.abs(r.body.best.headingDegrees - 90);
    expect(Math.min(gap, 180 - gap)).toBeLessThan(0.5);
    expect(r.body.byHeading).toHaveLength(36);
    const lats = (r.body.keyContour.coordinates as [number, number][]).map((p) => p[1]);
    expect(Math.max(...lats) - Math.min(...lats)).toBeLessThan(1e-6); // an east-west line
    const withTracks = await call('POST', '/api/terrain/analyze', {
      field,
      grid: grid(0.04),
      contourTracks: { widthMeters: 24, insetMeters: 12 },
    });
    expect(withTracks.status).toBe(200);
    const tracks = withTracks.body.contourTracks.tracks as { offsetIndex: number; coordinates: [number, number][] }[];
    // The square is ~445 m north-south: about (445 − 2·12) / 24 ≈ 17 east-west tracks.
    expect(tracks.length).toBeGreaterThan(14);
    for (const t of tracks) {
      const ys = t.coordinates.map((p) => p[1]);
      expect(Math.max(...ys) - Math.min(...ys)).toBeLessThan(1e-6);
    }
  });

  it('POST /api/path-plans/terrain plans with the contour heading and reports the slope driven', async () => {
    const request = shapeA({ field, tracks: undefined });
    delete (request as Record<string, unknown>).tracks;
    const r = await call('POST', '/api/path-plans/terrain', { request, grid: grid(0.04) });
    expect(r.status).toBe(200);
    expect(r.body.terrain.headingSource).toBe('terrain');
    // The stub planner drives the requested heading: east-west, along the contour.
    expect(Math.abs(r.body.heading.degrees - 90)).toBeLessThan(0.5);
    expect(r.body.terrain.slope.passes.length).toBeGreaterThan(0);
    expect(r.body.terrain.slope.route.lengthMeters).toBeGreaterThan(0);
    const fixed = await call('POST', '/api/path-plans/terrain', { request: shapeA({ field }), grid: grid(0.04) });
    expect(fixed.body.terrain.headingSource).toBe('preferred');
    const bad = await call('POST', '/api/path-plans/terrain', { request, grid: { ...grid(0.04), crs: 'EPSG:1' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/not supported/);
  });

  it('minimizeCrossSlope turns it north-south; bad grids are 400 naming the member', async () => {
    const r = await call('POST', '/api/terrain/analyze', { field, grid: grid(0.04), objective: 'minimizeCrossSlope' });
    expect(Math.min(r.body.best.headingDegrees, 180 - r.body.best.headingDegrees)).toBeLessThan(0.5);
    const bad = await call('POST', '/api/terrain/analyze', { field, grid: { ...grid(0.04), cellSize: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/cellSize/);
    const neither = await call('POST', '/api/terrain/analyze', { field });
    expect(neither.status).toBe(400);
  });
});

describe('POST /api/path-plans/scenarios and /sequence', () => {
  it('plans each scenario (one credit each) and ranks them', async () => {
    const before = (await call('GET', '/api/user/current')).body;
    const r = await call('POST', '/api/path-plans/scenarios', {
      request: shapeA(),
      scenarios: [
        { name: 'two passes', equipment: { widthMeters: 6 } },
        { name: 'one pass', equipment: { widthMeters: 12 }, headlandPasses: 1 },
        { name: 'same as first', equipment: { widthMeters: 6 } },
      ],
      objective: 'distance',
    });
    expect(r.status).toBe(200);
    expect(r.body.results.map((x: { name: string; ok: boolean }) => [x.name, x.ok])).toEqual([
      ['two passes', true],
      ['one pass', true],
      ['same as first', true],
    ]);
    // The stub planner reports one turn per headland pass: the merged request reached it.
    expect(r.body.results[1].kpis.turns).toBe(1);
    expect(r.body.results[1].kpis.widthMeters).toBe(12);
    expect(r.body.best).toBe('two passes'); // equal distances: given order
    const after = (await call('GET', '/api/user/current')).body;
    expect(before.credits.balance - after.credits.balance).toBe(3);
  });

  it('sequences two fields from a depot: the nearer first, entered at its near end', async () => {
    const near = square(8.54, 47.37, 0.002),
      far = square(8.6, 47.37, 0.002);
    const r = await call('POST', '/api/path-plans/sequence', {
      depot: [8.53, 47.37],
      fields: [
        { id: 'far', request: shapeA({ field: far }) },
        { id: 'near', request: shapeA({ field: near }) },
      ],
      objective: 'distance',
    });
    expect(r.status).toBe(200);
    expect(r.body.stops.map((s: { fieldId: string }) => s.fieldId)).toEqual(['near', 'far']);
    expect(r.body.stops[0].visit.entry).toEqual([8.54, 47.37]); // the stub's track starts at ring[0]
    expect(r.body.legs).toHaveLength(3);
    expect(r.body.fieldPlans.near.metrics.timeSeconds).toBe(50);
    expect(r.body.fieldPlans.near.startPointNodeIndex).toBeNull();
    expect(r.body.method).toBe('exact');
    const dup = await call('POST', '/api/path-plans/sequence', {
      depot: [8.53, 47.37],
      fields: [
        { id: 'a', request: shapeA() },
        { id: 'a', request: shapeA() },
      ],
    });
    expect(dup.status).toBe(400);
  });
});

/**
 * A planner stand-in for entry choice: two tracks along the south (ring[0] → ring[1]) and north
 * (ring[3] → ring[2]) edges of a square; routeOptions.startPointNodeIndex picks the node the route
 * starts at (node 2i / 2i + 1 = track i's ends), the other track follows.
 */
function cornerPlanner(request: any): Record<string, unknown> {
  const ring = request.field.coordinates[0] as [number, number][];
  const nodes = [ring[0], ring[1], ring[3], ring[2]];
  const start = request.routeOptions?.startPointNodeIndex ?? 0;
  const track = start >> 1,
    other = 1 - track;
  const a = nodes[start],
    b = nodes[start ^ 1];
  // Continue on the other track from its end nearer to b (same side of the square).
  const oa = nodes[2 * other + (start & 1 ? 0 : 1)],
    ob = nodes[2 * other + (start & 1 ? 1 : 0)];
  return {
    version: 'corner',
    metrics: {
      fieldAreaSquareMeters: 1,
      workableAreaSquareMeters: 1,
      distanceMeters: 3,
      workingDistanceMeters: 2,
      nonWorkingDistanceMeters: 1,
      timeSeconds: 100,
      overlapSquareMeters: 0,
      overlapRatio: 0,
      uncoveredSquareMeters: 0,
      uncoveredRatio: 0,
      turns: 1,
    },
    heading: { degrees: 90, source: 'search' },
    route: [
      { sequence: 0, type: 'Track', coordinates: [a, b], lengthMeters: 1 },
      { sequence: 1, type: 'Turn', coordinates: [b, oa], lengthMeters: 1 },
      { sequence: 2, type: 'Track', coordinates: [oa, ob], lengthMeters: 1 },
    ],
    boundary: request.field,
    warnings: [],
    nodes: nodes.map((position, index) => ({
      index,
      trackIndex: index >> 1,
      end: index & 1 ? 'end' : 'start',
      position,
    })),
  };
}

describe('sequencing with corner entry candidates', () => {
  it('re-plans from the corners so the field is entered next to the depot and left next to the end', async () => {
    const c = await makeApp(store, { credits: 50, planner: inProcessPlanner(cornerPlanner as never) });
    const field = square(8.54, 47.37, 0.004); // ring: SW, SE, NE, NW
    const body = {
      depot: [8.546, 47.3695],
      end: [8.546, 47.3745],
      fields: [{ id: 'sq', request: shapeA({ field }) }],
      objective: 'distance',
    };
    const planned = await c.app.request('/api/path-plans/sequence', jsonInit('POST', c.adminKey, body));
    const withCorners = await c.app.request(
      '/api/path-plans/sequence',
      jsonInit('POST', c.adminKey, { ...body, entryCandidates: 'corners' }),
    );
    const p = (await planned.json()) as Record<string, any>,
      w = (await withCorners.json()) as Record<string, any>;
    expect(planned.status).toBe(200);
    expect(withCorners.status).toBe(200);
    // As planned the route starts and ends on the west side; from node 1 (south-east) it ends north-east.
    expect(w.stops[0].visit.entry).toEqual(field.coordinates[0][1]); // south-east corner
    expect(w.stops[0].visit.exit).toEqual(field.coordinates[0][2]); // north-east corner
    expect(w.fieldPlans.sq.startPointNodeIndex).toBe(1);
    expect(w.metrics.transportDistanceMeters).toBeLessThan(p.metrics.transportDistanceMeters - 500);
    const credits = (
      (await (await c.app.request('/api/user/current', jsonInit('GET', c.adminKey))).json()) as Record<string, any>
    ).credits.balance;
    expect(credits).toBe(50 - 1 - 5); // one plan, then the plan and its four corner variants
  });
});

describe('portal pushes', () => {
  it('lists the configured portals of a company', async () => {
    expect((await call('GET', `/api/companies/${companyId}/portals`)).body.portals).toEqual(['deere', 'trimble']);
    expect((await call('GET', `/api/companies/${otherCompanyId}/portals`)).body.portals).toEqual([]);
    expect((await call('GET', '/api/companies/00000000-0000-4000-8000-000000000000/portals')).status).toBe(404);
  });

  it('pushes a planned field to John Deere (with a work plan) and to Trimble', async () => {
    const plan = (await call('POST', '/api/path-plans/direct', shapeA())).body;
    const d = await call('POST', `/api/companies/${companyId}/portals/deere/push`, {
      organizationId: '4321',
      fieldId: 'field-a',
      plan,
      workPlan: { workType: 'dtiSeeding', year: 2026 },
    });
    expect(d.status).toBe(200);
    expect(d.body.pushed.map((p: { kind: string; status: number }) => `${p.kind}:${p.status}`)).toEqual([
      'boundary:201',
      'guidanceLine:201',
      'workPlan:201',
    ]);
    const tr = await call('POST', `/api/companies/${companyId}/portals/trimble/push`, {
      organizationId: 'org-9',
      fieldId: 'f-1',
      plan,
      boundary: false,
    });
    expect(tr.status).toBe(200);
    expect(tr.body.pushed.map((p: { kind: string }) => p.kind)).toEqual(['guidanceLine']);
  });

  it('at-033 (W 6 m, 1 headland pass, driven in headland passes only) pushes a curve to both portals', async () => {
    const field = JSON.parse(readFileSync(new URL('../fields/at-033.geojson', import.meta.url), 'utf8')).geometry;
    // the real planner (this app's planner is a stand-in): widened to 3 passes, no ground left for tracks
    const plan = JSON.parse(
      JSON.stringify(planRoute({ field, machine: { widthMeters: 6 }, headland: { passes: 1 } })),
    ) as Record<string, any>;
    expect(plan.warnings.map((w: { code: string }) => w.code)).toContain('headland-widened');
    expect(plan.route.some((s: { type: string }) => s.type === 'Track')).toBe(false);
    const d = await call('POST', `/api/companies/${companyId}/portals/deere/push`, {
      organizationId: '4321',
      fieldId: 'field-b',
      plan,
      workPlan: { workType: 'dtiTillage', year: 2026 },
    });
    expect(d.status).toBe(200);
    expect(d.body.pushed.map((p: { kind: string; status: number }) => `${p.kind}:${p.status}`)).toEqual([
      'boundary:201',
      'guidanceLine:201',
      'workPlan:201',
    ]);
    const sentToDeere = deere
      .dataRequests()
      .filter((r) => r.path.endsWith('/guidanceLines'))
      .at(-1)!.json as any;
    expect(sentToDeere['@type']).toBe('ABCurve');
    // the plan's own guidance line, point for point
    const line = plan.guidanceLines[0].geometry.coordinates as number[][];
    expect(sentToDeere.points.map((p: { lat: number; lon: number }) => [p.lon, p.lat])).toEqual(line);
    const tr = await call('POST', `/api/companies/${companyId}/portals/trimble/push`, {
      organizationId: 'org-9',
      fieldId: 'f-1',
      plan,
    });
    expect(tr.status).toBe(200);
    expect(tr.body.pushed.map((p: { kind: string }) => p.kind)).toEqual(['boundary', 'guidanceLine']);
    const sentToTrimble = trimble
      .dataRequests()
      .filter((r) => r.path.endsWith('/guidancelines'))
      .at(-1)!.json as any;
    expect(sentToTrimble.type).toBe('Curve');
    expect(sentToTrimble.geometry.coordinates).toEqual(line);

    // without a guidance line: the outermost headland pass
    const passes = plan.route.filter((s: { type: string }) => s.type === 'ExteriorHeadland');
    const outer = passes.find((s: { headlandIndex: number }) => plan.headlands[s.headlandIndex].passIndex === 1);
    const noLine = await call('POST', `/api/companies/${companyId}/portals/trimble/push`, {
      organizationId: 'org-9',
      fieldId: 'f-1',
      plan: { ...plan, guidanceLines: [] },
      boundary: false,
    });
    expect(noLine.status).toBe(200);
    const sent = trimble
      .dataRequests()
      .filter((r) => r.path.endsWith('/guidancelines'))
      .at(-1)!.json as any;
    expect(sent.geometry.coordinates).toEqual(outer.coordinates);

    // an account that takes AB lines only: 422 saying what to do, nothing sent
    const before = deere.requests.length;
    const abOnly = await call('POST', `/api/companies/${abOnlyCompanyId}/portals/deere/push`, {
      organizationId: '4321',
      fieldId: 'field-b',
      plan,
    });
    expect(abOnly.status).toBe(422);
    expect(abOnly.body.error).toMatchObject({ code: 'PortalBadPlan', reason: 'portal-bad-plan' });
    expect(abOnly.body.error.message).toMatch(/AB lines only.*guidanceCurves.*furrow plan -f isoxml/);
    expect(deere.requests.length).toBe(before);
  });

  it('portal and configuration failures are clear API errors', async () => {
    const plan = (await call('POST', '/api/path-plans/direct', shapeA())).body;
    const missingField = await call('POST', `/api/companies/${companyId}/portals/deere/push`, {
      organizationId: '4321',
      fieldId: 'nope',
      plan,
    });
    expect(missingField.status).toBe(422);
    expect(missingField.body.error).toMatchObject({ code: 'PortalTargetNotFound', reason: 'portal-not-found' });
    deere.failNext({ status: 503 }, 5);
    const down = await call('POST', `/api/companies/${companyId}/portals/deere/push`, {
      organizationId: '4321',
      fieldId: 'field-a',
      plan,
    });
    deere.clearFaults();
    expect(down.status).toBe(503);
    expect(down.body.error.details[0].message).toMatch(/2 attempt/);
    const unconfigured = await call('POST', `/api/companies/${otherCompanyId}/portals/trimble/push`, {
      organizationId: 'org-9',
      fieldId: 'f-1',
      plan,
    });
    expect(unconfigured.status).toBe(409);
    expect(unconfigured.body.error.code).toBe('PortalNotConfigured');
    const both = await call('POST', `/api/companies/${companyId}/portals/trimble/push`, {
      organizationId: 'org-9',
      fieldId: 'f-1',
    });
    expect(both.status).toBe(400);
    const workPlanAtTrimble = await call('POST', `/api/companies/${companyId}/portals/trimble/push`, {
      organizationId: 'org-9',
      fieldId: 'f-1',
      plan,
      workPlan: { workType: 'dtiSeeding', year: 2026 },
    });
    expect(workPlanAtTrimble.status).toBe(400);
  });

  it('dryRun shows the requests without credentials or network', async () => {
    const plan = (await call('POST', '/api/path-plans/direct', shapeA())).body;
    const before = deere.requests.length;
    const r = await call('POST', `/api/companies/${otherCompanyId}/portals/deere/push`, {
      organizationId: '7',
      fieldId: 'f',
      plan,
      dryRun: true,
      workPlan: { workType: 'dtiHarvest', year: 2026 },
    });
    expect(r.status).toBe(200);
    expect(r.body.requests.map((q: { url: string }) => q.url)).toEqual([
      'https://sandboxapi.deere.com/platform/organizations/7/fields/f/boundaries',
      'https://sandboxapi.deere.com/platform/organizations/7/fields/f/guidanceLines',
      'https://sandboxapi.deere.com/platform/organizations/7/workPlans',
    ]);
    expect(r.body.requests[1].body['@type']).toBe('ABLine');
    const configured = await call('POST', `/api/companies/${companyId}/portals/trimble/push`, {
      organizationId: 'org-9',
      fieldId: 'f-1',
      plan,
      dryRun: true,
    });
    expect(configured.body.requests[0].url).toBe(`${trimble.baseUrl}/resources/org-9/boundaries`);
    expect(deere.requests.length).toBe(before);
  });

  it('the routes are in the OpenAPI document', async () => {
    const doc = (await (await t.app.request('/openapi.json')).json()) as { paths: Record<string, unknown> };
    for (const p of [
      '/api/terrain/analyze',
      '/api/path-plans/terrain',
      '/api/path-plans/scenarios',
      '/api/path-plans/sequence',
      '/api/companies/{companyId}/portals',
      '/api/companies/{companyId}/portals/deere/push',
      '/api/companies/{companyId}/portals/trimble/push',
    ]) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
  });
});
