/**
 * `furrow bulk` locally (worker threads, real planner) and `furrow worker` argument checks, as a
 * user runs them: the built bin in a child process (npm test builds first).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as core from '@furrow/core';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'packages/cli/bin/furrow.js');
const built =
  existsSync(join(root, 'packages/cli/dist/index.js')) && existsSync(join(root, 'packages/api/dist/worker.js'));

function furrow(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: root, env: { ...process.env, ...env }, timeout: 120_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe.skipIf(!built)('furrow bulk (local) and furrow worker', () => {
  it('plans a folder on worker threads, writes each plan, lists the unreadable file as a failure (exit 1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'furrow-bulk-local-'));
    mkdirSync(join(dir, 'in'));
    for (const id of ['de-bb-074', 'cz-023'])
      copyFileSync(join(root, `test/fields/${id}.geojson`), join(dir, 'in', `${id}.geojson`));
    writeFileSync(
      join(dir, 'in', 'flat.geojson'),
      JSON.stringify({
        type: 'Polygon',
        coordinates: [
          [
            [8, 47],
            [8.001, 47],
            [8.002, 47],
            [8, 47],
          ],
        ],
      }),
    );
    const r = await furrow(['bulk', join(dir, 'in'), '--threads', '2', '--width', '8', '--out', join(dir, 'out')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/2 of 3 fields planned/);
    expect(r.stdout).toMatch(/1 failed:\n\s+flat: unreadable/);
    // The written plan is the library's plan for the same request.
    const field = JSON.parse(readFileSync(join(root, 'test/fields/cz-023.geojson'), 'utf8'));
    const written = JSON.parse(readFileSync(join(dir, 'out', 'cz-023.json'), 'utf8'));
    const direct = (await (core as any).planRoute({ field: field.geometry, machine: { widthMeters: 8 } })) as {
      metrics: unknown;
    };
    expect(written.metrics).toEqual(direct.metrics);
    const summary = JSON.parse(readFileSync(join(dir, 'out', 'summary.json'), 'utf8'));
    expect(summary.fields.map((f: { name: string; ok: boolean }) => [f.name, f.ok])).toEqual([
      ['cz-023', true],
      ['de-bb-074', true],
      ['flat', false],
    ]);
  }, 150_000);

  it('refuses bad input with exit 2', async () => {
    expect((await furrow(['bulk', '/nonexistent/folder'])).code).toBe(2);
    const w = await furrow(['worker'], { DATABASE_URL: 'memory:' });
    expect(w.code).toBe(2);
    expect(w.stderr).toMatch(/PostgreSQL/);
  }, 60_000);
});
