/**
 * Per-key rate limits (fixed windows) with rate-limiter-flexible: in memory for the embedded
 * store (one process), in PostgreSQL's `rate_limits` table when the store is PostgreSQL, so
 * several server processes share one budget per key.
 */
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimiter {
  readonly limit: number;
  readonly windowSeconds: number;
  consume(key: string): Promise<RateDecision>;
}

export interface RateLimitOptions {
  /** Requests allowed per window and key. */
  points: number;
  windowSeconds: number;
  /** A PostgreSQL pool: share limits across processes. */
  pgPool?: pg.Pool;
}

export function createRateLimiter(opts: RateLimitOptions): RateLimiter {
  const base = { points: opts.points, duration: opts.windowSeconds, keyPrefix: 'rl' };
  const limiter = opts.pgPool
    ? new RateLimiterPostgres({
        ...base,
        storeClient: opts.pgPool,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        clearExpiredByTimeout: true,
      })
    : new RateLimiterMemory(base);
  const decision = (res: RateLimiterRes, allowed: boolean): RateDecision => ({
    allowed,
    limit: opts.points,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  });
  return {
    limit: opts.points,
    windowSeconds: opts.windowSeconds,
    async consume(key) {
      try {
        return decision(await limiter.consume(key, 1), true);
      } catch (err) {
        if (err instanceof RateLimiterRes) return decision(err, false);
        throw err;
      }
    },
  };
}
