import { afterEach, describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../src/kube/index.js';
import { SimResources, type Deployment, type ReplicaSet } from '../../src/sim/world/resources.js';
import { machine, node, pods, startWorld, until, type SimHarness } from './harness.js';

let h: SimHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const web = (image: string): Deployment => ({
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 4,
    selector: { matchLabels: { app: 'web' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'app', image, resources: { requests: { cpu: '250m', memory: '256Mi' } } }] },
    },
  },
});

const isReady = (p: Pod): boolean =>
  !p.metadata.deletionTimestamp &&
  p.status?.phase === 'Running' &&
  (p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false);
const readyStatus = (n: Node | undefined): string | undefined =>
  n?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
const tryNode = (world: SimHarness, name: string): Promise<Node | undefined> =>
  node(world, name).catch(() => undefined);

async function allReady(world: SimHarness, count: number): Promise<boolean> {
  const nodes = (await world.client.list<Node>(SimResources.nodes)).items;
  return nodes.length === count && nodes.every((n) => (n.spec?.taints ?? []).length === 0 && readyStatus(n) === 'True');
}

describe('Deployment rolling update', () => {
  it('rolls a template change out through a new ReplicaSet within maxSurge 1 / maxUnavailable 0, scaling the old one to 0', async () => {
    h = await startWorld({ machines: [machine('a'), machine('b', { zone: 'us-west-2b' })] });
    const world = h;
    await until(world, () => allReady(world, 2), 120_000);
    await world.client.create(SimResources.deployments, web('app:1'));
    await until(world, async () => (await pods(world)).filter(isReady).length === 4, 120_000);
    await world.client.patch(
      SimResources.deployments,
      { name: 'web', namespace: 'default' },
      {
        spec: {
          template: {
            spec: {
              containers: [{ name: 'app', image: 'app:2', resources: { requests: { cpu: '250m', memory: '256Mi' } } }],
            },
          },
        },
      },
    );

    let mostReplicas = 0;
    let fewestReady = Number.POSITIVE_INFINITY;
    const rolledOut = async (): Promise<boolean> => {
      const sets = (await world.client.list<ReplicaSet>(SimResources.replicaSets, { namespace: 'default' })).items;
      const ready = (await pods(world)).filter(isReady);
      mostReplicas = Math.max(
        mostReplicas,
        sets.reduce((s, rs) => s + (rs.spec.replicas ?? 0), 0),
      );
      fewestReady = Math.min(fewestReady, ready.length);
      return (
        ready.length === 4 &&
        ready.every((p) => p.spec.containers[0]?.image === 'app:2') &&
        sets.length === 2 &&
        sets.every((rs) => (rs.status?.replicas ?? 0) === (rs.spec.replicas ?? 0))
      );
    };
    await until(world, rolledOut, 300_000);
    expect(mostReplicas).toBe(5);
    expect(fewestReady).toBe(4);
    const sets = (await world.client.list<ReplicaSet>(SimResources.replicaSets, { namespace: 'default' })).items;
    const byImage = new Map(sets.map((rs) => [rs.spec.template.spec.containers[0]?.image, rs.spec.replicas]));
    expect(Object.fromEntries(byImage)).toEqual({ 'app:1': 0, 'app:2': 4 });
    const d = await world.client.get<Deployment>(SimResources.deployments, { name: 'web', namespace: 'default' });
    expect(d.status).toMatchObject({ replicas: 4, updatedReplicas: 4, availableReplicas: 4 });
  });
});

describe('workload controller faults', () => {
  it('a ReplicaSet scaled down while pod deletions fail deletes its surplus once the API heals', async () => {
    h = await startWorld({ machines: [machine('a')] });
    const world = h;
    await until(world, () => allReady(world, 1), 120_000);
    const six: Deployment = { ...web('app:1'), spec: { ...web('app:1').spec, replicas: 6 } };
    await world.client.create(SimResources.deployments, six);
    await until(world, async () => (await pods(world)).filter(isReady).length === 6, 120_000);
    const accept = world.server.faults.addError({ verb: 'delete', resource: 'pods', code: 500, rate: 1 });
    await world.client.patch(
      SimResources.deployments,
      { name: 'web', namespace: 'default' },
      { spec: { replicas: 2 } },
    );
    await world.clock.advance(30_000);
    const live = async (): Promise<number> => (await pods(world)).filter((p) => !p.metadata.deletionTimestamp).length;
    expect(await live()).toBe(6);
    accept();
    const since = world.clock.now();
    await until(world, async () => (await live()) === 2, 120_000);
    // The queue's back-off (at most 30 s), not the expectations' 5-minute lapse.
    expect(world.clock.now() - since).toBeLessThanOrEqual(60_000);
  });
});

describe('kubelet faults', () => {
  it('posts a pod status the API server refused again, as its status manager resyncs', async () => {
    h = await startWorld({ machines: [machine('a')] });
    const world = h;
    await until(world, () => allReady(world, 1), 120_000);
    const accept = world.server.faults.addError({ verb: 'patch', resource: 'pods/status', code: 500, rate: 1 });
    const ref = { name: 'p', namespace: 'default' };
    await world.client.create<Pod>(SimResources.pods, {
      metadata: ref,
      spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' } } }] },
    });
    const get = (): Promise<Pod> => world.client.get<Pod>(SimResources.pods, ref);
    await until(world, async () => (await get()).spec.nodeName !== undefined, 60_000);
    await world.clock.advance(30_000);
    expect((await get()).status?.phase).not.toBe('Running');
    accept();
    const since = world.clock.now();
    await until(world, async () => (await get()).status?.phase === 'Running', 60_000);
    expect(world.clock.now() - since).toBeLessThanOrEqual(20_000);
  });

  it('keeps trying to register after API errors, and registers soon after the API heals', async () => {
    h = await startWorld({ machines: [] });
    const world = h;
    const heal = world.server.faults.addError({ verb: 'create', resource: 'nodes', code: 500, rate: 1 });
    world.machines.add(machine('r'));
    await world.clock.advance(5 * 60_000);
    expect(await tryNode(world, 'ip-r.us-west-2.compute.internal')).toBeUndefined();
    heal();
    const since = world.clock.now();
    await until(
      world,
      async () => readyStatus(await tryNode(world, 'ip-r.us-west-2.compute.internal')) === 'True',
      60_000,
    );
    // The kubelet's registration back-off tops out at 7 s; Ready follows within its own delay.
    expect(world.clock.now() - since).toBeLessThanOrEqual(7_000 + 15_000 + 1_000);
  });

  it('posts a Ready status the API server refused again at its next heartbeat, not 5 minutes later', async () => {
    h = await startWorld({ machines: [] });
    const world = h;
    const heal = world.server.faults.addError({ verb: 'patch', resource: 'nodes/status', code: 500, rate: 1 });
    world.machines.add(machine('s'));
    await until(
      world,
      async () => (await tryNode(world, 'ip-s.us-west-2.compute.internal')) !== undefined,
      120_000,
    ).catch(() => undefined);
    await world.clock.advance(60_000);
    expect(readyStatus(await tryNode(world, 'ip-s.us-west-2.compute.internal'))).not.toBe('True');
    heal();
    const since = world.clock.now();
    await until(
      world,
      async () => readyStatus(await tryNode(world, 'ip-s.us-west-2.compute.internal')) === 'True',
      120_000,
    );
    expect(world.clock.now() - since).toBeLessThanOrEqual(10_000 + 7_000);
  });

  it('a kubelet stopped while booting, or registered but not yet Ready, comes up Ready once restarted', async () => {
    h = await startWorld({ machines: [] });
    const world = h;
    world.machines.add(machine('b'));
    world.machines.add(machine('r'));
    // b: stopped during boot (before it registers, 20-40 s after the machine runs).
    await world.clock.advance(1_000);
    world.world.kubelets.stopKubelet('i-b');
    // r: stopped between registration and Ready (Ready follows registration by 5-15 s).
    await until(world, async () => (await tryNode(world, 'ip-r.us-west-2.compute.internal')) !== undefined, 60_000);
    world.world.kubelets.stopKubelet('i-r');
    await world.clock.advance(60_000);
    expect(await tryNode(world, 'ip-b.us-west-2.compute.internal')).toBeUndefined();
    expect(readyStatus(await tryNode(world, 'ip-r.us-west-2.compute.internal'))).not.toBe('True');
    world.world.kubelets.restartKubelet('i-b');
    world.world.kubelets.restartKubelet('i-r');
    await until(world, () => allReady(world, 2), 120_000);
  });

  it('slow start delays registration; a never-ready kubelet leaves its node NotReady and tainted not-ready', async () => {
    h = await startWorld({ machines: [] });
    const world = h;
    world.world.kubelets.slowStart('i-slow', 120_000);
    world.world.kubelets.neverReady('i-stuck');
    const start = world.clock.now();
    world.machines.add(machine('slow'));
    world.machines.add(machine('stuck'));
    await until(
      world,
      async () => (await tryNode(world, 'ip-stuck.us-west-2.compute.internal')) !== undefined,
      120_000,
    );
    expect(await tryNode(world, 'ip-slow.us-west-2.compute.internal')).toBeUndefined();
    await until(
      world,
      async () => readyStatus(await tryNode(world, 'ip-slow.us-west-2.compute.internal')) === 'True',
      300_000,
    );
    expect(world.clock.now() - start).toBeGreaterThanOrEqual(120_000);
    const stuck = await node(world, 'ip-stuck.us-west-2.compute.internal');
    expect(readyStatus(stuck)).toBe('False');
    await until(
      world,
      async () =>
        (await node(world, 'ip-stuck.us-west-2.compute.internal')).spec?.taints?.some(
          (t) => t.key === 'node.kubernetes.io/not-ready' && t.effect === 'NoSchedule',
        ) ?? false,
      60_000,
    );
  });

  it('memory pressure sets the MemoryPressure condition and the memory-pressure taint, and both go when it ends', async () => {
    h = await startWorld({ machines: [machine('a')] });
    const world = h;
    const name = 'ip-a.us-west-2.compute.internal';
    await until(world, () => allReady(world, 1), 120_000);
    world.world.kubelets.memoryPressure(name, true);
    const pressured = async (): Promise<boolean> => {
      const n = await node(world, name);
      return (
        n.status?.conditions?.find((c) => c.type === 'MemoryPressure')?.status === 'True' &&
        (n.spec?.taints ?? []).some((t) => t.key === 'node.kubernetes.io/memory-pressure' && t.effect === 'NoSchedule')
      );
    };
    await until(world, pressured, 60_000);
    expect((await node(world, name)).status?.conditions?.find((c) => c.type === 'MemoryPressure')?.reason).toBe(
      'KubeletHasInsufficientMemory',
    );
    const late: Pod = {
      metadata: { name: 'late', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'app:1' }] },
    };
    await world.client.create(SimResources.pods, late);
    await until(
      world,
      async () => (await pods(world))[0]?.status?.conditions?.some((c) => c.reason === 'Unschedulable') ?? false,
      30_000,
    );
    expect((await pods(world))[0]?.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message).toContain(
      '1 node(s) had untolerated taint {node.kubernetes.io/memory-pressure: }',
    );
    world.world.kubelets.memoryPressure(name, false);
    await until(
      world,
      async () => !(await pressured()) && (await node(world, name)).spec?.taints?.length === 0,
      60_000,
    );
    await until(world, async () => (await pods(world))[0]?.status?.phase === 'Running', 60_000);
  });
});
