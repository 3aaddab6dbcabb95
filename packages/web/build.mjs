// Bundles the browser application (src/app) into dist/public: index.html and content-hashed
// assets (app-<hash>.js, app-<hash>.css, Leaflet's images), each with a brotli (.br) and a gzip
// (.gz) copy the server sends to clients that accept them. index.html names the hashed files, so
// the server can let browsers cache them for good (immutable) and only index.html is re-fetched.
// Run by `npm run build -w @furrow/web` (and so by the root `npm run build`), and by the browser
// test suites before they start. Usage: node build.mjs [--out DIR] [--dev]
import { build } from 'esbuild';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

/** Writes beside, then renames: a server or a parallel test never reads a half-written file. */
async function writeAtomic(path, contents) {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, contents);
  await rename(tmp, path);
}

/** The file and its .br / .gz copies (compressible files over 512 bytes). */
function withCompressed(f) {
  if (!COMPRESSIBLE.test(f.path) || f.contents.length < 512) return [f];
  const br = brotliCompressSync(f.contents, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  return [
    f,
    { path: `${f.path}.br`, contents: br },
    { path: `${f.path}.gz`, contents: gzipSync(f.contents, { level: 9 }) },
  ];
}

/** Builds the static web application into `outDir` (default dist/public). Returns the folder. */
export async function buildWebApp({ outDir = join(here, 'dist', 'public'), dev = false } = {}) {
  await mkdir(outDir, { recursive: true });
  const result = await build({
    write: false,
    entryPoints: [
      { in: join(here, 'src', 'app', 'main.ts'), out: 'app' },
      // The launch's head start (head-start.ts): small, run before app.js is compiled.
      { in: join(here, 'src', 'app', 'early.ts'), out: 'early' },
      // app.css imports Leaflet's stylesheet: one CSS file.
      { in: join(here, 'src', 'app', 'app.css'), out: 'app' },
    ],
    bundle: true,
    loader: { '.png': 'file', '.svg': 'file' },
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    format: 'esm',
    target: ['es2022', 'chrome100', 'safari15', 'firefox100'],
    platform: 'browser',
    outdir: outDir,
    sourcemap: dev ? 'inline' : 'linked',
    minify: !dev,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const files = result.outputFiles.map((f) => ({ path: f.path, contents: f.contents }));
  const named = (ext, name = 'app') =>
    basename(files.find((f) => f.path.endsWith(ext) && basename(f.path).startsWith(`${name}-`)).path);
  const html = (await readFile(join(here, 'src', 'app', 'index.html'), 'utf8'))
    .replace('/app-assets/app.css', `/app-assets/${named('.css')}`)
    .replace('/app-assets/early.js', `/app-assets/${named('.js', 'early')}`)
    .replace('/app-assets/app.js', `/app-assets/${named('.js')}`);
  files.push({ path: join(outDir, 'index.html'), contents: Buffer.from(html) });
  const all = files.flatMap(withCompressed);
  for (const f of all) await writeAtomic(f.path, f.contents);
  // Hashed files of earlier builds go (the same sources give the same names in every build).
  const keep = new Set(all.map((f) => basename(f.path)));
  for (const name of await readdir(outDir)) {
    if (!keep.has(name) && !name.endsWith('.tmp')) await rm(join(outDir, name), { force: true });
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
