/**
 * Plans are admitted within a bound: `planConcurrency` run, `planQueue` wait, the rest get 429 at
 * once (rate-limit body, Retry-After, no credit taken), so a burst of plans cannot queue up
 * without bound and the plans taken are answered in bounded time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlanGate, openSql, openStore, type Store } from '@furrow/api';
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
