import type { Reporter } from 'vitest/reporters';

/**
 * Ends `npm test` with a plain `ui: N passed, N failed` line, which CI reads (it does not
 * read Vitest's own summary).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd: NonNullable<Reporter['onTestRunEnd']> = (testModules, unhandledErrors) => {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      if (module.state() === 'failed' && module.children.size === 0) failed++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\nui: ${passed} passed, ${failed} failed${tail}\n`);
  };
}
