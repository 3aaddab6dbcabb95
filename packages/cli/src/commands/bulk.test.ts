/**
 * `furrow bulk --api` in-process against a real server on loopback (embedded store, a stand-in
 * planner): the progress bar with its ETA, the summary table, every failure listed with its reason,
 * the plans written to --out, exit 1 when a field failed.
 */
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { serve as nodeServe } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApp,
  createRateLimiter,
  inProcessPlanner,
  openStore,
  startJobs,
  type JobService,
  type Store,
} from '@furrow/api';
import { runBulk } from './bulk.js';

const square = (lon: number, d = 0.002) => [
  [
    [lon, 47.3],
    [lon + d, 47.3],
    [lon + d, 47.3 + d],
    [lon, 47.3 + d],
    [lon, 47.3],
  ],
];
const bowTie = [
  [
    [8.0, 47.3],
    [8.002, 47.302],
    [8.002, 47.3],
    [8.0, 47.302],
    [8.0, 47.3],
  ],
];

/**
 * Metrics that encode the request: area from the first longitude, working distance from the width.
 * The field at longitude 9.5 fails like the planner does (a PlanError with a code).
 */
const stand = async (request: Record<string, any>) => {
  const ring = (request.field ?? request.boundary).coordinates[0];
  await new Promise((r) => setTimeout(r, 300));
  if (ring[0][0] === 9.5)
    throw Object.assign(new Error('no track fits between the headlands; use a smaller width'), {
      name: 'PlanError',
      code: 'no-workable-area',
      details: [],
    });
  return {
    version: 'stand-in',
    route: [],
    metrics: {
      fieldAreaSquareMeters: Math.round(ring[0][0] * 10_000),
      workingDistanceMeters: (request.machine ?? request.equipment).widthMeters * 100,
      distanceMeters: 1000,
      turns: 4,
      timeSeconds: 600,
      overlapRatio: 0.05,
    },
  };
};

describe('furrow bulk --api', () => {
  let store: Store;
  let jobs: JobService;
  let server: ReturnType<typeof nodeServe>;
  let url: string;
  let apiKey: string;
  const dir = mkdtempSync(join(tmpdir(), 'furrow-bulk-api-'));

  beforeAll(async () => {
    store = await openStore('memory:');
    const planner = inProcessPlanner(stand as never);
    jobs = await startJobs({ store, planner, concurrency: 1, pollMs: 50 });
    const app = createApp({ store, planner, limiter: createRateLimiter({ points: 100_000, windowSeconds: 60 }) });
    const account = await store.createAccountKey({ name: 'bulk', partnerAdmin: true, initialCredits: 10 });
    await store.provisionCompany(account.userId, account.userId, {
      partnerCompanyId: 'bulk-co',
      name: 'Bulk Co',
      countryCode: 'DE',
    });
    apiKey = account.apiKey;
    server = nodeServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await jobs?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('draws a progress bar with ETA, prints the summary table and lists the failed field; exit 1', async () => {
    mkdirSync(join(dir, 'in'));
    writeFileSync(join(dir, 'in', 'north.geojson'), JSON.stringify({ type: 'Polygon', coordinates: square(9.1) }));
    writeFileSync(join(dir, 'in', 'south.geojson'), JSON.stringify({ type: 'Polygon', coordinates: square(9.3) }));
    writeFileSync(join(dir, 'in', 'narrow.geojson'), JSON.stringify({ type: 'Polygon', coordinates: square(9.5) }));
    // Refused by the reader before anything is sent; still listed.
    writeFileSync(join(dir, 'in', 'crossed.geojson'), JSON.stringify({ type: 'Polygon', coordinates: bowTie }));
    let progress = '';
    let out = '';
    let err = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        progress += String(chunk);
        done();
      },
    });
    const code = await runBulk(join(dir, 'in'), {
      api: url,
      key: apiKey,
      width: '7',
      pollSeconds: '0.2',
      out: join(dir, 'out'),
      progress: true,
      progressStream: stream,
      log: (s) => (out += s),
      err: (s) => (err += s),
    });
    expect(code).toBe(1);
    expect(err).toMatch(/job [0-9a-f-]{36}: 3 fields submitted/);

    // The bar: one line per second on a pipe, the last one when it stops.
    const lines = progress.split('\n').filter((l) => l.includes('planning'));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.at(-1)).toMatch(/3\/3 fields \| 1 failed \| ETA \S+/);

    // The table: a row per field (planned ones in file order, then unreadable files), totals, then
    // every failure with its reason.
    const rows = out.split('\n');
    expect(rows[0]).toMatch(/^field\s+status\s+area ha\s+distance m\s+working m\s+turns\s+time min\s+overlap %$/);
    const row = (name: string) =>
      rows
        .find((r) => r.startsWith(`${name} `))!
        .trim()
        .split(/\s+/);
    expect(row('north')).toEqual(['north', 'ok', (9.1).toFixed(2), '1000', '700', '4', '10.0', '5.0']);
    expect(row('south')).toEqual(['south', 'ok', (9.3).toFixed(2), '1000', '700', '4', '10.0', '5.0']);
    expect(row('narrow')).toEqual(['narrow', 'FAILED', '-', '-', '-', '-', '-', '-']);
    expect(row('crossed').slice(0, 2)).toEqual(['crossed', 'FAILED']);
    expect(out).toMatch(/2 of 4 fields planned in [\d.]+ s \([\d.]+ fields\/s\); 18\.4 ha, 2\.0 km, 0\.3 h/);
    expect(out).toMatch(
      new RegExp(
        '2 failed:\\n {2}narrow: no-workable-area: no track fits between the headlands; use a smaller width\\n' +
          ' {2}crossed: unreadable: \\S',
      ),
    );

    // --out: each planned field's stored plan, and the summary with the failure.
    expect(JSON.parse(readFileSync(join(dir, 'out', 'north.json'), 'utf8')).metrics.workingDistanceMeters).toBe(700);
    const summary = JSON.parse(readFileSync(join(dir, 'out', 'summary.json'), 'utf8'));
    expect(summary.fields.map((f: { name: string; ok: boolean }) => [f.name, f.ok])).toEqual([
      ['narrow', false],
      ['north', true],
      ['south', true],
      ['crossed', false],
    ]);
  }, 60_000);

  it('waits out the rate limit (429, Retry-After) instead of failing the run', async () => {
    // A second server on the same store whose budget (4 requests per 2 s) the run must exceed.
    const tight = createApp({
      store,
      planner: inProcessPlanner(stand as never),
      limiter: createRateLimiter({ points: 4, windowSeconds: 2 }),
    });
    const other = nodeServe({ fetch: tight.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => other.once('listening', () => resolve()));
    try {
      mkdirSync(join(dir, 'limited'));
      for (const lon of [9.11, 9.13, 9.15])
        writeFileSync(
          join(dir, 'limited', `f${lon}.geojson`),
          JSON.stringify({ type: 'Polygon', coordinates: square(lon) }),
        );
      let out = '';
      let err = '';
      const code = await runBulk(join(dir, 'limited'), {
        api: `http://127.0.0.1:${(other.address() as AddressInfo).port}`,
        key: apiKey,
        pollSeconds: '0.1',
        out: join(dir, 'limited-out'),
        progress: false,
        log: (s) => (out += s),
        err: (s) => (err += s),
      });
      expect(err).toMatch(/HTTP 429; retrying in [12] s/);
      expect(code).toBe(0);
      expect(out).toMatch(/3 of 3 fields planned/);
      for (const lon of [9.11, 9.13, 9.15])
        expect(
          JSON.parse(readFileSync(join(dir, 'limited-out', `f${lon}.json`), 'utf8')).metrics.fieldAreaSquareMeters,
        ).toBe(Math.round(lon * 10_000));
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  }, 90_000);
});
