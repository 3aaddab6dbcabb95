/**
 * Route-order benchmark: every order on synthetic parallel-track fields, the optimizer's
 * gap to its lower bound, time to the first feasible route and the time limit on a field with
 * more than 1,000 tracks. Run: `npx tsc --build packages/core && npx tsx bench/route.bench.ts`
 * (prints Markdown; `--quick` skips the 10 s time-limit run).
 *
 * Costs are the synthetic connector model of `syntheticTrackProblem` (closed-form turn lengths),
 * in meters; the corpus section of docs/benchmarks/route.md comes from planRoute on real fields.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  checkPlan,
  FIXED_ORDER_ALGORITHMS,
  orderItems,
  planRoute,
  syntheticTrackProblem,
  transitionTotal,
  type OrderingProblem,
  type PathPlanRequest,
  type Plan,
  type RouteAlgorithm,
} from '@furrow/core';

const quick = process.argv.includes('--quick');
const corpusArg = process.argv.find((a) => a.startsWith('--corpus'));
/** `--corpus` runs every corpus field; `--corpus=N` the N smallest. Progress lines go to `--log=FILE`. */
const corpusLimit = corpusArg === undefined ? 0 : corpusArg.includes('=') ? Number(corpusArg.split('=')[1]) : Infinity;
const logFile = process.argv.find((a) => a.startsWith('--log='))?.slice(6);
const now = (): number => performance.now();
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f1 = (v: number): string => v.toFixed(1);
let checksum = 0;

function orderTable(): string[] {
  const out: string[] = [];
  out.push(
    '| field | tracks | ' +
      FIXED_ORDER_ALGORITHMS.join(' | ') +
      ' | optimized | gap | gap (non-working) | first feasible ms | optimizer ms |',
  );
  out.push('|---|---:|' + FIXED_ORDER_ALGORITHMS.map(() => '---:|').join('') + '---:|---:|---:|---:|---:|');
  const gaps: number[] = [];
  const nwGaps: number[] = [];
  let wins = 0;
  let rows = 0;
  for (const trackCount of [12, 40, 120, 300]) {
    for (const width of [3, 6, 12]) {
      for (const seed of [1, 2]) {
        const p: OrderingProblem = syntheticTrackProblem({
          trackCount,
          spacingMeters: width,
          turnRadiusMeters: 6,
          seed,
          slope: seed === 2 ? 0.4 : 0,
          lengthMeters: 250,
          staging: [-30, -30],
        });
        const fixed = FIXED_ORDER_ALGORITHMS.map((algorithm) =>
          transitionTotal(p, orderItems(p, { algorithm, skipCount: 1, lowerBound: false }).order),
        );
        const opt = orderItems(p, { now, maxTimeMilliseconds: 10_000 });
        const nonWorking = transitionTotal(p, opt.order);
        checksum += nonWorking;
        let work = 0;
        for (const w of p.workCost) work += w;
        const gap = opt.report.gapRatio!;
        gaps.push(gap);
        nwGaps.push(opt.report.nonWorkingGapRatio!);
        rows++;
        if (nonWorking <= Math.min(...fixed) + 1e-6) wins++;
        out.push(
          `| w ${width} m, seed ${seed} | ${trackCount} | ${fixed.map(f1).join(' | ')} | ${f1(nonWorking)} | ${(gap * 100).toFixed(1)}% | ${(opt.report.nonWorkingGapRatio! * 100).toFixed(1)}% | ${opt.report.firstFeasibleMilliseconds!.toFixed(2)} | ${opt.report.timeSpentMilliseconds!.toFixed(0)} |`,
        );
        void work;
      }
    }
  }
  out.push('');
  out.push(
    `Non-working distance in meters (entry and exit legs to a staging area included). optimized ≤ best fixed order on ${wins} of ${rows} instances; median gap to the lower bound ${(median(gaps) * 100).toFixed(1)}% of the route cost (working length included), ${(median(nwGaps) * 100).toFixed(1)}% of the non-working part.`,
  );
  return out;
}

function largeField(): string[] {
  const out: string[] = [];
  const p = syntheticTrackProblem({
    trackCount: 1200,
    spacingMeters: 3,
    turnRadiusMeters: 6,
    seed: 7,
    slope: 0.2,
    lengthMeters: 600,
    staging: [-50, -50],
  });
  out.push(
    '| run | first feasible ms | time spent ms | limit ms | stopped by | iterations | kicks | non-working m | gap |',
  );
  out.push('|---|---:|---:|---:|---|---:|---:|---:|---:|');
  const limits = quick ? [100, 1000] : [100, 1000, 10_000];
  for (const limit of limits) {
    const t0 = now();
    const r = orderItems(p, { now, maxTimeMilliseconds: limit, maxStallKicks: 1_000_000 });
    const wall = now() - t0;
    checksum += r.report.cost;
    out.push(
      `| maxOptimizerTime ${limit / 1000} s (wall incl. bound ${wall.toFixed(0)} ms) | ${r.report.firstFeasibleMilliseconds!.toFixed(2)} | ${r.report.timeSpentMilliseconds!.toFixed(1)} | ${limit} | ${r.report.stoppedBy} | ${r.report.iterations} | ${r.report.kicks} | ${f1(transitionTotal(p, r.order))} | ${(r.report.gapRatio! * 100).toFixed(2)}% |`,
    );
  }
  const conv = orderItems(p, { now, maxTimeMilliseconds: 60_000 });
  out.push(
    `| default stall rule (limit 60 s) | ${conv.report.firstFeasibleMilliseconds!.toFixed(2)} | ${conv.report.timeSpentMilliseconds!.toFixed(1)} | 60000 | ${conv.report.stoppedBy} | ${conv.report.iterations} | ${conv.report.kicks} | ${f1(transitionTotal(p, conv.order))} | ${(conv.report.gapRatio! * 100).toFixed(2)}% |`,
  );
  for (const algorithm of FIXED_ORDER_ALGORITHMS) {
    const t0 = now();
    const r = orderItems(p, { algorithm, skipCount: 2, lowerBound: false });
    out.push(
      `| fixed ${algorithm} (skip 2) | ${(now() - t0).toFixed(2)} | – | – | – | – | – | ${f1(transitionTotal(p, r.order))} | – |`,
    );
  }
  return out;
}

const ALGORITHMS: RouteAlgorithm[] = ['optimized', ...FIXED_ORDER_ALGORITHMS];

function corpusSection(limit: number): string[] {
  const dir = new URL('../test/fields/', import.meta.url);
  const rows = readFileSync(new URL('index.csv', dir), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  rows.sort((a, b) => Number(a[2]) - Number(b[2]));
  const chosen = rows.slice(0, Math.min(rows.length, limit));
  const sum: Record<string, { length: number; nonWorking: number; ok: number; planned: number; ms: number[] }> = {};
  for (const a of ALGORITHMS) sum[a] = { length: 0, nonWorking: 0, ok: 0, planned: 0, ms: [] };
  const gaps: number[] = [];
  const firstFeasible: number[] = [];
  let optimizedBest = 0;
  let optimizedBestValid = 0;
  let compared = 0;
  const worse: string[] = [];
  const failures: string[] = [];
  for (const [id, file, area] of chosen) {
    const feature = JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
    const request: PathPlanRequest = {
      field: feature.geometry,
      machine: { widthMeters: 6, turnRadiusMeters: 6 },
      headland: { passes: 2 },
    };
    const nonWorking: Record<string, number> = {};
    const violations: Record<string, number> = {};
    for (const algorithm of ALGORITHMS) {
      const t0 = now();
      let plan: Plan;
      try {
        plan = planRoute({ ...request, routeOptions: { algorithm } }, { now });
      } catch (e) {
        failures.push(`${id} ${algorithm}: ${(e as Error).message.slice(0, 80)}`);
        continue;
      }
      const ms = now() - t0;
      const s = sum[algorithm];
      s.planned++;
      s.ms.push(ms);
      s.length += plan.metrics.distanceMeters;
      s.nonWorking += plan.metrics.nonWorkingDistanceMeters;
      nonWorking[algorithm] = plan.metrics.nonWorkingDistanceMeters;
      const check = checkPlan(request, plan);
      violations[algorithm] = check.violations.length;
      if (check.ok) s.ok++;
      const rep = plan.optimizer as { nonWorkingGapRatio?: number; firstFeasibleMilliseconds?: number } | undefined;
      if (algorithm === 'optimized' && rep) {
        if (rep.nonWorkingGapRatio !== undefined) gaps.push(rep.nonWorkingGapRatio);
        if (rep.firstFeasibleMilliseconds !== undefined) firstFeasible.push(rep.firstFeasibleMilliseconds);
      }
      checksum += plan.metrics.distanceMeters;
    }
    if (ALGORITHMS.every((a) => nonWorking[a] !== undefined)) {
      compared++;
      const bestFixed = Math.min(...FIXED_ORDER_ALGORITHMS.map((a) => nonWorking[a]));
      if (nonWorking.optimized <= bestFixed + 0.01) optimizedBest++;
      else worse.push(`${id} (${nonWorking.optimized} m vs ${bestFixed} m)`);
      // against the fixed orders whose plans have no more checkPlan violations (an unfitted straight connector is short but not drivable)
      const comparable = FIXED_ORDER_ALGORITHMS.filter((a) => violations[a] <= violations.optimized).map(
        (a) => nonWorking[a],
      );
      if (comparable.length === 0 || nonWorking.optimized <= Math.min(...comparable) + 0.01) optimizedBestValid++;
    }
    if (logFile)
      appendFileSync(
        logFile,
        `${id} ${area} ha ${ALGORITHMS.map((a) => `${a}=${nonWorking[a] ?? 'ERR'}/${violations[a] ?? 'ERR'}`).join(' ')}\n`,
      );
  }
  const out: string[] = [];
  out.push(
    `${chosen.length} corpus fields (smallest first), width 6 m, R 6 m, 2 headland passes; planRoute with a performance.now clock (maxOptimizerTime 10 s).`,
    '',
  );
  out.push(
    '| order | plans | checkPlan ok | route length km (sum) | non-working km (sum) | non-working share | median plan ms |',
  );
  out.push('|---|---:|---:|---:|---:|---:|---:|');
  for (const a of ALGORITHMS) {
    const s = sum[a];
    out.push(
      `| ${a} | ${s.planned} | ${s.ok} | ${(s.length / 1000).toFixed(1)} | ${(s.nonWorking / 1000).toFixed(1)} | ${((100 * s.nonWorking) / Math.max(1, s.length)).toFixed(1)}% | ${median(s.ms).toFixed(0)} |`,
    );
  }
  out.push('');
  out.push(
    `optimized non-working distance ≤ the best fixed order on ${optimizedBest} of ${compared} fields${worse.length ? ` (not on: ${worse.join(', ')}, where the cheaper fixed orders have more checkPlan violations: optimized keeps the alternative with the fewest defects)` : ''}; ≤ the best fixed order with no more checkPlan violations on ${optimizedBestValid} of ${compared}.`,
  );
  out.push(
    `optimized: median gap to the lower bound ${(median(gaps) * 100).toFixed(1)}% of the estimated non-working cost (p90 ${(quantile(gaps, 0.9) * 100).toFixed(1)}%); median time to the first feasible order ${median(firstFeasible).toFixed(2)} ms (max ${Math.max(...firstFeasible).toFixed(2)} ms).`,
  );
  if (failures.length) out.push('', `Plans that threw: ${failures.join('; ')}`);
  return out;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
}

export function runRouteBench(): string {
  const lines: string[] = [];
  lines.push('### Orders on synthetic fields (R = 6 m, 250 m tracks)', '', ...orderTable(), '');
  lines.push('### 1,200 tracks (3 m width, 3.6 km × 600 m, ragged slanted ends)', '', ...largeField(), '');
  if (corpusLimit > 0) lines.push('### Corpus (test/fields)', '', ...corpusSection(corpusLimit), '');
  lines.push(`checksum ${checksum.toFixed(3)}`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(runRouteBench() + '\n');
}
