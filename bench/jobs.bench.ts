/**
 * Guidance-job throughput: the corpus fields (test/fields) as ONE job, planned by
 *  - the embedded engine (PGlite store, claim loop) on a worker-thread pool of 1 vs 2 threads;
 *  - the PostgreSQL engine (pg-boss) by 1 vs 2 `furrow worker --threads 1` processes.
 * Items per second from submit to the job's last item, and the scaling ratio 2 vs 1.
 *
 * Run: `npx tsc --build && npx tsx bench/jobs.bench.ts [--fields=N] [--engines=embedded,postgres] [--repeat=R] [--own-sessions] [--cold]`
 * (N smallest fields; default all 88; R rounds of every row, default 1). Prints Markdown.
 * Each row times the job on workers that have just planned the same job once, untimed: the steady
 * state of a server that has been running, as throughput is measured after a warm-up. With
 * `--cold` every row starts on fresh workers instead, and times their first job, which also pays
 * V8's compilation of the planner (on background threads: about 3 s of CPU per fresh worker for
 * the 88 fields, beside 26 s of planning).
 * PostgreSQL needs Debian's `postgresql` (a throwaway server is started in a temp folder). Each
 * field is planned with the default request of `furrow bulk` (width 6 m, 2 headland passes); a
 * checksum of the results is printed so runs can be compared.
 *
 * The build machine is shared, so wall-clock ratios depend on what else runs. Each row also says
 * how the run used the machine, from figures that do not depend on the load:
 *  - `busy`: the share of the run each worker had an item in hand (Σ item finished − started over
 *    workers × wall time, from the items table). Near 100 % means the engine kept every worker fed;
 *    a lower figure with 2 workers is the engine serialising (claims, the store, polling).
 *  - `CPU s`: processor time of everything taking part (embedded: the bench process, i.e. main
 *    thread + pool threads; PostgreSQL: the worker processes + the PostgreSQL server), per item.
 *    Equal per-item CPU for 1 and 2 workers means the second worker adds no work, so on an idle
 *    2-core machine the wall-clock ratio approaches 2 × busy.
 *  - `cores used`: those CPU seconds over the wall time (at most 2 here, less when others run).
 *  - `main thread busy` (embedded): the bench process's event-loop utilisation, i.e. how much of
 *    the run the thread holding the store and the claim loop was working. Well below 100 % with
 *    2 threads means it is not what limits them.
 * and the load average before and after the row.
 *
 * Linux schedules with autogroups here (/proc/sys/kernel/sched_autogroup_enabled = 1): CPU time
 * is shared fairly between sessions, not threads, so all threads and child processes of this
 * bench together get one session's share. Whenever another session is busy, a second worker
 * thread or process gains nothing from the scheduler, whatever the engine does. With
 * `--own-sessions` each `furrow worker` process starts in a session of its own (setsid), as on
 * separate machines: the PostgreSQL rows then show what a second process adds when it gets its
 * own share. (Worker threads cannot be given one.)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createApp,
  createRateLimiter,
  inProcessPlanner,
  openStore,
  poolPlanner,
  startJobs,
  type Store,
} from '@furrow/api';
import { freePort } from '../test/support/ports.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const fieldLimit = Number(arg('fields') ?? Infinity);
const engines = (arg('engines') ?? 'embedded,postgres').split(',');
const repeat = Number(arg('repeat') ?? 1);
const ownSessions = process.argv.includes('--own-sessions');
const warm = !process.argv.includes('--cold');

interface Field {
  id: string;
  areaHa: number;
  geometry: unknown;
}

function corpus(): Field[] {
  const lines = readFileSync(join(root, 'test/fields/index.csv'), 'utf8').trim().split('\n').slice(1);
  const fields = lines.map((l) => {
    const [id, file, area] = l.split(',');
    return {
      id,
      areaHa: Number(area),
      geometry: JSON.parse(readFileSync(join(root, 'test/fields', file), 'utf8')).geometry,
    };
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
  /** Σ (finished − started) of the items over workers × seconds. */
  busy: number;
  cpuSeconds: number;
  /** Seconds from the submit to the first item's start (the submit transaction and the first claim). */
  firstStart: number;
  /** Embedded: the share of the run the main thread (store, claim loop) was busy; PostgreSQL: undefined. */
  mainBusy?: number;
  loadBefore: string;
  loadAfter: string;
  checksum: string;
}

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** CPU seconds (user + system) of a process, all its threads; 0 when it is gone. */
function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

/** Process ids whose parent is `ppid`. */
function childrenOf(ppid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === ppid) out.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/**
 * Submits the fields as one job through the HTTP app and waits for its last item. `cpu` reads the
 * CPU seconds of whatever plans the job (read before the submit and after the last item).
 */
async function runJob(store: Store, fields: Field[], label: string, workers: number, cpu: () => number): Promise<Run> {
  const { userId, apiKey } = await store.createAccountKey({ name: label, partnerAdmin: true, initialCredits: 100_000 });
  await store.provisionCompany(userId, userId, { partnerCompanyId: `${label}-co`, name: label, countryCode: 'DE' });
  const app = createApp({
    store,
    planner: inProcessPlanner(),
    limiter: createRateLimiter({ points: 1e9, windowSeconds: 60 }),
  });
  const items = fields.map((f) => ({
    boundary: f.geometry,
    equipment: { widthMeters: 6 },
    exteriorHeadlandPasses: 2,
    name: f.id,
  }));
  const body = JSON.stringify({ items });
  const loadBefore = loadavg();
  const cpu0 = cpu();
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  const res = await app.request('/api/guidance-jobs', {
    method: 'POST',
    headers: { 'X-API-KEY': apiKey, 'Content-Type': 'application/json' },
    body,
  });
  if (res.status !== 202) throw new Error(`submit: ${res.status} ${await res.text()}`);
  const { jobId } = (await res.json()) as { jobId: string };
  // The wall clock is the job's own: created_at (the submit) to finished_at (set in the transaction
  // that settles its last item), so the poll can be slow and take next to nothing from the engine
  // it measures (the embedded store shares this thread).
  let seconds: number;
  for (;;) {
    const rows = await store.db.query<{ elapsed: number | string | null }>(
      'SELECT EXTRACT(EPOCH FROM finished_at - created_at) AS elapsed FROM guidance_jobs WHERE job_id = $1',
      [jobId],
    );
    if (rows[0]?.elapsed !== null && rows[0]?.elapsed !== undefined) {
      seconds = Number(rows[0].elapsed);
      break;
    }
    if (performance.now() - t0 > 3_600_000) throw new Error(`job ${jobId} did not finish within an hour`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const cpuSeconds = cpu() - cpu0;
  const mainBusy = performance.eventLoopUtilization(elu0).utilization;
  const loadAfter = loadavg();
  const results = await store.db.query<{
    status: string;
    metrics: unknown;
    held: number | string | null;
    since: number | string | null;
  }>(
    `SELECT i.status, i.metrics, EXTRACT(EPOCH FROM i.finished_at - i.started_at) AS held, EXTRACT(EPOCH FROM i.started_at - j.created_at) AS since
     FROM guidance_job_items i JOIN guidance_jobs j USING (job_id) WHERE job_id = $1 ORDER BY item_index`,
    [jobId],
  );
  const starts = results.map((r) => Number(r.since ?? NaN)).filter((x) => Number.isFinite(x));
  const done = results.filter((r) => r.status === 'done').length;
  const held = results.reduce((sum, r) => sum + Number(r.held ?? 0), 0);
  let h = 0;
  for (const r of results)
    for (const c of JSON.stringify(r.metrics ?? r.status)) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return {
    label,
    workers,
    seconds,
    done,
    failed: results.length - done,
    busy: held / (workers * seconds),
    cpuSeconds,
    firstStart: Math.min(...starts),
    mainBusy,
    loadBefore,
    loadAfter,
    checksum: (h >>> 0).toString(16),
  };
}

/** `runJob`, after an untimed warm-up job of the same fields on the same workers (not with `--cold`). */
async function timedJob(
  store: Store,
  fields: Field[],
  label: string,
  workers: number,
  cpu: () => number,
): Promise<Run> {
  if (!warm) return runJob(store, fields, label, workers, cpu);
  log(`warm-up: ${JSON.stringify(await runJob(store, fields, `${label} warm-up`, workers, cpu))}`);
  return runJob(store, fields, `${label} (warm)`, workers, cpu);
}

async function embedded(fields: Field[], threads: number): Promise<Run> {
  const store = await openStore('memory:');
  const planner = poolPlanner({ threads });
  const jobs = await startJobs({ store, planner, concurrency: threads, pollMs: 50 });
  try {
    const cpu = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1e6;
    };
    return await timedJob(store, fields, `embedded, ${threads} worker thread${threads > 1 ? 's' : ''}`, threads, cpu);
  } finally {
    await jobs.close();
    await planner.close();
    await store.close();
  }
}

async function startPostgres(): Promise<{ url: string; serverPid: () => number; stop: () => void }> {
  const bin = ['18', '17', '16', '15']
    .map((v) => `/usr/lib/postgresql/${v}/bin`)
    .find((d) => existsSync(`${d}/initdb`));
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'furrow-bench-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const sh = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' })
      : execFileSync(cmd, args, { stdio: 'pipe' });
  sh(`${bin}/initdb`, ['-D', join(dir, 'data'), '--auth=trust', '-U', 'postgres', '--no-sync']);
  const port = await freePort();
  sh(`${bin}/pg_ctl`, [
    '-D',
    join(dir, 'data'),
    '-l',
    join(dir, 'log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    '-w',
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    serverPid: () => Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]),
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
        detached: ownSessions,
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
    // The worker processes (all their threads) and the PostgreSQL server (postmaster and backends).
    const server = pg.serverPid();
    const cpu = () =>
      [...children.map((c) => c.pid!), server, ...childrenOf(server)].reduce(
        (sum, pid) => sum + processCpuSeconds(pid),
        0,
      );
    const label = `PostgreSQL, ${processes} furrow worker process${processes > 1 ? 'es' : ''}${ownSessions ? ' (own sessions)' : ''}`;
    return { ...(await timedJob(store, fields, label, processes, cpu)), mainBusy: undefined };
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(
      children.map((c) => new Promise((r) => (c.exitCode !== null ? r(undefined) : c.once('exit', r)))),
    );
    await sender.close();
    await store.close();
    pg.stop();
  }
}

const log = (s: string) => process.stderr.write(`${s}\n`);
const fields = corpus();
const runs: Run[] = [];

for (let round = 0; round < repeat; round++) {
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
}

console.log(
  `${fields.length} corpus fields as one job, ${repeat} round(s)${ownSessions ? ', worker processes in their own sessions' : ''}${warm ? ', each timed job after an untimed warm-up job of the same fields on the same workers' : ''}; load average at the end: ${loadavg()} (2 cores)\n`,
);
console.log(
  '| engine | workers | seconds | items/s | done | failed | ratio vs 1 | busy | first item s | CPU s/item | cores used | main thread busy | load before → after | checksum |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|');
for (const [i, r] of runs.entries()) {
  // The baseline is the 1-worker row of the same engine in the same round.
  const base = runs
    .slice(0, i + 1)
    .findLast((b) => b.label.split(',')[0] === r.label.split(',')[0] && b.workers === 1)!;
  const rate = (x: Run) => (x.done + x.failed) / x.seconds;
  const n = r.done + r.failed;
  console.log(
    `| ${r.label} | ${r.workers} | ${r.seconds.toFixed(1)} | ${rate(r).toFixed(2)} | ${r.done} | ${r.failed} | ${(rate(r) / rate(base)).toFixed(2)}× | ` +
      `${(100 * r.busy).toFixed(0)} % | ${r.firstStart.toFixed(2)} | ${(r.cpuSeconds / n).toFixed(3)} | ${(r.cpuSeconds / r.seconds).toFixed(2)} | ${r.mainBusy === undefined ? '–' : `${(100 * r.mainBusy).toFixed(0)} %`} | ${r.loadBefore.split(' ')[0]} → ${r.loadAfter.split(' ')[0]} | ${r.checksum} |`,
  );
}
