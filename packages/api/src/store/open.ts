/**
 * Opens the store named by DATABASE_URL (docs/store.md): unset → embedded PGlite under ./.furrow/,
 * `memory:` → embedded in memory, `postgres://…` → PostgreSQL. Migrations run before it is returned.
 * An embedded store on disk is locked while open: a second process gets `StoreLockedError`.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { migrate } from './migrations.js';
import { pgliteBackend, postgresBackend, type SqlBackend } from './sql.js';

export const DEFAULT_DATA_DIR = '.furrow';

/**
 * The embedded store is in use by another process (PGlite is single-process: two processes on one
 * folder corrupt it). Named `UsageError` so the CLI prints the message and exits 2.
 */
export class StoreLockedError extends Error {
  override name = 'UsageError';
  constructor(readonly dir: string) {
    super(
      `the embedded store ${dir} is in use by another process (a running \`furrow serve\`?). ` +
        "Create a key through the running server (POST /api/api-keys with a key, or on the web app's profile page), " +
        'or stop the server and run this again; to share a store between processes use PostgreSQL ' +
        '(DATABASE_URL=postgres://…).',
    );
  }
}

/** Whether a process with this pid runs on this machine. */
function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the embedded store's lock: `<dir>.lock` created exclusively, holding the owner's pid. A
 * lock whose process is gone (killed, crashed) is taken over at once; one held by a running
 * process, this one included, refuses the open. (A lock refreshed on a timer, proper-lockfile's
 * kind, looked stale while PGlite's start blocked the event loop for seconds on a loaded machine;
 * the store is a local folder, so the holder's pid is the exact test.) Returns the release.
 */
function lockEmbeddedStore(dir: string): () => void {
  const lockPath = `${dir}.lock`;
  const take = (): boolean => {
    try {
      writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
  };
  if (!take()) {
    let holder = NaN;
    try {
      holder = Number(readFileSync(lockPath, 'utf8').trim());
    } catch {
      // removed meanwhile: its holder closed the store
    }
    if (isRunning(holder)) throw new StoreLockedError(dir);
    rmSync(lockPath, { force: true });
    if (!take()) throw new StoreLockedError(dir);
  }
  const release = (): void => {
    process.off('exit', release);
    try {
      if (readFileSync(lockPath, 'utf8').trim() === String(process.pid)) rmSync(lockPath, { force: true });
    } catch {
      // already gone
    }
  };
  process.on('exit', release);
  return release;
}

export async function openSql(databaseUrl: string | undefined, cwd = process.cwd()): Promise<SqlBackend> {
  const url = databaseUrl?.trim() ?? '';
  let db: SqlBackend;
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => undefined);
    db = postgresBackend(pool);
  } else if (url === 'memory:') {
    db = pgliteBackend(await PGlite.create());
  } else if (url === '' || url.startsWith('file:')) {
    const dir = url === '' ? path.resolve(cwd, DEFAULT_DATA_DIR, 'db') : path.resolve(cwd, url.slice('file:'.length));
    mkdirSync(dir, { recursive: true });
    const release = lockEmbeddedStore(dir);
    try {
      db = withRelease(pgliteBackend(await PGlite.create(dir)), release);
    } catch (err) {
      release();
      throw err;
    }
  } else {
    throw new Error(
      `DATABASE_URL must be unset, "memory:", "file:DIR" or "postgres://…" (got "${url.split(':')[0]}:…")`,
    );
  }
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  return db;
}

/** The backend, its lock released once it is closed. */
function withRelease(db: SqlBackend, release: () => void): SqlBackend {
  const close = db.close.bind(db);
  return Object.assign(db, {
    close: async () => {
      try {
        await close();
      } finally {
        release();
      }
    },
  });
}
