import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InsufficientCapacityError } from '../../src/cloudprovider/index.js';
import { Resources, type KubeObject, type Node } from '../../src/kube/index.js';
import {
  conditionOf,
  createNodePool,
  createUnschedulablePod,
  eventually,
  nodeClaims,
  registerNodeFor,
  startHarness,
  type Harness,
} from './harness.js';

interface EventObject extends KubeObject {
  reason?: string;
  message?: string;
  involvedObject?: { kind?: string; name?: string };
}

async function events(h: Harness, reason: string): Promise<EventObject[]> {
  return (await h.client.list<EventObject>(Resources.events)).items.filter((e) => e.reason === reason);
}

function cpuOf(q: string | number | undefined): number {
  if (q === undefined) return 0;
  const s = String(q);
  return s.endsWith('m') ? Number(s.slice(0, -1)) / 1000 : Number(s);
}

describe('provisioning and the NodeClaim lifecycle (embedded API server)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.stop();
  });

  it('pending pods become a NodeClaim that launches, registers, initializes and carries what the NodePool says', async () => {
    await createNodePool(h, 'default', {}, { taints: [{ key: 'team', value: 'a', effect: 'NoSchedule' }] });
    const tolerations = [{ key: 'team', operator: 'Equal' as const, value: 'a', effect: 'NoSchedule' as const }];
    for (const i of [1, 2, 3])
      await createUnschedulablePod(h, `web-${i}`, { cpu: '1', memory: '1Gi' }, { tolerations });
    const launched = await eventually(h, 'launched NodeClaims for all three pods', async () => {
      const all = await nodeClaims(h);
      const cpu = all.reduce((sum, x) => sum + cpuOf(x.spec.resources?.requests?.cpu), 0);
      return cpu === 3 && all.every((x) => x.status?.providerID) && all;
    });
    for (const nc of launched) {
      expect(nc.metadata.name).toMatch(/^default-/);
      expect(nc.metadata.labels?.['karpenter.sh/nodepool']).toBe('default');
      expect(nc.metadata.finalizers).toContain('karpenter.sh/termination');
      expect(nc.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'NodePool', name: 'default' });
      expect(nc.spec.taints).toEqual([{ key: 'team', value: 'a', effect: 'NoSchedule' }]);
      expect(conditionOf(nc, 'Launched')?.status).toBe('True');
      expect(conditionOf(nc, 'Registered')).toMatchObject({ status: 'Unknown' });
    }
    const nominated = await eventually(h, 'Nominated events', async () =>
      (await events(h, 'Nominated')).length >= 3 ? events(h, 'Nominated') : undefined,
    );
    const names = launched.map((nc) => nc.metadata.name);
    for (const e of nominated) expect(names.map((n) => `Pod should schedule on: nodeclaim/${n}`)).toContain(e.message);

    for (const nc of launched) await registerNodeFor(h, nc);
    await eventually(h, 'Initialized', async () =>
      (await nodeClaims(h)).every(
        (x) => conditionOf(x, 'Initialized')?.status === 'True' && conditionOf(x, 'Ready')?.status === 'True',
      ),
    );
    for (const nc of launched) {
      const node = await h.client.get<Node>(Resources.nodes, { name: `node-${nc.metadata.name}` });
      expect(node.metadata.labels?.['karpenter.sh/initialized']).toBe('true');
      expect(node.metadata.labels?.['karpenter.sh/registered']).toBe('true');
      expect(node.metadata.labels?.['karpenter.sh/nodepool']).toBe('default');
      expect(node.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'NodeClaim', name: nc.metadata.name });
      expect(node.spec?.taints?.map((t) => t.key)).toEqual(['team']);
    }
    // One JSON line per lifecycle step, in Karpenter's shape, naming the NodeClaim as {"name": ...}.
    const lines = h.logs
      .flatMap((l) => l.split('\n'))
      .filter(Boolean)
      .map(
        (l) => JSON.parse(l) as { message: string; level: string; controller?: string; NodeClaim?: { name: string } },
      );
    for (const nc of launched) {
      const steps = lines
        .filter((l) => l.NodeClaim?.name === nc.metadata.name && l.controller === 'nodeclaim.lifecycle')
        .map((l) => `${l.level} ${l.message}`);
      expect(steps).toEqual(['INFO launched nodeclaim', 'INFO registered nodeclaim', 'INFO initialized nodeclaim']);
    }
  });

  it('NodePool limits hold across bursts: capacity never exceeds them and the rest get FailedScheduling with the reason', async () => {
    await createNodePool(h, 'capped', { limits: { cpu: '4' } });
    for (let burst = 0; burst < 4; burst++) {
      await Promise.all(
        [0, 1, 2].map((i) => createUnschedulablePod(h, `burst-${burst}-${i}`, { cpu: '1', memory: '512Mi' })),
      );
      h.clock.advance(200);
      await new Promise((r) => setTimeout(r, 30));
    }
    const failed = await eventually(h, 'FailedScheduling events', async () =>
      (await events(h, 'FailedScheduling')).length > 0 ? events(h, 'FailedScheduling') : undefined,
    );
    expect(failed[0]?.message).toMatch(/^Failed to schedule pod, .*limit/);
    // Let every batch settle, then sum what was launched.
    for (let i = 0; i < 20; i++) {
      h.clock.advance(500);
      await new Promise((r) => setTimeout(r, 20));
    }
    const all = await nodeClaims(h);
    const launchedCpu = all.reduce((s, x) => s + cpuOf(x.status?.capacity?.cpu ?? x.spec.resources?.requests?.cpu), 0);
    expect(all.length).toBeGreaterThan(0);
    expect(launchedCpu).toBeLessThanOrEqual(4);
    // The pods left over by the limit, as the last pass counted them.
    const unschedulable = await h.operator.context.metrics.registry.getSingleMetricAsString(
      'karpenter_scheduler_unschedulable_pods_count',
    );
    expect(unschedulable).toMatch(/karpenter_scheduler_unschedulable_pods_count\{controller="provisioning"\} [1-9]/);
  });

  it('insufficient capacity deletes the NodeClaim and the pods get a new one', async () => {
    h.cloud.injectError(
      'create',
      new InsufficientCapacityError('no capacity for small in test-zone-a', [
        { instanceType: 'small', zone: 'test-zone-a', capacityType: 'spot' },
      ]),
    );
    await createNodePool(h);
    await createUnschedulablePod(h, 'ice-1', { cpu: '1', memory: '1Gi' });
    const ice = await eventually(h, 'InsufficientCapacityError event', async () =>
      (await events(h, 'InsufficientCapacityError')).length > 0 ? events(h, 'InsufficientCapacityError') : undefined,
    );
    const first = ice[0]?.involvedObject?.name;
    const replacement = await eventually(
      h,
      'a second, launched NodeClaim',
      async () => (await nodeClaims(h)).find((x) => x.metadata.name !== first && x.status?.providerID),
      { advanceMs: 300 },
    );
    expect(replacement.metadata.labels?.['karpenter.sh/nodepool']).toBe('default');
    expect((await nodeClaims(h)).map((x) => x.metadata.name)).not.toContain(first);
  });
});
