/**
 * The embedded job engine: a loop in the server process that claims due items from the store
 * (`UPDATE … FOR UPDATE SKIP LOCKED … RETURNING`) and plans them on the planner's worker-thread
 * pool, as many at a time as the pool has threads (a thread gets its next item as soon as it has
 * planned one, while that one is recorded). Used with the embedded store (PGlite), which
 * only one process can open; a crash leaves items `running`, taken over at the next start.
 * A give-up sweep settles items whose lease expired once they have no attempts left, so every
 * job reaches a final status.
 */
import { claimNext, releaseRunning, runClaimedItem, sweepAbandoned, type RunContext } from './engine.js';

export interface EmbeddedRunnerOptions {
  /** Items planned at once (default: the planner's threads, at least 1). */
  concurrency?: number;
  /** How often the loop looks for due items when nothing woke it, milliseconds (default 500). */
  pollMs?: number;
  /** How long a claimed item stays reserved, seconds (default: the item time cap + 30). */
  leaseSeconds?: number;
  /** How often the give-up sweep runs, milliseconds (default 5000). */
  sweepMs?: number;
}

export interface JobRunner {
  readonly kind: 'embedded' | 'pg-boss';
  readonly concurrency: number;
  /** Items finished (done or failed) by this runner since it started. */
  readonly finished: number;
  /** Wakes the runner (a job was submitted). */
  notify(): void;
  close(): Promise<void>;
}

export async function startEmbeddedRunner(ctx: RunContext, opts: EmbeddedRunnerOptions = {}): Promise<JobRunner> {
  const concurrency = Math.max(1, opts.concurrency ?? ctx.planner.threads);
  const pollMs = opts.pollMs ?? 500;
  const leaseSeconds = opts.leaseSeconds ?? ctx.settings.planTimeoutCapSeconds + 30;
  const sweepMs = opts.sweepMs ?? 5000;
  if (ctx.store.db.kind === 'pglite') {
    const n = await releaseRunning(ctx.store);
    if (n > 0) ctx.logger?.info({ items: n }, 'guidance jobs: items interrupted by the last shutdown are taken over');
  }

  let closed = false;
  // Items the planner holds; an item being recorded no longer counts, so the next one is claimed
  // and planned while the last one's plan is written.
  let planning = 0;
  let finished = 0;
  let lastSweep = -Infinity;
  const sweep = async () => {
    lastSweep = performance.now();
    const n = await sweepAbandoned(ctx.store, ctx.settings.maxAttempts);
    if (n > 0) {
      finished += n;
      ctx.logger?.warn({ items: n }, 'guidance jobs: gave up on items whose workers never finished them');
    }
  };
  let wake: (() => void) | undefined;
  // A notify that came while the loop was busy (claiming) is kept, so its next wait ends at once.
  let woken = false;
  const notify = () => {
    if (!wake) {
      woken = true;
      return;
    }
    wake();
    wake = undefined;
  };
  const running = new Set<Promise<void>>();
  // Items whose planning ended wait for the next claim round to start and end before they are
  // recorded: PGlite runs one statement at a time, and the claim comes first so that the thread
  // just freed plans again while the finished item is written.
  let roundWaiters: (() => void)[] = [];
  const afterNextRound = () => new Promise<void>((resolve) => roundWaiters.push(resolve));

  const loop = (async () => {
    while (!closed) {
      const waiting = roundWaiters;
      roundWaiters = [];
      const free = concurrency - planning;
      let claimed = 0;
      if (free > 0) {
        try {
          if (performance.now() - lastSweep >= sweepMs) await sweep();
          const items = await claimNext(ctx.store, free, leaseSeconds, ctx.settings.maxAttempts);
          claimed = items.length;
          for (const item of items) {
            planning++;
            const onPlanned = () => {
              planning--;
              notify();
              return afterNextRound();
            };
            const p = runClaimedItem(ctx, item, { onPlanned })
              .then((outcome) => {
                if (outcome === 'done' || outcome === 'failed') finished++;
              })
              .catch((err: unknown) => {
                // A store error while recording: the lease expires and the item is claimed again.
                ctx.logger?.error(
                  { jobId: item.jobId, item: item.itemIndex, err: err instanceof Error ? err.message : String(err) },
                  'guidance job item could not be recorded',
                );
              })
              .finally(() => {
                running.delete(p);
              });
            running.add(p);
          }
        } catch (err) {
          if (!closed)
            ctx.logger?.error(
              { err: err instanceof Error ? err.message : String(err) },
              'guidance jobs: claiming failed',
            );
        }
      }
      for (const resolve of waiting) resolve();
      if (closed) break;
      // More may be due right away when a full batch was claimed and threads are still free.
      if (claimed > 0 && claimed === free && planning < concurrency) continue;
      if (woken) {
        woken = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();

  return {
    kind: 'embedded',
    concurrency,
    get finished() {
      return finished;
    },
    notify,
    async close() {
      closed = true;
      notify();
      await loop;
      for (const resolve of roundWaiters.splice(0)) resolve();
      await Promise.allSettled([...running]);
    },
  };
}
