/** Shared helpers of the API suites: one migrated store per file, apps with a stub planner. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  createApp,
  createRateLimiter,
  inProcessPlanner,
  type ApiConfig,
  type PlanFunction,
  type Planner,
  type Store,
} from '@furrow/api';
// @ts-expect-error plain JavaScript fixture (also loaded by worker threads)
import { stubPlanRoute } from './fixtures/stub-plan.mjs';

export const stubPlanner = (): Planner => inProcessPlanner(stubPlanRoute as PlanFunction);

/** A planner whose plans finish only when the test says so; counts the plans running at once. */
export function heldPlanner() {
  const inner = stubPlanner();
  const held: (() => void)[] = [];
  let running = 0;
  let peak = 0;
  const planner: Planner = {
    ...inner,
    threads: 2,
    plan: async (request, signal) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise<void>((resolve) => held.push(resolve));
      running--;
      return inner.plan(request, signal);
    },
  };
  return { planner, held, peak: () => peak };
}

export const stubWorkerFile = fileURLToPath(new URL('./fixtures/stub-worker.mjs', import.meta.url));

export const square = (lon = 8.54, lat = 47.37, d = 0.004) => ({
  type: 'Polygon' as const,
  coordinates: [
    [
      [lon, lat],
      [lon + d, lat],
      [lon + d, lat + d],
      [lon, lat + d],
      [lon, lat],
    ],
  ],
});

export const bowTie = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [8.54, 47.37],
      [8.544, 47.374],
      [8.544, 47.37],
      [8.54, 47.374],
      [8.54, 47.37],
    ],
  ],
};

export const shapeA = (over: Record<string, unknown> = {}) => ({
  field: square(),
  machine: { widthMeters: 6 },
  headland: { passes: 2 },
  tracks: { preferredDirectionDegrees: 90 },
  ...over,
});

export const shapeB = (over: Record<string, unknown> = {}) => ({
  boundary: square(),
  equipment: { widthMeters: 6 },
  exteriorHeadlandPasses: 2,
  ...over,
});

export interface TestApp {
  app: ReturnType<typeof createApp>;
  store: Store;
  adminKey: string;
  adminUserId: string;
}

let counter = 0;
/** An app over `store` with a fresh partner-admin account (`credits` credits) and a stub planner. */
export async function makeApp(
  store: Store,
  opts: {
    credits?: number;
    config?: Partial<ApiConfig>;
    rate?: { points: number; windowSeconds: number };
    planner?: Planner;
  } = {},
): Promise<TestApp> {
  const made = await store.createAccountKey({
    name: `admin ${++counter}`,
    partnerAdmin: true,
    initialCredits: opts.credits ?? 1000,
  });
  const app = createApp({
    store,
    planner: opts.planner ?? stubPlanner(),
    limiter: createRateLimiter({ points: opts.rate?.points ?? 100_000, windowSeconds: opts.rate?.windowSeconds ?? 60 }),
    config: { appUrl: 'http://app.test', ...opts.config },
  });
  return { app, store, adminKey: made.apiKey, adminUserId: made.userId };
}

export function jsonInit(
  method: string,
  key: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
): RequestInit {
  const h: Record<string, string> = { ...headers };
  if (key !== undefined) h['X-API-KEY'] = key;
  if (body !== undefined) h['Content-Type'] = 'application/json';
  return { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) };
}

/** A request whose body is sent as given (malformed or non-UTF-8 JSON, a file), with its key and media type. */
export function rawInit(method: string, key: string, body: BodyInit, contentType = 'application/json'): RequestInit {
  return { method, headers: { 'X-API-KEY': key, 'Content-Type': contentType }, body };
}

/** A request to the app with JSON in and out (`body` is the parsed JSON, or the text when it is not JSON). */
export async function call(
  t: TestApp,
  method: string,
  path: string,
  body?: unknown,
  key: string | null = t.adminKey,
  headers: Record<string, string> = {},
) {
  const res = await t.app.request(path, jsonInit(method, key ?? undefined, body, headers));
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json, res };
}

export function readCorpusField(id: string): {
  type: string;
  geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: unknown };
} {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../fields/${id}.geojson`, import.meta.url)), 'utf8'));
}
