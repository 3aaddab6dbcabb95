/**
 * Track-stage coverage of the end extension: for every corpus field up to
 * --max-area-ha (default 40), the uncovered and overlap ratios of the headland passes plus the
 * tracks as generated (field heading searched, width 6 m, 2 passes, R 6 m), with each end
 * extended by the fractions f of the full extension (f = 0: none; 1/3: what every plan does;
 * 1: the option `extendTracks`). No route: turns, trims and the order do not enter, so the
 * fractions are compared on the same tracks. Imports core's stage functions from its sources
 * (they are not on the public API).
 *
 * Run: `npx tsx bench/extension-sweep.bench.ts [--max-area-ha=40]`
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { prepareField } from '../packages/core/src/geometry/prepareField.js';
import { normalizeRequest } from '../packages/core/src/request/normalizeRequest.js';
import { generateHeadlands } from '../packages/core/src/headland/generateHeadlands.js';
import { generateTracks } from '../packages/core/src/tracks/generateTracks.js';
import { searchHeading } from '../packages/core/src/tracks/searchHeading.js';
import { extendTracks } from '../packages/core/src/tracks/extendTracks.js';
import { computeCoverage } from '../packages/core/src/geometry/computeCoverage.js';
import { ringToFlat } from '../packages/core/src/geometry/clipper.js';
import type { FieldGeometry } from '../packages/core/src/types.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const maxAreaHa = Number(arg('max-area-ha') ?? 40);
const rows = readFileSync(`${root}test/fields/index.csv`, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split(','));
const fractions = [0, 0.2, 1 / 3, 0.5, 1];
const results = fractions.map(() => ({ uncovered: [] as number[], overlap: [] as number[] }));
let fields = 0;
for (const r of rows) {
  if (!(Number(r[2]) <= maxAreaHa)) continue;
  const g = JSON.parse(readFileSync(`${root}test/fields/${r[1]}`, 'utf8')) as { geometry: FieldGeometry };
  const f = prepareField(
    normalizeRequest({ field: g.geometry, machine: { widthMeters: 6, turnRadiusMeters: 6 }, headland: { passes: 2 } }),
  );
  const hl = generateHeadlands(f.field, 2, 6);
  if (hl.mainland.length === 0) continue;
  const set = generateTracks(hl.mainland, searchHeading(f.field, hl.mainland, 6, 6).directionRadians, 6);
  const headland = hl.passes.map((p) => ({ xy: ringToFlat(p.ring), widthMeters: 6 }));
  fields++;
  const line: string[] = [];
  fractions.forEach((fr, i) => {
    const tracks = fr === 0 ? set.tracks : extendTracks(set, hl.mainland, f.field, 6, 3, fr).tracks;
    const c = computeCoverage(f.workable, [
      ...headland,
      ...tracks.map((t) => ({ xy: [t.x0, t.y0, t.x1, t.y1], widthMeters: 6 })),
    ]);
    results[i].uncovered.push(c.uncoveredRatio);
    results[i].overlap.push(c.overlapRatio);
    line.push(`f=${fr.toFixed(2)} ${(100 * c.uncoveredRatio).toFixed(2)}/${(100 * c.overlapRatio).toFixed(2)}`);
  });
  console.log(r[0], line.join('  '));
}
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
console.log(`\n${fields} fields ≤ ${maxAreaHa} ha\n\n| f | median uncovered | median overlap |\n|---|---|---|`);
fractions.forEach((fr, i) =>
  console.log(
    `| ${fr.toFixed(2)} | ${(100 * median(results[i].uncovered)).toFixed(2)} % | ${(100 * median(results[i].overlap)).toFixed(2)} % |`,
  ),
);
