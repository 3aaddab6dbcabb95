/**
 * Sequencing and terrain figures: the heuristic's gap to the exact optimum and both
 * run times on seeded random asymmetric distance matrices, heuristic time on larger days, and
 * terrain analysis time on corpus fields over a synthetic DEM.
 * Run: `npx tsc --build packages/core && npx tsx bench/sequencing.bench.ts` (prints Markdown).
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  analyzeFieldTerrain,
  sequenceFields,
  type ElevationGrid,
  type FieldGeometry,
  type SequencingField,
  type SequencingRequest,
} from '@furrow/core';

/** n fields with two visits each at their own points; a seeded asymmetric matrix of 500-5,500 m. */
function instance(n: number, seed: number): SequencingRequest {
  let s = seed >>> 0;
  const rnd = (): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const points: [number, number][] = [[0, 0]];
  const fields: SequencingField[] = [];
  for (let f = 0; f < n; f++) {
    const a: [number, number] = [0.01 * (f + 1), 0.001],
      b: [number, number] = [0.01 * (f + 1), 0.002];
    points.push(a, b);
    fields.push({
      id: `f${f}`,
      visits: [
        { entry: a, exit: b, workTimeSeconds: 600, workDistanceMeters: 1 },
        { entry: b, exit: a, workTimeSeconds: 600, workDistanceMeters: 1 },
      ],
    });
  }
  const distancesMeters = points.map((_, i) => points.map((__, j) => (i === j ? 0 : 500 + Math.floor(rnd() * 5000))));
  return { depot: [0, 0], fields, transport: { mode: 'matrix', points, distancesMeters }, objective: 'distance' };
}

let sink = 0;
console.log('| fields | exact ms (mean) | heuristic ms (mean) | heuristic gap mean | gap max |');
console.log('|---:|---:|---:|---:|---:|');
for (const n of [6, 8, 10, 12]) {
  let te = 0,
    th = 0;
  const gaps: number[] = [];
  const runs = 10;
  for (let k = 1; k <= runs; k++) {
    const req = instance(n, 1000 * n + k);
    let t = performance.now();
    const exact = sequenceFields(req);
    te += performance.now() - t;
    t = performance.now();
    const heur = sequenceFields({ ...req, exactMaxFields: 0 });
    th += performance.now() - t;
    gaps.push(heur.metrics.transportDistanceMeters / exact.metrics.transportDistanceMeters - 1);
    sink += exact.metrics.transportDistanceMeters;
  }
  const pct = (v: number): string => `${(100 * v).toFixed(2)} %`;
  console.log(
    `| ${n} | ${(te / runs).toFixed(1)} | ${(th / runs).toFixed(1)} | ${pct(gaps.reduce((a, b) => a + b, 0) / runs)} | ${pct(Math.max(...gaps))} |`,
  );
}
console.log('\n| fields | heuristic ms |\n|---:|---:|');
for (const n of [30, 60, 100]) {
  const t = performance.now();
  sink += sequenceFields(instance(n, n)).metrics.transportDistanceMeters;
  console.log(`| ${n} | ${(performance.now() - t).toFixed(0)} |`);
}

// Terrain: a 6 % plane on a 2 m local grid under corpus fields of several sizes.
const grid = (half: number): ElevationGrid => {
  const cell = 2,
    n = Math.round((2 * half) / cell);
  const z = new Float64Array(n * n);
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++)
      z[r * n + c] = 0.06 * (-half + (c + 0.5) * cell) * 0.6 + 0.06 * (half - (r + 0.5) * cell) * 0.8;
  return {
    crs: 'local',
    originX: -half,
    originY: half,
    cellSizeX: cell,
    cellSizeY: cell,
    columns: n,
    rows: n,
    elevationsMeters: z,
  };
};
console.log('\n| corpus field | area ha | analyzeFieldTerrain ms | samples |\n|---|---:|---:|---:|');
for (const id of ['at-033', 'at-ref-003', 'at-ref-056']) {
  const f = JSON.parse(readFileSync(new URL(`../test/fields/${id}.geojson`, import.meta.url), 'utf8')) as {
    properties: { area_ha: number };
    geometry: FieldGeometry;
  };
  const g = grid(600);
  const t = performance.now();
  const a = analyzeFieldTerrain(f.geometry, g);
  console.log(`| ${id} | ${f.properties.area_ha} | ${(performance.now() - t).toFixed(0)} | ${a.best.samples} |`);
  sink += a.best.headingDegrees;
}
console.log(`\nchecksum ${sink.toFixed(3)}`);
