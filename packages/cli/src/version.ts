/**
 * `furrow --version`: the package version (one for every furrow package) and the interface
 * release it implements. Reads only package.json and core's version module, not the planner.
 */
import { readFileSync } from 'node:fs';
import { FURROW_VERSION } from '@furrow/core/version';

/** The version of `@furrow/cli` (and of every furrow package: they are released together). */
export const CLI_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** `furrow 0.2.0 (API 1.5.0)`. */
export const VERSION_LINE = `furrow ${CLI_VERSION} (API ${FURROW_VERSION})`;
