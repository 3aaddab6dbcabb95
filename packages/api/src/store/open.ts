/**
 * Opens the store named by DATABASE_URL (CONTRACT.md): unset → embedded PGlite under ./.furrow/,
 * `memory:` → embedded in memory, `postgres://…` → PostgreSQL. Migrations run before it is returned.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { migrate } from './migrations.js';
import { pgliteBackend, postgresBackend, type SqlBackend } from './sql.js';

export const DEFAULT_DATA_DIR = '.furrow';

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
    db = pgliteBackend(await PGlite.create(dir));
  } else {
    throw new Error(`DATABASE_URL must be unset, "memory:", "file:DIR" or "postgres://…" (got "${url.split(':')[0]}:…")`);
  }
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  return db;
}
