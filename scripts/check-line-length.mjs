#!/usr/bin/env node
// Fails when a source line in packages/*/src is longer than 120 bytes of UTF-8 (generated files aside).
// Prettier keeps code within the width but leaves long strings and comments alone; this catches those.
// Usage: node scripts/check-line-length.mjs [--max N]
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const maxIndex = process.argv.indexOf('--max');
const maxCharacters = maxIndex > 0 ? Number(process.argv[maxIndex + 1]) : 120;
const extensions = /\.(ts|tsx|mjs|js|css|html)$/;
// Temporarily skipped: files being rewritten elsewhere (see the list's `why`).
const pendingRewrite = new Set(
  JSON.parse(readFileSync(join(root, 'tools/lint/pending-rewrite.json'), 'utf8')).files.map((f) => join(root, f)),
);

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* sourceFiles(path);
    } else if (extensions.test(entry.name) && !entry.name.includes('.generated.') && !pendingRewrite.has(path)) {
      yield path;
    }
  }
}

const packagesDir = join(root, 'packages');
const found = [];
for (const pkg of readdirSync(packagesDir, { withFileTypes: true })) {
  if (!pkg.isDirectory()) continue;
  const src = join(packagesDir, pkg.name, 'src');
  let files;
  try {
    files = [...sourceFiles(src)];
  } catch {
    continue; // a package without src/
  }
  for (const file of files.sort()) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      // UTF-8 bytes: the stricter count (a line of "≤", "×", "—" is longer in bytes than in code points),
      // and the one byte-oriented tools (grep, awk in the C locale) use
      const bytes = Buffer.byteLength(line, 'utf8');
      if (bytes > maxCharacters) found.push(`${relative(root, file)}:${i + 1}: ${bytes} bytes`);
    });
  }
}
if (found.length > 0) {
  process.stderr.write(`${found.join('\n')}\n${found.length} line(s) longer than ${maxCharacters} characters\n`);
  process.exit(1);
}
process.stdout.write(`line length: no line in packages/*/src longer than ${maxCharacters} characters\n`);
