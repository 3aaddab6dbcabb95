/**
 * maxOptimizerTime bounds the call, not only the ordering: past it (the call's wall-clock cap,
 * core clock.ts) the optimizer and the ordering on the real connectors stop where they are and no
 * second planning starts; the route is then connected and measured in full. it-tus-033 (21 holes,
 * a strip fallback that plans it again) takes 1.7–3.6 s of CPU at maxOptimizerTime 1 when nothing
 * stops it (a frozen clock: the counted work budget alone; 2026-11-27, the test's order: compiled on
 * at-033 first). The cap is read on a CPU-time clock here so that the test means the same on a
 * loaded machine: with it the call takes 0.8–1.1 s of CPU (0.30–0.49 of the free call), and under 0.6
 * of the free call is asserted. (bg-009, the field here until 2026-11-27, is no longer planned twice
 * for a pass its shape leaves out: 0.7 s free once compiled, the cap then does not fire.)
 *
 * The README's library example keeps its limit: the optional work stops at 0.6 × maxOptimizerTime
 * (core clock.ts FINISH_SHARE) and what every plan needs takes the cheap way after it (joins by a
 * turn or a chain of waypoints, no strip passes, no headings per cell, no unworked patches listed),
 * so a slow field (it-tus-033: 3.8–4.0 s of CPU at maxOptimizerTime 1 on a frozen clock, 0.84–1.14 s
 * with the cap on an idle machine, 2026-11-27) is planned within 1.5 s. (bg-020, 545 ha, and then
 * bg-009 were the slow field until they became quick enough to finish near or before the cap: too
 * close to it to be sure the cap is what is tested.) Read on the CPU clock, like the test above, so that a loaded machine does not
 * stretch it (the better of two calls: contention still adds CPU time; on a machine loaded far
 * beyond its cores the call takes up to 1.8 s of it); on an idle machine the wall clock (the
 * example's own) reads about the same. The third test plans the example as it stands, on the wall
 * clock, and holds its wall time to the limit whenever a call had a core to itself (main-thread CPU
 * time at least 0.85 of wall time; vitest runs files side by side on 2 cores), else its CPU time.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planRoute } from '@furrow/core';
import type { FieldGeometry, PathPlanRequest, Plan } from '@furrow/core';

const cpuMilliseconds = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

function fieldOf(id: string): FieldGeometry {
  const g = JSON.parse(readFileSync(new URL(`../fields/${id}.geojson`, import.meta.url), 'utf8')) as {
    type: string;
    geometry?: FieldGeometry;
  };
  return (g.type === 'Feature' ? g.geometry : g) as FieldGeometry;
}

function request(id: string): PathPlanRequest {
  return {
    field: fieldOf(id),
    machine: { widthMeters: 6, turnRadiusMeters: 6 },
    routeOptions: { maxOptimizerTime: 1 },
  };
}

describe('maxOptimizerTime bounds the call', () => {
  it('stops the optional work of a slow field at maxOptimizerTime 1 and says so', () => {
    planRoute(request('at-033'), { now: () => 0 }); // compiles the planner, untimed
    const c0 = cpuMilliseconds();
    const free = planRoute(request('it-tus-033'), { now: () => 0 });
    const freeMs = cpuMilliseconds() - c0;
    const c1 = cpuMilliseconds();
    const capped = planRoute(request('it-tus-033'), { now: cpuMilliseconds });
    const cappedMs = cpuMilliseconds() - c1;
    expect(free.warnings.map((w) => w.code)).not.toContain('time-limit');
    expect(capped.warnings.find((w) => w.code === 'time-limit')?.message).toMatch(
      /ordering on the real connectors stopped/,
    );
    expect(cappedMs).toBeLessThan(0.6 * freeMs);
    // still a plan of every track, route connected
    expect(capped.route.filter((s) => s.type === 'Track').length).toBeGreaterThan(0);
  }, 300_000);

  it('plans the README example with a slow field at maxOptimizerTime 1 within 1.5 s', () => {
    // the README's request, with the slow field and the limit of 1 s
    const readme: PathPlanRequest = {
      field: fieldOf('it-tus-033'),
      machine: { widthMeters: 6, turnRadiusMeters: 6 },
      headland: { passes: 2 },
      routeOptions: { algorithm: 'optimized', maxOptimizerTime: 1 },
    };
    planRoute(request('at-033'), { now: () => 0 }); // compiles the planner, untimed
    // the better of two calls: contention on a shared machine only ever adds CPU time
    const timed = [0, 1].map(() => {
      const c0 = cpuMilliseconds();
      const p = planRoute(readme, { now: cpuMilliseconds });
      return { plan: p, ms: cpuMilliseconds() - c0 };
    });
    const { plan, ms } = timed[0].ms <= timed[1].ms ? timed[0] : timed[1];
    expect(plan.warnings.find((w) => w.code === 'time-limit')?.message).toMatch(
      /ordering on the real connectors stopped/,
    );
    expect(ms).toBeLessThan(1500);
    expectEveryTrackDrivenOrNamed(plan);
  }, 300_000);

  it('plans the README example on its own clock (the wall clock) within 1.5 s when the process gets a core', () => {
    // The example exactly: no clock injected, so the cap reads performance.now(). Wall time says
    // something only where the planner's thread ran most of it: a call whose main-thread CPU time
    // is under STARVED_SHARE of its wall time shared its core (vitest runs files side by side; the
    // process's CPU time would count the compiler and GC threads too), and only its CPU time is held
    // to the limit then. The better of three calls.
    const readme: PathPlanRequest = {
      field: fieldOf('it-tus-033'),
      machine: { widthMeters: 6, turnRadiusMeters: 6 },
      headland: { passes: 2 },
      routeOptions: { algorithm: 'optimized', maxOptimizerTime: 1 },
    };
    planRoute(request('at-033'), { now: () => 0 }); // compiles the planner, untimed
    const threadMs = mainThreadCpuMilliseconds();
    const timed = [0, 1, 2].map(() => {
      const c0 = threadMs(),
        t0 = performance.now();
      const p = planRoute(readme);
      return { plan: p, wall: performance.now() - t0, cpu: threadMs() - c0 };
    });
    const ran = timed.filter((t) => t.cpu >= STARVED_SHARE * t.wall);
    const best = (ran.length > 0 ? ran : timed).reduce((a, b) => (b.wall < a.wall ? b : a));
    // where the cap fired on the wall clock the plan says so; a call quick enough to finish before
    // it (an idle machine) has nothing to say
    const limited = best.plan.warnings.find((w) => w.code === 'time-limit');
    if (limited) expect(limited.message).toMatch(/ordering on the real connectors stopped/);
    expect(ran.length > 0 ? best.wall : best.cpu).toBeLessThan(1500);
    // cut short or not
    expectEveryTrackDrivenOrNamed(best.plan);
  }, 300_000);
});

/**
 * Every track of the plan is driven or named left out (`track-skipped`, a join nothing fits: it-tus-033
 * leaves one out on some routes), and most are driven.
 */
function expectEveryTrackDrivenOrNamed(plan: Plan): void {
  const driven = new Set(plan.route.filter((s) => s.type === 'Track').map((s) => s.trackIndex));
  const named = new Set(
    plan.warnings.filter((w) => w.code === 'track-skipped').map((w) => Number(/^track (\d+) /.exec(w.message)?.[1])),
  );
  const tracks = plan.tracks as { index: number }[];
  for (const t of tracks) expect(driven.has(t.index) || named.has(t.index), `track ${t.index}`).toBe(true);
  expect(driven.size).toBeGreaterThan(0.95 * tracks.length);
}

/** A call whose main-thread CPU time is below this share of its wall time did not have a core to itself. */
const STARVED_SHARE = 0.85;

/**
 * The main thread's CPU time, ms (Linux: /proc/self/task/<pid>/stat, utime + stime in clock ticks);
 * elsewhere the process's (`process.cpuUsage`, which also counts the compiler and GC threads, so a
 * call that shared its core may pass for one that had it).
 */
function mainThreadCpuMilliseconds(): () => number {
  const statFile = `/proc/self/task/${process.pid}/stat`;
  if (!existsSync(statFile)) return cpuMilliseconds;
  let tick = 100;
  try {
    tick = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    // USER_HZ is 100 on every mainstream Linux
  }
  return () => {
    const stat = readFileSync(statFile, 'utf8');
    // fields after "(comm) ": state, ppid, …; utime and stime are fields 14 and 15 of the line
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / tick;
  };
}
