/**
 * Admission of every request: at most `maxInFlight` are served at once; the next ones wait for a
 * slot, and a request that gets none within its wait (or finds `maxWaiting` already waiting) is
 * answered 429 — the rate-limit body, docs/api.md, `reason: "server-busy"`, `Retry-After`.
 *
 * Why: the server's main thread (routing, JSON, the embedded store's one connection) serves the
 * requests in it by turns, so past its capacity every request taken in slows all the others; by
 * Little's law the time in the server is the requests in it divided by the throughput. Bounding
 * the requests served bounds their service time, and bounding the wait bounds the rest, however
 * many clients connect.
 *
 * How long a request may wait is measured, not guessed: `waitMs`, or twice the recent mean time a
 * request is served when that is longer (a slow machine serves slowly, and refusing a request the
 * server would reach in a couple of service times gains nothing), at most 20 × `waitMs`. A freed
 * slot goes to the request that has waited least (newest first): under overload the requests that
 * wait longest are the ones refused at their deadline, and those served have waited little — the
 * latency of both stays near the wait. A waiting request costs no work, and a refusal comes only
 * after the wait, so clients that retry at once cannot turn refusals into the load.
 */
import type { MiddlewareHandler } from 'hono';
import type { AdmissionOptions, AppEnv } from './context.js';
import { ApiError } from './errors.js';

export interface Admission {
  readonly options: Readonly<Required<AdmissionOptions>>;
  /** Requests admitted and not yet answered. */
  readonly inFlight: number;
  /** Requests waiting for a slot. */
  readonly waiting: number;
  /** How long a request arriving now may wait for a slot, ms. */
  readonly currentWaitMs: number;
  /**
   * Waits for a slot (or throws the 429 `ApiError`: none freed in time, or `maxWaiting` already
   * wait); the returned function gives the slot back. A client that leaves while waiting gives up
   * its place (499).
   */
  acquire(signal?: AbortSignal): Promise<() => void>;
  /** `acquire` around the rest of the request. */
  readonly middleware: MiddlewareHandler<AppEnv>;
}

/** Seconds a refused client waits: requests take milliseconds, so slots free well within it. */
const RETRY_AFTER_SECONDS = 1;

interface Waiter {
  admit: () => void;
  timer: NodeJS.Timeout;
}

export function createAdmission(options: AdmissionOptions): Admission {
  const maxInFlight = Math.max(1, Math.floor(options.maxInFlight));
  const waitMs = Math.max(0, options.waitMs);
  const maxWaiting = Math.max(0, Math.floor(options.maxWaiting ?? 4 * maxInFlight));
  const waiters: Waiter[] = [];
  let inFlight = 0;
  /** Mean time a request holds its slot, ms (exponentially weighted over recent requests). */
  let meanServiceMs = 0;

  const currentWaitMs = () => Math.min(20 * waitMs, Math.max(waitMs, 2 * meanServiceMs));

  const refuse = (why: string) =>
    new ApiError(
      429,
      'RATE_LIMIT_EXCEEDED',
      `the server is busy: ${why}; retry after ${RETRY_AFTER_SECONDS} s`,
      [],
      {
        limit: maxInFlight,
        windowSeconds: RETRY_AFTER_SECONDS,
        retryAfterSeconds: RETRY_AFTER_SECONDS,
        reason: 'server-busy',
      },
      { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    );
  const clientLeft = () =>
    new ApiError(499, 'ClientClosedRequest', 'the client closed the request while it waited for a slot');

  /** Resolves when the request holds a slot; rejects with the 429 when it cannot get one in time. */
  const take = (signal: AbortSignal | undefined): Promise<void> => {
    if (inFlight < maxInFlight) {
      inFlight++;
      return Promise.resolve();
    }
    if (waiters.length >= maxWaiting)
      return Promise.reject(
        refuse(`${inFlight} requests are being served and ${waiters.length} wait, as many as it takes`),
      );
    if (signal?.aborted) return Promise.reject(clientLeft());
    const wait = currentWaitMs();
    return new Promise<void>((resolve, reject) => {
      const leave = (err: ApiError) => {
        clearTimeout(waiter.timer);
        const i = waiters.indexOf(waiter);
        if (i >= 0) waiters.splice(i, 1);
        signal?.removeEventListener('abort', onAbort);
        reject(err);
      };
      const onAbort = () => leave(clientLeft());
      const waiter: Waiter = {
        // The slot passes from the request that ended to this one (inFlight unchanged).
        admit: () => {
          clearTimeout(waiter.timer);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        timer: setTimeout(
          () => leave(refuse(`no request slot freed within ${Math.round(wait)} ms (${inFlight} being served)`)),
          wait,
        ),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiters.push(waiter);
    });
  };

  const acquire = async (signal?: AbortSignal) => {
    await take(signal);
    const started = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const ms = performance.now() - started;
      meanServiceMs = meanServiceMs === 0 ? ms : 0.9 * meanServiceMs + 0.1 * ms;
      // Newest first (see the header); the slot passes on, or is given back.
      const next = waiters.pop();
      if (next) next.admit();
      else inFlight--;
    };
  };

  return {
    options: { maxInFlight, waitMs, maxWaiting },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waiters.length;
    },
    get currentWaitMs() {
      return currentWaitMs();
    },
    acquire,
    middleware: async (c, next) => {
      const release = await acquire(c.req.raw.signal);
      try {
        await next();
      } finally {
        release();
      }
    },
  };
}
