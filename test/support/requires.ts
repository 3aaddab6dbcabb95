/**
 * Suites that need something a fresh machine may lack (PostgreSQL, Chromium, GDAL, xmllint)
 * declare it here. Where it is missing they are skipped with the reason printed; under
 * FURROW_REQUIRE_ALL=1 (set by .ci/run, which installs everything) a missing tool fails the run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe } from 'vitest';

export type Requirement = 'postgres' | 'chromium' | 'gdal' | 'xmllint';

const probes: Record<Requirement, () => boolean> = {
  postgres: () => postgresBinDir() !== undefined,
  chromium: () => existsSync(chromiumPath()),
  gdal: () => commandWorks('ogrinfo', ['--version']),
  xmllint: () => commandWorks('xmllint', ['--version']),
};

function commandWorks(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** Folder holding initdb / pg_ctl of the newest installed PostgreSQL, if any. */
export function postgresBinDir(): string | undefined {
  for (const v of ['18', '17', '16', '15', '14']) {
    const dir = `/usr/lib/postgresql/${v}/bin`;
    if (existsSync(`${dir}/initdb`) && existsSync(`${dir}/pg_ctl`)) return dir;
  }
  return undefined;
}

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

export function has(req: Requirement): boolean {
  return probes[req]();
}

/** `describe` that runs only where every requirement is present (and fails under FURROW_REQUIRE_ALL). */
export function describeWith(reqs: Requirement[], name: string, fn: () => void): void {
  const missing = reqs.filter((r) => !has(r));
  if (missing.length > 0 && process.env.FURROW_REQUIRE_ALL === '1') {
    throw new Error(`suite "${name}" needs ${missing.join(', ')}, which this machine lacks (FURROW_REQUIRE_ALL=1)`);
  }
  if (missing.length > 0) {
    process.stderr.write(`[furrow] skipping "${name}": needs ${missing.join(', ')} (install it, see .ci/run)\n`);
  }
  describe.skipIf(missing.length > 0)(`${name} [needs ${reqs.join(', ')}]`, fn);
}
