/**
 * /metrics as a Prometheus scrape sees it after a NodeClaim was provisioned: every metric family Karpenter's
 * Grafana dashboards and metrics reference query is served, and the series the dashboards group by carry
 * Karpenter's labels (created reason, zone, the pod's offering, the NodePool's usage against its limit, the
 * reconcile and workqueue series per controller).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Resources, type Node, type Pod } from '../../src/kube/index.js';
import {
  scrapeMetrics,
  createNodePool,
  createUnschedulablePod,
  eventually,
  nodeClaims,
  registerNodeFor,
  startHarness,
  type Harness,
} from './harness.js';

/**
 * Families of Karpenter's metrics reference that Tenon serves (what the dashboards query, series by series, is
 * checked by dashboards.e2e.test.ts): the name each is looked up by.
 */
const referenceFamilies = [
  'karpenter_nodes_created_total',
  'karpenter_nodes_terminated_total',
  'karpenter_nodes_allocatable',
  'karpenter_nodeclaims_created_total',
  'karpenter_nodeclaims_terminated_total',
  'karpenter_nodeclaims_disrupted_total',
  'karpenter_voluntary_disruption_eligible_nodes',
  'karpenter_voluntary_disruption_decisions_total',
  'karpenter_voluntary_disruption_consolidation_timeouts_total',
  'karpenter_nodepools_allowed_disruptions',
  'karpenter_nodepools_usage',
  'karpenter_nodepools_limit',
  'karpenter_pods_state',
  'karpenter_scheduler_scheduling_duration_seconds',
  'karpenter_scheduler_queue_depth',
  'karpenter_cloudprovider_duration_seconds',
  'karpenter_cloudprovider_errors_total',
  'karpenter_interruption_received_messages_total',
  'karpenter_interruption_deleted_messages_total',
  'karpenter_interruption_message_queue_duration_seconds',
  'controller_runtime_reconcile_total',
  'controller_runtime_reconcile_errors_total',
  'controller_runtime_reconcile_time_seconds',
  'controller_runtime_active_workers',
  'controller_runtime_max_concurrent_reconciles',
  'workqueue_depth',
  'workqueue_adds_total',
  'workqueue_queue_duration_seconds',
  'workqueue_work_duration_seconds',
  'workqueue_retries_total',
  'workqueue_unfinished_work_seconds',
  'workqueue_longest_running_processor_seconds',
  // The performance and node dashboards, and the v1 metrics reference.
  'karpenter_pods_startup_duration_seconds',
  'karpenter_nodes_total_pod_requests',
  'karpenter_nodes_total_pod_limits',
  'karpenter_nodes_total_daemon_requests',
  'karpenter_nodes_total_daemon_limits',
  'karpenter_nodes_system_overhead',
  'karpenter_cluster_state_node_count',
  'karpenter_cluster_state_synced',
  'karpenter_nodeclaims_termination_duration_seconds',
  'karpenter_nodes_termination_duration_seconds',
  'karpenter_nodes_current_lifetime_seconds',
  'karpenter_cluster_utilization_percent',
  'karpenter_pods_disruption_initiated_total',
  'karpenter_voluntary_disruption_decisions_by_nodepool_total',
  'karpenter_voluntary_disruption_queue_failures_total',
  'karpenter_nodepools_nodes_consuming_budgets',
  'karpenter_nodeclaims_unhealthy_disrupted_total',
  'karpenter_pods_eviction_requests_total',
  'karpenter_nodes_drained_total',
  'karpenter_nodes_lifetime_duration_seconds',
  'karpenter_cluster_state_unsynced_time_seconds',
  'controller_runtime_terminal_reconcile_errors_total',
  'controller_runtime_reconcile_panics_total',
  // operatorpkg's status controller, per kind and the deprecated kind-less families.
  ...['nodeclaim', 'nodepool', 'node'].flatMap((kind) => [
    `operator_${kind}_status_condition_count`,
    `operator_${kind}_status_condition_current_status_seconds`,
    `operator_${kind}_status_condition_transition_seconds`,
    `operator_${kind}_status_condition_transitions_total`,
    `operator_${kind}_termination_current_time_seconds`,
    `operator_${kind}_termination_duration_seconds`,
  ]),
  'operator_status_condition_count',
  'operator_status_condition_current_status_seconds',
  'operator_status_condition_transition_seconds',
  'operator_status_condition_transitions_total',
  'operator_termination_current_time_seconds',
  'operator_termination_duration_seconds',
];

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.stop();
});

/** The samples of one family: each as its label map and value. */
function samples(body: string, name: string): Array<{ labels: Record<string, string>; value: number }> {
  const out: Array<{ labels: Record<string, string>; value: number }> = [];
  for (const line of body.split('\n')) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const [, k = '', v = ''] of (m[2] ?? '').matchAll(/([a-zA-Z0-9_]+)="([^"]*)"/g)) labels[k] = v;
    out.push({ labels, value: Number(m[3]) });
  }
  return out;
}

const scrape = (): Promise<string> => scrapeMetrics(h);

/** A provisioned NodeClaim's Node, registered and Ready. */
async function provisionedNode(): Promise<Node> {
  await createNodePool(h, 'default');
  await createUnschedulablePod(h, 'web-1', { cpu: '1', memory: '1Gi' });
  const [nc] = await eventually(h, 'a launched NodeClaim', async () => {
    const all = await nodeClaims(h);
    return all.length > 0 && all.every((c) => c.status?.providerID) && all;
  });
  if (!nc) throw new Error('no NodeClaim');
  return registerNodeFor(h, nc);
}

describe('/metrics after provisioning', () => {
  it("serves every family of Karpenter's metrics reference Tenon writes, with Karpenter's labels", async () => {
    await createNodePool(h, 'default', { limits: { cpu: '100', memory: '400Gi' } });
    await createUnschedulablePod(
      h,
      'web-1',
      { cpu: '1', memory: '1Gi' },
      {},
      {
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d8f', uid: 'u1' }],
      },
    );
    const [nc] = await eventually(h, 'a launched NodeClaim', async () => {
      const all = await nodeClaims(h);
      return all.length > 0 && all.every((c) => c.status?.providerID) && all;
    });
    if (!nc) throw new Error('no NodeClaim');
    const node = await registerNodeFor(h, nc);
    await eventually(h, 'the NodePool counting the NodeClaim', async () => {
      const np = h.operator.context.informers.nodePools.cache.get('default');
      return (
        np?.status?.resources?.nodes === '1' && h.operator.context.informers.nodes.cache.get(node.metadata.name ?? '')
      );
    });

    const body = await scrape();
    const missing = referenceFamilies.filter((name) => !body.includes(`# TYPE ${name} `));
    expect(missing).toEqual([]);

    const zone = nc.metadata.labels?.['topology.kubernetes.io/zone'];
    expect(samples(body, 'karpenter_nodeclaims_created_total')).toEqual([
      { labels: { reason: 'provisioned', nodepool: 'default', min_values_relaxed: 'false' }, value: 1 },
    ]);
    expect(samples(body, 'karpenter_nodes_created_total')).toEqual([
      { labels: { nodepool: 'default', zone: zone ?? '' }, value: 1 },
    ]);
    // operatorpkg's status controller: one series per condition, the NodeClaim's labeled with its NodePool.
    expect(samples(body, 'operator_nodeclaim_status_condition_count')).toContainEqual({
      labels: expect.objectContaining({
        name: nc.metadata.name,
        type: 'Launched',
        status: 'True',
        karpenter_sh_nodepool: 'default',
      }),
      value: 1,
    });
    expect(samples(body, 'operator_nodepool_status_condition_count')).toContainEqual({
      labels: expect.objectContaining({ name: 'default', type: 'Ready', status: 'True' }),
      value: 1,
    });
    expect(samples(body, 'operator_node_status_condition_count')).toContainEqual({
      labels: expect.objectContaining({ name: node.metadata.name, type: 'Ready', karpenter_sh_nodepool: 'default' }),
      value: 1,
    });
    expect(
      samples(body, 'operator_status_condition_transitions_total').some(
        (s) => s.labels.kind === 'NodeClaim' && s.labels.type === 'Launched' && s.labels.status === 'True',
      ),
    ).toBe(true);
    expect(samples(body, 'karpenter_nodepools_limit')).toEqual(
      expect.arrayContaining([
        { labels: { nodepool: 'default', resource_type: 'cpu' }, value: 100 },
        { labels: { nodepool: 'default', resource_type: 'memory' }, value: 400 * 2 ** 30 },
      ]),
    );
    expect(samples(body, 'karpenter_nodepools_usage')).toContainEqual({
      labels: { nodepool: 'default', resource_type: 'nodes' },
      value: 1,
    });
    const pod = samples(body, 'karpenter_pods_state').find((s) => s.labels.name === 'web-1');
    expect(pod?.labels).toMatchObject({
      namespace: 'default',
      owner: '/apis/apps/v1/namespaces/default/replicasets/web-5d8f',
      phase: 'Pending',
    });
    const allocatable = samples(body, 'karpenter_nodes_allocatable').filter((s) => s.labels.resource_type === 'cpu');
    expect(allocatable).toEqual([
      expect.objectContaining({
        labels: expect.objectContaining({ node_name: node.metadata.name, nodepool: 'default' }),
      }),
    ]);
    expect(
      samples(body, 'controller_runtime_reconcile_total').some(
        (s) => s.labels.controller === 'nodeclaim.lifecycle' && s.value > 0,
      ),
    ).toBe(true);
    // Every controller's series exist from its start (at 0 until something happens), a never-failing one's too.
    for (const family of [
      'controller_runtime_reconcile_errors_total',
      'controller_runtime_terminal_reconcile_errors_total',
      'controller_runtime_reconcile_panics_total',
      'controller_runtime_reconcile_timeouts_total',
    ])
      expect(samples(body, family).map((s) => s.labels.controller)).toContain('nodepool.status');
    expect(samples(body, 'controller_runtime_reconcile_timeouts_total').every((s) => s.value === 0)).toBe(true);
    expect(samples(body, 'controller_runtime_max_concurrent_reconciles')).toContainEqual({
      labels: { controller: 'provisioning' },
      value: 4,
    });
    expect(samples(body, 'workqueue_adds_total').some((s) => s.labels.name === 'provisioning' && s.value > 0)).toBe(
      true,
    );
  }, 60_000);

  it("reports each node's pod and DaemonSet totals, its system overhead, the cluster state and pod startup", async () => {
    const node = await provisionedNode();
    const nodeName = node.metadata.name ?? '';
    const web = await h.client.get<Pod>(Resources.pods, { name: 'web-1', namespace: 'default' });
    await h.client.call('bind web-1', {
      method: 'POST',
      path: '/api/v1/namespaces/default/pods/web-1/binding',
      body: {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: 'web-1' },
        target: { kind: 'Node', name: nodeName },
      },
    });
    // Ready 42 s after creation: the startup the summary observes.
    const readyAt = new Date(Date.parse(web.metadata.creationTimestamp ?? '') + 42_000).toISOString();
    const running = (at: string): Record<string, unknown> => ({
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at }] },
    });
    await h.client.patch(Resources.pods, { name: 'web-1', namespace: 'default' }, running(readyAt), {
      subresource: 'status',
    });
    const agent = await h.client.create<Pod>(Resources.pods, {
      metadata: {
        name: 'agent-x',
        namespace: 'default',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'd1' }],
      },
      spec: {
        nodeName,
        containers: [{ name: 'a', image: 'a', resources: { requests: { cpu: '100m' }, limits: { cpu: '200m' } } }],
      },
    });
    const agentReadyAt = new Date(Date.parse(agent.metadata.creationTimestamp ?? '') + 8_000).toISOString();
    await h.client.patch(Resources.pods, { name: 'agent-x', namespace: 'default' }, running(agentReadyAt), {
      subresource: 'status',
    });
    // The kubelet reports more capacity than allocatable: the difference is the system overhead.
    await h.client.patch(
      Resources.nodes,
      { name: nodeName },
      { status: { capacity: { cpu: '4', memory: '16Gi' }, allocatable: { cpu: '3500m', memory: '15Gi' } } },
      { subresource: 'status' },
    );
    await eventually(h, 'the caches to see both pods Running and the new capacity', async () => {
      const inf = h.operator.context.informers;
      const pods = ['web-1', 'agent-x'].map((n) => inf.pods.cache.get(`default/${n}`));
      return (
        pods.every((p) => p?.status?.phase === 'Running' && p.spec.nodeName === nodeName) &&
        inf.nodes.cache.get(nodeName)?.status?.capacity?.cpu === '4'
      );
    });

    const body = await scrape();
    const cpuOf = (family: string): number | undefined =>
      samples(body, family).find((s) => s.labels.node_name === nodeName && s.labels.resource_type === 'cpu')?.value;
    expect(cpuOf('karpenter_nodes_total_pod_requests')).toBeCloseTo(1.1);
    expect(cpuOf('karpenter_nodes_total_pod_limits')).toBeCloseTo(0.2);
    expect(cpuOf('karpenter_nodes_total_daemon_requests')).toBeCloseTo(0.1);
    expect(cpuOf('karpenter_nodes_total_daemon_limits')).toBeCloseTo(0.2);
    expect(cpuOf('karpenter_nodes_system_overhead')).toBeCloseTo(0.5);
    expect(
      samples(body, 'karpenter_nodes_system_overhead').find(
        (s) => s.labels.node_name === nodeName && s.labels.resource_type === 'memory',
      )?.value,
    ).toBe(2 ** 30);
    expect(samples(body, 'karpenter_nodes_total_pod_requests')[0]?.labels).toMatchObject({
      nodepool: 'default',
      instance_type: node.metadata.labels?.['node.kubernetes.io/instance-type'],
    });
    // Karpenter counts the pods themselves as the `pods` resource of each sum.
    const podsOf = (family: string): number | undefined =>
      samples(body, family).find((s) => s.labels.node_name === nodeName && s.labels.resource_type === 'pods')?.value;
    expect(podsOf('karpenter_nodes_total_pod_requests')).toBe(2);
    expect(podsOf('karpenter_nodes_total_daemon_requests')).toBe(1);
    // Every well-known label is a dimension, as Karpenter's node metrics have them.
    expect(Object.keys(samples(body, 'karpenter_nodes_allocatable')[0]?.labels ?? {})).toEqual(
      expect.arrayContaining([
        'node_name',
        'phase',
        'nodepool',
        'zone',
        'os',
        'instance_cpu',
        'instance_family',
        'resource_type',
      ]),
    );
    // 1.1 CPU requested of 3.5 allocatable.
    expect(
      samples(body, 'karpenter_cluster_utilization_percent').find((s) => s.labels.resource_type === 'cpu')?.value,
    ).toBeCloseTo(110 / 3.5);
    const age = (text: string): number | undefined =>
      samples(text, 'karpenter_nodes_current_lifetime_seconds').find((s) => s.labels.node_name === nodeName)?.value;
    const before = age(body) ?? Number.NaN;
    h.clock.advance(60_000);
    expect(age(await scrape())).toBeCloseTo(before + 60);
    expect(samples(body, 'karpenter_cluster_state_node_count')).toEqual([{ labels: {}, value: 1 }]);
    expect(samples(body, 'karpenter_cluster_state_synced')).toEqual([{ labels: {}, value: 1 }]);
    expect(samples(body, 'karpenter_cluster_state_unsynced_time_seconds')).toEqual([{ labels: {}, value: 0 }]);
    // Both pods were seen Pending, then Ready: startups of 42 s and 8 s.
    expect(samples(body, 'karpenter_pods_startup_duration_seconds_count')).toEqual([{ labels: {}, value: 2 }]);
    expect(samples(body, 'karpenter_pods_startup_duration_seconds_sum')).toEqual([{ labels: {}, value: 50 }]);
    expect(samples(body, 'karpenter_pods_startup_duration_seconds')).toContainEqual({
      labels: { quantile: '1' },
      value: 42,
    });
  }, 60_000);
});
