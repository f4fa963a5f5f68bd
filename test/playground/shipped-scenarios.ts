/** The shipped scenarios (scenarios/*.yaml) as tests run them: which ones `npm test` runs, and the check of one. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { renderSummary } from '../../src/sim/report/terminal.js';
import { runScenario } from '../../src/sim/scenario/runner.js';
import { parseScenario } from '../../src/sim/scenario/validate.js';

/** Where the shipped scenarios are. */
export const scenariosDir = join(import.meta.dirname, '../../scenarios');

/**
 * The scenarios `npm test` runs itself (core-path.test.ts): the core path of SCENARIOS.md end to end (pending pods,
 * a launch, registration, initialization under a taint race, pods Running) at a few seconds each. The others run
 * in `npm run test:slow` (scenarios.e2e.test.ts).
 */
export const quickScenarios: readonly string[] = ['s1-ccm-taint-race.yaml', 's2-user-register-taints.yaml'];

/**
 * Runs the shipped scenario `file` on a fresh playground: it parses, meets every expectation (it has some), and
 * leaves no wait that `tenon explain` cannot give a cause for.
 */
export async function expectScenarioPasses(file: string): Promise<void> {
  const { scenario, errors } = parseScenario(readFileSync(join(scenariosDir, file), 'utf8'));
  expect(errors).toEqual([]);
  if (!scenario) return;
  const report = await runScenario(scenario, { baseDir: scenariosDir });
  expect(report.passed, renderSummary(report)).toBe(true);
  expect(report.expectations.length).toBeGreaterThan(0);
  expect(report.unexplainedWaits ?? [], renderSummary(report)).toEqual([]);
}
