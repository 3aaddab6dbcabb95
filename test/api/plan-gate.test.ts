/**
 * Admission, of plans and of every request. Plans are admitted within a bound: `planConcurrency`
 * run, `planQueue` wait, the rest get 429 at once (rate-limit body, Retry-After, no credit taken),
 * so a burst of plans cannot queue up without bound and the plans taken are answered in bounded
 * time. Every request is admitted within a bound too: `maxInFlight` are served at once, the next
 * wait for a slot (newest first, at least `waitMs`), and a request that gets none in time (or finds
 * `maxWaiting` waiting) is answered 429 (`reason: "server-busy"`, Retry-After, the X-RateLimit-*
 * headers). The server entrypoint sets it (FURROW_MAX_IN_FLIGHT, …); an app made without it is
 * unbounded. The embedded store lets the loop poll its sockets between statements.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmission, createPlanGate, openSql, openStore, serve, type Store } from '@furrow/api';
import { call, heldPlanner, makeApp, shapeB } from './support.js';

let store: Store;
beforeAll(async () => {
  store = await openStore('memory:');
});
afterAll(async () => {
  await store?.close();
});

const tick = () => new Promise((r) => setTimeout(r, 20));

describe('plan admission', () => {
  it('runs planConcurrency plans, queues planQueue, answers the rest 429 at once without charging them', async () => {
    const h = heldPlanner();
    const t = await makeApp(store, { planner: h.planner, config: { planConcurrency: 2, planQueue: 3 } });
    const user = await store.createAccountKey({ name: 'burst', partnerAdmin: false, initialCredits: 100 });
    const pending = Array.from({ length: 12 }, () => call(t, 'POST', '/api/path-plans/direct', shapeB(), user.apiKey));
    // The refused come back while the admitted are still held.
    const settled: { status: number; body: any; res: Response }[] = [];
    pending.forEach((p) => p.then((r) => settled.push(r)));
    for (let i = 0; i < 250 && (settled.length < 7 || h.held.length < 2); i++) await tick();
    await tick();
    expect(settled.map((r) => r.status)).toEqual(new Array(7).fill(429));
    expect(h.held).toHaveLength(2);
    const refused = settled[0];
    expect(refused.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(refused.body).toMatchObject({ limit: 5, reason: 'plans-busy' });
    expect(refused.body.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.body.windowSeconds).toBe(refused.body.retryAfterSeconds);
    expect(typeof refused.body.correlationId).toBe('string');
    expect(refused.res.headers.get('Retry-After')).toBe(String(refused.body.retryAfterSeconds));
    expect(refused.res.headers.get('X-RateLimit-Limit')).not.toBeNull();
    // Two charged (running), three waiting uncharged, seven refused uncharged.
    expect(await store.balance('user', user.userId)).toBe(98);
    // Release one at a time: never more than two plans run at once, the queue drains in order.
    while (settled.length < 12) {
      h.held.shift()?.();
      await tick();
    }
    const statuses = (await Promise.all(pending)).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect(h.peak()).toBe(2);
    expect(await store.balance('user', user.userId)).toBe(95);
    // Once the line is short again, plans are taken.
    const again = call(t, 'POST', '/api/path-plans/direct', shapeB(), user.apiKey);
    await tick();
    h.held.shift()?.();
    expect((await again).status).toBe(200);
  }, 180_000); // a few seconds alone; minutes beside other suites on a loaded 2-core machine

  it('a client that leaves while waiting gives up its place in the line', async () => {
    const gate = createPlanGate({ concurrency: 1, queue: 1 });
    const first = await gate.acquire();
    const leaving = new AbortController();
    const waiting = gate.acquire(leaving.signal);
    expect(gate.waiting).toBe(1);
    await expect(gate.acquire()).rejects.toMatchObject({ status: 429 });
    leaving.abort(new Error('client closed'));
    await expect(waiting).rejects.toThrow('client closed');
    expect(gate.waiting).toBe(0);
    const next = gate.acquire();
    expect(gate.waiting).toBe(1);
    first();
    const release = await next;
    expect(gate.running).toBe(1);
    release();
    release(); // a second call gives nothing back twice
    expect(gate.running).toBe(0);
  });
});

describe('the embedded store under load', () => {
  it('lets the event loop poll its sockets between statements (a turn per statement, not one turn for the whole queue)', async () => {
    const db = await openSql('memory:');
    try {
      await db.query('SELECT 1');
      let finished = 0;
      let finishedWhenPolled = -1;
      const queries = Array.from({ length: 40 }, () => db.query('SELECT 1').then(() => finished++));
      // A check-phase callback queued now stands for the loop's I/O: it runs at the next turn.
      setImmediate(() => (finishedWhenPolled = finished));
      await Promise.all(queries);
      expect(finished).toBe(40);
      expect(finishedWhenPolled, 'the loop turned only after all 40 statements').toBeGreaterThanOrEqual(0);
      expect(finishedWhenPolled, 'statements run before the loop turned').toBeLessThan(5);
    } finally {
      await db.close();
    }
  });
});

describe('admission of every request', () => {
  it('serves maxInFlight at once; the next wait for a slot, and get 429 server-busy when none frees in waitMs', async () => {
    const h = heldPlanner();
    const t = await makeApp(store, {
      planner: h.planner,
      config: { admission: { maxInFlight: 2, waitMs: 300 }, planConcurrency: 4, planQueue: 4 },
    });
    const user = await store.createAccountKey({ name: 'busy', partnerAdmin: false, initialCredits: 10 });
    const plans = [
      call(t, 'POST', '/api/path-plans/direct', shapeB(), user.apiKey),
      call(t, 'POST', '/api/path-plans/direct', shapeB(), user.apiKey),
    ];
    for (let i = 0; i < 250 && h.held.length < 2; i++) await tick();
    expect(h.held).toHaveLength(2);

    // Both slots held: a read waits its 300 ms, then is refused.
    const asked = performance.now();
    const refused = await call(t, 'GET', '/api/user/current', undefined, user.apiKey);
    expect(performance.now() - asked).toBeGreaterThanOrEqual(290);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(refused.body).toMatchObject({ limit: 2, reason: 'server-busy', retryAfterSeconds: 1, windowSeconds: 1 });
    expect(typeof refused.body.correlationId).toBe('string');
    expect(refused.res.headers.get('Retry-After')).toBe('1');
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'])
      expect(refused.res.headers.get(name)).not.toBeNull();
    // Health checks are not held back.
    expect((await t.app.request('/healthz')).status).toBe(200);

    // A read that arrives while the slots are held is served as soon as one frees.
    const waiting = call(t, 'GET', '/api/user/current', undefined, user.apiKey);
    await tick();
    h.held.shift()?.();
    expect((await plans[0]).status).toBe(200);
    expect((await waiting).status).toBe(200);
    h.held.shift()?.();
    expect((await plans[1]).status).toBe(200);
  });

  it('refuses at once beyond maxWaiting, passes each freed slot to the newest waiter, and drops a waiter that leaves', async () => {
    const admission = createAdmission({ maxInFlight: 1, waitMs: 10_000, maxWaiting: 3 });
    const order: string[] = [];
    const enter = (name: string, signal?: AbortSignal) =>
      admission.acquire(signal).then((release) => (order.push(name), release));
    const first = await enter('first');
    const older = enter('older');
    const leaving = new AbortController();
    const gone = enter('gone', leaving.signal);
    const newest = enter('newest');
    expect(admission.waiting).toBe(3);
    await expect(enter('refused')).rejects.toMatchObject({ status: 429, extra: { reason: 'server-busy' } });
    leaving.abort();
    await expect(gone).rejects.toMatchObject({ status: 499 });
    expect(admission.waiting).toBe(2);
    first();
    (await newest)();
    const last = await older;
    expect(order).toEqual(['first', 'newest', 'older']);
    expect(admission.inFlight).toBe(1);
    last();
    last(); // a second call gives nothing back twice
    expect(admission.inFlight).toBe(0);
  });

  it('lets a request wait longer when requests are served slowly (twice the mean service time, at most 20 × waitMs)', async () => {
    const admission = createAdmission({ maxInFlight: 1, waitMs: 10 });
    expect(admission.currentWaitMs).toBe(10);
    const release = await admission.acquire();
    await new Promise((r) => setTimeout(r, 60));
    release();
    expect(admission.currentWaitMs).toBeGreaterThanOrEqual(100);
    expect(admission.currentWaitMs).toBeLessThanOrEqual(200);
  });

  it('is off unless configured: 50 concurrent requests to an app made without it are all served', async () => {
    const t = await makeApp(store);
    const results = await Promise.all(Array.from({ length: 50 }, () => call(t, 'GET', '/api/user/current')));
    expect(results.map((r) => r.status)).toEqual(new Array(50).fill(200));
  });

  it('takes the bound from the environment in the server', async () => {
    const h = heldPlanner();
    const key = 'furrow-admission-test-key-0123456789abcdef';
    const s = await serve(
      {
        PORT: '0',
        DATABASE_URL: 'memory:',
        FURROW_BOOTSTRAP_API_KEY: key,
        FURROW_LOG_LEVEL: 'silent',
        FURROW_MAX_IN_FLIGHT: '1',
        FURROW_ADMISSION_WAIT_MS: '50',
      },
      { out: () => undefined, planner: h.planner },
    );
    try {
      const headers = { 'X-API-KEY': key, 'Content-Type': 'application/json' };
      const plan = fetch(`${s.url}/api/path-plans/direct`, { method: 'POST', headers, body: JSON.stringify(shapeB()) });
      for (let i = 0; i < 250 && h.held.length < 1; i++) await tick();
      const refused = await fetch(`${s.url}/api/user/current`, { headers });
      expect(refused.status).toBe(429);
      expect((await refused.json()).reason).toBe('server-busy');
      h.held.shift()?.();
      expect((await plan).status).toBe(200);
      expect((await fetch(`${s.url}/api/user/current`, { headers })).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
