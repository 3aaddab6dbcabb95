/**
 * Admission of synchronous plans: at most `concurrency` run at once and at most `queue` wait for
 * a slot; a plan beyond that is refused at once with 429 (the rate-limit body, docs/api.md,
 * and `Retry-After`) instead of queueing without bound. Planning is CPU work on a fixed
 * pool: a longer queue adds waiting, not throughput, so the bound keeps the latency of the plans
 * taken close to (1 + queue / concurrency) plan times however many clients send them.
 */
import { ApiError } from './errors.js';

export interface PlanGateOptions {
  /** Plans run at once (the planning threads). */
  concurrency: number;
  /** Plans that may wait for a slot; more are answered 429. */
  queue: number;
}

export interface PlanGate {
  /**
   * Waits for a slot (or throws the 429 `ApiError` when `queue` plans already wait); the returned
   * function gives the slot back. An abort while waiting leaves the queue and rethrows the reason.
   */
  acquire(signal?: AbortSignal): Promise<() => void>;
  readonly running: number;
  readonly waiting: number;
  readonly options: Readonly<PlanGateOptions>;
}

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (err: unknown) => void;
}

export function createPlanGate(options: PlanGateOptions): PlanGate {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const queueLimit = Math.max(0, Math.floor(options.queue));
  const waiters: Waiter[] = [];
  let running = 0;
  /** Mean run time of recent plans (exponentially weighted), ms: the basis of Retry-After. */
  let meanMs = 0;

  const release = (started: number) => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const ms = performance.now() - started;
      meanMs = meanMs === 0 ? ms : 0.8 * meanMs + 0.2 * ms;
      const next = waiters.shift();
      if (next) next.resolve(release(performance.now()));
      else running--;
    };
  };

  const refuse = (): ApiError => {
    // Until the plans ahead have had time to finish: the whole line, spread over the slots.
    const retryAfterSeconds = Math.max(1, Math.ceil((meanMs * (running + waiters.length)) / concurrency / 1000));
    const limit = concurrency + queueLimit;
    return new ApiError(
      429,
      'RATE_LIMIT_EXCEEDED',
      `the server is busy planning: ${running} plan(s) running and ${waiters.length} waiting, as many as it takes ` +
        `at once (${limit}); retry after ${retryAfterSeconds} s`,
      [],
      { limit, windowSeconds: retryAfterSeconds, retryAfterSeconds, reason: 'plans-busy' },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  };

  return {
    options: { concurrency, queue: queueLimit },
    get running() {
      return running;
    },
    get waiting() {
      return waiters.length;
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (running < concurrency) {
        running++;
        return Promise.resolve(release(performance.now()));
      }
      if (waiters.length >= queueLimit) return Promise.reject(refuse());
      return new Promise<() => void>((resolve, reject) => {
        const waiter: Waiter = {
          resolve: (r) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(r);
          },
          reject,
        };
        const onAbort = () => {
          const i = waiters.indexOf(waiter);
          if (i >= 0) waiters.splice(i, 1);
          reject(signal!.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.push(waiter);
      });
    },
  };
}
