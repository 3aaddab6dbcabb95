/** Planning off the event loop: worker pool, time cap, client disconnects (stub worker, real piscina). */
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { serve as nodeServe } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, poolPlanner, type Planner, type Store } from '@furrow/api';
import { workerExecArgv } from '../../packages/api/src/planner.js';
import { jsonInit, makeApp, shapeA, stubWorkerFile, type TestApp } from './support.js';

const run = promisify(execFile);

let store: Store;
let planner: Planner;
let t: TestApp;

beforeAll(async () => {
  store = await openStore('memory:');
  planner = poolPlanner({ threads: 2, filename: stubWorkerFile });
  t = await makeApp(store, { planner, config: { planTimeoutCapSeconds: 2, planTimeoutGraceSeconds: 0 } });
});
afterAll(async () => {
  await planner?.close();
  await store?.close();
});

const heavy = shapeA({ machine: { widthMeters: 6, turnRadiusMeters: 99 } });

describe('worker pool', () => {
  it('plans in a worker thread', async () => {
    const res = await t.app.request('/api/path-plans/direct', jsonInit('POST', t.adminKey, shapeA()));
    expect(res.status).toBe(200);
    expect((await res.json()).version).toBe('1.5.0');
  });

  it('keeps answering other requests while a heavy plan runs, and caps its time (503, refunded)', async () => {
    const before = await store.balance('user', t.adminUserId);
    const started = performance.now();
    const slow = t.app.request('/api/path-plans/direct', jsonInit('POST', t.adminKey, heavy));
    await new Promise((r) => setTimeout(r, 200));
    const quickStart = performance.now();
    const quick = await t.app.request('/api/user/current', jsonInit('GET', t.adminKey));
    expect(quick.status).toBe(200);
    expect(performance.now() - quickStart).toBeLessThan(1000);
    const res = await slow;
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe('PlanTimeout');
    expect(performance.now() - started).toBeLessThan(6000);
    expect(await store.balance('user', t.adminUserId)).toBe(before);
  });

  it('cancels the work when the client disconnects (the worker is freed at once, the charge refunded)', async () => {
    const before = await store.balance('user', t.adminUserId);
    const controllers = [new AbortController(), new AbortController()];
    const pending = controllers.map((ctl) =>
      t.app.request('/api/path-plans/direct', { ...jsonInit('POST', t.adminKey, heavy), signal: ctl.signal }).then(
        (r) => r.status,
        () => 'aborted',
      ),
    );
    await new Promise((r) => setTimeout(r, 300));
    for (const ctl of controllers) ctl.abort();
    await Promise.all(pending);
    // Both cancelled plans were charged up front and refunded once their work stopped.
    for (let i = 0; i < 50 && (await store.balance('user', t.adminUserId)) !== before; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await store.balance('user', t.adminUserId)).toBe(before);
    // Both threads were busy with 30 s loops; a new plan is answered quickly only if they were terminated.
    const started = performance.now();
    const res = await t.app.request('/api/path-plans/direct', jsonInit('POST', t.adminKey, shapeA()));
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('over real HTTP: a client that hangs up frees its worker', async () => {
    const server = nodeServe({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/path-plans/direct`;
    try {
      const controllers = [new AbortController(), new AbortController()];
      const pending = controllers.map((ctl) =>
        fetch(url, { ...jsonInit('POST', t.adminKey, heavy), signal: ctl.signal }).then(
          (r) => r.status,
          () => 'aborted',
        ),
      );
      await new Promise((r) => setTimeout(r, 500));
      for (const ctl of controllers) ctl.abort();
      expect(await Promise.all(pending)).toEqual(['aborted', 'aborted']);
      const started = performance.now();
      const res = await fetch(url, jsonInit('POST', t.adminKey, shapeA()));
      expect(res.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(1500);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('pool threads’ flags', () => {
  it('drop the parent’s module loaders, and otherwise inherit its flags', () => {
    const tsx = ['--require', '/x/tsx/dist/preflight.cjs', '--import', 'file:///x/tsx/dist/loader.mjs'];
    expect(workerExecArgv(tsx)).toEqual([]);
    expect(workerExecArgv(['--max-old-space-size=4096', '--import=tsx'])).toEqual([]);
    expect(workerExecArgv(['--max-old-space-size=4096', '--enable-source-maps'])).toBeUndefined();
    expect(workerExecArgv([])).toBeUndefined();
  });

  it('start under a V8 flag of the parent', async () => {
    // The built pool (the test command builds first), as `node --max-old-space-size=… furrow serve` starts it.
    const poolModule = fileURLToPath(new URL('../../packages/api/dist/planner.js', import.meta.url));
    const request = {
      boundary: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [100, 0],
            [100, 80],
            [0, 80],
            [0, 0],
          ],
        ],
      },
      equipment: { widthMeters: 6 },
    };
    const script = `import { poolPlanner } from ${JSON.stringify(pathToFileURL(poolModule).href)};
const p = poolPlanner({ threads: 1, filename: ${JSON.stringify(stubWorkerFile)} });
try { const plan = await p.plan(${JSON.stringify(request)}, new AbortController().signal); console.log(typeof plan); }
catch (e) { console.log('failed', e.code, e.message); }
await p.close();`;
    const { stdout } = await run(process.execPath, ['--max-old-space-size=512', '--input-type=module', '-e', script], {
      timeout: 20_000,
    });
    expect(stdout.trim()).toBe('object');
  });
});
