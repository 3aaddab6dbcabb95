// Bundles the `furrow` command (dist/index.js, built by tsc) with the library and format packages
// into bundle/ (furrow.js and the chunks its commands import), which bin/furrow.js runs. A few
// files start faster than ~300 modules resolved one by one (and proj4's UMD build scanned for
// its exports), and each command still loads only its own chunks (`--help` none): see
// docs/BENCHMARKS.md, "Command-line start-up". The server packages (optional peers, imported
// dynamically) stay outside and load from node_modules when a command needs them; nothing else
// may (an external package imported statically anywhere would load with the bundle, eagerly).
// Run by `npm run build -w @furrow/cli` (and so by the root `npm run build`).
import { build } from 'esbuild';
import { rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// Beside dist/, not in it: the code reads ../package.json (its version) from where it runs.
const outdir = join(here, 'bundle');
const tmp = `${outdir}.${process.pid}.tmp`;
await build({
  // The machines and traffic benchmarks fork their workers from beside the chunk that runs it (bundle/).
  entryPoints: {
    furrow: join(here, 'dist', 'index.js'),
    'bench-machines-worker': join(here, 'dist', 'commands', 'bench-machines-worker.js'),
    'bench-traffic-worker': join(here, 'dist', 'commands', 'bench-traffic-worker.js'),
  },
  bundle: true,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outdir: tmp,
  // esbuild itself: the scale benchmark bundles its measuring script with it (a dev tool, imported dynamically)
  external: ['@furrow/api', '@furrow/web', 'esbuild'],
  // CommonJS dependencies inside an ES module need a `require`.
  banner: {
    js: "import { createRequire as __furrowCreateRequire } from 'node:module'; const require = __furrowCreateRequire(import.meta.url);",
  },
  legalComments: 'linked',
  logLevel: 'warning',
});
// Replace the folder whole: a half-written bundle is never run.
await rm(outdir, { recursive: true, force: true });
await rename(tmp, outdir);
