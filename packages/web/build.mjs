// Bundles the browser application (src/app) into dist/public: index.html, app.js, app.css.
// Run by `npm run build -w @furrow/web` (and so by the root `npm run build`), and by the
// browser test suite before it starts. Usage: node build.mjs [--out DIR] [--dev]
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Builds the static web application into `outDir` (default dist/public). Returns the folder. */
export async function buildWebApp({ outDir = join(here, 'dist', 'public'), dev = false } = {}) {
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: [join(here, 'src', 'app', 'main.ts')],
    bundle: true,
    format: 'esm',
    target: ['es2022', 'chrome100', 'safari15', 'firefox100'],
    platform: 'browser',
    outfile: join(outDir, 'app.js'),
    sourcemap: dev ? 'inline' : 'linked',
    minify: !dev,
    legalComments: 'none',
    logLevel: 'warning',
  });
  await copyFile(join(here, 'src', 'app', 'index.html'), join(outDir, 'index.html'));
  await copyFile(join(here, 'src', 'app', 'app.css'), join(outDir, 'app.css'));
  return outDir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const outIdx = args.indexOf('--out');
  const outDir = outIdx >= 0 ? resolve(args[outIdx + 1]) : undefined;
  const dir = await buildWebApp({ outDir, dev: args.includes('--dev') });
  process.stdout.write(`web app built into ${dir}\n`);
}
