/** Runs examples/partner-sequence.ts as a separate process against a freshly started server. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '@furrow/api';
import { stubPlanner } from './support.js';

const KEY = 'furrow-example-test-key-42';
let server: RunningServer;
beforeAll(async () => {
  server = await serve(
    { PORT: '0', DATABASE_URL: 'memory:', FURROW_BOOTSTRAP_API_KEY: KEY, FURROW_LOG_LEVEL: 'silent' },
    { planner: stubPlanner() },
  );
});
afterAll(async () => {
  await server?.close();
});

describe('examples/partner-sequence.ts', () => {
  it('runs the typical sequence and prints every id', async () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'examples/partner-sequence.ts'],
      {
        cwd: root,
        env: { ...process.env, FURROW_URL: server.url, FURROW_API_KEY: KEY },
        timeout: 60_000,
      },
    );
    const id = (label: string) => new RegExp(`^${label} ([0-9a-f-]{36})$`, 'm').exec(stdout)?.[1];
    for (const label of ['userId', 'companyId', 'growerId', 'farmId', 'fieldId', 'boundaryId'])
      expect(id(label), label).toBeDefined();
    const sessionUser = /^session for userId ([0-9a-f-]{36})/m.exec(stdout)?.[1];
    expect(sessionUser).toBe(id('userId'));
    expect(stdout).toMatch(/^launchUrl http:\/\/127\.0\.0\.1:\d+\/launch\?code=/m);
    // The boundary really is stored under the end user's company.
    const boundary = await server.store.db.query<{ company_id: string }>(
      'SELECT company_id FROM boundaries WHERE boundary_id = $1',
      [id('boundaryId')!],
    );
    expect(boundary[0].company_id).toBe(id('companyId'));
  });
});
