import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const packages = fileURLToPath(new URL('./packages/', import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the sources of every workspace package, not their builds.
    alias: [{ find: /^@furrow\/([a-z-]+)$/, replacement: `${packages}$1/src/index.ts` }],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // .ci/run sets FURROW_REQUIRE_ALL=1: there a skipped test fails the run.
    reporters:
      process.env.FURROW_REQUIRE_ALL === '1' ? ['default', './test/support/no-skips-reporter.ts'] : ['default'],
  },
});
