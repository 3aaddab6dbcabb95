// Bundles the browser application (src/app) into dist/public: index.html, app.js, app.css.
// Run by `npm run build -w @furrow/web` (and so by the root `npm run build`), and by the
// browser test suite before it starts. Usage: node build.mjs [--out DIR] [--dev]
import { build } from 'esbuild';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Builds the static web application into `outDir` (default dist/public). Returns the folder. */
export async function buildWebApp({ outDir = join(here, 'dist', 'public'), dev = false } = {}) {
  await mkdir(outDir, { recursive: true });
  const result = await build({
    write: false,
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
  const files = result.outputFiles.map((f) => ({ path: f.path, contents: f.contents }));
  for (const name of ['index.html', 'app.css']) {
    files.push({ path: join(outDir, name), contents: await readFile(join(here, 'src', 'app', name)) });
  }
  // Write beside, then rename: a server or a parallel test never reads a half-written file.
  for (const f of files) {
    const tmp = `${f.path}.${process.pid}.tmp`;
    await writeFile(tmp, f.contents);
    await rename(tmp, f.path);
  }
  return outDir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const outIdx = args.indexOf('--out');
  const outDir = outIdx >= 0 ? resolve(args[outIdx + 1]) : undefined;
  const dir = await buildWebApp({ outDir, dev: args.includes('--dev') });
  process.stdout.write(`web app built into ${dir}\n`);
}
