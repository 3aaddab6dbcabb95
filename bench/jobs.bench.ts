/**
 * Guidance-job throughput (issue 9): the corpus fields (test/fields) as ONE job, planned by
 *  - the embedded engine (PGlite store, claim loop) on a worker-thread pool of 1 vs 2 threads;
 *  - the PostgreSQL engine (pg-boss) by 1 vs 2 `furrow worker --threads 1` processes.
 * Items per second from submit to the job's last item, and the scaling ratio 2 vs 1.
 *
 * Run: `npx tsc --build && npx tsx bench/jobs.bench.ts [--fields=N] [--engines=embedded,postgres]`
 * (N smallest fields; default all 88). Prints Markdown. PostgreSQL needs Debian's `postgresql`
 * (a throwaway server is started in a temp folder). Each field is planned with the default request
 * of `furrow bulk` (width 6 m, 2 headland passes); a checksum of the results is printed so runs
 * can be compared.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp, createRateLimiter, inProcessPlanner, openStore, poolPlanner, startJobs, type Store } from '@furrow/api';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const fieldLimit = Number(arg('fields') ?? Infinity);
const engines = (arg('engines') ?? 'embedded,postgres').split(',');

interface Field {
  id: string;
  areaHa: number;
  geometry: unknown;
}

function corpus(): Field[] {
  const lines = readFileSync(join(root, 'test/fields/index.csv'), 'utf8').trim().split('\n').slice(1);
  const fields = lines.map((l) => {
    const [id, file, area] = l.split(',');
    return { id, areaHa: Number(area), geometry: JSON.parse(readFileSync(join(root, 'test/fields', file), 'utf8')).geometry };
  });
  fields.sort((a, b) => a.areaHa - b.areaHa || a.id.localeCompare(b.id));
  return fields.slice(0, fieldLimit);
}

interface Run {
  label: string;
  workers: number;
  seconds: number;
  done: number;
  failed: number;
  checksum: string;
}

/** Submits the fields as one job through the HTTP app and waits for its last item. */
async function runJob(store: Store, fields: Field[], label: string, workers: number): Promise<Run> {
  const { userId, apiKey } = await store.createAccountKey({ name: label, partnerAdmin: true, initialCredits: 100_000 });
  await store.provisionCompany(userId, userId, { partnerCompanyId: `${label}-co`, name: label, countryCode: 'DE' });
  const app = createApp({ store, planner: inProcessPlanner(), limiter: createRateLimiter({ points: 1e9, windowSeconds: 60 }) });
  const items = fields.map((f) => ({ boundary: f.geometry, equipment: { widthMeters: 6 }, exteriorHeadlandPasses: 2, name: f.id }));
  const t0 = performance.now();
  const res = await app.request('/api/guidance-jobs', { method: 'POST', headers: { 'X-API-KEY': apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify({ items }) });
  if (res.status !== 202) throw new Error(`submit: ${res.status} ${await res.text()}`);
  const { jobId } = (await res.json()) as { jobId: string };
  for (;;) {
    const rows = await store.db.query<{ n: string }>("SELECT count(*) AS n FROM guidance_job_items WHERE job_id = $1 AND status IN ('queued', 'running')", [jobId]);
    if (Number(rows[0].n) === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - t0) / 1000;
  const results = await store.db.query<{ status: string; metrics: unknown }>('SELECT status, metrics FROM guidance_job_items WHERE job_id = $1 ORDER BY item_index', [jobId]);
  const done = results.filter((r) => r.status === 'done').length;
  let h = 0;
  for (const r of results) for (const c of JSON.stringify(r.metrics ?? r.status)) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return { label, workers, seconds, done, failed: results.length - done, checksum: (h >>> 0).toString(16) };
}

async function embedded(fields: Field[], threads: number): Promise<Run> {
  const store = await openStore('memory:');
  const planner = poolPlanner({ threads });
  const jobs = await startJobs({ store, planner, concurrency: threads, pollMs: 50 });
  try {
    return await runJob(store, fields, `embedded, ${threads} worker thread${threads > 1 ? 's' : ''}`, threads);
  } finally {
    await jobs.close();
    await planner.close();
    await store.close();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function startPostgres(): Promise<{ url: string; stop: () => void }> {
  const bin = ['18', '17', '16', '15'].map((v) => `/usr/lib/postgresql/${v}/bin`).find((d) => existsSync(`${d}/initdb`));
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'furrow-bench-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const sh = (cmd: string, args: string[]) => (asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' }) : execFileSync(cmd, args, { stdio: 'pipe' }));
  sh(`${bin}/initdb`, ['-D', join(dir, 'data'), '--auth=trust', '-U', 'postgres', '--no-sync']);
  const port = await freePort();
  sh(`${bin}/pg_ctl`, ['-D', join(dir, 'data'), '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      sh(`${bin}/pg_ctl`, ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgres(fields: Field[], processes: number): Promise<Run> {
  const pg = await startPostgres();
  const store = await openStore(pg.url);
  const sender = await startJobs({ store, planner: inProcessPlanner(), worker: false });
  const children: ChildProcess[] = [];
  try {
    const ready: Promise<void>[] = [];
    for (let i = 0; i < processes; i++) {
      const child = spawn(process.execPath, [join(root, 'packages/cli/bin/furrow.js'), 'worker', '--threads', '1'], {
        env: { ...process.env, DATABASE_URL: pg.url, FURROW_LOG_LEVEL: 'info' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      children.push(child);
      // Timing starts once every worker logged that it is ready.
      ready.push(
        new Promise((resolve, reject) => {
          let text = '';
          child.stderr!.on('data', (d) => {
            text += String(d);
            if (text.includes('furrow worker ready')) resolve();
          });
          child.once('exit', (code) => reject(new Error(`furrow worker exited (${code}): ${text}`)));
        }),
      );
    }
    await Promise.all(ready);
    await new Promise((r) => setTimeout(r, 1000));
    return await runJob(store, fields, `PostgreSQL, ${processes} furrow worker process${processes > 1 ? 'es' : ''}`, processes);
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(undefined) : c.once('exit', r)))));
    await sender.close();
    await store.close();
    pg.stop();
  }
}

const log = (s: string) => process.stderr.write(`${s}\n`);
const fields = corpus();
const runs: Run[] = [];

if (engines.includes('embedded')) {
  for (const threads of [1, 2]) {
    runs.push(await embedded(fields, threads));
    log(JSON.stringify(runs.at(-1)));
  }
}
if (engines.includes('postgres')) {
  for (const processes of [1, 2]) {
    runs.push(await postgres(fields, processes));
    log(JSON.stringify(runs.at(-1)));
  }
}

const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`${fields.length} corpus fields as one job; load average at the end: ${load} (2 cores)\n`);
console.log('| engine | workers | seconds | items/s | done | failed | ratio vs 1 | checksum |');
console.log('|---|---:|---:|---:|---:|---:|---:|---|');
for (const r of runs) {
  const base = runs.find((b) => b.label.split(',')[0] === r.label.split(',')[0] && b.workers === 1)!;
  const rate = (x: Run) => (x.done + x.failed) / x.seconds;
  console.log(`| ${r.label} | ${r.workers} | ${r.seconds.toFixed(1)} | ${rate(r).toFixed(2)} | ${r.done} | ${r.failed} | ${(rate(r) / rate(base)).toFixed(2)}× | ${r.checksum} |`);
}
