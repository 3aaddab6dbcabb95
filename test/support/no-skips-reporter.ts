/**
 * Under FURROW_REQUIRE_ALL=1 (.ci/run) every test must run: a skipped or todo test fails the run.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class NoSkipsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped: string[] = [];
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'skipped' || state === 'pending')
          skipped.push(`${mod.moduleId.replace(process.cwd() + '/', '')} > ${test.fullName}`);
      }
    }
    if (skipped.length > 0) {
      process.stderr.write(
        `\nFURROW_REQUIRE_ALL=1: ${skipped.length} test(s) did not run:\n${skipped.map((s) => `  - ${s}`).join('\n')}\n`,
      );
      process.exitCode = 1;
    }
  }
}
