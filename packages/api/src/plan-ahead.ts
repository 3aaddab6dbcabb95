/**
 * Planning ahead of a partner launch. A launch code names the page its user is sent to; when that
 * is a stored field the web app plans as soon as it opens it (one never planned), the code's issue
 * starts that plan at once, while the partner sends the browser to the launch URL and the browser
 * loads the page (the exchange starts it too, if the issue could not: no slot free then, or more than
 * a minute ago). The web app's mount
 * says which request the app sends first (`FirstPlanRequest`); its plan request, when it comes
 * from the same user with the same request within a minute, gets the plan started ahead.
 *
 * Nothing changes for the caller: the plan is charged when it is asked for (planBillable), never
 * for a plan nobody asks for; a plan ahead that failed is planned again on request. Only with a
 * planning slot free: a busy server plans nothing ahead.
 */
import type { Deps, PlanAhead } from './context.js';
import { assertValidRequestGeometry } from './geometry.js';
import { PlanAbortedError, apiPlanShape, planTimeLimitSeconds, shapePlan, type ApiPlan } from './planner.js';
import { PathPlanRequestSchema, type PathPlanRequestBody } from './schemas.js';

/**
 * The path-plan request the web app sends first for a field it opens, from the field as
 * `GET /api/boundaries/{boundaryId}` answers it; undefined when the app would not plan it.
 */
export type FirstPlanRequest = (boundary: unknown) => Record<string, unknown> | undefined;

const KEEP_MS = 60_000;
const MAX_KEPT = 16;
const FIELD_PAGE = /^\/path-planning\/boundary\/([^/]+)\/?$/;

interface Ahead {
  key: string;
  expiresAtMs: number;
  plan: Promise<ApiPlan>;
}

/** JSON with object members in sorted order: the same request gives the same text. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${stableJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

type AheadDeps = Pick<Deps, 'planner' | 'planGate' | 'config' | 'logger'>;

/**
 * The field a launch's `returnUrl` opens (`/path-planning/boundary/{boundaryId}` on the app's origin), as
 * `GET /api/boundaries/{boundaryId}` answers it to that user (with `latestPlanId`); undefined when the URL
 * opens another page or the user cannot see that boundary (scoped to the user's companies by the store).
 */
export async function launchedField(
  deps: Pick<Deps, 'store' | 'config'>,
  userId: string,
  returnUrl: string | null,
): Promise<Record<string, unknown> | undefined> {
  if (!returnUrl) return undefined;
  let path: string;
  try {
    path = new URL(returnUrl, deps.config.appUrl).pathname;
  } catch {
    return undefined;
  }
  const m = FIELD_PAGE.exec(path);
  if (!m) return undefined;
  let boundaryId: string;
  try {
    boundaryId = decodeURIComponent(m[1]);
  } catch {
    return undefined;
  }
  const boundary = await deps.store.getBoundary(userId, boundaryId);
  if (!boundary) return undefined;
  const latestPlanId = await deps.store.latestPlanId(boundary.boundaryId);
  // JSON, as the route sends it (dates as strings).
  return JSON.parse(JSON.stringify({ ...boundary, latestPlanId })) as Record<string, unknown>;
}

export function createPlanAhead(deps: AheadDeps, firstPlanRequest: FirstPlanRequest): PlanAhead {
  const kept: Ahead[] = [];
  const keyOf = (userId: string, request: unknown) => `${userId}\n${stableJson(request)}`;
  const prune = (now: number) => {
    for (let i = kept.length - 1; i >= 0; i--) if (kept[i].expiresAtMs <= now) kept.splice(i, 1);
  };

  /** The request the app will send first for the launched field, validated; undefined when none. */
  function requestFor(field: unknown): PathPlanRequestBody | undefined {
    const request = firstPlanRequest(field);
    if (!request) return undefined;
    const parsed = PathPlanRequestSchema.safeParse(request);
    if (!parsed.success) return undefined;
    assertValidRequestGeometry(parsed.data);
    return parsed.data;
  }

  async function planAhead(request: PathPlanRequestBody): Promise<ApiPlan> {
    const release = await deps.planGate.acquire();
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new PlanAbortedError('timeout')),
      planTimeLimitSeconds(deps.config, request) * 1000,
    );
    try {
      return shapePlan(await deps.planner.plan(request, timeout.signal), apiPlanShape(request.options));
    } finally {
      clearTimeout(timer);
      release();
    }
  }

  return {
    afterLaunch(userId, field) {
      // After the answer is on its way: the request's validation does not hold it up.
      setTimeout(() => {
        // A free slot only, checked as the plan starts (it takes the slot at once): ahead-of-time work never
        // holds up a plan someone is waiting for, and many codes issued at once start one plan at most.
        if (deps.planGate.running >= deps.planGate.options.concurrency || deps.planGate.waiting > 0) return;
        let request: PathPlanRequestBody | undefined;
        try {
          request = requestFor(field);
        } catch (err) {
          deps.logger.info({ err: String(err) }, 'no plan ahead of the launch');
          return;
        }
        if (!request) return;
        const now = Date.now();
        prune(now);
        const key = keyOf(userId, request);
        if (kept.some((a) => a.key === key)) return; // (planned ahead when the code was issued)
        if (kept.length >= MAX_KEPT) kept.shift();
        const plan = planAhead(request);
        plan.catch(() => undefined); // (taken or not, a failure is answered by planning again)
        kept.push({ key, expiresAtMs: now + KEEP_MS, plan });
      }, 0);
    },
    take(userId, request) {
      prune(Date.now());
      const key = keyOf(userId, request);
      const i = kept.findIndex((a) => a.key === key);
      if (i < 0) return undefined;
      const [ahead] = kept.splice(i, 1);
      return ahead.plan;
    },
  };
}
