/**
 * The scenario runner survives the faults it injects, and a fault scoped to a window heals after it: with
 * every API request failing for 30 simulated seconds, the run goes on and every pod runs afterwards.
 */
import { describe, expect, it } from 'vitest';
import { renderSummary } from '../../src/sim/report/terminal.js';
import { runScenario } from '../../src/sim/scenario/runner.js';
import { formatScenarioError, parseScenario } from '../../src/sim/scenario/validate.js';

const deployment = `
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: default}
      spec:
        replicas: 40
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            containers: [{name: app, image: app, resources: {requests: {cpu: 500m, memory: 512Mi}}}]`;

function scenario(fault: string): string {
  return `name: faults
steps:
  - fault: ${fault}
  - apply: |${deployment}
  - advance: 30s
  - wait: {for: {allPodsRunning: true}, timeout: 15m}
  - expect: {count: {kind: Pod, equals: 40}}
`;
}

async function run(text: string): Promise<Awaited<ReturnType<typeof runScenario>>> {
  const { scenario: s, errors } = parseScenario(text);
  expect(errors).toEqual([]);
  if (!s) throw new Error('no scenario');
  return runScenario(s);
}

describe('scenario faults', () => {
  it('an unscoped apiErrors fault for 30s does not abort the run, and all 40 pods run after it heals', async () => {
    const report = await run(scenario('{apiErrors: {rate: 1, for: 30s}}'));
    expect(report.error).toBeUndefined();
    expect(report.passed, renderSummary(report)).toBe(true);
  }, 180_000);

  it('NodeClaim creates failing with 429 for 30s are retried: all 40 pods run', async () => {
    const report = await run(
      scenario('{apiErrors: {rate: 1, verb: create, resource: nodeclaims, code: 429, for: 30s}}'),
    );
    expect(report.passed, renderSummary(report)).toBe(true);
  }, 180_000);

  it('rejects a fault scope that names no verb or code the server knows', () => {
    const { errors } = parseScenario(
      `name: x\nsteps:\n  - fault: {apiErrors: {rate: 1, verb: crate, code: 418, for: soon}}\n`,
    );
    const lines = errors.map((e) => formatScenarioError('f.yaml', e));
    expect(lines).toContainEqual(
      expect.stringMatching(/^f\.yaml:3: steps\[0\]\.fault\.apiErrors\.verb: must be one of "get"/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/apiErrors\.code: must be one of 409, 429, 500, 503, 504$/));
    expect(lines).toContainEqual(expect.stringMatching(/apiErrors\.for: must be a duration/));
  });
});
