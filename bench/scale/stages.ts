/**
 * Where one `planRoute` call's time goes, stage by stage (`onProgress`): wall time, process CPU and the
 * main thread's CPU at each stage's start. `CLOCK=thread` caps the call on the main thread's CPU time
 * instead of the wall clock — on a shared machine, a stand-in for an idle one (the cap then fires after
 * the same work wherever the machine is loaded); `CLOCK=frozen` gives no cap (`now: () => 0`).
 * `CORE=<path to a core's src/index.ts>` plans with another tree's sources (e.g. an older commit's,
 * extracted with `git archive`).
 *
 * Run: `CLOCK=thread node --import tsx bench/scale/stages.ts test/fields-scale/wobbly-1000ha-5000v-50obstacles.geojson 3 2`
 * (field, width in m, maxOptimizerTime in s, optional).
 */
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const core = (await import(
  process.env.CORE ?? fileURLToPath(new URL('../../packages/core/src/index.ts', import.meta.url))
)) as typeof import('../../packages/core/src/index.js');
const [file, width, limit] = process.argv.slice(2);
const g = JSON.parse(readFileSync(file, 'utf8'));
const field = g.type === 'FeatureCollection' ? g.features[0].geometry : g.type === 'Feature' ? g.geometry : g;
const request = {
  field,
  machine: { widthMeters: Number(width) },
  ...(limit ? { routeOptions: { maxOptimizerTime: Number(limit) } } : {}),
};

/** The main thread's CPU time, ms (Linux, in clock ticks of 10 ms; read at most every 2 ms of wall time). */
const statFile = `/proc/self/task/${process.pid}/stat`;
let readAt = -Infinity,
  threadMs = 0;
const mainThreadMs = (): number => {
  if (!existsSync(statFile)) return NaN;
  const now = performance.now();
  if (now - readAt >= 2) {
    readAt = now;
    const stat = readFileSync(statFile, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    threadMs = (Number(f[11]) + Number(f[12])) * 10;
  }
  return threadMs;
};
const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const clock =
  process.env.CLOCK === 'thread' ? { now: mainThreadMs } : process.env.CLOCK === 'frozen' ? { now: () => 0 } : {};

const t0 = performance.now(),
  c0 = cpuMs(),
  m0 = mainThreadMs();
const row = (what: string): void =>
  console.log(
    `${(performance.now() - t0).toFixed(0).padStart(6)} ms wall ${(cpuMs() - c0).toFixed(0).padStart(6)} ms CPU ${(mainThreadMs() - m0).toFixed(0).padStart(6)} ms main thread  ${what}`,
  );
const plan = core.planRoute(request, { ...clock, onProgress: (p) => row(`${p.stage} (planning ${p.planning})`) });
row('end');
const m = plan.metrics;
console.log(
  JSON.stringify({
    tracks: plan.tracks.length,
    uncoveredRatio: m.uncoveredRatio,
    nonWorkingRatio: m.workingDistanceMeters > 0 ? m.nonWorkingDistanceMeters / m.workingDistanceMeters : 0,
    warnings: plan.warnings.map((w) => w.code),
  }),
);
const cut = plan.warnings.find((w) => w.code === 'time-limit');
if (cut) console.log(cut.message);
