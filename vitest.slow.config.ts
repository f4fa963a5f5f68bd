import { defineConfig } from 'vitest/config';
import { neverRun, reporting, slowFiles, slowPatterns } from './vitest.suites.js';

// `npm run test:slow`: the end-to-end suites and long property tests that `npm test` leaves out (vitest.suites.ts).
export default defineConfig({
  test: {
    include: [...slowPatterns, ...slowFiles],
    exclude: neverRun,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    ...reporting(),
  },
});
