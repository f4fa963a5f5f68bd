/**
 * `tenon scenario run --repeat N`: one line per seed and a table over the seeds instead of N full summaries, and
 * the fleet left at the end told apart from the instances launched.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// Three 1-CPU pods, then an expectation no run meets (the fleet is never empty while they run).
const scenario = `name: repeat-check
seed: 5
steps:
  - apply: |
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: default}
      spec:
        replicas: 3
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            containers: [{name: app, image: app, resources: {requests: {cpu: "1"}}}]
  - wait: {for: {allPodsRunning: true}, timeout: 10m}
  - expect: {count: {kind: Node, equals: 0}}
`;

describe('scenario run --repeat', () => {
  it('prints one line per seed naming the failed step, then the seeds passed, the spread and the fleet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenon-repeat-'));
    const file = join(dir, 'repeat-check.yaml');
    writeFileSync(file, scenario);
    const r = await runCli(['scenario', 'run', file, '--repeat', '2']);
    expect(r.exitCode).toBe(1);
    const lines = r.stdout.split('\n');
    const seedLines = lines.filter((l) => l.startsWith('seed '));
    expect(seedLines).toHaveLength(2);
    expect(seedLines[0]).toMatch(/^seed 5 {2}FAILED {2}step 3 Nodes = 0: \d+ .*all running at \d+ s {2}fleet \d+ /);
    expect(seedLines[1]).toMatch(/^seed 6 {2}FAILED/);
    // No per-seed expectation tables.
    expect(r.stdout).not.toContain('expectation');
    expect(r.stdout).toContain('repeat-check: 0 of 2 seeds passed');
    expect(r.stdout).toMatch(/all pods running, s \(2 seeds\)\s+\d+\s+\d+\s+\d+/);
    expect(r.stdout).toMatch(/nodes at end\s+[1-9]/);
    expect(r.stdout).toContain('step 3 Nodes = 0: seeds 5, 6');
    expect(r.stdout).toContain(`--seed 5`);
  }, 120_000);
});
