/** End to end: the real server on 127.0.0.1 (port 0), called with fetch. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKeyCommand, poolPlanner, serve, type RunningServer } from '@furrow/api';
import { hasRealPlanner, readCorpusField, shapeA, stubWorkerFile } from './support.js';

const BOOTSTRAP = 'furrow-e2e-bootstrap-key-0123456789';
const dirs: string[] = [];
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'furrow-api-'));
  dirs.push(d);
  return d;
}

describe('furrow serve', () => {
  it('starts with only FURROW_BOOTSTRAP_API_KEY set (embedded store on disk), plans, keeps keys across restarts', async () => {
    const cwd = tempDir();
    const lines: string[] = [];
    const env = { PORT: '0', FURROW_BOOTSTRAP_API_KEY: BOOTSTRAP, FURROW_LOG_LEVEL: 'silent' };
    const s1 = await serve(env, { cwd, out: (l) => lines.push(l), planner: poolPlanner({ threads: 1, filename: stubWorkerFile }) });
    servers.push(s1);
    expect(s1.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines).toEqual([]);
    const res = await fetch(`${s1.url}/api/path-plans/direct`, {
      method: 'POST',
      headers: { 'X-API-KEY': BOOTSTRAP, 'Content-Type': 'application/json' },
      body: JSON.stringify(shapeA()),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Furrow-API-Version')).toBe('1.5.0');
    expect((await res.json()).metrics).toBeDefined();
    const docs = await fetch(`${s1.url}/docs`);
    expect(docs.status).toBe(200);
    await s1.close();

    const s2 = await serve(env, { cwd, out: (l) => lines.push(l), planner: poolPlanner({ threads: 1, filename: stubWorkerFile }) });
    servers.push(s2);
    const me = await fetch(`${s2.url}/api/user/current`, { headers: { 'X-API-KEY': BOOTSTRAP } });
    expect(me.status).toBe(200);
    const body = await me.json();
    expect(body.key.partnerAdmin).toBe(true);
    // One plan was charged on the first run and the balance persisted.
    expect(body.credits.balance).toBe(999);
    await s2.close();
  });

  it('prints how to create a key on a first start without keys; `keys create` makes one that works', async () => {
    const lines: string[] = [];
    const cwd = tempDir();
    const dbDir = `file:${path.join(cwd, 'db')}`;
    const s = await serve({ PORT: '0', DATABASE_URL: dbDir, FURROW_LOG_LEVEL: 'silent', FURROW_PLAN_THREADS: '0' }, { out: (l) => lines.push(l), cwd });
    servers.push(s);
    expect(lines.join('\n')).toMatch(/furrow keys create --partner-admin/);
    await s.close();
    const made = await createKeyCommand({ partnerAdmin: true, name: 'ops' }, { DATABASE_URL: dbDir }, cwd);
    expect(made.apiKey).toMatch(/^fk_[0-9a-f]{16}_/);
    const s2 = await serve({ PORT: '0', DATABASE_URL: dbDir, FURROW_LOG_LEVEL: 'silent', FURROW_PLAN_THREADS: '0' }, { out: (l) => lines.push(l), cwd });
    servers.push(s2);
    const me = await fetch(`${s2.url}/api/user/current`, { headers: { 'X-API-KEY': made.apiKey } });
    expect(me.status).toBe(200);
    expect((await me.json()).key).toMatchObject({ keyId: made.keyId, partnerAdmin: true });
    await s2.close();
  });

  it.skipIf(!hasRealPlanner)('answers the quick-start request with a real plan of a corpus field (worker pool, @furrow/core)', async () => {
    const s = await serve({ PORT: '0', DATABASE_URL: 'memory:', FURROW_BOOTSTRAP_API_KEY: BOOTSTRAP, FURROW_LOG_LEVEL: 'silent', FURROW_PLAN_THREADS: '1' });
    servers.push(s);
    const field = readCorpusField('be-wal-000').geometry;
    const res = await fetch(`${s.url}/api/path-plans/direct`, {
      method: 'POST',
      headers: { 'X-API-KEY': BOOTSTRAP, 'Content-Type': 'application/json' },
      body: JSON.stringify({ field, machine: { widthMeters: 6 }, headland: { passes: 2 }, tracks: { preferredDirectionDegrees: 0 } }),
    });
    expect(res.status).toBe(200);
    const plan = await res.json();
    expect(plan.version).toBe('1.5.0');
    // be-wal-000 is 5.03 ha (test/fields/index.csv).
    expect(plan.metrics.fieldAreaSquareMeters / 10_000).toBeCloseTo(5.03, 1);
    expect(plan.metrics.workingDistanceMeters).toBeGreaterThan(0);
    await s.close();
  });
});
