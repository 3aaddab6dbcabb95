/**
 * `furrow serve` and `furrow keys create` as single function calls for the CLI.
 * Environment (docs/api.md "Starting"): PORT, HOST, DATABASE_URL, FURROW_BOOTSTRAP_API_KEY, APP_URL; plus
 * FURROW_RATE_LIMIT (requests per window per key, default 600), FURROW_RATE_WINDOW_SECONDS (60),
 * FURROW_PLAN_THREADS (worker threads, default = cores; 0 = plan in-process), FURROW_PLAN_WARMUP (1: each
 * planning thread plans a small field at start; 0 = not), FURROW_PLAN_COST (1),
 * FURROW_INITIAL_CREDITS (1000), FURROW_BODY_LIMIT_BYTES (10 MiB), FURROW_PLAN_TIMEOUT_SECONDS (120),
 * FURROW_RETURN_URL_ORIGINS (comma-separated extra launch returnUrl origins), FURROW_LOG_LEVEL (info),
 * FURROW_INPROCESS_WORKER (plan guidance-job items in this process, default 1; docs/jobs.md),
 * FURROW_JWT_SECRET (≥ 32 characters; default: generated once and kept in the store),
 * FURROW_MAX_IN_FLIGHT (16; 0 = no admission bound), FURROW_ADMISSION_WAIT_MS (100), FURROW_MAX_WAITING (4 × in
 * flight).
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve as nodeServe } from '@hono/node-server';
import pino from 'pino';
import { createApp, type WebMount } from './app.js';
import type { ApiConfig, App } from './context.js';
import { inProcessPlanner, poolPlanner, type Planner } from './planner.js';
import { createRateLimiter } from './ratelimit.js';
import { openStore, type Store } from './store/store.js';
import { startJobs, type JobService } from './jobs/service.js';
import { jobSettingsFromEnv } from './jobs/worker-command.js';
import { untilStopSignal } from './signals.js';

type Env = Record<string, string | undefined>;

/** The server's admission by default (docs/api.md "Admission"; figures in docs/benchmarks/api.md). */
const ADMISSION_DEFAULTS = { maxInFlight: 16, waitMs: 100 };

export interface ServeOptions {
  /** Mounts the web application on the app (see createApp). */
  web?: WebMount;
  logger?: pino.Logger;
  /** Where start-up hints go (default stderr). */
  out?: (line: string) => void;
  cwd?: string;
  /** Planner to use instead of the worker pool / FURROW_PLAN_THREADS (tests, embedding). */
  planner?: Planner;
}

export interface RunningServer {
  url: string;
  port: number;
  app: App;
  store: Store;
  planner: Planner;
  close(): Promise<void>;
}

function intEnv(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min} (got "${raw}")`);
  return n;
}

export async function serve(env: Env = process.env, opts: ServeOptions = {}): Promise<RunningServer> {
  const out = opts.out ?? ((line: string) => process.stderr.write(`${line}\n`));
  const logger = opts.logger ?? pino({ level: env.FURROW_LOG_LEVEL ?? 'info' });
  const port = intEnv(env, 'PORT', 8787);
  const host = env.HOST || '127.0.0.1';
  const threads = intEnv(env, 'FURROW_PLAN_THREADS', -1, -1);
  const config: Partial<ApiConfig> = {
    planCostCredits: intEnv(env, 'FURROW_PLAN_COST', 1),
    initialCredits: intEnv(env, 'FURROW_INITIAL_CREDITS', 1000),
    bodyLimitBytes: intEnv(env, 'FURROW_BODY_LIMIT_BYTES', 10 * 1024 * 1024, 1024),
    planTimeoutCapSeconds: intEnv(env, 'FURROW_PLAN_TIMEOUT_SECONDS', 120, 1),
    returnUrlOrigins: (env.FURROW_RETURN_URL_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
  if (env.FURROW_PLAN_CONCURRENCY) config.planConcurrency = intEnv(env, 'FURROW_PLAN_CONCURRENCY', 1, 1);
  if (env.FURROW_PLAN_QUEUE) config.planQueue = intEnv(env, 'FURROW_PLAN_QUEUE', 0, 0);
  // FURROW_MAX_IN_FLIGHT=0 turns admission off.
  const maxInFlight = intEnv(env, 'FURROW_MAX_IN_FLIGHT', ADMISSION_DEFAULTS.maxInFlight, 0);
  if (maxInFlight > 0) {
    config.admission = {
      maxInFlight,
      waitMs: intEnv(env, 'FURROW_ADMISSION_WAIT_MS', ADMISSION_DEFAULTS.waitMs, 0),
      // without FURROW_MAX_WAITING, admission's own default (4 × in flight)
      ...(env.FURROW_MAX_WAITING ? { maxWaiting: intEnv(env, 'FURROW_MAX_WAITING', 0, 0) } : {}),
    };
  }

  if (env.FURROW_JWT_SECRET !== undefined && env.FURROW_JWT_SECRET.length < 32)
    throw new Error('FURROW_JWT_SECRET must be at least 32 characters');

  const store = await openStore(env.DATABASE_URL, opts.cwd);
  let planner: Planner | undefined;
  let jobs: JobService | undefined;
  let server: ReturnType<typeof nodeServe> | undefined;
  try {
    if (env.FURROW_BOOTSTRAP_API_KEY) {
      const { created, keyId } = await store.ensureBootstrapKey(
        env.FURROW_BOOTSTRAP_API_KEY,
        config.initialCredits ?? 1000,
      );
      logger.info({ keyId, created }, 'bootstrap partner-admin key ready');
    }
    if ((await store.countKeys()) === 0) {
      out(
        'furrow: no API keys exist yet. Create one with `npx furrow keys create --partner-admin` (stop the server ' +
          'first when using the embedded store), or start with FURROW_BOOTSTRAP_API_KEY set.',
      );
    }
    // The planning threads each plan a small field at start (FURROW_PLAN_WARMUP=0: not), so the first plan a
    // user asks for is not also the thread's cold start.
    const warmUp = env.FURROW_PLAN_WARMUP !== '0' && env.FURROW_PLAN_WARMUP !== 'false';
    planner =
      opts.planner ??
      (threads === 0 ? inProcessPlanner() : poolPlanner({ ...(threads > 0 ? { threads } : {}), warmUp }));
    const limiter = createRateLimiter({
      points: intEnv(env, 'FURROW_RATE_LIMIT', 600, 1),
      windowSeconds: intEnv(env, 'FURROW_RATE_WINDOW_SECONDS', 60, 1),
      pgPool: store.db.pgPool,
    });

    // APP_URL defaults to the server's own address, known only once it listens: listen first,
    // then build the app and hand requests to it.
    // eslint-disable-next-line prefer-const -- assigned below, after the server it closes over exists
    let app: App | undefined;
    server = nodeServe({
      fetch: (req, bindings) => (app ? app.fetch(req, bindings) : new Response('starting', { status: 503 })),
      port,
      hostname: host,
    });
    const listening = server;
    await new Promise<void>((resolve, reject) => {
      listening.once('listening', resolve);
      listening.once('error', reject);
    });
    const address = listening.address() as AddressInfo;
    const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
    const appConfig: Partial<ApiConfig> = { ...config, appUrl: (env.APP_URL || url).replace(/\/$/, '') };
    // Guidance jobs (docs/jobs.md): FURROW_INPROCESS_WORKER=0 leaves planning to `furrow worker` processes.
    const jobEnv = jobSettingsFromEnv(env);
    jobs = await startJobs({
      store,
      planner,
      logger,
      pgBoss: jobEnv.pgBoss,
      worker: env.FURROW_INPROCESS_WORKER !== '0' && env.FURROW_INPROCESS_WORKER !== 'false',
      settings: {
        ...jobEnv.settings,
        planCostCredits: config.planCostCredits,
        planTimeoutCapSeconds: config.planTimeoutCapSeconds,
      },
    });
    app = createApp({
      store,
      planner,
      limiter,
      logger,
      config: appConfig,
      web: opts.web,
      jwtSecret: env.FURROW_JWT_SECRET,
    });
    logger.info(
      { url, appUrl: appConfig.appUrl, store: store.db.kind, planThreads: planner.threads },
      'furrow API listening',
    );

    let closing: Promise<void> | undefined;
    const usedPlanner = planner;
    return {
      url,
      port: address.port,
      app: app,
      store,
      planner: usedPlanner,
      close: () =>
        (closing ??= (async () => {
          await new Promise<void>((resolve) => {
            // Idle keep-alive sockets would hold close() open until their keep-alive timeout: close
            // them now, and each in-flight connection as soon as its response is sent.
            const closeIdle = () =>
              (listening as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
            const sweep = setInterval(closeIdle, 50);
            listening.close(() => {
              clearInterval(sweep);
              resolve();
            });
            closeIdle();
          });
          await jobs?.close();
          await usedPlanner.close();
          await store.close();
        })()),
    };
  } catch (err) {
    // A failure after listening (jobs, app) must not leave the port open.
    const open = server;
    if (open?.listening) await new Promise<void>((resolve) => open.close(() => resolve()));
    await jobs?.close().catch(() => undefined);
    await planner?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw err;
  }
}

/** `furrow serve`: serves until SIGINT / SIGTERM, then shuts down gracefully. Resolves with the exit code. */
export async function serveCommand(env: Env = process.env, opts: ServeOptions = {}): Promise<number> {
  const running = await serve(env, opts);
  process.stderr.write(`furrow API on ${running.url} (docs: ${running.url}/docs)\n`);
  await untilStopSignal();
  await running.close();
  return 0;
}

export interface CreateKeyOptions {
  partnerAdmin?: boolean;
  name?: string;
  /** Credits of the new key's account (default FURROW_INITIAL_CREDITS or 1000). */
  credits?: number;
}

/**
 * `furrow keys create [--partner-admin] [--name NAME]`: creates an account with one key in the
 * store named by DATABASE_URL and returns it; the secret is shown only here.
 */
export async function createKeyCommand(
  opts: CreateKeyOptions = {},
  env: Env = process.env,
  cwd?: string,
): Promise<{ keyId: string; apiKey: string; userId: string; partnerAdmin: boolean }> {
  const store = await openStore(env.DATABASE_URL, cwd);
  try {
    const made = await store.createAccountKey({
      name: opts.name ?? (opts.partnerAdmin ? 'partner admin' : 'api key'),
      partnerAdmin: opts.partnerAdmin ?? false,
      initialCredits: opts.credits ?? intEnv(env, 'FURROW_INITIAL_CREDITS', 1000),
    });
    return { ...made, partnerAdmin: opts.partnerAdmin ?? false };
  } finally {
    await store.close();
  }
}

export interface InviteUserOptions {
  /** The person's e-mail or name (shown as the user's name). */
  name: string;
  /** The organisation (company) the user gets admin access to; created when new. */
  company: string;
  /** Credits of the company for planning (default FURROW_INITIAL_CREDITS or 1000). */
  credits?: number;
  /** How long the sign-in link works, seconds (default 86,400: one day). */
  lifetimeSeconds?: number;
}

/**
 * `furrow users invite --name NAME --company COMPANY`: a self-hosting team signs its own people in
 * without a partner. Creates a user, an organisation it administers (with credits), and a one-time
 * sign-in link (a launch code, stored hashed) to the web app at APP_URL (default
 * http://127.0.0.1:8787); the link is shown only here.
 */
export async function inviteUserCommand(
  opts: InviteUserOptions,
  env: Env = process.env,
  cwd?: string,
): Promise<{ userId: string; companyId: string; signInUrl: string; expiresInSec: number }> {
  const name = opts.name.trim();
  const companyName = opts.company.trim();
  if (name === '' || name.length > 200) throw new Error('--name must be 1 to 200 characters');
  if (companyName === '' || companyName.length > 200) throw new Error('--company must be 1 to 200 characters');
  const lifetime = opts.lifetimeSeconds ?? 86_400;
  if (!(Number.isInteger(lifetime) && lifetime >= 60 && lifetime <= 30 * 86_400))
    throw new Error('--valid-hours must give 1 minute to 30 days');
  const appUrl = (env.APP_URL || 'http://127.0.0.1:8787').replace(/\/$/, '');
  const store = await openStore(env.DATABASE_URL, cwd);
  try {
    // The user's own account owns what it creates; its API key is never shown (it signs in by link).
    const made = await store.createAccountKey({ name, partnerAdmin: false, initialCredits: 0 });
    const { company } = await store.provisionCompany(made.userId, made.userId, {
      partnerCompanyId: `local-${randomUUID()}`,
      name: companyName,
    });
    const credits = opts.credits ?? intEnv(env, 'FURROW_INITIAL_CREDITS', 1000);
    if (credits > 0) await store.grantCredits('company', company.companyId, credits, 'initial credits');
    const returnUrl = `${appUrl}/`;
    const code = await store.createLaunchCode(made.userId, made.userId, returnUrl, lifetime);
    const url = new URL('/launch', appUrl);
    url.searchParams.set('code', code);
    url.searchParams.set('userId', made.userId);
    url.searchParams.set('returnUrl', returnUrl);
    return { userId: made.userId, companyId: company.companyId, signInUrl: url.toString(), expiresInSec: lifetime };
  } finally {
    await store.close();
  }
}
