/**
 * A playground restarted from its saved state keeps its API objects and simulated time; the simulated EC2
 * instances are not kept, so Tenon replaces the NodeClaims whose instances are gone and the workload runs again.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Resources, type Pod } from '../../src/kube/index.js';
import { startPlayground, type Playground } from '../../src/sim/playground/playground.js';
import { applyObjects, parseManifests } from '../../src/sim/scenario/apply.js';

const deployment = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: nginx, resources: {requests: {cpu: "1"}}}]
`;

async function runningPods(pg: Playground): Promise<Pod[]> {
  const pods = await pg.clock.busy(pg.client.list<Pod>(Resources.pods, { namespace: 'default' }));
  return pods.items.filter((p) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp);
}

// Advances simulated time in 5-minute steps until `done`, at most `minutes`.
async function until(pg: Playground, minutes: number, done: () => Promise<boolean>): Promise<void> {
  for (let m = 0; m < minutes && !(await done()); m += 5) await pg.clock.advance(5 * 60_000);
}

describe('tenon serve --state', () => {
  it('restarts with the saved objects and simulated time, replacing NodeClaims whose instances are gone', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'tenon-pg-state-')), 'state.jsonl');
    const first = await startPlayground({ stateFile });
    await first.clock.busy(applyObjects(first.client, first.discovery, parseManifests(deployment)));
    await until(first, 30, async () => (await runningPods(first)).length === 4);
    const before = await runningPods(first);
    expect(before).toHaveLength(4);
    const claims = (await first.clock.busy(first.client.list(Resources.nodeClaims))).items.map((c) => c.metadata.name);
    const web = await first.clock.busy(first.client.get(Resources.deployments, { name: 'web', namespace: 'default' }));
    const stoppedAt = first.clock.now();
    await first.stop();

    const second = await startPlayground({ stateFile });
    try {
      expect(second.restored).toBe(true);
      expect(second.clock.now()).toBeGreaterThanOrEqual(stoppedAt);
      const again = await second.clock.busy(
        second.client.get(Resources.deployments, { name: 'web', namespace: 'default' }),
      );
      expect(again.metadata).toMatchObject({ uid: web.metadata.uid, generation: web.metadata.generation });
      const oldNames = new Set(before.map((p) => p.metadata.name));
      await until(second, 60, async () => {
        const pods = await runningPods(second);
        return pods.length === 4 && pods.every((p) => !oldNames.has(p.metadata.name));
      });
      const after = await runningPods(second);
      expect(after).toHaveLength(4);
      expect(after.some((p) => oldNames.has(p.metadata.name))).toBe(false);
      const newClaims = (await second.clock.busy(second.client.list(Resources.nodeClaims))).items.map(
        (c) => c.metadata.name,
      );
      expect(newClaims.some((n) => claims.includes(n))).toBe(false);
      expect(second.worldErrors).toEqual([]);
    } finally {
      await second.stop();
    }
  }, 180_000);
});
