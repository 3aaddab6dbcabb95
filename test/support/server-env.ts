/**
 * The environment of a test's own API server: an in-memory database, a bootstrap admin key, a free
 * port on loopback, planning on the request's thread and no log; `more` adds to it or overrides it.
 */
export function memoryServerEnv(adminKey: string, more: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: 'memory:',
    FURROW_BOOTSTRAP_API_KEY: adminKey,
    PORT: '0',
    HOST: '127.0.0.1',
    FURROW_PLAN_THREADS: '0',
    FURROW_LOG_LEVEL: 'silent',
    ...more,
  };
}
