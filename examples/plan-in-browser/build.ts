/**
 * Builds the browser example into a folder (default dist/ beside this file): index.html,
 * field.geojson, page.js (the page) and worker.js (the Web Worker with the planner), both bundled
 * with esbuild from the built packages (`npm run build` first).
 */
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export async function buildExample(outDir = join(here, 'dist')): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const common = { bundle: true, format: 'esm', platform: 'browser', target: ['es2022'], logLevel: 'warning' } as const;
  // From the package's sources (no build of @furrow/worker needed); @furrow/core resolves to its build.
  const alias = { '@furrow/worker/browser': join(here, '..', '..', 'packages', 'worker', 'src', 'browser.ts') };
  await build({ ...common, alias, entryPoints: [join(here, 'page.ts')], outfile: join(outDir, 'page.js') });
  await build({
    ...common,
    entryPoints: [join(here, '..', '..', 'packages', 'worker', 'src', 'browser-worker.ts')],
    outfile: join(outDir, 'worker.js'),
  });
  for (const f of ['index.html', 'field.geojson']) await copyFile(join(here, f), join(outDir, f));
  return outDir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  process.stdout.write(`built into ${await buildExample()}\n`);
