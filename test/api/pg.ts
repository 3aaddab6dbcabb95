/** A throwaway PostgreSQL server on 127.0.0.1 for the PostgreSQL runs of the store suites. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { postgresBinDir } from '../support/requires.js';
import { openStore, type Store } from '@furrow/api';
import { freePort } from '../support/ports.js';

export interface TestPostgres {
  url: string;
  stop(): void;
}

/** initdb + pg_ctl start in a temp folder (as `postgres` when run as root: initdb refuses root). */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed');
  const dir = mkdtempSync(path.join(tmpdir(), 'furrow-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' })
      : execFileSync(cmd, args, { stdio: 'pipe' });
  run(`${bin}/initdb`, ['-D', data, '--auth=trust', '-U', 'postgres', '--no-sync']);
  const port = await freePort();
  run(`${bin}/pg_ctl`, [
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    '-w',
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run(`${bin}/pg_ctl`, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A store on a throwaway PostgreSQL server, and how to close both (the suites run per backend). */
export async function openPostgresStore(): Promise<{ store: Store; cleanup: () => Promise<void> }> {
  const pg = await startPostgres();
  const store = await openStore(pg.url);
  return {
    store,
    cleanup: async () => {
      await store.close();
      pg.stop();
    },
  };
}
