/**
 * The READMEs' code blocks run as written: the root README's and every package README's
 * TypeScript blocks (run with tsx from a file inside the repository, so package names resolve
 * to the workspace packages) and their shell blocks of `npx furrow` lines (run with bash in a
 * scratch folder that sees the repository's `test/` folder; `npx furrow` is the built bin, and
 * `npm install` lines are no-ops because the workspace links every package).
 * Blocks that start a server or touch the repository (npm start / test, curl, serve, bench) are
 * not run; the test names them and asserts that the rest is not empty.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const bin = join(root, 'packages/cli/bin/furrow.js');
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');

interface Block {
  readme: string;
  index: number;
  lang: string;
  code: string;
}

function blocksOf(readme: string): Block[] {
  const text = readFileSync(join(root, readme), 'utf8');
  const out: Block[] = [];
  const re = /^```(\w*)\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ readme, index: out.length, lang: m[1], code: m[2] });
  return out;
}

const readmes = ['README.md', ...readdirSync(join(root, 'packages')).map((p) => `packages/${p}/README.md`)];
const blocks = readmes.flatMap(blocksOf);
const needsServer = (b: Block): boolean => /\b(npm (start|test|ci)|curl|furrow (serve|bench|worker|keys|users|push|bulk))\b/.test(b.code);
const isInstall = (b: Block): boolean => b.code.trim().split('\n').every((l) => /^npm install\b/.test(l.trim()));
const typescript = blocks.filter((b) => b.lang === 'ts');
const shell = blocks.filter((b) => b.lang === 'sh' && !needsServer(b) && !isInstall(b));
const skipped = blocks.filter((b) => b.lang === 'sh' && needsServer(b)).map((b) => `${b.readme} block ${b.index}`);

const scratch = mkdtempSync(join(tmpdir(), 'furrow-readme-'));
symlinkSync(join(root, 'test'), join(scratch, 'test'));
// Snippet files live inside the repository (under node_modules/.cache) so `@furrow/*` resolve.
const snippetDir = join(root, 'node_modules/.cache/furrow-readme-snippets');
mkdirSync(snippetDir, { recursive: true });
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(snippetDir, { recursive: true, force: true });
});

describe('README snippets', () => {
  it('finds the library and command-line snippets (and names the server ones it leaves out)', () => {
    expect(typescript.map((b) => b.readme)).toContain('README.md');
    expect(typescript.map((b) => b.readme)).toContain('packages/core/README.md');
    expect(shell.map((b) => b.readme)).toContain('README.md');
    expect(shell.map((b) => b.readme)).toContain('packages/cli/README.md');
    expect(skipped).toContain('packages/api/README.md block 1');
  });

  it.each(typescript.map((b) => [`${b.readme} block ${b.index}`, b] as const))('%s runs', async (_name, b) => {
    const file = join(snippetDir, `${b.readme.replace(/\W+/g, '-')}-${b.index}.mts`);
    writeFileSync(file, b.code);
    const { stdout } = await run(process.execPath, [tsx, file], { cwd: root, timeout: 120_000 });
    expect(stdout.trim().length).toBeGreaterThan(0);
  }, 150_000);

  it.each(shell.map((b) => [`${b.readme} block ${b.index}`, b] as const))('%s runs', async (_name, b) => {
    const dir = mkdtempSync(join(scratch, 'sh-'));
    symlinkSync(join(root, 'test'), join(dir, 'test'));
    const prelude = [
      'set -euo pipefail',
      `npx() { if [ "$1" = furrow ]; then shift; "${process.execPath}" "${bin}" "$@"; else echo "unexpected npx $1" >&2; return 1; fi; }`,
      'npm() { if [ "$1" = install ]; then return 0; fi; echo "unexpected npm $1" >&2; return 1; }',
    ].join('\n');
    const { stdout, stderr } = await run('bash', ['-c', `${prelude}\n${b.code}`], { cwd: dir, timeout: 180_000, maxBuffer: 64 << 20 });
    expect(stderr).toBe('');
    expect(stdout.length).toBeGreaterThan(0);
  }, 240_000);
});
