/**
 * The gauges Karpenter's metrics controllers keep (`metrics.pod`, `metrics.nodepool`), read from the informer
 * caches when /metrics is scraped: `karpenter_pods_state` (one series per pod, labeled with its node's
 * offering), `karpenter_nodepools_usage` (a NodePool's status.resources) and `karpenter_nodepools_limit` (its
 * spec.limits) and `karpenter_nodes_allocatable`.
 */
import { Labels } from '../../api/index.js';
import type { Clock } from '../../clock/index.js';
import type { Node, Pod } from '../../kube/index.js';
import type { GaugeRow, Metrics } from '../../observability/metrics.js';
import { isQuantity, parseMilli } from '../../scheduling/index.js';
import type { ClusterState } from '../../state/cluster-state.js';
import type { ClusterInformers } from '../../state/informers.js';
import { nodeTotalGauges, type NodeTotalGauge } from '../../observability/state-metrics.js';
import {
  clusterStateNodeCountRows,
  clusterStateSyncedRows,
  clusterStateUnsyncedRows,
  clusterUtilizationRows,
  ScrapeCache,
  nodeLifetimeRows,
  nodeTotalRows,
  resourceType,
  type NodeTotal,
} from './node-gauges.js';

/** What Karpenter labels a pod with when its node is unknown. */
const unknown = 'N/A';

/** The value of a quantity as a float (cores, bytes, counts); undefined when it is not one. */
function amount(text: string): number | undefined {
  return isQuantity(text) ? Number(parseMilli(text)) / 1000 : undefined;
}

/** Karpenter's owner label: the self link of the pod's first owner (self links left the API in 1.20). */
function ownerOf(pod: Pod): string {
  const o = pod.metadata.ownerReferences?.[0];
  if (!o) return '';
  return `/apis/${o.apiVersion}/namespaces/${pod.metadata.namespace ?? ''}/${o.kind.toLowerCase()}s/${o.name}`;
}

/** One `karpenter_pods_state` row per pod. */
export function* podStateRows(informers: ClusterInformers): Iterable<GaugeRow> {
  for (const pod of informers.pods.cache.list()) {
    const nodeName = pod.spec.nodeName ?? '';
    const node: Node | undefined = nodeName ? informers.nodes.cache.get(nodeName) : undefined;
    const l = node?.metadata.labels;
    const label = (key: string): string => (l ? (l[key] ?? '') : unknown);
    yield {
      labels: {
        name: pod.metadata.name ?? '',
        namespace: pod.metadata.namespace ?? '',
        owner: ownerOf(pod),
        node: nodeName,
        nodepool: label(Labels.nodePool),
        zone: label(Labels.zone),
        arch: label(Labels.arch),
        capacity_type: label(Labels.capacityType),
        instance_type: label(Labels.instanceType),
        phase: pod.status?.phase ?? '',
      },
      value: 1,
    };
  }
}

function* resourceRows(informers: ClusterInformers, pick: 'usage' | 'limit'): Iterable<GaugeRow> {
  for (const np of informers.nodePools.cache.list()) {
    const list = (pick === 'usage' ? np.status?.resources : np.spec.limits) ?? {};
    for (const [resource, text] of Object.entries(list)) {
      const value = amount(String(text));
      if (value !== undefined) yield { labels: { nodepool: np.metadata.name ?? '', resource_type: resource }, value };
    }
  }
}

/** One `karpenter_nodes_allocatable` row per node and resource, with the labels of every per-node series. */
export function* nodeAllocatableRows(informers: ClusterInformers, cache: ScrapeCache): Iterable<GaugeRow> {
  for (const node of informers.nodes.cache.list()) {
    const labels = cache.labels(node);
    for (const [resource, text] of Object.entries(node.status?.allocatable ?? {})) {
      const value = amount(String(text));
      if (value !== undefined) yield { labels: { ...labels, resource_type: resourceType(resource) }, value };
    }
  }
}

/** Which total each per-node gauge reports. */
const nodeTotals: Record<NodeTotalGauge, NodeTotal> = {
  karpenter_nodes_total_pod_requests: 'podRequests',
  karpenter_nodes_total_pod_limits: 'podLimits',
  karpenter_nodes_total_daemon_requests: 'daemonRequests',
  karpenter_nodes_total_daemon_limits: 'daemonLimits',
  karpenter_nodes_system_overhead: 'systemOverhead',
};

/** Registers the scrape-time gauges of the cluster's state on `metrics`. */
export function registerClusterGauges(
  metrics: Metrics,
  informers: ClusterInformers,
  state: ClusterState,
  clock: Clock,
): void {
  const cache = new ScrapeCache();
  for (const name of Object.keys(nodeTotalGauges) as NodeTotalGauge[])
    metrics.fillOnScrape(name, () => nodeTotalRows(nodeTotals[name], informers, state, cache));
  metrics.fillOnScrape('karpenter_cluster_state_node_count', () => clusterStateNodeCountRows(informers, state));
  metrics.fillOnScrape('karpenter_cluster_state_synced', () => clusterStateSyncedRows(state));
  metrics.fillOnScrape('karpenter_cluster_state_unsynced_time_seconds', () => clusterStateUnsyncedRows(state));
  metrics.fillOnScrape('karpenter_nodes_current_lifetime_seconds', () => nodeLifetimeRows(informers, clock, cache));
  metrics.fillOnScrape('karpenter_cluster_utilization_percent', () => clusterUtilizationRows(informers, state, cache));
  metrics.fillOnScrape('karpenter_pods_state', () => podStateRows(informers));
  metrics.fillOnScrape('karpenter_nodepools_usage', () => resourceRows(informers, 'usage'));
  metrics.fillOnScrape('karpenter_nodepools_limit', () => resourceRows(informers, 'limit'));
  metrics.fillOnScrape('karpenter_nodes_allocatable', () => nodeAllocatableRows(informers, cache));
}
