/**
 * Two core trees over the corpus in one process: each field planned with A and with B alternately
 * (which goes first swapped every field), frozen clock (`now: () => 0`: the plan depends on the
 * request alone), W 6 m R 6 m, 2 passes; CPU by `process.cpuUsage()` over `planRoute`, and a hash
 * of each plan's JSON, so a change meant to leave plans alone can show that it did.
 *
 * `CORE_A` / `CORE_B`: a core's `src/index.ts` (default B: this tree's; A: required, e.g. an older
 * commit's, extracted with `git archive <commit> packages/core | tar -x -C /tmp/a` and a
 * `node_modules` link beside it). `ALGO`: a route order (default `snake`; `default`: none asked),
 * `ONLY`: field ids, comma-separated, `REPS`: runs per tree and field (the least CPU kept); `WIDTH`, `RADIUS`,
 * `PASSES`: another machine (default 6, 6, 2).
 *
 * Run: `CORE_A=/tmp/a/packages/core/src/index.ts node --import tsx bench/scale/corpus-ab.ts`
 * (one line per field, then a JSON summary: medians, sums, fields whose plans differ, quality medians).
 */
import { createHash } from 'node:crypto';
import { coreTrees, corpusFields, corpusRequest } from './corpusRuns.js';
import type { Core } from './corpusRuns.js';

const trees = coreTrees();
const A = (await import(trees.A)) as Core;
const B = (await import(trees.B)) as Core;
const reps = Number(process.env.REPS ?? 1);

interface Run {
  cpu: number;
  uncovered: number;
  nonWorking: number;
  hash: string;
}

function plan(core: Core, field: unknown): Run {
  const request = corpusRequest(field);
  const c0 = process.cpuUsage();
  const p = core.planRoute(request, { now: () => 0 });
  const c = process.cpuUsage(c0);
  const m = p.metrics;
  const hash = createHash('sha1').update(JSON.stringify(p)).digest('hex');
  return {
    cpu: (c.user + c.system) / 1e6,
    uncovered: m.uncoveredRatio,
    nonWorking: m.workingDistanceMeters > 0 ? m.nonWorkingDistanceMeters / m.workingDistanceMeters : 0,
    hash,
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((p, q) => p - q),
    n = s.length;
  return n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const out: { id: string; a: Run; b: Run }[] = [];
let turn = 0;
for (const { id, field } of corpusFields()) {
  let a: Run | undefined, b: Run | undefined;
  for (let r = 0; r < reps; r++) {
    let x: Run, y: Run;
    if (turn++ % 2 === 0) {
      x = plan(A, field);
      y = plan(B, field);
    } else {
      y = plan(B, field);
      x = plan(A, field);
    }
    if (!a || x.cpu < a.cpu) a = x;
    if (!b || y.cpu < b.cpu) b = y;
  }
  out.push({ id, a: a!, b: b! });
  console.log(
    `${id.padEnd(14)} A ${a!.cpu.toFixed(3)} s  B ${b!.cpu.toFixed(3)} s  ${a!.hash === b!.hash ? 'same plan' : 'PLAN DIFFERS'}`,
  );
}
console.log(
  JSON.stringify({
    fields: out.length,
    medianCpuSeconds: { a: median(out.map((r) => r.a.cpu)), b: median(out.map((r) => r.b.cpu)) },
    sumCpuSeconds: { a: out.reduce((s, r) => s + r.a.cpu, 0), b: out.reduce((s, r) => s + r.b.cpu, 0) },
    plansDiffer: out.filter((r) => r.a.hash !== r.b.hash).map((r) => r.id),
    uncoveredMedian: { a: median(out.map((r) => r.a.uncovered)), b: median(out.map((r) => r.b.uncovered)) },
    nonWorkingPerWorkingMedian: {
      a: median(out.map((r) => r.a.nonWorking)),
      b: median(out.map((r) => r.b.nonWorking)),
    },
  }),
);
