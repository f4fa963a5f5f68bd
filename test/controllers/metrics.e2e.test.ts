/**
 * /metrics as a Prometheus scrape sees it after a NodeClaim was provisioned: every metric family Karpenter's
 * Grafana dashboards and metrics reference query is served, and the series the dashboards group by carry
 * Karpenter's labels (created reason, zone, the pod's offering, the NodePool's usage against its limit, the
 * reconcile and workqueue series per controller).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMetricsServer } from '../../src/observability/health-server.js';
import {
  createNodePool,
  createUnschedulablePod,
  eventually,
  nodeClaims,
  registerNodeFor,
  startHarness,
  type Harness,
} from './harness.js';

/**
 * Families the dashboards query (karpenter-capacity-dashboard.json of the v1 docs, the controllers' panels) and
 * the reference lists as Karpenter's: the name each is looked up by.
 */
const dashboardFamilies = [
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
    for (const [, k = '', v = ''] of (m[2] ?? '').matchAll(/([a-z_]+)="([^"]*)"/g)) labels[k] = v;
    out.push({ labels, value: Number(m[3]) });
  }
  return out;
}

describe('/metrics after provisioning', () => {
  it("serves every family Karpenter's dashboards query, with Karpenter's labels", async () => {
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

    const srv = await startMetricsServer({ port: 0, metrics: h.operator.context.metrics });
    let body: string;
    try {
      body = await (await fetch(`http://127.0.0.1:${srv.port}/metrics`)).text();
    } finally {
      await srv.close();
    }
    const missing = dashboardFamilies.filter((name) => !body.includes(`# TYPE ${name} `));
    expect(missing).toEqual([]);

    const zone = nc.metadata.labels?.['topology.kubernetes.io/zone'];
    expect(samples(body, 'karpenter_nodeclaims_created_total')).toEqual([
      { labels: { reason: 'provisioned', nodepool: 'default', min_values_relaxed: 'false' }, value: 1 },
    ]);
    expect(samples(body, 'karpenter_nodes_created_total')).toEqual([
      { labels: { nodepool: 'default', zone: zone ?? '' }, value: 1 },
    ]);
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
    expect(samples(body, 'controller_runtime_max_concurrent_reconciles')).toContainEqual({
      labels: { controller: 'provisioning' },
      value: 4,
    });
    expect(samples(body, 'workqueue_adds_total').some((s) => s.labels.name === 'provisioning' && s.value > 0)).toBe(
      true,
    );
  }, 60_000);
});
