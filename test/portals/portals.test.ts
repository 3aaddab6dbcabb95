import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as core from '@furrow/core';
import type { FieldGeometry, PathPlanRequest, Plan, Position } from '@furrow/core';
import {
  DeereClient,
  parsePortalsConfig,
  portalRegistryFromEnv,
  PortalError,
  PortalRegistry,
  retryAfterMs,
  TrimbleClient,
  abLineOf,
  bearingDegrees,
  guidanceOf,
} from '../../packages/api/src/portals/index.js';
import { DEERE_CLIENT, DeereStandIn } from './deere-standin.js';
import { TRIMBLE_CLIENT, TrimbleStandIn } from './trimble-standin.js';

function field(file: string): FieldGeometry {
  return (
    JSON.parse(readFileSync(new URL(`../fields/${file}`, import.meta.url), 'utf8')) as { geometry: FieldGeometry }
  ).geometry;
}

/** A plan over a corpus field with a hole, with one straight track through the outer ring's first two vertices' midpoint. */
function planOver(boundary: FieldGeometry, track: Position[]): Plan {
  return {
    version: 'test',
    metrics: {} as Plan['metrics'],
    heading: { degrees: 73.4, source: 'search' },
    boundary,
    warnings: [],
    route: [
      { sequence: 0, type: 'ExteriorHeadland', coordinates: [track[0], track[1]], lengthMeters: 1 },
      { sequence: 1, type: 'Track', coordinates: track, lengthMeters: 100 },
    ],
  };
}

const holed = field('at-ref-056.geojson');
const outer = holed.type === 'Polygon' ? holed.coordinates[0] : holed.coordinates[0][0];
const A: Position = outer[0],
  B: Position = outer[Math.floor(outer.length / 2)];
const plan = planOver(holed, [A, [(A[0] + B[0]) / 2, (A[1] + B[1]) / 2], B]);

const waits: number[] = [];
const deps = { sleep: async (ms: number) => void waits.push(ms) };

describe('John Deere Operations Center push against the stand-in', () => {
  const server = new DeereStandIn();
  beforeAll(async () => void (await server.start()));
  afterAll(() => server.stop());
  afterEach(() => {
    server.requests.length = 0;
    waits.length = 0;
  });

  const client = (over: Partial<ConstructorParameters<typeof DeereClient>[0]> = {}): DeereClient =>
    new DeereClient(
      {
        baseUrl: server.baseUrl,
        oauth: {
          tokenUrl: server.tokenUrl,
          clientId: DEERE_CLIENT.id,
          clientSecret: DEERE_CLIENT.secret,
          grant: { type: 'refresh_token', refreshToken: DEERE_CLIENT.refreshToken },
        },
        retry: { maxRetries: 3, baseDelayMs: 100 },
        ...over,
      },
      deps,
    );

  it('pushes boundary (holes as interior rings), AB line and a work plan that selects it', async () => {
    const pushed = await client().pushPlan(
      plan,
      { organizationId: '4321', fieldId: 'field-a' },
      { workPlan: { workType: 'dtiTillage', year: 2026, instructions: 'furrow plan' } },
    );
    expect(pushed.map((p) => [p.kind, p.status])).toEqual([
      ['boundary', 201],
      ['guidanceLine', 201],
      ['workPlan', 201],
    ]);
    for (const p of pushed) expect(p.uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/platform\/organizations\/4321\//);
    const [boundary, line, work] = server.dataRequests();
    expect(server.dataRequests().every((r) => r.status === 201)).toBe(true);
    // One token for the three calls, fetched with the refresh-token grant and Basic client auth.
    expect(server.tokenRequests()).toHaveLength(1);
    expect(new URLSearchParams(server.tokenRequests()[0].body).get('grant_type')).toBe('refresh_token');
    const rings = (
      boundary.json as { multipolygons: { rings: { type: string; points: { lat: number; lon: number }[] }[] }[] }
    ).multipolygons[0].rings;
    expect(rings.map((r) => r.type)).toEqual(['exterior', 'interior']);
    expect(rings[0].points[0]).toMatchObject({ lat: A[1], lon: A[0] });
    const ab = line.json as { aPoint: { lat: number; lon: number }; bPoint: { lat: number; lon: number } };
    expect(ab.aPoint).toMatchObject({ lat: A[1], lon: A[0] });
    expect(ab.bPoint).toMatchObject({ lat: B[1], lon: B[0] });
    expect(
      (work.json as { guidanceSettings: { preferenceSettings: { entityUri: string } } }).guidanceSettings
        .preferenceSettings.entityUri,
    ).toBe(pushed[1].uri);
  });

  it('retries 503 and 429 with backoff, honouring Retry-After', async () => {
    server.failNext({ status: 503, body: { message: 'maintenance' } }, 2);
    server.failNext({ status: 429, headers: { 'Retry-After': '7' }, body: { message: 'slow down' } });
    const r = await client().pushBoundary(plan, { organizationId: '4321', fieldId: 'field-b' }, 'x');
    expect(r.status).toBe(201);
    expect(r.attempts).toBe(4);
    expect(waits).toEqual([100, 200, 7000]);
  });

  it('gives up after the retries with portal-unavailable and the attempts made', async () => {
    server.failNext({ status: 502 }, 10);
    const err = await client({ retry: { maxRetries: 2, baseDelayMs: 1 } })
      .pushBoundary(plan, { organizationId: '4321', fieldId: 'field-a' }, 'x')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PortalError);
    expect(err).toMatchObject({ code: 'portal-unavailable', status: 502, attempts: 3, portal: 'deere' });
    server.clearFaults(); // 7 of the 10 were not needed
  });

  it('a revoked token is replaced once, then the call succeeds', async () => {
    const c = client();
    await c.pushBoundary(plan, { organizationId: '4321', fieldId: 'field-a' }, 'first');
    server.revokeTokens();
    const r = await c.pushBoundary(plan, { organizationId: '4321', fieldId: 'field-a' }, 'second');
    expect(r.status).toBe(201);
    expect(server.tokenRequests()).toHaveLength(2);
    expect(server.dataRequests().map((q) => q.status)).toEqual([201, 401, 201]);
  });

  it('clear errors: bad client secret, bad refresh token, unknown field, foreign organization, body the portal rejects', async () => {
    const target = { organizationId: '4321', fieldId: 'field-a' };
    await expect(
      client({
        oauth: {
          tokenUrl: server.tokenUrl,
          clientId: DEERE_CLIENT.id,
          clientSecret: 'wrong',
          grant: { type: 'client_credentials' },
        },
      }).pushBoundary(plan, target, 'x'),
    ).rejects.toMatchObject({
      code: 'portal-auth-failed',
      status: 401,
    });
    await expect(
      client({
        oauth: {
          tokenUrl: server.tokenUrl,
          clientId: DEERE_CLIENT.id,
          clientSecret: DEERE_CLIENT.secret,
          grant: { type: 'refresh_token', refreshToken: 'old' },
        },
      }).pushBoundary(plan, target, 'x'),
    ).rejects.toThrowError(/re-authorise/);
    await expect(client().pushBoundary(plan, { organizationId: '4321', fieldId: 'nope' }, 'x')).rejects.toMatchObject({
      code: 'portal-not-found',
      status: 404,
    });
    await expect(client().pushBoundary(plan, { organizationId: '999', fieldId: 'field-a' }, 'x')).rejects.toMatchObject(
      { code: 'portal-forbidden', status: 403 },
    );
    // A two-point "ring" is not a boundary: the stand-in answers 400 with its reasons, which reach the message.
    const bad = planOver({ type: 'Polygon', coordinates: [[A, B]] }, [A, B]);
    const err = (await client()
      .pushBoundary(bad, target, 'x')
      .catch((e: unknown) => e)) as PortalError;
    expect(err.code).toBe('portal-rejected');
    expect(err.message).toMatch(/at least 4 points/);
  });

  it('a plan without a track, guidance line or headland pass fails before anything is sent', async () => {
    const noTrack = {
      ...plan,
      route: plan.route.filter((s) => s.type !== 'Track' && s.type !== 'ExteriorHeadland'),
      guidanceLines: [],
    };
    await expect(client().pushPlan(noTrack, { organizationId: '4321', fieldId: 'field-a' })).rejects.toMatchObject({
      code: 'portal-bad-plan',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('an unreachable portal is a network error after the retries', async () => {
    const c = new DeereClient(
      {
        baseUrl: 'http://127.0.0.1:9/platform',
        oauth: {
          tokenUrl: server.tokenUrl,
          clientId: DEERE_CLIENT.id,
          clientSecret: DEERE_CLIENT.secret,
          grant: { type: 'client_credentials' },
        },
        retry: { maxRetries: 1, baseDelayMs: 1 },
      },
      deps,
    );
    await expect(c.pushBoundary(plan, { organizationId: '4321', fieldId: 'field-a' }, 'x')).rejects.toMatchObject({
      code: 'portal-network',
      attempts: 2,
    });
  });
});

describe('Trimble Agriculture push against the stand-in', () => {
  const server = new TrimbleStandIn();
  beforeAll(async () => void (await server.start()));
  afterAll(() => server.stop());
  afterEach(() => {
    server.requests.length = 0;
  });

  it('client credentials (client name as scope): boundary and AB line', async () => {
    const c = new TrimbleClient(
      {
        baseUrl: server.baseUrl,
        oauth: {
          tokenUrl: server.tokenUrl,
          clientId: TRIMBLE_CLIENT.id,
          clientSecret: TRIMBLE_CLIENT.secret,
          grant: { type: 'client_credentials', scope: TRIMBLE_CLIENT.name },
        },
      },
      deps,
    );
    const pushed = await c.pushPlan(plan, { organizationId: 'org-9', fieldId: 'f-1' });
    expect(pushed.map((p) => [p.kind, p.status])).toEqual([
      ['boundary', 200],
      ['guidanceLine', 200],
    ]);
    expect(pushed[0].uri).toMatch(/^b-/);
    expect(pushed[1].uri).toMatch(/^gl-/);
    const [b, g] = server.dataRequests();
    expect((b.json as { geometry: { type: string; coordinates: unknown[] } }).geometry.type).toBe('Polygon');
    expect((b.json as { geometry: { coordinates: unknown[] } }).geometry.coordinates).toHaveLength(2); // outer ring + hole
    expect((g.json as { geometry: { coordinates: Position[] } }).geometry.coordinates).toEqual([A, B]);
  });

  it('single-use refresh tokens are rotated and the new one is handed back for storage', async () => {
    let clock = 1_000_000;
    const rotated: string[] = [];
    const c = new TrimbleClient(
      {
        baseUrl: server.baseUrl,
        oauth: {
          tokenUrl: server.tokenUrl,
          clientId: TRIMBLE_CLIENT.id,
          clientSecret: TRIMBLE_CLIENT.secret,
          grant: { type: 'refresh_token', refreshToken: TRIMBLE_CLIENT.refreshToken },
        },
      },
      { ...deps, now: () => clock, onRefreshTokenRotated: (t) => void rotated.push(t) },
    );
    await c.pushGuidanceLine(plan, { organizationId: 'org-9', fieldId: 'f-1' }, 'one');
    clock += 3_600_000; // the access token has expired
    await c.pushGuidanceLine(plan, { organizationId: 'org-9', fieldId: 'f-1' }, 'two');
    expect(server.tokenRequests()).toHaveLength(2);
    expect(rotated).toHaveLength(2);
    expect(new URLSearchParams(server.tokenRequests()[1].body).get('refresh_token')).toBe(rotated[0]);
    expect(c.tokens.currentRefreshToken()).toBe(rotated[1]);
    // The original token was used up: a second client with it is refused.
    const stale = new TrimbleClient(
      {
        baseUrl: server.baseUrl,
        oauth: {
          tokenUrl: server.tokenUrl,
          clientId: TRIMBLE_CLIENT.id,
          clientSecret: TRIMBLE_CLIENT.secret,
          grant: { type: 'refresh_token', refreshToken: TRIMBLE_CLIENT.refreshToken },
        },
      },
      deps,
    );
    await expect(stale.pushGuidanceLine(plan, { organizationId: 'org-9', fieldId: 'f-1' }, 'x')).rejects.toMatchObject({
      code: 'portal-auth-failed',
    });
  });

  it('FURROW_PORTALS_FILE: a rotated refresh token is written back to the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'furrow-portals-'));
    try {
      const file = join(dir, 'portals.json');
      // Use up the stand-in's current token first so this test owns a fresh one.
      const seed = [...server.refreshTokens][0];
      writeFileSync(
        file,
        JSON.stringify({
          c1: {
            trimble: {
              baseUrl: server.baseUrl,
              oauth: {
                tokenUrl: server.tokenUrl,
                clientId: TRIMBLE_CLIENT.id,
                clientSecret: TRIMBLE_CLIENT.secret,
                grant: { type: 'refresh_token', refreshToken: seed },
              },
            },
          },
        }),
      );
      const reg = portalRegistryFromEnv({ FURROW_PORTALS_FILE: file });
      await reg.trimbleFor('c1').pushGuidanceLine(plan, { organizationId: 'org-9', fieldId: 'f-1' }, 'x');
      const saved = JSON.parse(readFileSync(file, 'utf8')) as {
        c1: { trimble: { oauth: { grant: { refreshToken: string } } } };
      };
      expect(saved.c1.trimble.oauth.grant.refreshToken).not.toBe(seed);
      expect(server.refreshTokens.has(saved.c1.trimble.oauth.grant.refreshToken)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(portalRegistryFromEnv({}).companies()).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('wrong scope and unknown field are reported', async () => {
    const wrongScope = new TrimbleClient(
      {
        baseUrl: server.baseUrl,
        oauth: {
          tokenUrl: server.tokenUrl,
          clientId: TRIMBLE_CLIENT.id,
          clientSecret: TRIMBLE_CLIENT.secret,
          grant: { type: 'client_credentials', scope: 'other' },
        },
      },
      deps,
    );
    await expect(wrongScope.pushBoundary(plan, { organizationId: 'org-9', fieldId: 'f-1' }, 'x')).rejects.toMatchObject(
      { code: 'portal-auth-failed', status: 400 },
    );
    const c = new TrimbleClient(
      {
        baseUrl: server.baseUrl,
        oauth: {
          tokenUrl: server.tokenUrl,
          clientId: TRIMBLE_CLIENT.id,
          clientSecret: TRIMBLE_CLIENT.secret,
          grant: { type: 'client_credentials', scope: TRIMBLE_CLIENT.name },
        },
      },
      deps,
    );
    await expect(c.pushBoundary(plan, { organizationId: 'org-9', fieldId: 'f-404' }, 'x')).rejects.toMatchObject({
      code: 'portal-not-found',
    });
  });
});

describe('configuration, shapes and helpers', () => {
  it('per-company configuration: parsed, checked, clients cached per company', () => {
    const cfg = parsePortalsConfig(
      JSON.stringify({
        'company-1': { deere: { oauth: { clientId: 'a', clientSecret: 'b', grant: { type: 'client_credentials' } } } },
        'company-2': {
          trimble: {
            baseUrl: 'https://example.test/api',
            oauth: { clientId: 'c', clientSecret: 'd', grant: { type: 'client_credentials', scope: 'n' } },
          },
        },
      }),
    );
    const reg = new PortalRegistry(cfg);
    expect(reg.configured('company-1')).toEqual(['deere']);
    expect(reg.deereFor('company-1')).toBe(reg.deereFor('company-1'));
    expect(reg.trimbleFor('company-2').http.url('/resources/x')).toBe('https://example.test/api/resources/x');
    expect(() => reg.trimbleFor('company-1')).toThrowError(/no Trimble/);
    expect(() => parsePortalsConfig('{')).toThrowError(/not valid JSON/);
    expect(() => parsePortalsConfig({ c: { agco: {} } })).toThrowError(/unknown portal/);
    expect(() => parsePortalsConfig({ c: { deere: { oauth: { clientId: 'a' } } } })).toThrowError(/clientSecret/);
    expect(
      () =>
        new DeereClient({
          baseUrl: 'ftp://x',
          oauth: { clientId: 'a', clientSecret: 'b', grant: { type: 'client_credentials' } },
        }),
    ).toThrowError(/not an http/);
  });

  it('Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });

  it('AB line bearing: due east along the equator is 90°, due north 0°', () => {
    expect(bearingDegrees([0, 0], [1, 0])).toBeCloseTo(90, 9);
    expect(bearingDegrees([5, 40], [5, 41])).toBeCloseTo(0, 9);
    expect(abLineOf(plan, 'deere').a).toEqual(A);
  });
});

describe('the guidance line of a plan without a working track', () => {
  const ring: Position[] = [
    [8.54, 47.37],
    [8.542, 47.37],
    [8.542, 47.372],
    [8.54, 47.372],
    [8.54, 47.37],
  ];
  const inner: Position[] = [
    [8.5401, 47.3701],
    [8.5419, 47.3701],
    [8.5419, 47.3719],
    [8.5401, 47.3719],
    [8.5401, 47.3701],
  ];
  const curve: Position[] = [
    [8.5405, 47.3705],
    [8.541, 47.371],
    [8.5415, 47.3705],
  ];
  const ab: Position[] = [
    [8.5405, 47.3702],
    [8.5415, 47.3702],
  ];
  const base: Plan = {
    version: 'test',
    metrics: {} as Plan['metrics'],
    heading: { degrees: 0, source: 'search' },
    boundary: { type: 'Polygon', coordinates: [ring] },
    warnings: [],
    // the inner pass is driven first; the outer one (pass 1) after it
    route: [
      { sequence: 0, type: 'ExteriorHeadland', coordinates: inner, lengthMeters: 1, headlandIndex: 1 },
      { sequence: 1, type: 'ExteriorHeadland', coordinates: ring, lengthMeters: 1, headlandIndex: 0 },
    ],
    headlands: [{ passIndex: 1 }, { passIndex: 2 }],
  };

  it('is the plan guidance line, as a curve where it is one', () => {
    const plan = { ...base, guidanceLines: [{ type: 'Curve', geometry: { type: 'LineString', coordinates: curve } }] };
    expect(guidanceOf(plan, 'deere')).toEqual({ kind: 'curve', curve: { points: curve, source: 'guidance-line' } });
  });

  it('else the outermost headland pass, even when driven later', () => {
    expect(guidanceOf(base, 'trimble')).toEqual({ kind: 'curve', curve: { points: ring, source: 'headland-pass' } });
  });

  it('for an account that takes AB lines only: an AB guidance line if the plan has one, else 422', () => {
    const both = {
      ...base,
      guidanceLines: [
        { type: 'Curve', geometry: { type: 'LineString', coordinates: curve } },
        { type: 'AB', geometry: { type: 'LineString', coordinates: ab } },
      ],
    };
    const g = guidanceOf(both, 'deere', { curves: false });
    expect(g.kind === 'ab' && [g.line.a, g.line.b]).toEqual(ab);
    expect(() => guidanceOf(base, 'deere', { curves: false })).toThrowError(/AB lines only/);
    const none = { ...base, route: [] };
    expect(() => guidanceOf(none, 'trimble')).toThrowError(/no working track, guidance line or headland pass/);
  });
});

// With the real pipeline once @furrow/core exports planRoute.
const planRoute = (core as Record<string, unknown>).planRoute as ((r: PathPlanRequest) => Plan) | undefined;
describe.skipIf(planRoute === undefined)('a real plan pushed to both stand-ins', () => {
  it('every piece is accepted as documented', async () => {
    const deere = new DeereStandIn();
    const trimble = new TrimbleStandIn();
    await deere.start();
    await trimble.start();
    try {
      const real = planRoute!({
        field: holed,
        machine: { widthMeters: 6, turnRadiusMeters: 5 },
        headland: { passes: 1 },
      });
      const d = new DeereClient(
        {
          baseUrl: deere.baseUrl,
          oauth: {
            tokenUrl: deere.tokenUrl,
            clientId: DEERE_CLIENT.id,
            clientSecret: DEERE_CLIENT.secret,
            grant: { type: 'client_credentials' },
          },
        },
        deps,
      );
      const t = new TrimbleClient(
        {
          baseUrl: trimble.baseUrl,
          oauth: {
            tokenUrl: trimble.tokenUrl,
            clientId: TRIMBLE_CLIENT.id,
            clientSecret: TRIMBLE_CLIENT.secret,
            grant: { type: 'client_credentials', scope: TRIMBLE_CLIENT.name },
          },
        },
        deps,
      );
      expect(
        (
          await d.pushPlan(
            real,
            { organizationId: '4321', fieldId: 'field-a' },
            { workPlan: { workType: 'dtiSeeding', year: 2026 } },
          )
        ).map((p) => p.status),
      ).toEqual([201, 201, 201]);
      expect((await t.pushPlan(real, { organizationId: 'org-9', fieldId: 'f-1' })).map((p) => p.status)).toEqual([
        200, 200,
      ]);
    } finally {
      await deere.stop();
      await trimble.stop();
    }
  });
});
