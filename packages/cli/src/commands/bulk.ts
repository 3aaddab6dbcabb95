/**
 * `furrow bulk <folder|zip|FeatureCollection> [--out DIR] [--api URL --key KEY]` (docs/jobs.md):
 * plans every field found, locally on all cores (worker threads) or through a server's guidance-job
 * API (submit, poll every 5 s, fetch results). A progress bar with ETA on stderr, then a summary
 * table of metrics; every failure is listed. Exit 0 when all fields planned, 1 when some failed,
 * 2 on unusable input.
 */
import { availableParallelism } from 'node:os';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { PathPlanRequest } from '@furrow/core';
import cliProgress from 'cli-progress';
import { readBoundaryFile } from '../io/boundary.js';
import { UsageError } from '../errors.js';
import { loadApi } from '../optional.js';
import { buildRequest, type PlanCommandOptions } from './plan.js';

export interface BulkOptions extends Pick<
  PlanCommandOptions,
  'width' | 'headlandPasses' | 'turnRadius' | 'heading' | 'request'
> {
  out?: string;
  api?: string;
  key?: string;
  company?: string;
  threads?: string;
  /** Poll interval in API mode, seconds (default 5; the server's Retry-After). */
  pollSeconds?: string;
  /** Where progress and the summary go (default stderr / stdout). */
  err?: (s: string) => void;
  log?: (s: string) => void;
  /** Draw the progress bar (default: when its stream is a terminal; forced on, a line per second elsewhere). */
  progress?: boolean;
  /** Where the progress bar goes (default stderr). */
  progressStream?: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface BulkField {
  name: string;
  source: string;
  request: PathPlanRequest;
}

export interface BulkRow {
  name: string;
  ok: boolean;
  metrics?: Record<string, number>;
  error?: string;
  planId?: string;
}

const BOUNDARY_EXTENSIONS = new Set(['.geojson', '.json', '.wkt', '.kml', '.zip', '.xml', '.shp']);

/** Every field of a folder (each supported file), a zip or a FeatureCollection, with its request. */
export async function collectFields(
  input: string,
  flags: BulkOptions,
): Promise<{ fields: BulkField[]; unreadable: BulkRow[] }> {
  let base: PathPlanRequest = {};
  if (flags.request) {
    try {
      base = JSON.parse(await readFile(flags.request, 'utf8')) as PathPlanRequest;
    } catch (err) {
      throw new UsageError(`--request ${flags.request}: ${(err as Error).message}`);
    }
  }
  let files: string[];
  let info;
  try {
    info = await stat(input);
  } catch {
    throw new UsageError(`cannot read ${input}: no such file or folder`);
  }
  if (info.isDirectory()) {
    files = (await readdir(input))
      .filter((f) => BOUNDARY_EXTENSIONS.has(extname(f).toLowerCase()))
      .sort()
      .map((f) => join(input, f));
  } else {
    files = [input];
  }
  const fields: BulkField[] = [];
  const unreadable: BulkRow[] = [];
  const names = new Set<string>();
  for (const file of files) {
    const stem = basename(file).replace(/\.[^.]+$/, '');
    let parsed;
    try {
      parsed = await readBoundaryFile(file);
    } catch (err) {
      if (files.length === 1) throw err;
      // Listed as a failure in the summary, not dropped.
      unreadable.push({ name: stem, ok: false, error: `unreadable: ${(err as Error).message}` });
      continue;
    }
    parsed.forEach((b, i) => {
      const label = String(b.properties?.name ?? b.properties?.id ?? (parsed.length > 1 ? `${stem}-${i + 1}` : stem));
      let name = label.replace(/[^\w.-]+/g, '_');
      for (let k = 2; names.has(name); k++) name = `${label}-${k}`;
      names.add(name);
      const obstacles = [
        ...(b.obstacles ?? []).map((geometry) => ({ geometry })),
        ...(b.passableZones ?? []).map((geometry) => ({ geometry, passable: true })),
      ];
      fields.push({ name, source: file, request: buildRequest(base, b.geometry, obstacles, flags) });
    });
  }
  if (fields.length === 0)
    throw new UsageError(
      `${input}: no field boundary found${unreadable.length ? ` (${unreadable.map((u) => u.error).join('; ')})` : ''}`,
    );
  return { fields, unreadable };
}

function bar(total: number, opts: BulkOptions) {
  const stream = opts.progressStream ?? process.stderr;
  const tty = stream.isTTY === true;
  const show = opts.progress ?? tty;
  if (!show) return { update: (_n: number, _failed: number) => undefined, stop: () => undefined };
  const b = new cliProgress.SingleBar(
    {
      format: 'planning {bar} {value}/{total} fields | {failed} failed | ETA {eta_formatted} | {duration_formatted}',
      stream,
      hideCursor: tty,
      // Asked for on a pipe or a log file: one line per second instead of redrawing.
      noTTYOutput: !tty,
      notTTYSchedule: 1000,
    },
    cliProgress.Presets.shades_classic,
  );
  b.start(total, 0, { failed: 0 });
  return { update: (n: number, failed: number) => b.update(n, { failed }), stop: () => b.stop() };
}

async function planLocally(fields: BulkField[], opts: BulkOptions): Promise<BulkRow[]> {
  const { poolPlanner } = await loadApi('bulk');
  const threads = opts.threads ? Number(opts.threads) : availableParallelism();
  if (!Number.isInteger(threads) || threads < 1)
    throw new UsageError(`--threads must be a whole number ≥ 1, got "${opts.threads}"`);
  const planner = poolPlanner({ threads });
  const rows: BulkRow[] = new Array(fields.length);
  const progress = bar(fields.length, opts);
  let finished = 0;
  let failed = 0;
  try {
    let next = 0;
    const worker = async () => {
      while (next < fields.length) {
        const i = next++;
        const f = fields[i];
        try {
          const plan = await planner.plan(f.request, AbortSignal.timeout(120_000));
          rows[i] = { name: f.name, ok: true, metrics: plan.metrics as Record<string, number> };
          if (opts.out) await writeFile(join(opts.out, `${f.name}.json`), `${JSON.stringify(plan)}\n`);
        } catch (err) {
          const e = err as Error & { code?: string };
          rows[i] = { name: f.name, ok: false, error: e.code ? `${e.code}: ${e.message}` : e.message };
          failed++;
        }
        progress.update(++finished, failed);
      }
    };
    await Promise.all(Array.from({ length: Math.min(threads, fields.length) }, worker));
  } finally {
    progress.stop();
    await planner.close();
  }
  return rows;
}

/** Attempts of one API call answered 429 (rate limited) or 503 before giving up. */
const API_ATTEMPTS = 6;

/**
 * One call to the server. A 429 or 503 is retried after the server's `Retry-After` (or an
 * exponential backoff from 1 s when it gives none), up to API_ATTEMPTS times, as the spec asks
 * of clients; a long job with --out reads one plan per field and can meet the rate limit.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of several shapes, read field by field
async function api(opts: BulkOptions, method: string, path: string, body?: unknown): Promise<any> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(new URL(path, opts.api), {
      method,
      headers: { 'X-API-KEY': opts.key ?? '', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if ((res.status === 429 || res.status === 503) && attempt < API_ATTEMPTS) {
      const retryAfter = Number(res.headers.get('Retry-After'));
      const waitSeconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 2 ** (attempt - 1);
      opts.err?.(`${method} ${path}: HTTP ${res.status}; retrying in ${waitSeconds} s\n`);
      await new Promise((r) => setTimeout(r, waitSeconds * 1000));
      continue;
    }
    const json = text ? JSON.parse(text) : undefined;
    if (!res.ok) {
      const message = json?.error?.message ?? json?.message ?? text;
      const e = new Error(`${method} ${path}: HTTP ${res.status}: ${message}`);
      if (res.status === 400 || res.status === 402 || res.status === 404 || res.status === 422) e.name = 'UsageError';
      throw e;
    }
    return json;
  }
}

async function planThroughApi(fields: BulkField[], opts: BulkOptions): Promise<BulkRow[]> {
  if (!opts.key) throw new UsageError('--api needs --key (or FURROW_API_KEY)');
  const pollMs = Math.max(0.05, Number(opts.pollSeconds ?? 5)) * 1000;
  const body: Record<string, unknown> = { items: fields.map((f) => ({ ...f.request, name: f.name })) };
  if (opts.company) body.companyId = opts.company;
  const job = await api(opts, 'POST', '/api/guidance-jobs', body);
  opts.err?.(`job ${job.jobId}: ${fields.length} fields submitted to ${opts.api}\n`);
  const progress = bar(fields.length, opts);
  let view = job;
  try {
    while (view.progress.queued + view.progress.running > 0) {
      await new Promise((r) => setTimeout(r, pollMs));
      view = await api(opts, 'GET', `/api/guidance-jobs/${job.jobId}`);
      progress.update(view.progress.done + view.progress.failed + view.progress.cancelled, view.progress.failed);
    }
  } finally {
    progress.stop();
  }
  const rows: BulkRow[] = [];
  for (let offset = 0; offset < fields.length; offset += 500) {
    const page = await api(opts, 'GET', `/api/guidance-jobs/${job.jobId}/results?limit=500&offset=${offset}`);
    for (const r of page.items) {
      const name = fields[r.index].name;
      if (r.status === 'done') rows.push({ name, ok: true, metrics: r.metrics, planId: r.planId });
      else
        rows.push({
          name,
          ok: false,
          error: r.error ? `${r.error.reason ?? r.error.code}: ${r.error.message}` : r.status,
        });
    }
  }
  if (opts.out) {
    for (const row of rows) {
      if (!row.planId) continue;
      const stored = await api(opts, 'GET', `/api/plans/${row.planId}`);
      await writeFile(join(opts.out, `${row.name}.json`), `${JSON.stringify(stored.plan)}\n`);
    }
  }
  return rows;
}

const fmt = (v: unknown, digits = 0): string => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : '-');

/** The summary: one row per field, totals, then every failure with its reason. */
export function summaryTable(rows: BulkRow[], seconds: number): string {
  const header = ['field', 'status', 'area ha', 'distance m', 'working m', 'turns', 'time min', 'overlap %'];
  const body = rows.map((r) => [
    r.name,
    r.ok ? 'ok' : 'FAILED',
    fmt((r.metrics?.fieldAreaSquareMeters ?? NaN) / 10_000, 2),
    fmt(r.metrics?.distanceMeters),
    fmt(r.metrics?.workingDistanceMeters),
    fmt(r.metrics?.turns),
    fmt((r.metrics?.timeSeconds ?? NaN) / 60, 1),
    fmt((r.metrics?.overlapRatio ?? NaN) * 100, 1),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((row) => row[c].length)));
  const line = (cells: string[]) =>
    cells.map((s, c) => (c < 2 ? s.padEnd(widths[c]) : s.padStart(widths[c]))).join('  ');
  const ok = rows.filter((r) => r.ok);
  const failed = rows.filter((r) => !r.ok);
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)];
  const sum = (k: string) => ok.reduce((s, r) => s + (r.metrics?.[k] ?? 0), 0);
  out.push(
    '',
    `${ok.length} of ${rows.length} fields planned in ${seconds.toFixed(1)} s ` +
      `(${(rows.length / Math.max(seconds, 1e-9)).toFixed(2)} fields/s); ` +
      `${(sum('fieldAreaSquareMeters') / 10_000).toFixed(1)} ha, ${(sum('distanceMeters') / 1000).toFixed(1)} km, ` +
      `${(sum('timeSeconds') / 3600).toFixed(1)} h`,
  );
  if (failed.length > 0) {
    out.push('', `${failed.length} failed:`);
    for (const r of failed) out.push(`  ${r.name}: ${r.error}`);
  }
  return `${out.join('\n')}\n`;
}

export async function runBulk(input: string, opts: BulkOptions): Promise<number> {
  const log = opts.log ?? ((s: string) => process.stdout.write(s));
  const err = opts.err ?? ((s: string) => process.stderr.write(s));
  opts = { ...opts, err, key: opts.key ?? process.env.FURROW_API_KEY };
  if (opts.key && !opts.api) throw new UsageError('--key is only used with --api URL');
  const { fields, unreadable } = await collectFields(input, opts);
  if (opts.out) await mkdir(opts.out, { recursive: true });
  const started = performance.now();
  const rows = [...(opts.api ? await planThroughApi(fields, opts) : await planLocally(fields, opts)), ...unreadable];
  const seconds = (performance.now() - started) / 1000;
  if (opts.out) {
    await writeFile(join(opts.out, 'summary.json'), `${JSON.stringify({ seconds, fields: rows }, null, 2)}\n`);
  }
  log(summaryTable(rows, seconds));
  return rows.every((r) => r.ok) ? 0 : 1;
}
