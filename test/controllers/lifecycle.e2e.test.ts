import { afterEach, describe, expect, it } from 'vitest';
import { CreateError, NodeClassNotReadyError } from '../../src/cloudprovider/index.js';
import { isNotFound, Resources, type KubeObject, type Node, type Pod } from '../../src/kube/index.js';
import type { StoredNodeClaim } from '../../src/state/informers.js';
import {
  conditionOf,
  createNodePool,
  createUnschedulablePod,
  eventually,
  must,
  nodeClaims,
  registerNodeFor,
  setNodeReady,
  startHarness,
  type Harness,
} from './harness.js';

interface EventObject extends KubeObject {
  reason?: string;
  message?: string;
  involvedObject?: { kind?: string; name?: string };
}

async function eventsOf(h: Harness, reason: string): Promise<EventObject[]> {
  return (await h.client.list<EventObject>(Resources.events)).items.filter((e) => e.reason === reason);
}

async function launchedClaim(h: Harness, pod = 'p-1'): Promise<StoredNodeClaim> {
  await createNodePool(h);
  await createUnschedulablePod(h, pod);
  return eventually(h, 'a launched NodeClaim', async () =>
    (await nodeClaims(h)).find((x) => x.status?.providerID && conditionOf(x, 'Launched')?.status === 'True'),
  );
}

async function gone(h: Harness, name: string): Promise<boolean> {
  return !(await nodeClaims(h)).some((x) => x.metadata.name === name);
}

/** A pod already bound to `node` and Running/Ready, as the kubelet reports it. */
async function runningPod(
  h: Harness,
  name: string,
  node: string,
  o: { labels?: Record<string, string>; annotations?: Record<string, string> } = {},
): Promise<Pod> {
  await h.client.create<Pod>(Resources.pods, {
    metadata: { name, namespace: 'default', labels: o.labels, annotations: o.annotations },
    spec: { nodeName: node, containers: [{ name: 'app', image: 'app' }] },
  });
  const status = {
    phase: 'Running',
    conditions: [
      { type: 'Ready', status: 'True' },
      { type: 'PodScheduled', status: 'True' },
    ],
  };
  return h.client.patch<Pod>(Resources.pods, { name, namespace: 'default' }, { status }, { subresource: 'status' });
}

describe('NodeClaim lifecycle, termination, GC and repair (embedded API server)', () => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
  });

  it('a NodeClaim that never launches is deleted at the launch timeout with an Event naming the wait and the last error', async () => {
    h = await startHarness({ options: { launchTimeout: 60_000 } });
    for (let i = 0; i < 200; i++)
      h.cloud.injectError('create', new CreateError('LaunchTemplateNotFound', 'launch template lt-1 not found'));
    await createNodePool(h);
    await createUnschedulablePod(h, 'never');
    const [ev] = await eventually(
      h,
      'LaunchTimeout event',
      async () => ((await eventsOf(h, 'LaunchTimeout')).length ? eventsOf(h, 'LaunchTimeout') : undefined),
      { advanceMs: 2000 },
    );
    expect(ev?.message).toMatch(/not launched within the launch timeout \(1m\).*last observed: .*lt-1 not found/);
    await eventually(h, 'the NodeClaim deleted', () => gone(h, ev?.involvedObject?.name ?? ''));
  });

  it('a NodeClass that is not ready is said so in the Launched condition', async () => {
    h = await startHarness();
    for (let i = 0; i < 50; i++)
      h.cloud.injectError(
        'create',
        new NodeClassNotReadyError('default', 'EC2NodeClass default is not Ready: AMIsReady=False'),
      );
    await createNodePool(h);
    await createUnschedulablePod(h, 'waits');
    const nc = await eventually(h, 'Launched=False NodeClassNotReady', async () =>
      (await nodeClaims(h)).find((x) => conditionOf(x, 'Launched')?.reason === 'NodeClassNotReady'),
    );
    expect(conditionOf(nc, 'Launched')).toMatchObject({ status: 'False' });
    expect(conditionOf(nc, 'Launched')?.message).toContain('AMIsReady=False');
  });

  it('a launched NodeClaim with no Node is deleted at the registration timeout; one that registered is never', async () => {
    h = await startHarness({ options: { registrationTimeout: 120_000 } });
    const orphan = await launchedClaim(h, 'a');
    const [ev] = await eventually(
      h,
      'RegistrationTimeout event',
      async () => ((await eventsOf(h, 'RegistrationTimeout')).length ? eventsOf(h, 'RegistrationTimeout') : undefined),
      { advanceMs: 5000 },
    );
    expect(ev?.involvedObject?.name).toBe(orphan.metadata.name);
    expect(ev?.message).toContain(`no Node registered for providerID ${orphan.status?.providerID}`);
    await eventually(h, 'orphan deleted', () => gone(h, orphan.metadata.name ?? ''));

    // The pod is pending again: a new NodeClaim comes; this one registers (never becomes Ready) and must survive.
    const next = await eventually(h, 'a new launched NodeClaim', async () =>
      (await nodeClaims(h)).find((x) => x.metadata.name !== orphan.metadata.name && x.status?.providerID),
    );
    await registerNodeFor(h, next, { ready: false });
    await eventually(h, 'Registered', async () =>
      (await nodeClaims(h)).find(
        (x) => x.metadata.name === next.metadata.name && conditionOf(x, 'Registered')?.status === 'True',
      ),
    );
    h.clock.advance(10 * 120_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(await gone(h, next.metadata.name ?? '')).toBe(false);
    const init = conditionOf(
      must(
        (await nodeClaims(h)).find((x) => x.metadata.name === next.metadata.name),
        'the registered NodeClaim',
      ),
      'Initialized',
    );
    expect(init).toMatchObject({ status: 'Unknown', reason: 'NodeNotReady' });
  });

  it('termination drains through the eviction API, waits on a PodDisruptionBudget, then removes Node, instance and NodeClaim', async () => {
    h = await startHarness();
    const nc = await launchedClaim(h);
    const node = await registerNodeFor(h, nc);
    const nodeName = node.metadata.name ?? '';
    await eventually(h, 'Initialized', async () =>
      (await nodeClaims(h)).find((x) => conditionOf(x, 'Initialized')?.status === 'True'),
    );
    await runningPod(h, 'db-1', nodeName, { labels: { app: 'db' } });
    await runningPod(h, 'db-2', nodeName, { labels: { app: 'db' } });
    await h.client.create(Resources.podDisruptionBudgets, {
      metadata: { name: 'db', namespace: 'default' },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'db' } } },
    } as KubeObject);
    await h.client.delete(Resources.nodeClaims, { name: nc.metadata.name ?? '' });
    const [blocked] = await eventually(h, 'FailedDraining', async () =>
      (await eventsOf(h, 'FailedDraining')).length ? eventsOf(h, 'FailedDraining') : undefined,
    );
    expect(blocked?.message).toContain('PodDisruptionBudget');
    const tainted = await h.client.get<Node>(Resources.nodes, { name: nodeName });
    expect(tainted.spec?.taints?.map((t) => t.key)).toContain('karpenter.sh/disrupted');
    expect(h.cloud.instances.has(nc.status?.providerID ?? '')).toBe(true);

    await h.client.delete(Resources.podDisruptionBudgets, { name: 'db', namespace: 'default' });
    await eventually(h, 'NodeClaim gone', () => gone(h, nc.metadata.name ?? ''), { advanceMs: 1000 });
    expect(h.cloud.instances.has(nc.status?.providerID ?? '')).toBe(false);
    expect(
      await h.client.get(Resources.nodes, { name: nodeName }).then(
        () => 'still there',
        (e: unknown) => (isNotFound(e) ? 'not found' : String(e)),
      ),
    ).toBe('not found');
    // The lines users search for, in order, as Karpenter prints them.
    const lines = h.logs.map((l) => JSON.parse(l) as { message?: string; Node?: { name?: string } });
    const steps = ['tainted node', 'drained node', 'deleted node', 'deleted nodeclaim'];
    const seen = lines.filter((l) => steps.includes(l.message ?? ''));
    expect(seen.map((l) => l.message)).toEqual(steps);
    expect(seen.every((l) => l.Node?.name === nodeName)).toBe(true);
    // The termination, from the delete request to the finalizer's release, is observed once for its NodePool.
    const text = await h.operator.context.metrics.registry.getSingleMetricAsString(
      'karpenter_nodeclaims_termination_duration_seconds',
    );
    const pool = nc.metadata.labels?.['karpenter.sh/nodepool'] ?? '';
    expect(text).toContain(`karpenter_nodeclaims_termination_duration_seconds_count{nodepool="${pool}"} 1`);
    const sum = /_sum\{[^}]*\} (\S+)/.exec(text)?.[1];
    expect(Number(sum)).toBeGreaterThan(0);
    // Every eviction request by its answer: PDB refusals (429) while the budget held, then one that went through.
    const evictions = await h.operator.context.metrics.registry.getSingleMetricAsString(
      'karpenter_pods_eviction_requests_total',
    );
    expect(evictions).toMatch(/karpenter_pods_eviction_requests_total\{code="429"\} [1-9]/);
    expect(evictions).toMatch(/karpenter_pods_eviction_requests_total\{code="200"\} [1-9]/);
    // The Node's own termination, the performance dashboard's "Node Termination Latency" summary.
    const nodeText = await h.operator.context.metrics.registry.getSingleMetricAsString(
      'karpenter_nodes_termination_duration_seconds',
    );
    expect(nodeText).toContain(`karpenter_nodes_termination_duration_seconds_count{nodepool="${pool}"} 1`);
    const registry = h.operator.context.metrics.registry;
    expect(await registry.getSingleMetricAsString('karpenter_nodes_drained_total')).toContain(
      `karpenter_nodes_drained_total{nodepool="${pool}"} 1`,
    );
    expect(await registry.getSingleMetricAsString('karpenter_nodes_lifetime_duration_seconds')).toContain(
      `karpenter_nodes_lifetime_duration_seconds_count{nodepool="${pool}"} 1`,
    );
  });

  it('a do-not-disrupt pod holds the drain until the terminationGracePeriod, then is deleted', async () => {
    h = await startHarness();
    await createNodePool(h, 'default', {}, { terminationGracePeriod: '10m' });
    await createUnschedulablePod(h, 'p');
    const nc = await eventually(h, 'launched', async () => (await nodeClaims(h)).find((x) => x.status?.providerID));
    const node = await registerNodeFor(h, nc);
    await runningPod(h, 'precious', node.metadata.name ?? '', {
      annotations: { 'karpenter.sh/do-not-disrupt': 'true' },
    });
    await h.client.delete(Resources.nodeClaims, { name: nc.metadata.name ?? '' });
    for (let i = 0; i < 20; i++) {
      h.clock.advance(20_000); // 400 s in all: less than 10m
      await new Promise((r) => setTimeout(r, 15));
    }
    await expect(h.client.get(Resources.pods, { name: 'precious', namespace: 'default' })).resolves.toBeDefined();
    const [ev] = await eventually(
      h,
      'TerminationGracePeriodExpiring',
      async () =>
        (await eventsOf(h, 'TerminationGracePeriodExpiring')).length
          ? eventsOf(h, 'TerminationGracePeriodExpiring')
          : undefined,
      { advanceMs: 10_000 },
    );
    expect(ev?.message).toContain('default/precious');
    await eventually(h, 'NodeClaim gone', () => gone(h, nc.metadata.name ?? ''), { advanceMs: 1000 });
  });

  it('a lost node (instance gone, Node NotReady) is released at once: its do-not-disrupt pod does not hold it', async () => {
    h = await startHarness();
    const nc = await launchedClaim(h);
    const node = await registerNodeFor(h, nc);
    const nodeName = node.metadata.name ?? '';
    await runningPod(h, 'precious', nodeName, { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } });
    // The instance is lost and the kubelet went with it.
    h.cloud.instances.delete(nc.status?.providerID ?? '');
    await setNodeReady(h, nodeName, 'Unknown');
    await h.client.delete(Resources.nodeClaims, { name: nc.metadata.name ?? '' });
    const deletedAt = h.clock.now();
    await eventually(h, 'NodeClaim gone', () => gone(h, nc.metadata.name ?? ''), { advanceMs: 1000 });
    // A few reconciles, not the 5 minutes until the pod's unreachable toleration runs out (there is no
    // terminationGracePeriod: the drain alone would hold it forever).
    expect(h.clock.now() - deletedAt).toBeLessThan(60_000);
    expect(await eventsOf(h, 'Evicted')).toEqual([]);
  });

  it('a NotReady node whose instance still exists is drained as usual: its do-not-disrupt pod holds it', async () => {
    h = await startHarness();
    const nc = await launchedClaim(h);
    const node = await registerNodeFor(h, nc);
    const nodeName = node.metadata.name ?? '';
    await runningPod(h, 'precious', nodeName, { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } });
    await setNodeReady(h, nodeName, 'Unknown');
    await h.client.delete(Resources.nodeClaims, { name: nc.metadata.name ?? '' });
    await eventually(h, 'tainted', async () =>
      (await h.client.get<Node>(Resources.nodes, { name: nodeName })).spec?.taints?.some(
        (t) => t.key === 'karpenter.sh/disrupted',
      ),
    );
    for (let i = 0; i < 20; i++) {
      h.clock.advance(10_000);
      await new Promise((r) => setTimeout(r, 15));
    }
    expect(await gone(h, nc.metadata.name ?? '')).toBe(false);
    expect(h.cloud.instances.has(nc.status?.providerID ?? '')).toBe(true);
  });

  it('garbage collection terminates an instance no NodeClaim owns', async () => {
    h = await startHarness();
    const leaked = await h.cloud.create({
      metadata: { name: 'leaked' },
      spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' }, requirements: [] },
    });
    const id = leaked.status?.providerID ?? '';
    expect(h.cloud.instances.has(id)).toBe(true);
    await eventually(h, 'leaked instance terminated', () => !h.cloud.instances.has(id), { advanceMs: 30_000 });
  });

  it('repairs a node Unknown past its toleration, but not when 3 of 10 are unhealthy (20% guard)', async () => {
    h = await startHarness();
    await createNodePool(h);
    for (let i = 0; i < 10; i++) await createUnschedulablePod(h, `big-${i}`, { cpu: '7', memory: '1Gi' });
    const claims = await eventually(h, '10 launched NodeClaims', async () => {
      const all = (await nodeClaims(h)).filter((x) => x.status?.providerID);
      return all.length === 10 && all;
    });
    for (const nc of claims) await registerNodeFor(h, nc);
    await eventually(h, 'all initialized', async () =>
      (await nodeClaims(h)).every((x) => conditionOf(x, 'Initialized')?.status === 'True'),
    );
    const names = claims.map((c) => `node-${c.metadata.name}`);
    for (const n of names.slice(0, 3)) await setNodeReady(h, n, 'Unknown');
    const [blocked] = await eventually(
      h,
      'NodeRepairBlocked',
      async () => ((await eventsOf(h, 'NodeRepairBlocked')).length ? eventsOf(h, 'NodeRepairBlocked') : undefined),
      { advanceMs: 60_000 },
    );
    expect(blocked?.message).toContain('3 of 10 nodes of NodePool default are unhealthy');
    expect((await nodeClaims(h)).filter((x) => x.metadata.deletionTimestamp)).toHaveLength(0);

    // Two recover: one unhealthy node of ten is repaired.
    for (const n of names.slice(1, 3)) await setNodeReady(h, n, true);
    const [repair] = await eventually(
      h,
      'NodeRepair',
      async () => ((await eventsOf(h, 'NodeRepair')).length ? eventsOf(h, 'NodeRepair') : undefined),
      { advanceMs: 60_000 },
    );
    expect(repair?.message).toContain(`Repairing Node ${names[0]}: Ready=Unknown`);
    await eventually(h, 'the unhealthy NodeClaim gone', () => gone(h, claims[0]?.metadata.name ?? ''), {
      advanceMs: 5000,
    });
    expect((await nodeClaims(h)).length).toBeGreaterThanOrEqual(9);
    // The repair, as users graph it: by condition, forceful, and among the NodePool's disruptions.
    const registry = h.operator.context.metrics.registry;
    expect(await registry.getSingleMetricAsString('karpenter_nodeclaims_unhealthy_disrupted_total')).toMatch(
      /karpenter_nodeclaims_unhealthy_disrupted_total\{condition="ready",nodepool="default",capacity_type="[a-z-]+",image_id="[^"]*",termination_mode="forceful"\} 1/,
    );
    expect(await registry.getSingleMetricAsString('karpenter_nodeclaims_disrupted_total')).toMatch(
      /reason="unhealthy",nodepool="default",capacity_type="[a-z-]+",consolidation_policy="",termination_mode="forceful"\} 1/,
    );
  });

  it('holds a repair back while the Unhealthy budget is spent, and repairs once it allows one', async () => {
    h = await startHarness();
    const budgets = (nodes: string) => ({
      disruption: {
        consolidationPolicy: 'WhenEmpty' as const,
        consolidateAfter: 'Never',
        budgets: [{ nodes, reasons: ['Unhealthy' as const] }],
      },
    });
    await createNodePool(h, 'default', budgets('0'));
    for (let i = 0; i < 5; i++) await createUnschedulablePod(h, `big-${i}`, { cpu: '7', memory: '1Gi' });
    const claims = await eventually(h, '5 launched NodeClaims', async () => {
      const all = (await nodeClaims(h)).filter((x) => x.status?.providerID);
      return all.length === 5 && all;
    });
    for (const nc of claims) await registerNodeFor(h, nc);
    await eventually(h, 'all initialized', async () =>
      (await nodeClaims(h)).every((x) => conditionOf(x, 'Initialized')?.status === 'True'),
    );
    const sick = `node-${claims[0]?.metadata.name}`;
    await setNodeReady(h, sick, 'Unknown');
    const [waits] = await eventually(
      h,
      'DisruptionBlocked for the Unhealthy budget',
      async () => {
        const evs = (await eventsOf(h, 'DisruptionBlocked')).filter((e) => e.message?.includes('reason Unhealthy'));
        return evs.length ? evs : undefined;
      },
      { advanceMs: 60_000 },
    );
    expect(waits?.message).toBe(
      'Node repair waits: the disruption budgets of NodePool default for reason Unhealthy allow 0 node(s) at a time and 0 are being replaced',
    );
    expect(await eventsOf(h, 'NodeRepair')).toHaveLength(0);
    expect((await nodeClaims(h)).filter((x) => x.metadata.deletionTimestamp)).toHaveLength(0);

    // A budget for other reasons does not hold repair back.
    await h.client.patch(
      Resources.nodePools,
      { name: 'default' },
      { spec: { disruption: { budgets: [{ nodes: '0', reasons: ['Drifted'] }] } } },
    );
    await eventually(h, 'the unhealthy NodeClaim gone', () => gone(h, claims[0]?.metadata.name ?? ''), {
      advanceMs: 30_000,
    });
  });
});
