/**
 * `furrow worker` processes on PostgreSQL (pg-boss) with the real planner: a worker killed with
 * SIGKILL mid-job and a fresh one started finish the job with each item planned into the results
 * once and charged once; then `furrow bulk --api` against `furrow serve` without an in-process
 * worker. Runs the built CLI (npm test builds first).
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, copyFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createApp,
  createRateLimiter,
  inProcessPlanner,
  openStore,
  serve,
  startJobs,
  type JobService,
  type RunningServer,
  type Store,
} from '@furrow/api';
import { describeWith } from '../support/requires.js';
import { startPostgres, type TestPostgres } from '../api/pg.js';
import { readCorpusField } from '../api/support.js';
import { accountWithCompany, allResults, call, waitForJob } from './support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'packages/cli/bin/furrow.js');
const built =
  existsSync(join(root, 'packages/cli/dist/index.js')) && existsSync(join(root, 'packages/api/dist/worker.js'));
const run = promisify(execFile);

/**
 * Small corpus fields and it-tus-033 (58.7 ha, 21 holes), which plans for a second or two with 2
 * headland passes: with small fields only, every item can finish within the 300 ms the test waits
 * to see one running, and the kill would find none. (With 1 pass it plans for 15-30 s, longer than
 * the 6 s expiry below: pg-boss would then redeliver it while it is still being planned.) The
 * queue takes it first (largest first).
 */
const FIELDS = [
  'de-bb-074',
  'cz-023',
  'pt-022',
  'it-tus-033',
  'pt-017',
  'be-vlg-038',
  'at-033',
  'nl-brp-083',
  'pt-026',
];

describeWith(['postgres'], 'furrow worker processes (pg-boss): SIGKILL mid-job, restart, bulk through the API', () => {
  let pg: TestPostgres;
  let store: Store;
  let sender: JobService;
  const workers: ChildProcess[] = [];
  const jobEnv = {
    FURROW_JOB_EXPIRE_SECONDS: '12',
    FURROW_JOB_MAINTENANCE_SECONDS: '2',
    FURROW_JOB_RETRY_DELAY_SECONDS: '1',
    FURROW_LOG_LEVEL: 'warn',
  };

  const startWorker = (env: Record<string, string>) => {
    const child = spawn(process.execPath, [bin, 'worker', '--threads', '1'], {
      cwd: root,
      env: { ...process.env, ...jobEnv, DATABASE_URL: pg.url, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += String(d)));
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal !== 'SIGKILL' && signal !== 'SIGTERM')
        process.stderr.write(`furrow worker exited ${code ?? signal}: ${stderr}\n`);
    });
    workers.push(child);
    return child;
  };

  beforeAll(async () => {
    pg = await startPostgres();
    store = await openStore(pg.url);
    // This process only submits: its job service inserts into pg-boss and plans nothing.
    sender = await startJobs({
      store,
      planner: inProcessPlanner(),
      worker: false,
      pgBoss: { expireInSeconds: 12, maintenanceIntervalSeconds: 2 },
    });
  }, 60_000);
  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGTERM');
    await Promise.all(
      workers.map((w) =>
        w.exitCode === null && w.signalCode === null ? new Promise((r) => w.once('exit', r)) : undefined,
      ),
    );
    await sender?.close();
    await store?.close();
    pg?.stop();
  }, 60_000);

  it.skipIf(!built)(
    'a worker killed mid-item leaves it to be retried; the job completes with each item once',
    async () => {
      const acct = await accountWithCompany(store, 'killed', 100, 0);
      const app = createApp({ store, limiter: createRateLimiter({ points: 100_000, windowSeconds: 60 }) });
      // maxOptimizerTime 3 s keeps every item well under the 12 s expiry, also beside other suites
      // (the limit stops the ordering; connecting and measuring it-tus-033 take a few seconds more).
      const items = FIELDS.map((id) => ({
        boundary: readCorpusField(id).geometry,
        equipment: { widthMeters: 6 },
        exteriorHeadlandPasses: 2,
        routeOptions: { maxOptimizerTime: 3 },
        name: id,
      }));
      const submitted = await call(app, 'POST', '/api/guidance-jobs', acct.apiKey, { items });
      expect(submitted.status).toBe(202);
      const jobId = submitted.body.jobId as string;

      const first = startWorker({});
      // Kill it while an item is being planned (it-tus-033, taken first).
      const deadline = Date.now() + 90_000;
      let running: { item_index: number }[];
      for (;;) {
        running = await store.db.query<{ item_index: number }>(
          "SELECT item_index FROM guidance_job_items WHERE job_id = $1 AND status = 'running' AND started_at < now() - interval '300 milliseconds'",
          [jobId],
        );
        if (running.length > 0) break;
        if (Date.now() > deadline) throw new Error('the worker never got going');
        await new Promise((r) => setTimeout(r, 50));
      }
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));
      const killedIndex = Number(running[0].item_index);

      startWorker({});
      const final = await waitForJob(app, acct.apiKey, jobId, 150_000);
      expect(final.body.status).toBe('completed');
      expect(final.body.progress).toMatchObject({ done: FIELDS.length, failed: 0, total: FIELDS.length });
      const results = await allResults(app, acct.apiKey, jobId);
      expect(results.every((r) => r.status === 'done' && typeof r.planId === 'string')).toBe(true);
      // The killed item was started again.
      expect(results[killedIndex].attempts).toBeGreaterThanOrEqual(2);
      // One plan per item, one charge per item.
      const plans = await store.db.query<{ boundary_id: string; n: string }>(
        'SELECT p.boundary_id, count(*) AS n FROM plans p JOIN guidance_job_items i ON i.boundary_id = p.boundary_id WHERE i.job_id = $1 GROUP BY p.boundary_id',
        [jobId],
      );
      expect(plans.length).toBe(FIELDS.length);
      expect(plans.every((p) => Number(p.n) === 1)).toBe(true);
      const charges = await store.db.query<{ reason: string }>(
        'SELECT reason FROM credit_ledger WHERE reason LIKE $1',
        [`guidance-jobs/${jobId}/%`],
      );
      expect(charges.length).toBe(FIELDS.length);
      expect(await store.balance('user', acct.userId)).toBe(100 - FIELDS.length);
    },
    240_000,
  );

  it.skipIf(!built)(
    'furrow bulk --api plans a folder through furrow serve (no in-process worker) and furrow worker',
    async () => {
      const acct = await accountWithCompany(store, 'bulk-api', 100, 0);
      const dir = mkdtempSync(join(tmpdir(), 'furrow-bulk-'));
      mkdirSync(join(dir, 'in'));
      for (const id of FIELDS.slice(0, 3))
        copyFileSync(join(root, `test/fields/${id}.geojson`), join(dir, 'in', `${id}.geojson`));
      if (!workers.some((w) => w.exitCode === null && w.signalCode === null)) startWorker({});
      let server: RunningServer | undefined;
      try {
        server = await serve(
          {
            DATABASE_URL: pg.url,
            PORT: '0',
            FURROW_INPROCESS_WORKER: '0',
            FURROW_PLAN_THREADS: '0',
            FURROW_LOG_LEVEL: 'silent',
            ...jobEnv,
          },
          { out: () => undefined },
        );
        const { stdout } = await run(
          process.execPath,
          [
            bin,
            'bulk',
            join(dir, 'in'),
            '--api',
            server.url,
            '--key',
            acct.apiKey,
            '--poll-seconds',
            '0.3',
            '--out',
            join(dir, 'out'),
          ],
          {
            cwd: root,
            timeout: 150_000,
          },
        );
        expect(stdout).toMatch(/3 of 3 fields planned/);
        for (const id of FIELDS.slice(0, 3)) {
          expect(stdout).toContain(id);
          const plan = JSON.parse(readFileSync(join(dir, 'out', `${id}.json`), 'utf8'));
          expect(plan.metrics.fieldAreaSquareMeters).toBeGreaterThan(0);
        }
      } finally {
        await server?.close();
      }
    },
    200_000,
  );
});
