/**
 * `furrow worker [--threads N]`: plans guidance-job items from the PostgreSQL queue (pg-boss) of
 * DATABASE_URL until SIGINT / SIGTERM. Run one per machine (or more); see docs/jobs.md.
 */
import { UsageError } from '../errors.js';
import { loadApi } from '../optional.js';

export async function runWorker(opts: { threads?: string }): Promise<number> {
  let threads: number | undefined;
  if (opts.threads !== undefined) {
    threads = Number(opts.threads);
    if (!Number.isInteger(threads) || threads < 1)
      throw new UsageError(`--threads must be a whole number ≥ 1, got "${opts.threads}"`);
  }
  const { workerCommand } = await loadApi('worker');
  return workerCommand(process.env, { threads });
}
