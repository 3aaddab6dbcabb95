#!/usr/bin/env node
import { statSync } from 'node:fs';

// The bundled command (bundle/furrow.js, made by `npm run build`) starts faster than the ~300
// modules of dist/index.js. A bundle older than the last `tsc --build` (dist/.tsbuildinfo, not
// shipped in the package) is stale: the modules run instead.
function mtime(file) {
  try {
    return statSync(new URL(file, import.meta.url)).mtimeMs;
  } catch {
    return undefined;
  }
}
const bundled = mtime('../bundle/furrow.js');
const built = mtime('../dist/.tsbuildinfo');
const { main } = await import(
  bundled !== undefined && (built === undefined || bundled >= built) ? '../bundle/furrow.js' : '../dist/index.js'
);

// `furrow plan … | head` closes the pipe early: that is not an error.
process.stdout.on('error', (err) => {
  if (err && err.code === 'EPIPE') process.exit(0);
  throw err;
});

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
