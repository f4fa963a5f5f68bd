import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject, Node, Pod } from '../../src/kube/index.js';
import { SimResources, type Deployment, type PodDisruptionBudget } from '../../src/sim/world/resources.js';
import { machine, pods, startWorld, until, type SimHarness } from './harness.js';

let h: SimHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const containers = (cpu: string): Pod['spec']['containers'] => [
  { name: 'app', image: 'app:1', resources: { requests: { cpu, memory: '128Mi' } } },
];

const deployment = (name: string, replicas: number): Deployment => ({
  metadata: { name, namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: containers('1') } },
  },
});

const urgent = (name: string, priorityClassName: string): Pod => ({
  metadata: { name, namespace: 'default', labels: { app: name } },
  spec: { priorityClassName, containers: containers('2') },
});

const priorityClass = (
  name: string,
  value: number,
  preemptionPolicy?: string,
): KubeObject & Record<string, unknown> => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
  ...(preemptionPolicy ? { preemptionPolicy } : {}),
});

const scheduled = (p: Pod | undefined): string | undefined =>
  p?.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message;

async function schedulable(world: SimHarness): Promise<boolean> {
  const nodes = (await world.client.list<Node>(SimResources.nodes)).items;
  return (
    nodes.length === 1 &&
    nodes.every(
      (n) =>
        (n.spec?.taints ?? []).length === 0 &&
        n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
    )
  );
}

describe('simulated kube-scheduler preemption', () => {
  it('evicts the fewest lower-priority pods, sparing those a PodDisruptionBudget protects, and binds the preemptor there', async () => {
    h = await startWorld({ machines: [machine('a')] });
    const world = h;
    await until(world, () => schedulable(world), 120_000);
    await world.client.create(SimResources.priorityClasses, priorityClass('urgent', 1000));
    await world.client.create(SimResources.priorityClasses, priorityClass('polite', 1000, 'Never'));
    await world.client.create(SimResources.deployments, deployment('guarded', 1));
    const budget: PodDisruptionBudget = {
      metadata: { name: 'guarded', namespace: 'default' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'guarded' } } },
    };
    await world.client.create(SimResources.podDisruptionBudgets, budget);
    await until(
      world,
      async () => (await pods(world)).filter((p) => p.status?.phase === 'Running').length === 1,
      60_000,
    );
    await world.client.create(SimResources.deployments, deployment('plain', 2));
    await until(
      world,
      async () => (await pods(world)).filter((p) => p.status?.phase === 'Running').length === 3,
      60_000,
    );
    const node = 'ip-a.us-west-2.compute.internal';
    const before = new Set((await pods(world)).map((p) => p.metadata.name));

    // 3 of the node's 3.92 cpu are used: a 2-cpu pod needs two 1-cpu pods gone, and the guarded one stays.
    await world.client.create(SimResources.pods, urgent('urgent', 'urgent'));
    await until(
      world,
      async () => (await pods(world)).some((p) => p.metadata.name === 'urgent' && p.status?.nominatedNodeName === node),
      30_000,
    );
    await until(
      world,
      async () => (await pods(world)).find((p) => p.metadata.name === 'urgent')?.status?.phase === 'Running',
      120_000,
    );
    const after = await pods(world);
    const survivors = after.filter((p) => before.has(p.metadata.name));
    expect(survivors.map((p) => p.metadata.labels?.app)).toEqual(['guarded']);
    expect(after.find((p) => p.metadata.name === 'urgent')?.spec.nodeName).toBe(node);
    // The replacements of the victims cannot preempt pods of their own priority.
    await until(
      world,
      async () =>
        (await pods(world)).filter(
          (p) => p.metadata.labels?.app === 'plain' && scheduled(p)?.includes('No preemption victims'),
        ).length === 2,
      60_000,
    );
    expect(scheduled((await pods(world)).find((p) => p.metadata.labels?.app === 'plain'))).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod..',
    );

    // preemptionPolicy Never: the pod waits instead of evicting the guarded pod.
    await world.client.create(SimResources.pods, urgent('polite', 'polite'));
    await until(
      world,
      async () => scheduled((await pods(world)).find((p) => p.metadata.name === 'polite')) !== undefined,
      30_000,
    );
    const polite = (await pods(world)).find((p) => p.metadata.name === 'polite');
    expect(scheduled(polite)).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never..',
    );
    expect(polite?.status?.nominatedNodeName).toBeUndefined();
    expect(
      (await pods(world)).filter((p) => p.metadata.labels?.app === 'guarded' && p.status?.phase === 'Running'),
    ).toHaveLength(1);
  });
});
