import { defineConfig } from 'vitest/config';

// The suites against the real control plane (test/cluster/run.sh brings it up and sets TENON_CLUSTER_KUBECONFIG).
// One cluster is shared, and Nodes and NodePools are cluster-wide, so files run one after another.
const report = process.env.TENON_TEST_REPORT;

export default defineConfig({
  test: {
    include: ['test/cluster/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
    reporters: report ? ['default', 'json'] : ['default'],
    ...(report ? { outputFile: { json: report } } : {}),
  },
});
