/**
 * Direct-plan throughput and latency: the library called in-process versus the HTTP API with 1 and
 * 2 planning workers, loaded from a separate process (load.mjs) over 127.0.0.1.
 *
 *   npx tsc --build packages/api && npx tsx packages/api/bench/direct-plan.bench.ts [--field bg-010] [--seconds 20]
 *
 * Prints a Markdown table for docs/benchmarks/api.md. Bounded: each configuration runs `seconds`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { poolPlanner, serve } from '../src/index.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
const fieldId = args.get('field') ?? 'bg-010';
const seconds = Number(args.get('seconds') ?? 20);
const maxOptimizerTime = Number(args.get('max-optimizer-time') ?? 1);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
// A package name, or a file path relative to the current folder (e.g. test/api/fixtures/stub-plan.mjs).
const plannerSpec = process.env.FURROW_BENCH_PLANNER || '@furrow/core';
const plannerModule = /^[./]|\.m?js$/.test(plannerSpec) ? pathToFileURL(path.resolve(plannerSpec)).href : plannerSpec;
// The pool workers import it too.
process.env.FURROW_BENCH_PLANNER = plannerModule;

const field = JSON.parse(readFileSync(path.join(root, 'test/fields', `${fieldId}.geojson`), 'utf8')).geometry;
const request = {
  field,
  machine: { widthMeters: 6 },
  headland: { passes: 2 },
  tracks: { preferredDirectionDegrees: 0 },
  routeOptions: { maxOptimizerTime },
};

interface Row {
  name: string;
  completed: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

async function library(): Promise<Row> {
  const imported = (await import(plannerModule)) as Record<string, (r: unknown, rt?: { now: () => number }) => { metrics: { distanceMeters: number } }>;
  const mod = { planRoute: imported.planRoute ?? imported.stubPlanRoute };
  const latencies: number[] = [];
  // Warm up (JIT, lazy module state) outside the timed run, as the HTTP rows warm their workers.
  let sink = mod.planRoute(structuredClone(request), { now: () => performance.now() }).metrics.distanceMeters * 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  while (performance.now() < end) {
    const t0 = performance.now();
    sink += mod.planRoute(structuredClone(request), { now: () => performance.now() }).metrics.distanceMeters;
    latencies.push(performance.now() - t0);
  }
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  if (!(sink > 0)) throw new Error('planner returned no distance');
  return {
    name: 'library in-process (1 thread)',
    completed: latencies.length,
    perSecond: latencies.length / elapsed,
    p50Ms: latencies[Math.floor(latencies.length / 2)],
    p99Ms: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))],
    errors: 0,
  };
}

async function http(threads: number, concurrency: number, bodyFile: string): Promise<Row> {
  const key = 'bench-key-0123456789abcdef';
  const server = await serve(
    { PORT: '0', DATABASE_URL: 'memory:', FURROW_BOOTSTRAP_API_KEY: key, FURROW_LOG_LEVEL: 'silent', FURROW_RATE_LIMIT: '1000000', FURROW_INITIAL_CREDITS: '1000000000' },
    { planner: poolPlanner({ threads, filename: path.join(here, 'plan-worker.mjs') }) },
  );
  try {
    // Warm the workers (module load, JIT) outside the timed run.
    await Promise.all(
      Array.from({ length: threads }, () =>
        fetch(`${server.url}/api/path-plans/direct`, { method: 'POST', headers: { 'X-API-KEY': key, 'Content-Type': 'application/json' }, body: readFileSync(bodyFile, 'utf8') }).then((r) => r.text()),
      ),
    );
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(here, 'load.mjs'), `${server.url}/api/path-plans/direct`, key, bodyFile, String(concurrency), String(seconds)], {
      timeout: (seconds + 120) * 1000,
    });
    const r = JSON.parse(stdout) as Row;
    return { ...r, name: `HTTP, ${threads} worker${threads > 1 ? 's' : ''}, ${concurrency} concurrent` };
  } finally {
    await server.close();
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'furrow-bench-'));
try {
  const bodyFile = path.join(dir, 'body.json');
  writeFileSync(bodyFile, JSON.stringify(request));
  const rows: Row[] = [await library(), await http(1, 2, bodyFile), await http(2, 4, bodyFile)];
  const base = rows[0].perSecond;
  console.log(`field ${fieldId}, maxOptimizerTime ${maxOptimizerTime} s, ${seconds} s per row, ${availableParallelism()} cores, load average before ${loadavg()[0].toFixed(1)}`);
  console.log('| configuration | plans | plans/s | ratio to library | p50 ms | p99 ms | errors |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.completed} | ${r.perSecond.toFixed(2)} | ${(r.perSecond / base).toFixed(2)} | ${r.p50Ms.toFixed(0)} | ${r.p99Ms.toFixed(0)} | ${r.errors} |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
