/**
 * API under load: 16 versus 64 connections on loopback, with autocannon.
 *
 * Starts the server itself (`furrow serve` from dist/, a child process on 127.0.0.1, in-memory
 * store, the deployed defaults: rate limit 600 requests / 60 s per key, a planning worker per
 * core, plan admission bounded by FURROW_PLAN_CONCURRENCY / FURROW_PLAN_QUEUE with 429 beyond),
 * provisions through the partner API one company with a field and one end user + key per
 * connection (a population of clients, each with its own key), then runs autocannon for each
 * connection count. Every connection cycles through five authenticated calls: GET
 * /api/user/current, GET /api/credits, GET /api/companies/{id}/fields, GET
 * /api/boundaries/{id}, and POST /api/path-plans/direct of a 1 ha square (width 6 m, 1 headland
 * pass, back-and-forth order: about 30 ms of CPU, so plans and reads both weigh).
 *
 * Reports per run: requests, answers by status, errors beyond 429 (connection errors, timeouts,
 * any status other than 2xx and 429), throughput, latency p50 / p97.5 / p99 / max, the server's
 * CPU seconds (from /proc) and the load average at the start (the machine may be shared).
 *
 *   npm run build && npx tsx bench/api-load.bench.ts [--seconds 60] [--connections 16,64] [--rate R]
 *
 * `--rate R` caps the offered load at R requests/s over all connections (autocannon's
 * overallRate, latencies corrected for coordinated omission): the same offered load at 16 and 64
 * connections shows what concurrency alone costs. Without it each connection sends its next
 * request as soon as the answer comes (closed loop: the run finds the server's capacity, and the
 * per-key rate limit answers 429 beyond 10 requests/s per key).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { freePort } from '../test/support/ports.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const seconds = Number(opt('seconds', '60'));
const connectionCounts = opt('connections', '16,64').split(',').map(Number);
const rate = args.includes('--rate') ? Number(opt('rate', '0')) : undefined;

const root = fileURLToPath(new URL('..', import.meta.url));
const adminKey = `bench_${randomBytes(24).toString('hex')}`;

/** utime + stime of a process, seconds (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['packages/cli/bin/furrow.js', 'serve'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: 'memory:',
      FURROW_BOOTSTRAP_API_KEY: adminKey,
      FURROW_LOG_LEVEL: 'warn',
      FURROW_INITIAL_CREDITS: '1000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not start within 120 s');
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function call<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'X-API-KEY': adminKey, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** One company with a field; `n` end users with access to it, each with credits and a key. */
async function provision(base: string, n: number): Promise<{ keys: string[]; companyId: string; boundaryId: string }> {
  const { companyId } = await call<{ companyId: string }>(base, 'POST', '/api/partner/companies', {
    partnerCompanyId: 'load-co',
    name: 'Load GbR',
    countryCode: 'DE',
  });
  const { growerId } = await call<{ growerId: string }>(base, 'POST', `/api/companies/${companyId}/growers`, {
    name: 'Load',
  });
  const { farmId } = await call<{ farmId: string }>(base, 'POST', `/api/growers/${growerId}/farms`, {
    name: 'Load farm',
  });
  const saved = await call<{ vBoundary: { boundaryId: string } }>(base, 'POST', '/api/fields/save', {
    farmId,
    name: 'Load field',
    boundary: square().coordinates,
  });
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const partnerUserId = `load-user-${i}`;
    await call(base, 'POST', '/api/partner/users', { partnerUserId, firstName: 'Load', lastName: String(i) });
    await call(base, 'POST', '/api/partner/company-accesses', { partnerUserId, partnerCompanyId: 'load-co' });
    await call(base, 'POST', '/api/partner/credits', { partnerUserId, credits: 100_000 });
    keys.push((await call<{ apiKey: string }>(base, 'POST', '/api/api-keys', { name: 'load', partnerUserId })).apiKey);
  }
  return { keys, companyId, boundaryId: saved.vBoundary.boundaryId };
}

/** About 100 m × 110 m near 47.37° N. */
function square() {
  const [lon, lat, d] = [8.54, 47.37, 0.0013];
  return {
    type: 'Polygon',
    coordinates: [
      [
        [lon, lat],
        [lon + d, lat],
        [lon + d, lat + d],
        [lon, lat + d],
        [lon, lat],
      ],
    ],
  };
}

interface RunResult {
  connections: number;
  requests: number;
  byStatus: Record<string, number>;
  errorsBeyond429: number;
  perSecond: number;
  p50: number;
  p97_5: number;
  p99: number;
  max: number;
  serverCpuSeconds: number;
  loadAvg: number;
}

async function run(
  base: string,
  server: ChildProcess,
  keys: string[],
  companyId: string,
  boundaryId: string,
  connections: number,
): Promise<RunResult> {
  const plan = JSON.stringify({
    field: square(),
    machine: { widthMeters: 6 },
    headland: { passes: 1 },
    routeOptions: { algorithm: 'boustrophedon' },
  });
  const requestsFor = (key: string) => {
    const headers = { 'x-api-key': key };
    return [
      { method: 'GET', path: '/api/user/current', headers },
      { method: 'GET', path: '/api/credits', headers },
      { method: 'GET', path: `/api/companies/${companyId}/fields`, headers },
      { method: 'GET', path: `/api/boundaries/${boundaryId}`, headers },
      {
        method: 'POST',
        path: '/api/path-plans/direct',
        headers: { ...headers, 'content-type': 'application/json' },
        body: plan,
      },
    ];
  };
  let next = 0;
  const loadAvg = loadavg()[0];
  const cpu0 = cpuSeconds(server.pid!);
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    timeout: 30,
    ...(rate !== undefined ? { overallRate: rate } : {}),
    requests: requestsFor(keys[0]),
    // Each connection is one client with its own key.
    setupClient: (client: { setRequests(r: unknown[]): void }) =>
      client.setRequests(requestsFor(keys[next++ % keys.length])),
  });
  const serverCpuSeconds = cpuSeconds(server.pid!) - cpu0;
  const byStatus: Record<string, number> = {};
  for (const [code, v] of Object.entries(result.statusCodeStats as Record<string, { count: number }>))
    byStatus[code] = Number(v.count);
  const bad = Object.entries(byStatus)
    .filter(([code]) => !code.startsWith('2') && code !== '429')
    .reduce((s, [, n]) => s + n, 0);
  return {
    connections,
    requests: Object.values(byStatus).reduce((s, n) => s + n, 0),
    byStatus,
    errorsBeyond429: bad + result.errors,
    perSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    max: result.latency.max,
    serverCpuSeconds: Math.round(serverCpuSeconds * 10) / 10,
    loadAvg: Math.round(loadAvg * 10) / 10,
  };
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = await startServer(port);
try {
  const { keys, companyId, boundaryId } = await provision(base, Math.max(...connectionCounts));
  process.stderr.write(
    `server on ${base}; ${keys.length} keys; ${seconds} s per run${rate ? `, offered ${rate} req/s` : ', closed loop'}\n`,
  );
  const rows: RunResult[] = [];
  for (const c of connectionCounts) {
    rows.push(await run(base, server, keys, companyId, boundaryId, c));
    process.stderr.write(`${c} connections done\n`);
  }
  console.log(
    `| connections | requests | req/s | 2xx | 429 | errors beyond 429 | p50 ms | p97.5 ms | p99 ms | max ms | server CPU s | load avg at start |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const ok = Object.entries(r.byStatus)
      .filter(([code]) => code.startsWith('2'))
      .reduce((s, [, n]) => s + n, 0);
    console.log(
      `| ${r.connections} | ${r.requests} | ${r.perSecond} | ${ok} | ${r.byStatus['429'] ?? 0} | ${r.errorsBeyond429} | ${r.p50} | ${r.p97_5} | ${r.p99} | ${r.max} | ${r.serverCpuSeconds} | ${r.loadAvg} |`,
    );
  }
  if (rows.length >= 2) {
    const first = rows[0];
    for (const r of rows.slice(1))
      console.log(`\np99 at ${r.connections} ÷ p99 at ${first.connections}: ${(r.p99 / first.p99).toFixed(2)}`);
  }
  console.log(`\nstatus codes: ${rows.map((r) => `${r.connections}: ${JSON.stringify(r.byStatus)}`).join('; ')}`);
} finally {
  server.kill('SIGTERM');
}
