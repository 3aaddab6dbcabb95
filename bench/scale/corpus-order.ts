/**
 * Two core trees over the corpus in the scale bench's own regime: each run is a child process that
 * plans every corpus field in index order with one tree (a field's CPU includes what V8 compiles
 * while it plans, as in `npm run bench -- --section scale`'s snake row), runs of A and B alternating
 * (which goes first swapped every pair). `corpus-ab.ts` plans both trees in one process, the better
 * of its repeats: there a change can look faster than the bench finds it (2026-11-27: it-tus-033
 * −16 % in corpus-ab, −2 % here).
 *
 * `CORE_A` / `CORE_B`, `ALGO`, `WIDTH`, `RADIUS`, `PASSES`, `ONLY` as for corpus-ab.ts (corpusRuns.ts);
 * `PAIRS`: runs per tree (default 3). Clock frozen (`now: () => 0`).
 *
 * Run: `CORE_A=/tmp/a/packages/core/src/index.ts node --import tsx bench/scale/corpus-order.ts`
 * (per run: the tree, the CPU sum, the slowest fields; then each tree's range over its runs for
 * the fields slowest in any run).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { coreTrees, corpusFields, corpusRequest } from './corpusRuns.js';
import type { Core } from './corpusRuns.js';

/** The child: every corpus field in index order with one tree, one JSON line of CPU seconds per field. */
async function child(core: string): Promise<void> {
  const C = (await import(core)) as Core;
  for (const { id, field } of corpusFields()) {
    const request = corpusRequest(field);
    const c0 = process.cpuUsage();
    C.planRoute(request, { now: () => 0 });
    const c = process.cpuUsage(c0);
    console.log(JSON.stringify({ id, cpu: (c.user + c.system) / 1e6 }));
  }
}

/** One child run of `core`: CPU seconds by field id. */
function run(core: string): Map<string, number> {
  const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    encoding: 'utf8',
    env: { ...process.env, CORPUS_ORDER_CHILD: core },
    maxBuffer: 1 << 24,
  });
  const m = new Map<string, number>();
  for (const line of out.trim().split('\n')) {
    const r = JSON.parse(line) as { id: string; cpu: number };
    m.set(r.id, r.cpu);
  }
  return m;
}

if (process.env.CORPUS_ORDER_CHILD) {
  await child(process.env.CORPUS_ORDER_CHILD);
} else {
  const trees = coreTrees();
  const pairs = Number(process.env.PAIRS ?? 3);
  const runs: { A: Map<string, number>[]; B: Map<string, number>[] } = { A: [], B: [] };
  const slow = new Set<string>();
  for (let p = 0; p < pairs; p++) {
    for (const t of (p % 2 === 0 ? ['A', 'B'] : ['B', 'A']) as ('A' | 'B')[]) {
      const m = run(trees[t]);
      runs[t].push(m);
      const top = [...m].sort((a, b) => b[1] - a[1]).slice(0, 3);
      top.forEach(([id]) => slow.add(id));
      const sum = [...m.values()].reduce((s, v) => s + v, 0);
      console.log(`${t} sum ${sum.toFixed(2)} s  ${top.map(([id, c]) => `${id} ${c.toFixed(2)}`).join(' | ')}`);
    }
  }
  const range = (t: 'A' | 'B', id: string): string => {
    const v = runs[t].map((m) => m.get(id) ?? NaN).sort((a, b) => a - b);
    return `${v[0].toFixed(2)}–${v[v.length - 1].toFixed(2)}`;
  };
  for (const id of slow) console.log(`${id.padEnd(14)} A ${range('A', id)} s  B ${range('B', id)} s`);
}
