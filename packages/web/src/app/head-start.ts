/**
 * The launch's head start: a small script (`early-<hash>.js`, built from early.ts) that the page
 * runs before the app's bundle is compiled. On `/launch` it takes the code out of the address
 * bar and exchanges it at once; when the launch goes to a field, it takes the field from the
 * exchange's answer (else asks for it with the new session), and asks for the field's first plan
 * when the plan view will plan it (never planned, no unsaved plan in this tab: first-plan.ts). The
 * app (main.ts, launch.ts, plan-view.ts) takes these requests over instead of sending them again;
 * each is taken once.
 */
import { ApiClient, asApiError, normalizeBoundary, type StoredBoundary } from './api.js';
import { firstPlanRequestOf } from './first-plan.js';
import type { FeatureCollection } from './geo.js';
import { launchTarget } from './session.js';
import { UnsavedPlanStore } from './unsaved.js';

/** What the head start has begun. Promises reject with the ApiClient's errors (ApiError). */
export interface HeadStart {
  code: string | null;
  userId: string | null;
  returnUrl: string | null;
  /** The exchange's answer (undefined: no code or user to exchange). */
  exchange?: Promise<unknown>;
  /** The field the launch goes to, asked for with the new session. */
  field?: Promise<HeadStartField | undefined>;
  /**
   * Settles when the app's bundle should run: once the field's first plan is in (it is then drawn in the
   * page's first frame), at most `PLAN_WAIT_MS` after it was asked for; at once when no plan is asked for;
   * in any case at most `LAUNCH_WAIT_MS` after the head start (a slow exchange: the app shows its progress).
   */
  ready?: Promise<void>;
}

/** How long the app's bundle waits for a launch's first plan before it runs anyway (ms). */
export const PLAN_WAIT_MS = 300;
/** How long the app's bundle waits for the launch's requests at most (ms). */
export const LAUNCH_WAIT_MS = 800;

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface HeadStartField {
  boundaryId: string;
  boundary: StoredBoundary;
  /** Its first plan, when the plan view plans it as it opens. */
  plan?: Promise<FeatureCollection>;
}

const FIELD_PAGE = /^\/path-planning\/boundary\/([^/]+)$/;

declare global {
  interface Window {
    furrowHeadStart?: HeadStart;
  }
}

function tabStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Starts the launch's requests (on `/launch` only); the app takes them with `takeHeadStart`. */
export function startHeadStart(location: Location, history: History): HeadStart | undefined {
  if ((location.pathname.replace(/\/+$/, '') || '/') !== '/launch') return undefined;
  const params = new URLSearchParams(location.search);
  const start: HeadStart = {
    code: params.get('code'),
    userId: params.get('userId'),
    returnUrl: params.get('returnUrl'),
  };
  // The code is a credential: out of the address bar and history at once.
  history.replaceState(null, '', '/launch');
  if (!start.code || !start.userId) return start;
  const api = new ApiClient({ token: () => undefined });
  start.exchange = api.exchangeLaunchCode(start.code, start.userId);
  start.field = start.exchange.then(
    (body) => fieldOf(body, start.returnUrl, location.origin),
    () => undefined,
  );
  // (a failure is reported by whoever takes the promise over)
  start.exchange.catch(() => undefined);
  const none = (): undefined => undefined;
  const requests = start.field.then(
    (f) => (f?.plan ? Promise.race([f.plan.then(none, none), delay(PLAN_WAIT_MS)]) : undefined),
    none,
  );
  start.ready = Promise.race([requests, delay(LAUNCH_WAIT_MS)]);
  return start;
}

/** The field the exchanged session goes to, and its first plan; undefined when it goes elsewhere. */
async function fieldOf(body: unknown, fromAddressBar: string | null, origin: string) {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const token = typeof b['token'] === 'string' ? b['token'] : undefined;
  const stored = typeof b['returnUrl'] === 'string' ? b['returnUrl'] : null;
  const target = launchTarget(stored, fromAddressBar, origin);
  const m = target === undefined || !token ? null : FIELD_PAGE.exec(new URL(target, origin).pathname);
  if (!m) return undefined;
  const boundaryId = decodeURIComponent(m[1]);
  const api = new ApiClient({ token: () => token });
  // The exchange's answer carries the field its returnUrl opens: no round trip for it.
  const sent = normalizeBoundary(b['field']);
  const boundary = sent?.boundaryId === boundaryId ? sent : await api.boundary(boundaryId).catch(() => undefined);
  if (!boundary) return undefined; // (the plan view asks again and says what is wrong)
  const request = new UnsavedPlanStore(tabStorage()).load(boundaryId) ? undefined : firstPlanRequestOf(boundary);
  const field: HeadStartField = { boundaryId, boundary };
  if (request) {
    field.plan = api.planGeoJson(request, boundaryId);
    field.plan.catch(() => undefined);
  }
  return field;
}

/**
 * The head start of this page, once (later calls get undefined). Its promises reject with the
 * early script's ApiError: given back as the app's own (`asApiError`), so the app tells its
 * errors apart as for its own requests.
 */
export function takeHeadStart(w: Window): HeadStart | undefined {
  const start = w.furrowHeadStart;
  w.furrowHeadStart = undefined;
  if (!start) return undefined;
  const own = <T>(p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      throw asApiError(err);
    });
  return {
    ...start,
    ...(start.exchange ? { exchange: own(start.exchange) } : {}),
    ...(start.field
      ? {
          field: start.field.then((f) => (f?.plan ? { ...f, plan: own(f.plan) } : f)),
        }
      : {}),
  };
}
