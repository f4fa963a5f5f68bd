import { afterEach, describe, expect, it } from 'vitest';
import type { Lease, Node, Pod } from '../../src/kube/index.js';
import { SimResources, type DaemonSet, type Deployment } from '../../src/sim/world/resources.js';
import { s2UserData, s3UserData } from './field-userdata.js';
import { machine, node, pods, startWorld, until, type SimHarness } from './harness.js';

let h: SimHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const app = (replicas: number, cpu = '500m'): Deployment => ({
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu, memory: '256Mi' } } }],
        tolerations: [{ key: 'node.cloudprovider.kubernetes.io/uninitialized', operator: 'Exists' }],
      },
    },
  },
});

const running = (ps: Pod[]): Pod[] => ps.filter((p) => p.status?.phase === 'Running');

describe('simulated world', () => {
  it('schedules a Deployment of 10 pods over 2 nodes and runs them', async () => {
    h = await startWorld({ machines: [machine('a'), machine('b', { zone: 'us-west-2b' })] });
    const world = h;
    const schedulable = async (): Promise<boolean> => {
      const nodes = (await world.client.list<Node>(SimResources.nodes)).items;
      return (
        nodes.length === 2 &&
        nodes.every(
          (n) =>
            (n.spec?.taints ?? []).length === 0 &&
            n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
        )
      );
    };
    await until(world, schedulable, 120_000);
    await world.client.create(SimResources.deployments, app(10));
    await until(world, async () => running(await pods(world)).length === 10, 120_000);
    const all = await pods(world);
    const perNode = new Map<string, number>();
    for (const p of all) perNode.set(p.spec.nodeName ?? '', (perNode.get(p.spec.nodeName ?? '') ?? 0) + 1);
    expect([...perNode.values()].sort()).toEqual([5, 5]);
    const d = await world.client.get<Deployment>(SimResources.deployments, { name: 'web', namespace: 'default' });
    await until(
      world,
      async () =>
        (await world.client.get<Deployment>(SimResources.deployments, { name: 'web', namespace: 'default' })).status
          ?.availableReplicas === 10,
      30_000,
    );
    expect(d.metadata.name).toBe('web');
    // Scale past what fits: 4 cpu nodes take 7 pods of 500m each after reservations; the rest are Unschedulable.
    await world.client.patch(
      SimResources.deployments,
      { name: 'web', namespace: 'default' },
      { spec: { replicas: 16 } },
    );
    await until(
      world,
      async () => (await pods(world)).some((p) => p.status?.conditions?.some((c) => c.reason === 'Unschedulable')),
      60_000,
    );
    const pending = (await pods(world)).find((p) => p.status?.conditions?.some((c) => c.reason === 'Unschedulable'));
    expect(pending?.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message).toBe(
      '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod..',
    );
  });

  it('marks a node Unknown after the grace period once its kubelet stops (S5)', async () => {
    h = await startWorld({ machines: [machine('a')] });
    const world = h;
    const name = 'ip-a.us-west-2.compute.internal';
    await until(
      world,
      async () =>
        (await node(world, name).catch(() => undefined))?.status?.conditions?.some(
          (c) => c.type === 'Ready' && c.status === 'True',
        ) ?? false,
      120_000,
    );
    const lease = await world.client.get<Lease>(SimResources.leases, { name, namespace: 'kube-node-lease' });
    expect(lease.spec?.holderIdentity).toBe(name);
    world.world.kubelets.stopKubelet(name);
    const stoppedAt = world.clock.now();
    await until(
      world,
      async () => (await node(world, name)).status?.conditions?.find((c) => c.type === 'Ready')?.status === 'Unknown',
      120_000,
    );
    const ready = (await node(world, name)).status?.conditions?.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    const elapsed = world.clock.now() - stoppedAt;
    expect(elapsed).toBeGreaterThan(40_000);
    expect(elapsed).toBeLessThanOrEqual(70_000);
    await until(
      world,
      async () =>
        (await node(world, name)).spec?.taints?.some(
          (t) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute',
        ) ?? false,
      10_000,
    );
  });

  it('registers with exactly the taints of the S2 and S3 field reports', async () => {
    h = await startWorld({
      machines: [machine('s2', { userData: s2UserData }), machine('s3', { userData: s3UserData, amiFamily: 'Custom' })],
      disable: ['ccm'],
    });
    const world = h;
    await until(world, async () => (await world.client.list(SimResources.nodes)).items.length === 2, 120_000);
    const s2 = await node(world, 'ip-s2.us-west-2.compute.internal');
    expect(s2.spec?.taints?.filter((t) => !t.key.startsWith('node.kubernetes.io/'))).toEqual([
      { key: 'node.cilium.io/agent-not-ready', value: 'true', effect: 'NoExecute' },
      { key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' },
    ]);
    const s3 = await node(world, 'ip-s3.us-west-2.compute.internal');
    expect(s3.spec?.taints?.map((t) => t.key)).not.toContain('karpenter.sh/unregistered');
  });

  it('the CCM removes the uninitialized taint while another writer races it, and neither write is lost (S1)', async () => {
    h = await startWorld({ machines: [machine('a')], ccm: { initDelay: { min: 0, max: 50 } } });
    const world = h;
    const name = 'ip-a.us-west-2.compute.internal';
    await until(world, async () => (await node(world, name).catch(() => undefined)) !== undefined, 120_000);
    // A registration-style conditional write (like Tenon's) racing the CCM: a label, computed from a fresh copy.
    const { updateWithRetry } = await import('../../src/kube/index.js');
    await world.clock.busy(
      updateWithRetry({
        client: world.client,
        resource: SimResources.nodes,
        ref: { name },
        mutate: (n) => ({
          ...n,
          metadata: { ...n.metadata, labels: { ...n.metadata.labels, 'karpenter.sh/registered': 'true' } },
        }),
      }),
    );
    await until(
      world,
      async () =>
        !((await node(world, name)).spec?.taints ?? []).some(
          (t) => t.key === 'node.cloudprovider.kubernetes.io/uninitialized',
        ),
      30_000,
    );
    expect((await node(world, name)).metadata.labels?.['karpenter.sh/registered']).toBe('true');
  });

  it('a DaemonSet follows nodes as they come and go', async () => {
    h = await startWorld({ machines: [machine('a')] });
    const world = h;
    const ds: DaemonSet = {
      metadata: { name: 'agent', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'a', image: 'agent' }], tolerations: [{ operator: 'Exists' }] },
        },
      },
    };
    await world.client.create(SimResources.daemonSets, ds);
    await until(world, async () => running(await pods(world)).length === 1, 120_000);
    world.machines.add(machine('b', { zone: 'us-west-2b' }));
    await until(world, async () => running(await pods(world)).length === 2, 120_000);
    const nodesOfPods = (await pods(world)).map((p) => p.spec.nodeName).sort();
    expect(nodesOfPods).toEqual(['ip-a.us-west-2.compute.internal', 'ip-b.us-west-2.compute.internal']);
    // The instance terminates: the CCM deletes the Node, and the DaemonSet's pod goes with it.
    world.machines.setState('aws:///us-west-2b/i-b', 'terminated');
    await until(
      world,
      async () => (await pods(world)).filter((p) => p.spec.nodeName === 'ip-b.us-west-2.compute.internal').length === 0,
      300_000,
    );
    expect((await world.client.list(SimResources.nodes)).items.map((n) => n.metadata.name)).toEqual([
      'ip-a.us-west-2.compute.internal',
    ]);
  });
});
