/** End to end: the real server on 127.0.0.1 (port 0), embedded store on disk, called with fetch. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createKeyCommand, inProcessPlanner, serve, type RunningServer } from '@furrow/api';
// @ts-expect-error plain JavaScript fixture (also loaded by worker threads)
import { stubPlanRoute } from './fixtures/stub-plan.mjs';
import { readCorpusField, shapeA } from './support.js';

const BOOTSTRAP = 'furrow-e2e-bootstrap-key-0123456789';
const cwd = mkdtempSync(path.join(tmpdir(), 'furrow-api-'));
const servers: RunningServer[] = [];
let madeKey: { apiKey: string; keyId: string } | undefined;
afterAll(async () => {
  for (const s of servers) await s.close();
  rmSync(cwd, { recursive: true, force: true });
});

describe('furrow serve', () => {
  it('on a first start without keys prints how to create one; `keys create` makes one in the same store', async () => {
    const lines: string[] = [];
    const s = await serve(
      { PORT: '0', FURROW_LOG_LEVEL: 'silent', FURROW_PLAN_THREADS: '0' },
      { out: (l) => lines.push(l), cwd },
    );
    servers.push(s);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.join('\n')).toMatch(/furrow keys create --partner-admin/);
    const denied = await fetch(`${s.url}/api/user/current`);
    expect(denied.status).toBe(401);
    await s.close();
    madeKey = await createKeyCommand({ partnerAdmin: true, name: 'ops' }, {}, cwd);
    expect(madeKey.apiKey).toMatch(/^fk_[0-9a-f]{16}_/);
  }, 180_000); // two cold starts of the embedded store on disk: over a minute on a loaded 2-core machine

  it('with only FURROW_BOOTSTRAP_API_KEY set: answers the quick-start request with a real plan; earlier keys persisted', async () => {
    const lines: string[] = [];
    // Only the bootstrap key (and port 0 so tests never collide): default embedded store under cwd/.furrow, worker pool.
    const s = await serve(
      { PORT: '0', FURROW_BOOTSTRAP_API_KEY: BOOTSTRAP, FURROW_LOG_LEVEL: 'silent' },
      { out: (l) => lines.push(l), cwd },
    );
    servers.push(s);
    expect(lines).toEqual([]);
    expect(s.planner.threads).toBeGreaterThan(0);
    const field = readCorpusField('be-wal-000').geometry;
    const res = await fetch(`${s.url}/api/path-plans/direct`, {
      method: 'POST',
      headers: { 'X-API-KEY': BOOTSTRAP, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        field,
        machine: { widthMeters: 6 },
        headland: { passes: 2 },
        tracks: { preferredDirectionDegrees: 0 },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Furrow-API-Version')).toBe('1.5.0');
    const plan = await res.json();
    expect(plan.version).toBe('1.5.0');
    // be-wal-000 is 5.03 ha (test/fields/index.csv).
    expect(plan.metrics.fieldAreaSquareMeters / 10_000).toBeCloseTo(5.03, 1);
    expect(plan.metrics.workingDistanceMeters).toBeGreaterThan(0);
    expect(plan.route.length).toBeGreaterThan(0);

    const me = await fetch(`${s.url}/api/user/current`, { headers: { 'X-API-KEY': madeKey!.apiKey } });
    expect(me.status).toBe(200);
    expect((await me.json()).key).toMatchObject({ keyId: madeKey!.keyId, partnerAdmin: true });
    const docs = await fetch(`${s.url}/docs`);
    expect(docs.status).toBe(200);
    await s.close();
  });

  it('shuts down gracefully: a plan in flight is answered, then new connections are refused', async () => {
    const key = 'furrow-e2e-graceful-key-0123456789abcdef';
    // A stand-in planner that takes 800 ms.
    const slow = inProcessPlanner(async (r: unknown) => {
      await new Promise((res) => setTimeout(res, 800));
      return stubPlanRoute(r);
    });
    const s = await serve(
      { PORT: '0', DATABASE_URL: 'memory:', FURROW_BOOTSTRAP_API_KEY: key, FURROW_LOG_LEVEL: 'silent' },
      { out: () => undefined, planner: slow },
    );
    const inFlight = fetch(`${s.url}/api/path-plans/direct`, {
      method: 'POST',
      headers: { 'X-API-KEY': key, 'Content-Type': 'application/json' },
      body: JSON.stringify(shapeA()),
    });
    await new Promise((r) => setTimeout(r, 300));
    const closed = s.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect((await res.json()).version).toBe('1.5.0');
    // The answered connection is closed at once, not after its keep-alive timeout (5 s).
    const answered = performance.now();
    await closed;
    expect(performance.now() - answered).toBeLessThan(1000);
    await expect(fetch(`${s.url}/api/user/current`, { headers: { 'X-API-KEY': key } })).rejects.toThrow();
  });

  it('fails cleanly when the port is taken (store closed, nothing left listening)', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(
        serve(
          { PORT: String(port), DATABASE_URL: 'memory:', FURROW_LOG_LEVEL: 'silent', FURROW_PLAN_THREADS: '0' },
          { out: () => undefined },
        ),
      ).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
