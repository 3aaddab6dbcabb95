/**
 * The store's SQL client: one small interface with two backends, PGlite (PostgreSQL compiled to
 * WebAssembly, embedded, no server) and PostgreSQL through `pg`. Both speak the same dialect, so
 * every query and migration is written once, with `$1` parameters, and runs unchanged on both.
 */
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

export type SqlParam = string | number | boolean | null | Date | object;

export interface Sql {
  /** Runs one statement and returns its rows. */
  query<T = Record<string, unknown>>(text: string, params?: SqlParam[]): Promise<T[]>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}

export interface SqlBackend extends Sql {
  readonly kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** The `pg` pool behind a PostgreSQL backend (for rate limits shared across processes). */
  readonly pgPool?: pg.Pool;
}

interface PgliteQueryable {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

function pgliteSql(db: PgliteQueryable): Sql {
  return {
    async query<T>(text: string, params: SqlParam[] = []) {
      return (await db.query<T>(text, params.map(toParam))).rows;
    },
    async transaction() {
      throw new Error('nested transactions are not supported');
    },
  };
}

/** JSON values go in as text; PostgreSQL casts them where the column is jsonb. */
function toParam(p: SqlParam): unknown {
  if (p === null || p instanceof Date || typeof p !== 'object') return p;
  return JSON.stringify(p);
}

/**
 * Runs PGlite's statements one at a time, each in its own turn of the event loop. PGlite runs a
 * statement synchronously on the server's thread, and its queue hands the connection to the next
 * waiting statement in a microtask: under load, every statement queued ran back to back in one
 * turn of the loop, so the server accepted one new connection per (long) turn — 48 clients
 * connecting to a busy server waited seconds for their first answer. Here each statement waits for
 * the one before and for a `setImmediate`, so the loop polls its sockets between statements.
 */
function turnTaker(): <T>(fn: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  return <T>(fn: () => Promise<T>) => {
    const run = last.then(turn).then(fn);
    last = run.catch(() => undefined);
    return run;
  };
}

export function pgliteBackend(db: PGlite): SqlBackend {
  const base = pgliteSql(db);
  const inTurn = turnTaker();
  return {
    kind: 'pglite',
    query: (text, params) => inTurn(() => base.query(text, params)),
    // PGlite has one connection; its transaction() holds it exclusively until the callback ends.
    transaction: (fn) => inTurn(() => db.transaction((tx) => fn(pgliteSql(tx)))),
    close: () => db.close(),
  };
}

export function postgresBackend(pool: pg.Pool): SqlBackend {
  return {
    kind: 'postgres',
    pgPool: pool,
    async query<T>(text: string, params: SqlParam[] = []) {
      return (await pool.query(text, params.map(toParam) as unknown[])).rows as T[];
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      const tx: Sql = {
        async query<R>(text: string, params: SqlParam[] = []) {
          return (await client.query(text, params.map(toParam) as unknown[])).rows as R[];
        },
        async transaction() {
          throw new Error('nested transactions are not supported');
        },
      };
      try {
        await client.query('BEGIN');
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
