#!/usr/bin/env node
/**
 * The API reference of @furrow/core, generated from its built declarations (packages/core/dist)
 * by API Extractor (which brings its own TypeScript compiler) and API Documenter (Markdown).
 *
 *   node scripts/api-reference.mjs          writes docs/api-reference/ (npm run docs:api)
 *   node scripts/api-reference.mjs --check  builds into a scratch folder and exits 1 on any
 *                                           warning; says (without failing) when docs/api-reference/
 *                                           lacks a page the build makes or has one it no longer
 *                                           makes: run npm run docs:api after changing core's exports
 *
 * packages/core/api-extractor.json says which messages are reported. Two TSDoc style rules are
 * off: our comments are prose ("PFD > PLN", "a <b", arrows) that TSDoc would have escaped, and
 * API Documenter prints such text as it is. KNOWN_FORGOTTEN_EXPORTS lists internal types that
 * exported functions still name (a finding, not a style question): each is reported as known;
 * any other warning fails the check.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const configFile = join(root, 'packages/core/api-extractor.json');
const published = join(root, 'docs/api-reference');
const documenter = join(root, 'node_modules/@microsoft/api-documenter/bin/api-documenter');

/** Internal types reachable from exported functions of the core index (ae-forgotten-export). */
export const KNOWN_FORGOTTEN_EXPORTS = [
  'FieldLike',
  'StagingLegOptions',
  'LegRouter',
  'ExtrasSegment',
  'XY',
  'ExtrasFrame',
  'NeighbourLists',
  'TransitionMemo',
  'ResolvedOptions',
];

const check = process.argv.includes('--check');
if (!existsSync(join(root, 'packages/core/dist/index.d.ts'))) {
  console.error('packages/core is not built: run npm run build first');
  process.exit(1);
}

const scratch = mkdtempSync(join(tmpdir(), 'furrow-api-reference-'));
try {
  const loaded = ExtractorConfig.loadFile(configFile);
  loaded.docModel = { ...loaded.docModel, apiJsonFilePath: join(scratch, 'model/<unscopedPackageName>.api.json') };
  const config = ExtractorConfig.prepare({
    configObject: loaded,
    configObjectFullPath: configFile,
    packageJsonFullPath: join(root, 'packages/core/package.json'),
  });
  const warnings = [];
  const known = [];
  const result = Extractor.invoke(config, {
    localBuild: true,
    messageCallback: (message) => {
      message.handled = true;
      if (message.logLevel !== 'warning' && message.logLevel !== 'error') return;
      const text = `${message.sourceFilePath ? `${message.sourceFilePath.replace(`${root}/packages/core/`, '')}:${message.sourceFileLine}: ` : ''}(${message.messageId}) ${message.text}`;
      const name = /The symbol "([^"]+)" needs to be exported/.exec(message.text)?.[1];
      if (message.messageId === 'ae-forgotten-export' && name && KNOWN_FORGOTTEN_EXPORTS.includes(name))
        known.push(name);
      else warnings.push(text);
    },
  });
  const out = check ? join(scratch, 'markdown') : published;
  const documented = execFileSync(process.execPath, [documenter, 'markdown', '-i', join(scratch, 'model'), '-o', out], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const line of documented.split('\n'))
    if (/warning|error/i.test(line)) warnings.push(`api-documenter: ${line.trim()}`);

  const pages = readdirSync(out).filter((f) => f.endsWith('.md'));
  console.log(
    `API reference of @furrow/core: ${pages.length} pages${check ? ' (checked, not written)' : ` in ${published.replace(`${root}/`, '')}`}`,
  );
  if (known.length > 0)
    console.log(
      `known internal types named by exported functions (ae-forgotten-export): ${[...new Set(known)].join(', ')}`,
    );
  if (check) {
    const have = existsSync(published) ? new Set(readdirSync(published).filter((f) => f.endsWith('.md'))) : new Set();
    const missing = pages.filter((p) => !have.has(p));
    const stale = [...have].filter((p) => !pages.includes(p));
    if (missing.length > 0 || stale.length > 0) {
      console.log(
        `docs/api-reference/ is out of date (run npm run docs:api): missing ${missing.join(', ') || 'none'}; no longer made ${stale.join(', ') || 'none'}`,
      );
    }
  }
  if (!result.succeeded) warnings.push(`API Extractor failed: ${result.errorCount} errors`);
  for (const w of warnings) console.error(`warning: ${w}`);
  process.exitCode = warnings.length > 0 ? 1 : 0;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
