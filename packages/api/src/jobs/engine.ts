/**
 * Bulk guidance jobs, the part every engine shares: the SQL of jobs and items (submit, status,
 * results, cancel), and `runClaimedItem`, which plans one claimed item and records it.
 *
 * The items table is the source of truth. Completion is idempotent: the plan row, the credit
 * charge and the item's `done` state are written in one transaction that first locks the item
 * and only proceeds while it is still `running`, so a redelivered item (at-least-once delivery)
 * is planned into the results at most once and charged at most once.
 */
import { randomUUID } from 'node:crypto';
import { isPlanError } from '@furrow/core';
import type { Logger } from 'pino';
import { ApiError } from '../errors.js';
import { assertValidRequestGeometry } from '../geometry.js';
import {
  PlanAbortedError,
  apiPlanShape,
  planJson,
  planTimeLimitSeconds,
  type PlanJson,
  type Planner,
} from '../planner.js';
import { PathPlanRequestSchema, issuesToDetails, type PathPlanRequestBody } from '../schemas.js';
import { int, iso, isoOrNull, json, rowMapper, text, type Row } from '../store/rows.js';
import type { Sql } from '../store/sql.js';
import { chargeFirstIn, planPayers, type Store } from '../store/store.js';

export type JobStatus = 'queued' | 'running' | 'completed' | 'completed_with_errors' | 'failed' | 'cancelled';
export type ItemStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface JobSettings {
  /** Attempts per item before a transient failure becomes the item's error (default 3). */
  maxAttempts: number;
  /** First retry delay, seconds; doubled on each further attempt (default 2). */
  retryDelaySeconds: number;
  /** Upper bound on one item's planning time, seconds. */
  planTimeoutCapSeconds: number;
  /** Seconds an item may run beyond its maxOptimizerTime. */
  planTimeoutGraceSeconds: number;
  planCostCredits: number;
}

export const defaultJobSettings: JobSettings = {
  maxAttempts: 3,
  retryDelaySeconds: 2,
  planTimeoutCapSeconds: 120,
  planTimeoutGraceSeconds: 30,
  planCostCredits: 1,
};

export interface ItemError {
  code: string;
  message: string;
  details?: { path: string; message: string }[];
  reason?: string;
}

export interface JobView {
  jobId: string;
  companyId: string;
  status: JobStatus;
  progress: { done: number; failed: number; cancelled: number; running: number; queued: number; total: number };
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  cancelledAt: string | null;
}

export interface ItemResult {
  index: number;
  boundaryId: string;
  status: ItemStatus;
  attempts: number;
  planId?: string;
  metrics?: Record<string, unknown>;
  error?: ItemError;
}

export interface ClaimedItem {
  jobId: string;
  itemIndex: number;
  attempts: number;
  boundaryId: string;
  companyId: string;
  createdBy: string;
  request: Record<string, unknown>;
}

const metricsJson = json<Record<string, unknown>>();
const errorJson = json<ItemError>();
const geometryJson = json<unknown>();

/** Plan geometry key of a request: shape A plans `field`, shape B `boundary`. */
export function withGeometry(request: Record<string, unknown>, geometry: unknown): Record<string, unknown> {
  const { field: _f, boundary: _b, ...rest } = request;
  const shapeA = 'machine' in rest || 'headland' in rest || 'tracks' in rest;
  return shapeA ? { ...rest, field: geometry } : { ...rest, boundary: geometry };
}

// ---- reads and writes of jobs -------------------------------------------------------------

export interface NewJobItem {
  /** An existing boundary of the job's company, or a geometry stored as a new boundary. */
  boundaryId?: string;
  geometry?: unknown;
  name?: string | null;
  /** The validated request without its geometry. */
  request: Record<string, unknown>;
  /** Relative planning work (`estimateWork`): queues take the largest items first. */
  workEstimate: number;
}

/** A queue entry to create for a submitted item. */
export interface QueuedItem {
  index: number;
  workEstimate: number;
}

/**
 * Creates a job with its items in one transaction (inline geometries become boundaries of the
 * company) and calls `enqueue` inside it, so a job exists exactly when its queue entries do.
 */
export async function insertJob(
  store: Store,
  job: { companyId: string; createdBy: string; defaults: Record<string, unknown> | null; items: NewJobItem[] },
  enqueue: (tx: Sql, jobId: string, items: QueuedItem[]) => Promise<void>,
): Promise<string> {
  const jobId = randomUUID();
  await store.db.transaction(async (tx) => {
    await tx.query(
      'INSERT INTO guidance_jobs (job_id, company_id, created_by, defaults, total) VALUES ($1, $2, $3, $4::jsonb, $5)',
      [jobId, job.companyId, job.createdBy, job.defaults, job.items.length],
    );
    for (let i = 0; i < job.items.length; i++) {
      const item = job.items[i];
      let boundaryId = item.boundaryId;
      if (!boundaryId) {
        boundaryId = randomUUID();
        await tx.query(
          'INSERT INTO boundaries (boundary_id, field_id, company_id, name, geometry) VALUES ($1, NULL, $2, $3, ' +
            '$4::jsonb)',
          [boundaryId, job.companyId, item.name ?? null, item.geometry as object],
        );
      }
      await tx.query(
        'INSERT INTO guidance_job_items (job_id, item_index, boundary_id, request, work_estimate) VALUES ($1, $2, ' +
          '$3, $4::jsonb, $5)',
        [jobId, i, boundaryId, item.request, item.workEstimate],
      );
    }
    await enqueue(
      tx,
      jobId,
      job.items.map((item, index) => ({ index, workEstimate: item.workEstimate })),
    );
  });
  return jobId;
}

const JOB_VIEW_SQL = `
  SELECT j.job_id, j.company_id, j.total, j.created_at, j.finished_at, j.cancelled_at,
    count(*) FILTER (WHERE i.status = 'done') AS n_done,
    count(*) FILTER (WHERE i.status = 'failed') AS n_failed,
    count(*) FILTER (WHERE i.status = 'cancelled') AS n_cancelled,
    count(*) FILTER (WHERE i.status = 'running') AS n_running,
    count(*) FILTER (WHERE i.status = 'queued') AS n_queued,
    count(*) FILTER (WHERE i.attempts > 0) AS n_started,
    min(i.started_at) AS started_at
  FROM guidance_jobs j JOIN company_accesses a ON a.company_id = j.company_id AND a.user_id = $1
  LEFT JOIN guidance_job_items i ON i.job_id = j.job_id
  WHERE j.job_id = $2
  GROUP BY j.job_id`;

const toJobRow = rowMapper({
  jobId: text,
  companyId: text,
  createdAt: iso,
  startedAt: isoOrNull,
  finishedAt: isoOrNull,
  cancelledAt: isoOrNull,
});

function toJobView(r: Row): JobView {
  const n = (k: string) => Number(r[k] ?? 0);
  const progress = {
    done: n('n_done'),
    failed: n('n_failed'),
    cancelled: n('n_cancelled'),
    running: n('n_running'),
    queued: n('n_queued'),
    total: n('total'),
  };
  let status: JobStatus;
  if (r.cancelled_at !== null && r.cancelled_at !== undefined) status = 'cancelled';
  else if (progress.queued + progress.running > 0) status = n('n_started') > 0 ? 'running' : 'queued';
  else if (progress.total > 0 && progress.failed === progress.total) status = 'failed';
  else status = progress.failed > 0 ? 'completed_with_errors' : 'completed';
  const { jobId, companyId, ...times } = toJobRow(r);
  return { jobId, companyId, status, progress, ...times };
}

/** True while items may still change (the job is not finished). */
export const isActive = (v: JobView): boolean => v.progress.queued + v.progress.running > 0;

export async function getJob(store: Store, userId: string, jobId: string): Promise<JobView | undefined> {
  const rows = await store.db.query(JOB_VIEW_SQL, [userId, jobId]);
  return rows[0] ? toJobView(rows[0]) : undefined;
}

export async function getResults(
  store: Store,
  jobId: string,
  page: { limit: number; offset: number },
): Promise<ItemResult[]> {
  const rows = await store.db.query(
    `SELECT item_index, boundary_id, status, attempts, plan_id, metrics, error FROM guidance_job_items
     WHERE job_id = $1 ORDER BY item_index LIMIT $2 OFFSET $3`,
    [jobId, page.limit, page.offset],
  );
  return rows.map((r) => {
    const out: ItemResult = {
      index: Number(r.item_index),
      boundaryId: String(r.boundary_id),
      status: r.status as ItemStatus,
      attempts: Number(r.attempts),
    };
    if (r.plan_id) out.planId = String(r.plan_id);
    if (r.metrics) out.metrics = metricsJson.read(r.metrics);
    if (r.error) out.error = errorJson.read(r.error);
    return out;
  });
}

/** Cancels the items that have not started; running ones finish. Returns the ids of the cancelled items. */
export async function cancelJob(store: Store, jobId: string): Promise<number[]> {
  return store.db.transaction(async (tx) => {
    await tx.query('UPDATE guidance_jobs SET cancelled_at = COALESCE(cancelled_at, now()) WHERE job_id = $1', [jobId]);
    const rows = await tx.query<{ item_index: number }>(
      `UPDATE guidance_job_items SET status = 'cancelled', finished_at = now(), lease_until = NULL
       WHERE job_id = $1 AND status = 'queued' RETURNING item_index`,
      [jobId],
    );
    await finishIfDone(tx, jobId);
    return rows.map((r) => Number(r.item_index));
  });
}

async function finishIfDone(tx: Sql, jobId: string): Promise<void> {
  await tx.query(
    `UPDATE guidance_jobs SET finished_at = now() WHERE job_id = $1 AND finished_at IS NULL
     AND NOT EXISTS (SELECT 1 FROM guidance_job_items WHERE job_id = $1 AND status IN ('queued', 'running'))`,
    [jobId],
  );
}

// ---- claiming -------------------------------------------------------------------------------

const CLAIM_RETURNING =
  'RETURNING i.job_id, i.item_index, i.attempts, i.boundary_id, i.request, j.company_id, j.created_by';

const toClaimed: (r: Row) => ClaimedItem = rowMapper({
  jobId: text,
  itemIndex: int,
  attempts: int,
  boundaryId: text,
  companyId: text,
  createdBy: text,
  request: json<Record<string, unknown>>(),
});

/**
 * Claims one item delivered by a queue (pg-boss). A redelivery of a `running` item means its
 * previous holder died or expired: it is taken over. Undefined when the item is finished or cancelled.
 */
export async function claimItem(
  store: Store,
  jobId: string,
  itemIndex: number,
  leaseSeconds: number,
): Promise<ClaimedItem | undefined> {
  const rows = await store.db.query(
    `UPDATE guidance_job_items i SET status = 'running', attempts = i.attempts + 1,
       started_at = COALESCE(i.started_at, now()), lease_until = now() + make_interval(secs => $3)
     FROM guidance_jobs j
     WHERE i.job_id = $1 AND i.item_index = $2 AND j.job_id = i.job_id AND j.cancelled_at IS NULL
       AND i.status IN ('queued', 'running')
     ${CLAIM_RETURNING}`,
    [jobId, itemIndex, leaseSeconds],
  );
  return rows[0] ? toClaimed(rows[0]) : undefined;
}

/**
 * Claims up to `limit` due items (the embedded engine's queue): queued ones whose retry time has
 * come and running ones whose lease expired (their worker died) that have attempts left, oldest
 * job first and within a job the largest work estimate first (so its slowest items do not run
 * last with the other workers idle). Expired items without attempts left are `sweepAbandoned`'s.
 */
export async function claimNext(
  store: Store,
  limit: number,
  leaseSeconds: number,
  maxAttempts: number,
): Promise<ClaimedItem[]> {
  const rows = await store.db.query(
    `UPDATE guidance_job_items i SET status = 'running', attempts = i.attempts + 1,
       started_at = COALESCE(i.started_at, now()), lease_until = now() + make_interval(secs => $2)
     FROM guidance_jobs j, (
       SELECT c.job_id, c.item_index FROM guidance_job_items c JOIN guidance_jobs cj ON cj.job_id = c.job_id
       WHERE cj.cancelled_at IS NULL
         AND ((c.status = 'queued' AND c.next_attempt_at <= now())
           OR (c.status = 'running' AND c.lease_until < now() AND c.attempts < $3))
       ORDER BY cj.created_at, c.job_id, c.work_estimate DESC, c.item_index LIMIT $1 FOR UPDATE OF c SKIP LOCKED) due
     WHERE i.job_id = due.job_id AND i.item_index = due.item_index AND j.job_id = i.job_id
     ${CLAIM_RETURNING}`,
    [limit, leaseSeconds, maxAttempts],
  );
  return rows.map(toClaimed).sort((a, b) => (a.jobId === b.jobId ? a.itemIndex - b.itemIndex : 0));
}

/**
 * Embedded store at start: no other process can hold an item, so every `running` item was
 * interrupted by the last shutdown. Their leases are expired now: the claim loop takes over those
 * with attempts left and the give-up sweep settles the others. Returns how many there were.
 */
export async function releaseRunning(store: Store): Promise<number> {
  const rows = await store.db.query(
    `UPDATE guidance_job_items SET lease_until = now() - interval '1 second' WHERE status = 'running'
     RETURNING item_index`,
  );
  return rows.length;
}

const SETTLE_STATUS = `CASE WHEN j.cancelled_at IS NULL THEN 'failed' ELSE 'cancelled' END`;

/**
 * The embedded engine's give-up sweep. A `running` item whose lease expired has lost its worker
 * (crash, kill, hang past the time limit). Without attempts left it becomes `failed`
 * (`AttemptsExhausted`); in a cancelled job (which never claims again) it becomes `cancelled`.
 * Either way its job can finish. Returns how many items it settled.
 */
export async function sweepAbandoned(store: Store, maxAttempts: number): Promise<number> {
  return store.db.transaction(async (tx) => {
    const rows = await tx.query<{ job_id: string }>(
      `UPDATE guidance_job_items i SET status = ${SETTLE_STATUS}, finished_at = now(), lease_until = NULL,
         error = CASE WHEN j.cancelled_at IS NULL THEN jsonb_build_object('code', 'AttemptsExhausted', 'message',
           'the item was started ' || i.attempts || ' times and its worker never finished it ' ||
           '(crashed, killed or hung); not retried again')
           ELSE NULL END
       FROM guidance_jobs j
       WHERE j.job_id = i.job_id AND i.status = 'running' AND i.lease_until < now()
         AND (i.attempts >= $1 OR j.cancelled_at IS NOT NULL)
       RETURNING i.job_id`,
      [maxAttempts],
    );
    for (const jobId of new Set(rows.map((r) => String(r.job_id)))) await finishIfDone(tx, jobId);
    return rows.length;
  });
}

/**
 * Settles one item the queue will never deliver again (pg-boss gave up on it: retry limit reached
 * or expired for the last time; or it was delivered for a cancelled job): a `queued` or `running`
 * item becomes `failed` with `error` (`cancelled` in a cancelled job). With `onlyCancelled`, only
 * items of cancelled jobs are touched. True when the item changed.
 */
export async function settleItem(
  store: Store,
  jobId: string,
  itemIndex: number,
  error: ItemError,
  opts: { onlyCancelled?: boolean } = {},
): Promise<boolean> {
  return store.db.transaction(async (tx) => {
    const rows = await tx.query(
      `UPDATE guidance_job_items i SET status = ${SETTLE_STATUS}, finished_at = now(), lease_until = NULL,
         error = CASE WHEN j.cancelled_at IS NULL THEN $3::jsonb ELSE NULL END
       FROM guidance_jobs j
       WHERE j.job_id = i.job_id AND i.job_id = $1 AND i.item_index = $2 AND i.status IN ('queued', 'running')
         AND ($4::boolean = false OR j.cancelled_at IS NOT NULL)
       RETURNING i.item_index`,
      [jobId, itemIndex, error as object, opts.onlyCancelled === true],
    );
    if (rows.length > 0) await finishIfDone(tx, jobId);
    return rows.length > 0;
  });
}

// ---- running one item ---------------------------------------------------------------------

export type ItemOutcome = 'done' | 'failed' | 'retry' | 'skipped';

export interface RunContext {
  store: Store;
  planner: Planner;
  settings: JobSettings;
  logger?: Logger;
}

/** Non-retryable: invalid input (request or geometry) or a plan that exceeds its time limit. */
function permanentError(err: unknown): ItemError | undefined {
  if (isPlanError(err)) {
    const e = err as Error & { code: string; details?: { path: string; message: string }[] };
    return { code: 'InvalidGeometry', reason: e.code, message: e.message, details: e.details ?? [] };
  }
  if (err instanceof ApiError && err.status < 500)
    return { code: err.code, message: err.message, details: err.details };
  if (err instanceof PlanAbortedError && err.reason === 'timeout') {
    return {
      code: 'PlanTimeout',
      message: 'planning exceeded the item time limit; lower routeOptions.maxOptimizerTime or simplify the field',
    };
  }
  return undefined;
}

/**
 * Plans a claimed item and records its plan or its error. `retry` means it went back to the queue;
 * `hooks.onRetry` then receives the transient error's message. `hooks.onPlanned` is called once
 * the planner is done with the item (planned or not), before the outcome is recorded; the
 * recording waits for the promise it returns, so a runner can claim the planner's next item first
 * and plan it while this one is written.
 */
export async function runClaimedItem(
  ctx: RunContext,
  item: ClaimedItem,
  hooks: { onRetry?: (message: string) => void; onPlanned?: () => Promise<void> | void } = {},
): Promise<ItemOutcome> {
  let plannerFree = false;
  const planned = async () => {
    if (plannerFree) return;
    plannerFree = true;
    await hooks.onPlanned?.();
  };
  try {
    return await planAndRecord(ctx, item, planned, hooks.onRetry);
  } finally {
    await planned();
  }
}

async function planAndRecord(
  ctx: RunContext,
  item: ClaimedItem,
  planned: () => Promise<void>,
  onRetry?: (message: string) => void,
): Promise<ItemOutcome> {
  const { store, settings } = ctx;
  if (item.attempts > settings.maxAttempts) {
    return failItem(store, item, {
      code: 'AttemptsExhausted',
      message: `the item was started ${item.attempts - 1} times without finishing (worker crashes or time-outs)`,
    });
  }
  let request: PathPlanRequestBody;
  let plan: PlanJson;
  try {
    const rows = await store.db.query<{ geometry: unknown }>('SELECT geometry FROM boundaries WHERE boundary_id = $1', [
      item.boundaryId,
    ]);
    if (!rows[0]) throw new ApiError(404, 'NotFound', `boundary "${item.boundaryId}" no longer exists`);
    const parsed = PathPlanRequestSchema.safeParse(withGeometry(item.request, geometryJson.read(rows[0].geometry)));
    if (!parsed.success) {
      const details = issuesToDetails(parsed.error.issues);
      throw new ApiError(400, 'ValidationFailed', `${details[0].path}: ${details[0].message}`, details);
    }
    request = parsed.data;
    assertValidRequestGeometry(request);
    const limitSeconds = planTimeLimitSeconds(settings, request);
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new PlanAbortedError('timeout')), limitSeconds * 1000);
    try {
      plan = await planJson(ctx.planner, request, timeout.signal, { ...apiPlanShape(request.options), gzip: true });
    } finally {
      clearTimeout(timer);
    }
  } catch (err) {
    await planned();
    const permanent = permanentError(err);
    if (permanent) return failItem(store, item, permanent);
    const message = err instanceof Error ? err.message : String(err);
    ctx.logger?.warn(
      { jobId: item.jobId, item: item.itemIndex, attempts: item.attempts, err: message },
      'guidance job item failed; retrying',
    );
    if (item.attempts >= settings.maxAttempts)
      return failItem(store, item, {
        code: 'PlanFailed',
        message: `planning failed ${item.attempts} times: ${message}`,
      });
    onRetry?.(message);
    return retryLater(store, item, settings.retryDelaySeconds * 2 ** (item.attempts - 1));
  }
  await planned();
  return completeItem(ctx, item, request, plan);
}

/** Locks the item; proceeds only while it is still `running` (else another delivery finished it). */
async function lockRunning(tx: Sql, item: ClaimedItem): Promise<boolean> {
  const rows = await tx.query<{ status: string }>(
    'SELECT status FROM guidance_job_items WHERE job_id = $1 AND item_index = $2 FOR UPDATE',
    [item.jobId, item.itemIndex],
  );
  return rows[0]?.status === 'running';
}

async function completeItem(
  ctx: RunContext,
  item: ClaimedItem,
  request: Record<string, unknown>,
  plan: PlanJson,
): Promise<ItemOutcome> {
  const cost = ctx.settings.planCostCredits;
  return ctx.store.db.transaction(async (tx) => {
    if (!(await lockRunning(tx, item))) return 'skipped';
    const reason = `guidance-jobs/${item.jobId}/items/${item.itemIndex}`;
    if (cost > 0) {
      const paid = await chargeFirstIn(tx, planPayers(item.companyId, item.createdBy), cost, reason);
      if (!paid) {
        await setFailed(tx, item, {
          code: 'PaymentRequired',
          message: `this plan costs ${cost} credit(s); neither the company nor the job's creator has that many left`,
        });
        return 'failed';
      }
    }
    const planId = randomUUID();
    const { field: _f, boundary: _b, ...options } = request;
    await tx.query(
      `INSERT INTO plans (plan_id, boundary_id, field_id, company_id, created_by, request, plan, plan_gzip)
       SELECT $1, b.boundary_id, b.field_id, $3, $4, $5::jsonb, $6::json, decode($7, 'base64')
       FROM boundaries b WHERE b.boundary_id = $2`,
      [planId, item.boundaryId, item.companyId, item.createdBy, options, plan.json ?? null, plan.gzip ?? null],
    );
    await tx.query(
      `UPDATE guidance_job_items SET status = 'done', plan_id = $3, metrics = $4::jsonb, error = NULL,
         credits_charged = $5, finished_at = now(), lease_until = NULL
       WHERE job_id = $1 AND item_index = $2`,
      [item.jobId, item.itemIndex, planId, plan.metrics, cost],
    );
    await finishIfDone(tx, item.jobId);
    return 'done';
  });
}

async function setFailed(tx: Sql, item: ClaimedItem, error: ItemError): Promise<void> {
  await tx.query(
    `UPDATE guidance_job_items SET status = 'failed', error = $3::jsonb, finished_at = now(), lease_until = NULL
     WHERE job_id = $1 AND item_index = $2`,
    [item.jobId, item.itemIndex, error as object],
  );
  await finishIfDone(tx, item.jobId);
}

async function failItem(store: Store, item: ClaimedItem, error: ItemError): Promise<ItemOutcome> {
  return store.db.transaction(async (tx) => {
    if (!(await lockRunning(tx, item))) return 'skipped';
    await setFailed(tx, item, error);
    return 'failed';
  });
}

async function retryLater(store: Store, item: ClaimedItem, delaySeconds: number): Promise<ItemOutcome> {
  return store.db.transaction(async (tx) => {
    if (!(await lockRunning(tx, item))) return 'skipped';
    await tx.query(
      `UPDATE guidance_job_items SET status = 'queued', lease_until = NULL,
         next_attempt_at = now() + make_interval(secs => $3)
       WHERE job_id = $1 AND item_index = $2`,
      [item.jobId, item.itemIndex, delaySeconds],
    );
    return 'retry';
  });
}
