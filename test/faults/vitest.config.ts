import { defineConfig } from 'vitest/config';
import { reporting } from '../../vitest.suites.js';

// The fault suite (`npm run test:faults` in CI, `npm run soak` for many cases): long simulated runs, kept out of
// `npm test` and `npm run test:slow`.
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    testTimeout: 60 * 60_000,
    hookTimeout: 60_000,
    // The bounded-memory invariant measures the live heap: a collection first, not whatever garbage is pending.
    execArgv: ['--expose-gc'],
    ...reporting(),
  },
});
