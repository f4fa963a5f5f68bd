import { configDefaults, defineConfig } from 'vitest/config';

// On CI a JSON report is written too, so .ci/run can print the plain "N passed, N failed" line.
const reporters = process.env.TENON_TEST_REPORT ? ['default', 'json'] : ['default'];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    // The real-control-plane suites run with `npm run test:cluster` (test/cluster/vitest.config.ts).
    exclude: [...configDefaults.exclude, 'test/cluster/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters,
    ...(process.env.TENON_TEST_REPORT ? { outputFile: { json: process.env.TENON_TEST_REPORT } } : {}),
  },
});
