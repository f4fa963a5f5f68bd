/**
 * Which test files `npm test` runs and which `npm run test:slow` runs; CI (.ci/run) runs both, so nothing is
 * dropped. The slow script takes end-to-end suites (a whole playground or controller process, the real kubectl)
 * and the long property tests, so that `npm test` stays a quick check.
 *
 * A new slow file: name it `*.e2e.test.ts` (or `*.slow.test.ts`), or add its path to `slowFiles`.
 */
import { configDefaults } from 'vitest/config';

/** Every test file of the tree (the real-control-plane suites under test/cluster have their own script). */
export const allTests = ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'];

/**
 * Excluded from both scripts: node_modules and the like, the real-control-plane suites and the fault suite (each
 * has its own script: `npm run test:cluster`, `npm run test:faults`).
 */
export const neverRun = [...configDefaults.exclude, 'test/cluster/**', 'test/faults/**'];

/** Slow by name. */
export const slowPatterns = ['**/*.e2e.test.ts', '**/*.slow.test.ts'];

/**
 * Slow files that are not end-to-end by name: the real kubectl, the CLI or a server run as a child process, long
 * property tests, benchmarks.
 */
export const slowFiles = [
  'test/apiserver/kubectl.test.ts',
  'test/apiserver/protobuf.test.ts',
  'src/cli/signals.test.ts',
  'src/cli/exit-codes.test.ts',
  'test/cli/positional-files.test.ts',
  'test/cli/scenario-repeat.test.ts',
  'test/sim/lean-malloc.test.ts',
  'test/image/layout.test.ts',
  'test/aws/burst.test.ts',
  'test/apiserver/builtin-schemas.test.ts',
  'test/apiserver/state.test.ts',
  'test/apiserver/compact-events.test.ts',
  'test/aws/launch.test.ts',
  'src/scheduling/lower-bound/bound.test.ts',
  'src/scheduling/solver/properties.test.ts',
  'src/scheduling/check/solver-property.test.ts',
  'test/disruption/invariants.property.test.ts',
  'bench/scheduling/bench.test.ts',
  'bench/consolidation/consolidation.test.ts',
];

/** The reporters of a run: on CI a JSON report too, so .ci/run can print one "N passed, N failed" line. */
export function reporting(): { reporters: string[]; outputFile?: { json: string } } {
  const report = process.env.TENON_TEST_REPORT;
  return report ? { reporters: ['default', 'json'], outputFile: { json: report } } : { reporters: ['default'] };
}
