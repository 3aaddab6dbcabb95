/**
 * What the corpus A/B scripts (corpus-ab.ts, corpus-order.ts, corpus-quality.ts) share: the corpus fields in index
 * order, and the request they plan each with, from the environment — `ALGO` (a route order, default
 * `snake`; `default`: none asked), `WIDTH`, `RADIUS`, `PASSES` (default 6, 6, 2), `ONLY` (field ids,
 * comma-separated) — and the core trees `CORE_A` (required) and `CORE_B` (default: this tree's).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Core = typeof import('../../packages/core/src/index.js');
export type CorpusRequest = Parameters<Core['planRoute']>[0];

const dir = fileURLToPath(new URL('../../test/fields', import.meta.url));

/** The corpus fields (`ONLY`'s, where set) in index order, each with its geometry. */
export function corpusFields(): { id: string; field: unknown }[] {
  const only = process.env.ONLY?.split(',');
  const rows = readFileSync(join(dir, 'index.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','))
    .filter(([id]) => !only || only.includes(id));
  return rows.map(([id, file]) => {
    const g = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    return {
      id,
      field: g.type === 'FeatureCollection' ? g.features[0].geometry : g.type === 'Feature' ? g.geometry : g,
    };
  });
}

/** The request a field is planned with (`ALGO`, `WIDTH`, `RADIUS`, `PASSES`). */
export function corpusRequest(field: unknown): CorpusRequest {
  const algo = process.env.ALGO ?? 'snake';
  const machine = { widthMeters: Number(process.env.WIDTH ?? 6), turnRadiusMeters: Number(process.env.RADIUS ?? 6) };
  return {
    field,
    machine,
    headland: { passes: Number(process.env.PASSES ?? 2) },
    ...(algo === 'default' ? {} : { routeOptions: { algorithm: algo } }),
  } as CorpusRequest;
}

/** The two trees' `src/index.ts`: `CORE_A`, and `CORE_B` or this tree's. */
export function coreTrees(): { A: string; B: string } {
  if (!process.env.CORE_A) throw new Error('CORE_A: the path of the baseline core (src/index.ts)');
  return {
    A: process.env.CORE_A,
    B: process.env.CORE_B ?? fileURLToPath(new URL('../../packages/core/src/index.ts', import.meta.url)),
  };
}
