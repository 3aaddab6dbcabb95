/** `furrow traffic`: the built command plans a controlled-traffic system and writes its formats; bad widths exit 2. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const bin = join(root, 'packages/cli/bin/furrow.js');
const field = join(root, 'test/fields/be-wal-000.geojson');
let dir: string;

async function furrow(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: root, maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const system = (sprayerMeters: number) => ({
  traffic: { gaugeMeters: 3, tyreWidthMeters: 0.6 },
  operations: [
    { kind: 'drill', machine: { widthMeters: 12 } },
    { kind: 'sprayer', machine: { widthMeters: sprayerMeters, turnRadiusMeters: 9 } },
  ],
});

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'furrow-traffic-'));
  writeFileSync(join(dir, 'ok.json'), JSON.stringify(system(36)));
  writeFileSync(join(dir, 'bad.json'), JSON.stringify(system(30)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('furrow traffic', () => {
  it('writes the GeoJSON with tramline passes and reports the shares on stderr', async () => {
    const out = join(dir, 'ctf.geojson');
    const r = await furrow(['traffic', field, '--system', join(dir, 'ok.json'), '-f', 'geojson', '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/trafficked \d+\.\d % of the field \(operations planned alone: \d+\.\d %\)/);
    const fc = JSON.parse(readFileSync(out, 'utf8'));
    expect(fc.features.some((f: { properties: { type: string } }) => f.properties.type === 'TramlinePass')).toBe(true);
  }, 120_000);

  it('exits 2 naming the sprayer width and the widths that fit', async () => {
    const r = await furrow(['traffic', field, '--system', join(dir, 'bad.json'), '--no-independent']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('operations[1].machine.widthMeters');
    expect(r.stderr).toContain('24 or 36 m');
  }, 60_000);
});
