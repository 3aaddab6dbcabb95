/**
 * The packages as npm users get them: every workspace package packed (`npm pack`), the library,
 * the formats and the CLI installed from those tarballs into an empty folder, then used the way
 * a JavaScript developer would — ESM import, `require()` (Node ≥ 20.19's require(esm): the
 * packages are ESM only), a strict TypeScript consumer (skipLibCheck off), the installed `furrow`
 * bin on a corpus field — and the installed size of the CLI bounded.
 *
 * Installing reaches the npm registry for the third-party dependencies; `--prefer-offline` lets
 * npm's cache (filled by `npm ci`) answer. npm test builds first: the tarballs hold `dist/`.
 */
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FURROW_VERSION } from '@furrow/core';

const exec = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const field = join(root, 'test/fields/fr-086.geojson');
/** The CLI with everything it installs (library and formats), node_modules summed file by file. */
const MAX_CLI_INSTALL_BYTES = 25 * 1024 * 1024;

interface Packed {
  name: string;
  version: string;
  filename: string;
  files: { path: string }[];
}

const workspaces = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] })
  .workspaces;
const manifests = workspaces.map(
  (w) =>
    JSON.parse(readFileSync(join(root, w, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      private?: boolean;
    },
);
/** The server packages are packed and checked, not installed: the CLI takes them as optional peers. */
const SERVER = new Set(['@furrow/api', '@furrow/web']);

let dir: string;
let app: string;
let packed: Packed[] = [];

function bytesUnder(path: string): number {
  const st = lstatSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

async function sh(
  file: string,
  args: string[],
  cwd: string,
  timeout = 60_000,
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await exec(file, args, { cwd, timeout, maxBuffer: 64 << 20 });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string; message: string };
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? e.message, code: typeof e.code === 'number' ? e.code : -1 };
  }
}

beforeAll(async () => {
  for (const w of workspaces) {
    if (!existsSync(join(root, w, 'dist')))
      throw new Error(`${w} is not built: run the README test command (npm test), which builds first`);
  }
  dir = mkdtempSync(join(tmpdir(), 'furrow-pack-'));
  const pack = await sh(
    'npm',
    ['pack', '--workspaces', '--ignore-scripts', '--json', '--pack-destination', dir],
    root,
    120_000,
  );
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  packed = JSON.parse(pack.stdout) as Packed[];

  app = join(dir, 'app');
  await exec('mkdir', [app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'furrow-consumer', private: true }));
  const tarballs = packed.filter((p) => !SERVER.has(p.name)).map((p) => join(dir, p.filename));
  const install = await sh(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs],
    app,
    240_000,
  );
  if (install.code !== 0) throw new Error(`npm install of the tarballs failed: ${install.stderr}`);
}, 420_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('tarballs', () => {
  it('packs every workspace package, all under one version', () => {
    expect(packed.map((p) => p.name).sort()).toEqual(manifests.map((m) => m.name).sort());
    expect(new Set(manifests.map((m) => m.version))).toEqual(new Set([manifests[0].version]));
    expect(manifests[0].version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('ship LICENSE, README and dist, without build info, declaration maps or tests', () => {
    for (const p of packed) {
      const paths = p.files.map((f) => f.path);
      expect(paths, p.name).toContain('LICENSE');
      expect(paths, p.name).toContain('README.md');
      expect(
        paths.some((f) => f.startsWith('dist/') && f.endsWith('.js')),
        p.name,
      ).toBe(true);
      expect(
        paths.filter((f) => /\.tsbuildinfo$|\.d\.ts\.map$|\.test\.[jt]s$|(^|\/)src\//.test(f)),
        p.name,
      ).toEqual([]);
    }
  });

  it('ship source maps that carry their sources', () => {
    const maps = readdirSync(join(app, 'node_modules/@furrow/core/dist'), { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.js.map'),
    );
    expect(maps.length).toBeGreaterThan(10);
    for (const m of maps) {
      const map = JSON.parse(readFileSync(join(app, 'node_modules/@furrow/core/dist', m), 'utf8')) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      expect(map.sourcesContent?.length, m).toBe(map.sources.length);
      expect(
        map.sourcesContent?.every((s) => typeof s === 'string' && s.length > 0),
        m,
      ).toBe(true);
    }
  });
});

describe('installed from the tarballs into an empty folder', () => {
  const libraries = manifests.filter((m) => m.name !== '@furrow/cli' && !SERVER.has(m.name)).map((m) => m.name);

  it('imports every library package with ESM', async () => {
    const code = libraries
      .map(
        (n, i) =>
          `import * as m${i} from '${n}'; if (Object.keys(m${i}).length === 0) throw new Error('${n} exports nothing');`,
      )
      .join('\n');
    const r = await sh(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `${code}\nimport { planRoute } from '@furrow/core'; console.log(typeof planRoute);`,
      ],
      app,
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('function');
  });

  it('loads every library package with require() (ESM only: Node ≥ 20.19 require(esm))', async () => {
    const code = `${libraries.map((n) => `if (Object.keys(require('${n}')).length === 0) throw new Error('${n}');`).join('\n')}
      const { planRoute, checkPlan } = require('@furrow/core');
      const request = { field: JSON.parse(require('node:fs').readFileSync(${JSON.stringify(field)}, 'utf8')).geometry, machine: { widthMeters: 6 } };
      console.log(checkPlan(request, planRoute(request)).ok);`;
    const r = await sh(process.execPath, ['-e', code], app);
    expect(r.stderr.replace(/.*ExperimentalWarning.*\n?|.*--trace-warnings.*\n?/g, '')).toBe('');
    expect(r.stdout.trim()).toBe('true');
  });

  it('type-checks a strict TypeScript consumer (skipLibCheck off, no Node types)', async () => {
    writeFileSync(
      join(app, 'consumer.ts'),
      `import { checkPlan, isPlanError, planRoute, type PathPlanRequest, type Plan } from '@furrow/core';
import { FURROW_VERSION } from '@furrow/core/version';
import { planToFeatureCollection } from '@furrow/format-geojson';
import { detectFormat, readAnyBoundary, writePlan, type PlanFormat } from '@furrow/format-vendor';
import { planToKml } from '@furrow/format-kml';
import { planToWkt } from '@furrow/format-wkt';
import { planToTaskData } from '@furrow/format-isoxml';
import { planToShapefileZip } from '@furrow/format-shapefile';
import { readDem } from '@furrow/format-dem';

export async function consume(text: string): Promise<number> {
  const field = (await readAnyBoundary(text, 'field.geojson'))[0];
  if (field === undefined) return 0;
  const request: PathPlanRequest = { field: field.geometry, machine: { widthMeters: 6 } };
  let plan: Plan;
  try {
    plan = planRoute(request);
  } catch (err) {
    if (isPlanError(err)) return err.details.length;
    throw err;
  }
  // @ts-expect-error the types are real: a plan has no "turns" at the top
  const wrong: number = plan.turns;
  const format: PlanFormat = detectFormat(text) === 'geojson' ? 'cnh' : 'isoxml';
  const out = await writePlan(plan, format);
  const zip: Uint8Array = await planToShapefileZip(plan);
  const grid = await readDem('{}').catch(() => undefined);
  const sizes = [planToFeatureCollection(plan).features.length, planToKml(plan).length, planToWkt(plan).length, planToTaskData(plan).length, zip.byteLength, out.bytes.byteLength, wrong];
  return checkPlan(request, plan).ok && grid === undefined && FURROW_VERSION.length > 0 ? sizes.reduce((a, b) => a + b, 0) : -1;
}
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          lib: ['ES2023'],
          types: [],
          skipLibCheck: false,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
        },
        files: ['consumer.ts'],
      }),
    );
    const r = await sh(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], app);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('runs furrow plan from the installed bin (its bundle) on a corpus field', async () => {
    const bin = join(app, 'node_modules/.bin/furrow');
    expect(existsSync(join(app, 'node_modules/@furrow/cli/bundle/furrow.js'))).toBe(true);
    expect(existsSync(join(app, 'node_modules/@furrow/cli/dist/.tsbuildinfo'))).toBe(false);
    const version = await sh(bin, ['--version'], app);
    expect(version.stdout.trim()).toBe(`furrow ${manifests[0].version} (API ${FURROW_VERSION})`);
    const r = await sh(bin, ['plan', field, '-f', 'geojson'], app);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const fc = JSON.parse(r.stdout) as { type: string; metrics: { turns: number } };
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.metrics.turns).toBeGreaterThan(0);
    const layout = await sh(bin, ['plan', field, '-f', 'mueller', '-o', join(app, 'usb/')], app);
    expect(layout.code).toBe(0);
    expect(existsSync(join(app, 'usb/Taskdata/TASKDATA.XML'))).toBe(true);
  });

  it('leaves the server stack out and names the package a server command needs', async () => {
    for (const name of SERVER) expect(existsSync(join(app, 'node_modules', name)), name).toBe(false);
    for (const heavy of [
      'pg',
      '@electric-sql/pglite',
      'swagger-ui-dist',
      'hono',
      'pg-boss',
      'piscina',
      'jsts',
      'kysely',
      'xmlbuilder2',
      'isoxml',
    ]) {
      expect(existsSync(join(app, 'node_modules', heavy)), heavy).toBe(false);
    }
    const r = await sh(join(app, 'node_modules/.bin/furrow'), ['serve'], app);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/needs @furrow\/api.*npm install @furrow\/api@/);
  });

  it(`installs the CLI in at most ${MAX_CLI_INSTALL_BYTES / 1024 / 1024} MB of node_modules`, () => {
    const bytes = bytesUnder(join(app, 'node_modules'));
    console.log(`installed @furrow/cli with its dependencies: ${(bytes / 1024 / 1024).toFixed(1)} MB`);
    expect(bytes).toBeLessThanOrEqual(MAX_CLI_INSTALL_BYTES);
  });
});
