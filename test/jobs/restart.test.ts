/**
 * Embedded store (PGlite on disk): a job submitted before a shutdown is finished after the restart,
 * including items a crash left `running` (their lease far in the future), each planned once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, createRateLimiter, openStore, startJobs } from '@furrow/api';
import { accountWithCompany, allResults, call, fakePlanner, squareAt, waitForJob } from './support.js';

describe('guidance jobs survive a restart of the embedded store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'furrow-jobs-restart-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finishes a job submitted before the restart, re-running items left running by a crash', async () => {
    const calls = new Map<string, number>();
    const url = `file:${join(dir, 'db')}`;
    const limiter = createRateLimiter({ points: 100_000, windowSeconds: 60 });

    // Before: the job is accepted, but no worker plans it; a crash leaves two items running.
    const before = await openStore(url);
    const acct = await accountWithCompany(before, 'restart', 100, 0);
    const sender = await startJobs({ store: before, planner: fakePlanner(calls), worker: false });
    const app1 = createApp({ store: before, limiter });
    const items = Array.from({ length: 6 }, (_, i) => ({
      boundary: squareAt(3 + i * 0.01),
      equipment: { widthMeters: 6 },
    }));
    const submitted = await call(app1, 'POST', '/api/guidance-jobs', acct.apiKey, { items });
    expect(submitted.status).toBe(202);
    const jobId = submitted.body.jobId;
    await before.db.query(
      "UPDATE guidance_job_items SET status = 'running', attempts = 1, started_at = now(), lease_until = now() + interval '1 hour' WHERE job_id = $1 AND item_index < 2",
      [jobId],
    );
    await sender.close();
    await before.close();
    expect(calls.size).toBe(0);

    // After: a server with its in-process worker on the same folder.
    const after = await openStore(url);
    const jobs = await startJobs({ store: after, planner: fakePlanner(calls), pollMs: 50, concurrency: 2 });
    try {
      const app2 = createApp({ store: after, limiter });
      const final = await waitForJob(app2, acct.apiKey, jobId, 30_000);
      expect(final.body.status).toBe('completed');
      const results = await allResults(app2, acct.apiKey, jobId);
      expect(results.map((r) => r.attempts)).toEqual([2, 2, 1, 1, 1, 1]);
      expect([...calls.values()]).toEqual([1, 1, 1, 1, 1, 1]);
      expect(await after.balance('user', acct.userId)).toBe(94);
    } finally {
      await jobs.close();
      await after.close();
    }
  }, 90_000);
});
