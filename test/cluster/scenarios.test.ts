/**
 * S1-S5 and the everyday scenarios against the real control plane: Tenon's controllers, the simulated EC2,
 * kubelets, CCM and volumes attach to it (`tenon scenario run --cluster`), while its own kube-scheduler and
 * kube-controller-manager place and manage the pods. The cluster is emptied before each scenario (and after the
 * last), so a scenario that fails half-way cannot take the next one with it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient } from '../../src/kube/index.js';
import { attachedRunStart, runScenario } from '../../src/sim/scenario/runner.js';
import { parseScenario } from '../../src/sim/scenario/validate.js';
import { emptyCluster } from './cleanup.js';
import { clusterClient, clusterKubeconfig } from './cluster.js';

const scenarios = [
  's1-ccm-taint-race',
  's2-user-register-taints',
  's3-custom-ami-bootstrap',
  's4-immediate-pvc',
  's5-unknown-node-repair',
  's5-repair-blocked',
  'scale-up',
  'scale-down',
  'consolidation',
  'drift',
  'expiration',
  'budget-schedule',
];

const dir = join(process.cwd(), 'scenarios');
/**
 * A run whose simulated time stands still this long (wall) is ended, and its report says what it was waiting on.
 * A run whose time moves ends by itself: every wait has a simulated timeout. So the test's own timeout only has to
 * be long enough for a slow machine.
 */
const stallMs = 90_000;
const testTimeoutMs = 900_000;

/** Where a scenario's wall time went, step by step (from the run's samples), for finding what to cut. */
class StepWallTimes {
  private readonly started = performance.now();
  private readonly steps: Array<{ step: number; wall: number; sim: number }> = [];

  constructor(private readonly cleanupSeconds: number) {}

  at(step: number, simSeconds: number): void {
    const last = this.steps.at(-1);
    if (last?.step === step) return;
    this.steps.push({ step, wall: (performance.now() - this.started) / 1000, sim: simSeconds });
  }

  text(): string {
    const end = { wall: (performance.now() - this.started) / 1000, sim: Number.NaN };
    const parts = this.steps.map((s, i) => {
      const next = this.steps[i + 1] ?? end;
      const sim = Number.isNaN(next.sim) ? '' : ` (${(next.sim - s.sim).toFixed(0)} s simulated)`;
      return `${s.step === 0 ? 'start' : `step ${s.step}`} ${(next.wall - s.wall).toFixed(1)} s${sim}`;
    });
    const first = this.steps[0]?.wall ?? 0;
    return `cleanup ${this.cleanupSeconds.toFixed(1)} s, startup ${first.toFixed(1)} s, ${parts.join(', ')}`;
  }
}

/** NodeClaims a run launched. */
function launched(report: Awaited<ReturnType<typeof runScenario>>): number {
  return report.launched.reduce((n, g) => n + g.count, 0);
}

describe('scenarios against the real control plane', () => {
  let client: KubeClient;
  beforeAll(async () => {
    client = (await clusterClient()).client;
  });
  afterAll(() => emptyCluster(client));

  for (const name of scenarios) {
    it(name, { timeout: testTimeoutMs }, async ({ signal }) => {
      const parsed = parseScenario(readFileSync(join(dir, `${name}.yaml`), 'utf8'));
      expect(parsed.errors).toEqual([]);
      if (!parsed.scenario) throw new Error(`${name}: no scenario`);
      const cleaning = performance.now();
      await emptyCluster(client);
      const wall = new StepWallTimes((performance.now() - cleaning) / 1000);
      const stalled = new AbortController();
      const report = await runScenario(parsed.scenario, {
        onProgress: (p) => wall.at(p.step, p.sample.t),
        baseDir: dir,
        cluster: { kubeconfig: clusterKubeconfig(), startMs: attachedRunStart(Date.now()) },
        signal: AbortSignal.any([signal, stalled.signal]),
        stallMs,
        onStall: (text) => {
          console.log(`${name}: ${text}`);
          stalled.abort();
        },
      });
      console.log(
        `${name}: ${report.passed ? 'passed' : 'FAILED'} in ${report.wallSeconds.toFixed(0)} s wall, ${launched(report)} NodeClaims launched, $${report.costPerHour.toFixed(4)}/h at the end; ${wall.text()}`,
      );
      const failed = report.expectations
        .filter((e) => !e.passed)
        .map((e) => `step ${e.step}: ${e.description}: ${e.observed}`);
      expect({ passed: report.passed, error: report.error, failed }).toEqual({
        passed: true,
        error: undefined,
        failed: [],
      });
    });
  }
});
