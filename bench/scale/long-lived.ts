/**
 * The time limit in a long-lived process, at scale (issue 39): `COUNT` varied requests (default 2,000) planned one after
 * another in this one process, as the API server and the job workers plan them, with the heavy case
 * (test/cases/long-call-w1.5-r15-no-headland.json: W 1.5 m, R 15 m, no headland passes, `optimized`, a 600 m
 * star-shaped field) planned fresh at the start and again after every `EVERY` requests (default 500).
 *
 * The requests are seeded (the same on every run): a corpus field of at most `MAX_HA` hectares (default 5), W 1.5, 3, 6
 * or 12 m, R 4–15 m, 0–2 headland passes, one of four orders, maxOptimizerTime 0.5 or 1 s. Every call runs on the
 * default (wall) clock, as in the server; wall and CPU time are both recorded.
 *
 * Reported (one JSON line): calls over their limit max(2T, T + 1 s) on the wall clock and on CPU, the worst
 * ratio of a call's wall time to its limit, the heavy call's times fresh and late (and late ÷ fresh), percentiles of
 * the varied calls, and the process's memory at the start and the end. On a loaded machine the wall clock counts the
 * waiting for a core as well; the CPU columns do not.
 *
 * Run: `node --import tsx bench/scale/long-lived.ts` (`COUNT`, `EVERY`, `MAX_HA`, `SEED` to change it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planRoute } from '../../packages/core/src/index.js';
import { seededRandom as random } from '../../packages/core/src/geometry/random.js';
import type { PathPlanRequest } from '../../packages/core/src/index.js';
import { corpusFields } from './corpusRuns.js';

const COUNT = Number(process.env.COUNT ?? 2000);
const EVERY = Number(process.env.EVERY ?? 500);
const MAX_HA = Number(process.env.MAX_HA ?? 5);
const SEED = Number(process.env.SEED ?? 39);

const root = fileURLToPath(new URL('../../', import.meta.url));
const heavy = JSON.parse(
  readFileSync(join(root, 'test/cases/long-call-w1.5-r15-no-headland.json'), 'utf8'),
) as PathPlanRequest & { routeOptions: { maxOptimizerTime: number } };

/** Corpus fields of at most MAX_HA hectares (index.csv's area), each with its geometry. */
function smallFields(): { id: string; field: unknown }[] {
  const area = new Map(
    readFileSync(join(root, 'test/fields/index.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','))
      .map(([id, , ha]) => [id, Number(ha)] as const),
  );
  return corpusFields().filter(({ id }) => (area.get(id) ?? Infinity) <= MAX_HA);
}

const ALGORITHMS = ['optimized', 'snake', 'boustrophedon', undefined] as const;

function variedRequest(fields: { id: string; field: unknown }[], r: () => number): PathPlanRequest & { id: string } {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const algorithm = pick(ALGORITHMS);
  const f = pick(fields);
  return {
    id: f.id,
    field: f.field,
    machine: { widthMeters: pick([1.5, 3, 6, 12]), turnRadiusMeters: pick([4, 6, 9, 12, 15]) },
    headland: { passes: pick([0, 1, 2]) },
    routeOptions: { maxOptimizerTime: pick([0.5, 1]), ...(algorithm ? { algorithm } : {}) },
  } as PathPlanRequest & { id: string };
}

/** The most a call may take, ms: max(2 × maxOptimizerTime, maxOptimizerTime + 1 s). */
const mostMilliseconds = (t: number): number => Math.max(2000 * t, 1000 * t + 1000);

const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

interface Timed {
  /** What was asked (field id, W, R, passes, order, T), for the calls reported over their limit. */
  what?: string;
  wallMs: number;
  cpuMs: number;
  limitMs: number;
  error?: string;
}

function timed(request: PathPlanRequest & { id?: string }): Timed {
  const limitMs = mostMilliseconds(request.routeOptions?.maxOptimizerTime ?? 10);
  const { id, field, ...rest } = request;
  void field;
  const what = `${id ?? 'heavy'} ${JSON.stringify(rest)}`;
  const w0 = performance.now(),
    c0 = cpuMs();
  try {
    planRoute(request);
  } catch (e) {
    // a request the planner refuses (a PlanError) is an answer too; it is timed the same
    return { what, wallMs: performance.now() - w0, cpuMs: cpuMs() - c0, limitMs, error: (e as Error).name };
  }
  return { what, wallMs: performance.now() - w0, cpuMs: cpuMs() - c0, limitMs };
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

const fields = smallFields();
const r = random(SEED);
const memory = (): { rssMB: number; heapMB: number } => {
  const m = process.memoryUsage();
  return { rssMB: Math.round(m.rss / 1e6), heapMB: Math.round(m.heapUsed / 1e6) };
};
planRoute(variedRequest(fields, random(1))); // the code compiled before the first heavy call
const memoryAtStart = memory();
const heavyCalls: Timed[] = [timed(heavy)];
const varied: Timed[] = [];
for (let i = 1; i <= COUNT; i++) {
  varied.push(timed(variedRequest(fields, r)));
  if (i % EVERY === 0) heavyCalls.push(timed(heavy));
  if (i % 100 === 0) process.stderr.write(`${i} `);
}
process.stderr.write('\n');
const all = [...heavyCalls, ...varied];
const round = (x: number): number => Math.round(x);
/** The median, 99th percentile and most of a run of times, ms. */
const spread = (xs: number[]): { p50: number; p99: number; max: number } => ({
  p50: round(percentile(xs, 0.5)),
  p99: round(percentile(xs, 0.99)),
  max: round(Math.max(...xs)),
});
console.log(
  JSON.stringify({
    count: COUNT,
    fields: fields.length,
    refused: varied.filter((t) => t.error).length,
    overLimitWall: all.filter((t) => t.wallMs > t.limitMs).length,
    overLimitCpu: all.filter((t) => t.cpuMs > t.limitMs).length,
    worstWallOverLimit: Math.max(...all.map((t) => t.wallMs / t.limitMs)).toFixed(3),
    heavyWallMs: heavyCalls.map((t) => round(t.wallMs)),
    heavyCpuMs: heavyCalls.map((t) => round(t.cpuMs)),
    heavyLimitMs: heavyCalls[0].limitMs,
    lateOverFreshWall: (heavyCalls[heavyCalls.length - 1].wallMs / heavyCalls[0].wallMs).toFixed(2),
    lateOverFreshCpu: (heavyCalls[heavyCalls.length - 1].cpuMs / heavyCalls[0].cpuMs).toFixed(2),
    variedWallMs: spread(varied.map((t) => t.wallMs)),
    variedCpuMs: spread(varied.map((t) => t.cpuMs)),
    memoryAtStart,
    memoryAtEnd: memory(),
    slowestByCpu: [...all]
      .sort((a, b) => b.cpuMs / b.limitMs - a.cpuMs / a.limitMs)
      .slice(0, 5)
      .map((t) => ({ what: t.what, cpuMs: round(t.cpuMs), wallMs: round(t.wallMs), limitMs: t.limitMs })),
  }),
);
