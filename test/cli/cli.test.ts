/**
 * The `furrow` command as a user runs it: the built bin in a child process (npm test builds
 * first). Also the library example, run as an npm consumer would run it.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPlan, FURROW_VERSION, type Plan } from '@furrow/core';
import { PLAN_FORMATS } from '@furrow/format-vendor';
import { PLAN_FORMAT_NAMES } from '@furrow/cli';
import { zipBomb } from '../support/zip-bomb.js';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const bin = join(root, 'packages/cli/bin/furrow.js');
const field = join(root, 'test/fields/be-wal-000.geojson');
/** A 0.5 ha field: the tests of flags and streams need a plan, not a hard one. */
const small = join(root, 'test/fields/fr-086.geojson');
let dir: string;

async function furrow(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      cwd: root,
      maxBuffer: 64 << 20,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

beforeAll(() => {
  if (!existsSync(join(root, 'packages/cli/dist/index.js'))) {
    throw new Error('packages/cli is not built: run the README test command (npm test), which builds first');
  }
  dir = mkdtempSync(join(tmpdir(), 'furrow-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('furrow plan', () => {
  it('prints the plan JSON of the direct endpoint and draws an SVG', async () => {
    const svg = join(dir, 'plan.svg');
    const r = await furrow([
      'plan',
      field,
      '--width',
      '6',
      '--headland-passes',
      '2',
      '--turn-radius',
      '6',
      '--svg',
      svg,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    const feature = JSON.parse(readFileSync(field, 'utf8'));
    const check = checkPlan(
      { field: feature.geometry, machine: { widthMeters: 6, turnRadiusMeters: 6 }, headland: { passes: 2 } },
      plan,
    );
    expect(check.violations).toEqual([]);
    expect(plan.metrics.turns).toBeGreaterThan(0);
    const picture = readFileSync(svg, 'utf8');
    expect(picture.startsWith('<svg')).toBe(true);
    // Every route piece is drawn, and the legend and the metrics caption are there.
    expect((picture.match(/<path /g) ?? []).length).toBeGreaterThan(plan.route.length);
    expect(picture).toContain('Turn');
    expect(picture).toContain(`${plan.metrics.turns} turns`);
  });

  it('applies --heading and a partial --request, flags overriding the request', async () => {
    const req = join(dir, 'req.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      req,
      JSON.stringify({
        equipment: { widthMeters: 12 },
        exteriorHeadlandPasses: 1,
        routeOptions: { algorithm: 'boustrophedon' },
      }),
    );
    const r = await furrow(['plan', field, '--request', req, '--heading', '30', '--turn-radius', '5']);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(plan.heading.source).toBe('preferred');
    expect(plan.heading.degrees).toBeCloseTo(30, 6);
    const tracks = plan.route.filter((s) => s.type === 'Track');
    expect(tracks.every((t) => t.widthMeters === 12)).toBe(true);
    expect(plan.route.filter((s) => s.type === 'ExteriorHeadland').length).toBe(1);
  });

  it('writes Plan GeoJSON and zipped layouts to files or folders', async () => {
    const g = await furrow(['plan', field, '--format', 'geojson']);
    expect(g.code).toBe(0);
    const fc = JSON.parse(g.stdout);
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.metrics.turns).toBeGreaterThan(0);
    const route = fc.features.filter((f: { properties: { sequence?: number } }) =>
      Number.isInteger(f.properties.sequence),
    );
    expect(
      route
        .map((f: { properties: { sequence: number } }) => f.properties.sequence)
        .sort((a: number, b: number) => a - b),
    ).toEqual(route.map((_: unknown, i: number) => i));
    const zip = join(dir, 'plan.zip');
    expect((await furrow(['plan', field, '--format', 'shapefile', '--out', zip])).code).toBe(0);
    expect([...readFileSync(zip).subarray(0, 2)]).toEqual([0x50, 0x4b]);
    const folder = join(dir, 'usb/');
    expect((await furrow(['plan', field, '--format', 'isoxml', '--out', folder])).code).toBe(0);
    expect(readdirSync(join(folder, 'TASKDATA'))).toContain('TASKDATA.XML');
  });

  it('exits 2 with the reason on stderr for bad input', async () => {
    const missing = await furrow(['plan', join(dir, 'nope.geojson')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.geojson/);
    const width = await furrow(['plan', field, '--width', '-3']);
    expect(width.code).toBe(2);
    expect(width.stderr).toMatch(/widthMeters/);
    const fmt = await furrow(['plan', field, '--format', 'pdf']);
    expect(fmt.code).toBe(2);
    expect(fmt.stderr).toMatch(/--format/);
  });

  it('exits 2 on a zip bomb (2 × 1.5 GiB of zeros in 3 MB), naming the limit', async () => {
    const bomb = join(dir, 'bomb.zip');
    writeFileSync(bomb, await zipBomb());
    const r = await furrow(['plan', bomb]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bomb\.zip: a\.shp is compressed more than 200:1/);
  });
});

describe('furrow as GDAL users expect it', () => {
  it('prints the package version and the API release it implements', async () => {
    const r = await furrow(['--version']);
    expect(r.code).toBe(0);
    const pkg = JSON.parse(readFileSync(join(root, 'packages/cli/package.json'), 'utf8')) as { version: string };
    expect(r.stdout.trim()).toBe(`furrow ${pkg.version} (API ${FURROW_VERSION})`);
  });

  it('lists every plan output format in plan --help, cnh and fendt named as the isoxml file', async () => {
    expect([...PLAN_FORMAT_NAMES]).toEqual([...PLAN_FORMATS]);
    const r = await furrow(['plan', '--help']);
    expect(r.code).toBe(0);
    for (const f of PLAN_FORMATS) expect(r.stdout).toMatch(new RegExp(`^  ${f} `, 'm'));
    expect(r.stdout).toMatch(/^ {2}cnh .*byte-identical to isoxml/m);
    expect(r.stdout).toMatch(/^ {2}fendt .*byte-identical to isoxml/m);
    expect(r.stdout).toMatch(/-f, --format/);
    expect(r.stdout).toMatch(/-o, --out/);
  });

  it('reads the boundary from stdin with "-" and writes to stdout with -o -, short flags included', async () => {
    const text = readFileSync(small);
    const out = await new Promise<{ code: number | null; stdout: Buffer; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [bin, 'plan', '-', '-f', 'wkt', '-o', '-'], { cwd: root });
      const chunks: Buffer[] = [];
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => chunks.push(c));
      child.stderr.on('data', (c: Buffer) => (stderr += c));
      child.on('close', (code) => resolve({ code, stdout: Buffer.concat(chunks), stderr }));
      child.stdin.end(text);
    });
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const fromFile = await furrow(['plan', small, '--format', 'wkt']);
    expect(out.stdout.toString('utf8')).toBe(fromFile.stdout);
    expect(fromFile.stdout).toMatch(/^GEOMETRYCOLLECTION/);
  });

  it('writes a zipped layout to stdout only when asked with -o -', async () => {
    const refused = await furrow(['plan', small, '-f', 'shapefile']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/-o -/);
    const zipped = await run(process.execPath, [bin, 'plan', small, '-f', 'shapefile', '-o', '-'], {
      cwd: root,
      encoding: 'buffer',
      maxBuffer: 64 << 20,
    });
    expect([...zipped.stdout.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
  });

  it('writes the cnh and fendt layouts as the same TASKDATA.XML as isoxml', async () => {
    const xml: Record<string, Buffer> = {};
    for (const f of ['isoxml', 'cnh', 'fendt']) {
      const folder = join(dir, `layout-${f}/`);
      expect((await furrow(['plan', small, '-f', f, '-o', folder])).code).toBe(0);
      xml[f] = readFileSync(join(folder, 'TASKDATA/TASKDATA.XML'));
    }
    expect(xml.cnh.equals(xml.isoxml)).toBe(true);
    expect(xml.fendt.equals(xml.isoxml)).toBe(true);
  });
});

describe('examples/plan-a-field.ts', () => {
  it('plans a corpus field through the package name and reports a clean check', async () => {
    const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
    const { stdout } = await run(process.execPath, [tsx, join(root, 'examples/plan-a-field.ts')], {
      cwd: root,
      timeout: 60_000,
    });
    expect(stdout).toMatch(/checkPlan\s+ok/);
    expect(stdout).toMatch(/uncovered\s+\d+\.\d+ %/);
  });
});
