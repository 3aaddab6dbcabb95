/**
 * The warm-process check of issue 39: in one process (snake, W 6 m / R 6 m, 2 passes unless `ALGO`,
 * `WIDTH`, `RADIUS`, `PASSES` say otherwise; frozen clock), every corpus field is planned once to
 * warm the code, then `REPS` times more (default 3), the least CPU kept. A field's cost should grow
 * with its tracks and its boundary: the fields with fewer than `TURNS` turns (default 20) whose CPU is
 * over `SHARE` (default 0.1) of bg-020's (458 tracks) are listed.
 *
 * `CORE_B` (or this tree's core, the default) is the core measured; `ONLY` limits the fields (bg-020
 * is always planned, as the yardstick).
 *
 * Run: `node --import tsx bench/scale/corpus-warm.ts` (one line per field, then a JSON summary).
 */
import { fileURLToPath } from 'node:url';
import { corpusFields, corpusRequest } from './corpusRuns.js';
import type { Core } from './corpusRuns.js';

const coreFile = process.env.CORE_B ?? fileURLToPath(new URL('../../packages/core/src/index.ts', import.meta.url));
const C = (await import(coreFile)) as Core;
const reps = Number(process.env.REPS ?? 3);
const turnsBelow = Number(process.env.TURNS ?? 20);
const share = Number(process.env.SHARE ?? 0.1);
const YARDSTICK = 'bg-020';

const only = process.env.ONLY;
if (only && !only.split(',').includes(YARDSTICK)) process.env.ONLY = `${only},${YARDSTICK}`;
const fields = corpusFields();
for (const { field } of fields) C.planRoute(corpusRequest(field), { now: () => 0 });
const rows: { id: string; cpuMs: number; turns: number }[] = [];
for (const { id, field } of fields) {
  let best = Infinity,
    turns = 0;
  for (let r = 0; r < reps; r++) {
    const c0 = process.cpuUsage();
    const plan = C.planRoute(corpusRequest(field), { now: () => 0 });
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1000);
    turns = plan.route.filter((s) => s.type === 'Turn').length;
  }
  rows.push({ id, cpuMs: best, turns });
  console.log(`${id.padEnd(14)} ${best.toFixed(1).padStart(8)} ms CPU  ${String(turns).padStart(5)} turns`);
}
const yard = rows.find((r) => r.id === YARDSTICK)!;
const over = rows
  .filter((r) => r.turns < turnsBelow && r.cpuMs > share * yard.cpuMs)
  .sort((a, b) => b.cpuMs - a.cpuMs)
  .map((r) => `${r.id} (${r.turns} turns, ${r.cpuMs.toFixed(0)} ms)`);
console.log(JSON.stringify({ yardstick: { id: YARDSTICK, cpuMs: yard.cpuMs }, limitMs: share * yard.cpuMs, over }));
