/**
 * Compares two runs of corpus-objective.ts (A, B) per configuration: summed objective and unworked,
 * median CPU, violations, the fields whose unworked share rose by more than 0.5 point, the fields
 * better and worse by the objective. Markdown on stdout.
 *
 * Run: `node --import tsx bench/choice/compare-objective.ts a.jsonl b.jsonl`
 */
import { readFileSync } from 'node:fs';

interface Row {
  id: string;
  config: string;
  objectiveSeconds: number;
  unworkedSquareMeters: number;
  uncoveredRatio: number;
  violations: number;
  cpuMilliseconds: number;
  error?: string;
}
const read = (f: string): Map<string, Row> =>
  new Map(
    readFileSync(f, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Row)
      .map((r) => [`${r.config} ${r.id}`, r]),
  );
const [a, b] = [read(process.argv[2]), read(process.argv[3])];
const median = (v: number[]): number => {
  const s = [...v].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const configs = [...new Set([...a.values()].map((r) => r.config))];
console.log(
  '| config | fields | objective A (h) | objective B (h) | unworked A (m²) | unworked B (m²) | ' +
    'better / worse by objective | > 0.5 pt more unworked | violations A → B | CPU median A → B (ms) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
const notes: string[] = [];
for (const c of configs) {
  const pairs = [...a.values()]
    .filter((r) => r.config === c && !r.error)
    .map((r) => [r, b.get(`${c} ${r.id}`)] as const)
    .filter((p): p is readonly [Row, Row] => p[1] !== undefined && !p[1].error);
  const sum = (k: keyof Row, i: 0 | 1): number => pairs.reduce((s, p) => s + (p[i][k] as number), 0);
  const better = pairs.filter(([x, y]) => y.objectiveSeconds < x.objectiveSeconds - 0.5);
  const worse = pairs.filter(([x, y]) => y.objectiveSeconds > x.objectiveSeconds + 0.5);
  const unworkedUp = pairs.filter(([x, y]) => y.uncoveredRatio - x.uncoveredRatio > 0.005);
  console.log(
    `| ${c} | ${pairs.length} | ${(sum('objectiveSeconds', 0) / 3600).toFixed(2)} | ` +
      `${(sum('objectiveSeconds', 1) / 3600).toFixed(2)} | ${sum('unworkedSquareMeters', 0).toFixed(0)} | ` +
      `${sum('unworkedSquareMeters', 1).toFixed(0)} | ${better.length} / ${worse.length} | ${unworkedUp.length} | ` +
      `${sum('violations', 0)} → ${sum('violations', 1)} | ` +
      `${median(pairs.map((p) => p[0].cpuMilliseconds)).toFixed(0)} → ` +
      `${median(pairs.map((p) => p[1].cpuMilliseconds)).toFixed(0)} |`,
  );
  for (const [x, y] of [...worse, ...unworkedUp])
    notes.push(
      `- ${c} ${x.id}: objective ${x.objectiveSeconds.toFixed(0)} → ${y.objectiveSeconds.toFixed(0)} s, ` +
        `unworked ${(100 * x.uncoveredRatio).toFixed(2)} → ${(100 * y.uncoveredRatio).toFixed(2)} %`,
    );
}
if (notes.length) console.log(`\nWorse or more unworked:\n${[...new Set(notes)].join('\n')}`);
