/**
 * The zip bomb against the real server process (`furrow serve` from dist/, its own process): a
 * 3 MB zip of 2 × 1.5 GiB of zeros posted to boundary import is answered 413 with the error body,
 * and the server's peak resident memory (VmHWM, Linux /proc) rises by less than 64 MB — the peak,
 * so memory inflated and freed again during the request would count too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipBomb } from '../support/zip-bomb.js';
import { freePort } from '../support/ports.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = `${root}packages/cli/bin/furrow.js`;
const built = existsSync(`${root}packages/api/dist/index.js`);
const ADMIN = 'furrow-zip-bomb-bootstrap-key-0123456789';

/** Peak and current resident set of a process, bytes (Linux /proc). */
function memoryOf(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { peak: kb('VmHWM'), now: kb('VmRSS') };
}

describe.skipIf(!built || process.platform !== 'linux')('zip bomb against the server process', () => {
  let server: ChildProcess;
  let base = '';

  async function partner<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'X-API-KEY': ADMIN, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return (await res.json()) as T;
  }

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [bin, 'serve'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: 'memory:',
        FURROW_BOOTSTRAP_API_KEY: ADMIN,
        FURROW_LOG_LEVEL: 'silent',
        FURROW_PLAN_THREADS: '1',
      },
      stdio: 'ignore',
    });
    const deadline = Date.now() + 150_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
      const up = await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 180_000);
  afterAll(() => {
    server?.kill('SIGTERM');
  });

  it("answers 413 with the error body; the server's peak RSS rises by less than 64 MB", async () => {
    const { companyId } = await partner<{ companyId: string }>('POST', '/api/partner/companies', {
      partnerCompanyId: 'bomb-co',
      name: 'Bomb',
      countryCode: 'DE',
    });
    const { growerId } = await partner<{ growerId: string }>('POST', `/api/companies/${companyId}/growers`, {
      name: 'G',
    });
    const { farmId } = await partner<{ farmId: string }>('POST', `/api/growers/${growerId}/farms`, { name: 'F' });
    const square = [
      [
        [8.54, 47.37],
        [8.544, 47.37],
        [8.544, 47.374],
        [8.54, 47.374],
        [8.54, 47.37],
      ],
    ];
    const saved = await partner<{ field: { fieldId: string } }>('POST', '/api/fields/save', {
      farmId,
      name: 'North',
      boundary: square,
    });
    const bomb = await zipBomb();
    expect(bomb.length).toBeLessThan(4e6);
    // Once more through the same route with a small valid file: the code paths are warm, so what
    // the bomb adds to the peak is the bomb's.
    const warm = await fetch(`${base}/api/fields/${saved.field.fieldId}/boundaries/import?filename=b.geojson`, {
      method: 'POST',
      headers: { 'X-API-KEY': ADMIN, 'Content-Type': 'application/octet-stream' },
      body: JSON.stringify({ type: 'Polygon', coordinates: square }),
    });
    expect(warm.status).toBe(201);
    const before = memoryOf(server.pid!);
    const res = await fetch(`${base}/api/fields/${saved.field.fieldId}/boundaries/import?filename=a.zip`, {
      method: 'POST',
      headers: { 'X-API-KEY': ADMIN, 'Content-Type': 'application/zip' },
      body: bomb,
    });
    const after = memoryOf(server.pid!);
    expect(res.status).toBe(413);
    expect(after.peak - before.peak).toBeLessThan(64e6);
    expect(after.now - before.now).toBeLessThan(64e6);
    const body = await res.json();
    expect(body.error.code).toBe('PayloadTooLarge');
    expect(body.error.message).toMatch(/compressed more than 200:1/);
    expect(typeof body.correlationId).toBe('string');
  }, 120_000);
});
