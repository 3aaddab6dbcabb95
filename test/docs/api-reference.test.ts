/**
 * The generated API reference of @furrow/core (scripts/api-reference.mjs, `npm run docs:api`)
 * builds without warnings from the built declarations, and the published one has the pages of
 * the main entry points.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

describe('API reference of @furrow/core', () => {
  it('builds without warnings (API Extractor and API Documenter)', async () => {
    let out: { stdout: string; stderr: string };
    try {
      out = await run(process.execPath, [join(root, 'scripts/api-reference.mjs'), '--check'], { cwd: root, timeout: 280_000 });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      throw new Error(`the API reference build warned or failed:\n${e.stderr ?? ''}\n${e.stdout ?? ''}`, { cause: err });
    }
    expect(out.stderr).toBe('');
    expect(out.stdout).toMatch(/API reference of @furrow\/core: \d+ pages/);
  }, 300_000);

  it('is published in docs/api-reference with the planner, its types and the error codes', () => {
    for (const page of ['index.md', 'core.md', 'core.planroute.md', 'core.checkplan.md', 'core.pathplanrequest.md', 'core.plan.md', 'core.planerror.md', 'core.planerrorcode.md']) {
      expect(existsSync(join(root, 'docs/api-reference', page)), page).toBe(true);
    }
    expect(readFileSync(join(root, 'docs/api-reference/core.planroute.md'), 'utf8')).toMatch(/function planRoute\(request: PathPlanRequest/);
  });
});
