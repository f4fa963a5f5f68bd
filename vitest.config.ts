import { defineConfig } from 'vitest/config';
import { allTests, neverRun, reporting, slowFiles, slowPatterns } from './vitest.suites.js';

// `npm test`: everything but the slow suites, which `npm run test:slow` runs (vitest.slow.config.ts).
export default defineConfig({
  test: {
    include: allTests,
    exclude: [...neverRun, ...slowPatterns, ...slowFiles],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    ...reporting(),
  },
});
