/**
 * The CLI's error kinds, in a module that imports nothing heavy: `main` classifies errors
 * without loading the planner.
 */

/** Bad command-line input: exit code 2 with the message on stderr. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A command needs a package that is not installed (the server stack is an optional peer): exit 1. */
export class MissingPackageError extends Error {
  override name = 'MissingPackageError';
}

/**
 * Bad input to a command: a usage error or the planner's `PlanError` (told by name: `@furrow/core` may not be loaded).
 */
export function isInputError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'UsageError' || err.name === 'PlanError');
}
