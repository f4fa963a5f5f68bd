import { defineConfig } from 'vitest/config';
import { allTests, neverRun, reporting, slowFiles, slowPatterns } from './vitest.suites.js';

// `npm test`: everything but the slow suites, which `npm run test:slow` runs (vitest.slow.config.ts).
export default defineConfig({
  test: {
    include: allTests,
    exclude: [...neverRun, ...slowPatterns, ...slowFiles],
    // Files share a module graph per worker instead of importing it again each: that import was most of the suite's
    // time. Sound because production modules hold no state (test/architecture/module-state.test.ts), and tests
    // restore what they change (fake timers, mocks).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    ...reporting(),
  },
});
