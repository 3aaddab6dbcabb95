/**
 * The embedded store on disk is one process's: `furrow keys create` while `furrow serve` runs on
 * the same folder gets a clear error saying how to create a key instead (not a key the running
 * server never sees, not a second process writing the same files).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createKeyCommand, openStore } from '@furrow/api';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const bin = path.join(root, 'packages/cli/bin/furrow.js');
const cwd = mkdtempSync(path.join(tmpdir(), 'furrow-lock-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('embedded store lock', () => {
  it('refuses a second opener with how to create a key, and lets it in once the first closed', async () => {
    const held = await openStore(undefined, cwd);
    try {
      await expect(createKeyCommand({ name: 'second' }, {}, cwd)).rejects.toThrow(
        /in use by another process.*POST \/api\/api-keys.*stop the server/s,
      );
      // The same through the CLI, in another process: exit 2, the message on stderr, no key printed.
      const cli = await run(process.execPath, [bin, 'keys', 'create'], {
        cwd,
        env: { ...process.env, DATABASE_URL: '' },
        timeout: 60_000,
      }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
      expect(cli.code).toBe(2);
      expect(cli.stdout).toBe('');
      expect(cli.stderr).toMatch(/in use by another process/);
    } finally {
      await held.close();
    }
    const made = await createKeyCommand({ name: 'after' }, {}, cwd);
    expect(made.apiKey).toMatch(/^fk_/);
  }, 240_000); // three cold starts of the embedded store on disk and a CLI process
});
