/**
 * The server stack (`@furrow/api`, `@furrow/web`) is an optional peer of `@furrow/cli`: the
 * commands that need it load it here, and say which package to install when it is missing.
 */
import { MissingPackageError } from './errors.js';
import { CLI_VERSION } from './version.js';

type ApiModule = typeof import('@furrow/api');
type WebModule = typeof import('@furrow/web');

function isMissing(err: unknown, name: string): boolean {
  const e = err as NodeJS.ErrnoException | undefined;
  return (
    (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && String(e.message).includes(`'${name}'`)
  );
}

function missing(name: string, command: string): MissingPackageError {
  return new MissingPackageError(
    `"furrow ${command}" needs ${name}, which is not installed: npm install ${name}@${CLI_VERSION}`,
  );
}

/** `@furrow/api` for `command` (serve, worker, keys, push, bulk), or a message naming the package. */
export async function loadApi(command: string): Promise<ApiModule> {
  try {
    return await import('@furrow/api');
  } catch (err) {
    throw isMissing(err, '@furrow/api') ? missing('@furrow/api', command) : err;
  }
}

/** `@furrow/web` for `furrow serve`, or a message naming the package. */
export async function loadWeb(command: string): Promise<WebModule> {
  try {
    return await import('@furrow/web');
  } catch (err) {
    throw isMissing(err, '@furrow/web') ? missing('@furrow/web', command) : err;
  }
}
