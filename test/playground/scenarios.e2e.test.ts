/**
 * Every shipped scenario runs on a fresh playground and meets its expectations (SCENARIOS.md S1-S5 and everyday);
 * the quick ones run in `npm test` instead (core-path.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSummary } from '../../src/sim/report/terminal.js';
import { runScenario } from '../../src/sim/scenario/runner.js';
import { parseScenario } from '../../src/sim/scenario/validate.js';
import { expectScenarioPasses, quickScenarios, scenariosDir as dir } from './shipped-scenarios.js';

const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml') && !quickScenarios.includes(f))
  .sort();

describe('shipped scenarios on the playground', () => {
  it.each(files)('%s passes', (file) => expectScenarioPasses(file), 180_000);

  it('s1-ccm-taint-race also passes with the clients on HTTPS', async () => {
    // The playground's own clients normally skip HTTP; the race must be caught over real sockets as well.
    const { scenario } = parseScenario(readFileSync(join(dir, 's1-ccm-taint-race.yaml'), 'utf8'));
    expect(scenario).toBeDefined();
    if (!scenario) return;
    const report = await runScenario(scenario, { baseDir: dir, apiTransport: 'https' });
    expect(report.passed, renderSummary(report)).toBe(true);
  }, 180_000);
});
