/**
 * The per-node gauges of Karpenter's `metrics.node` controller and the cluster-state gauges, read from the
 * informer caches when /metrics is scraped: `karpenter_nodes_total_pod_requests` / `_total_pod_limits` (every
 * pod bound to the node, DaemonSet pods included, as v1 counts them), `karpenter_nodes_total_daemon_requests` /
 * `_total_daemon_limits`, `karpenter_nodes_system_overhead` (capacity minus allocatable),
 * `karpenter_cluster_state_node_count` and `karpenter_cluster_state_synced`.
 */
import { Labels } from '../../api/index.js';
import type { Container, Node, Pod } from '../../kube/index.js';
import type { GaugeRow } from '../../observability/metrics.js';
import { isQuantity, parseMilli } from '../../scheduling/index.js';
import type { ClusterState } from '../../state/cluster-state.js';
import type { ClusterInformers } from '../../state/informers.js';
import { isDaemonSetPod } from '../node/termination/drain-order.js';

/** Amounts by resource name, in cores, bytes and counts. */
type Amounts = Record<string, number>;

function amountsOf(list: Record<string, unknown> | undefined): Amounts {
  const out: Amounts = {};
  for (const [name, q] of Object.entries(list ?? {})) {
    const text = String(q);
    if (isQuantity(text)) out[name] = Number(parseMilli(text)) / 1000;
  }
  return out;
}

function add(into: Amounts, more: Amounts): void {
  for (const [k, v] of Object.entries(more)) into[k] = (into[k] ?? 0) + v;
}

function containerAmounts(c: Container, kind: 'requests' | 'limits'): Amounts {
  // A limit without a request is the request (API server defaulting).
  const r = c.resources;
  return amountsOf(kind === 'limits' ? r?.limits : { ...(r?.limits ?? {}), ...(r?.requests ?? {}) });
}

/** A pod's requests or limits as the scheduler charges them: the larger of its containers and each init container, plus overhead. */
export function podAmounts(pod: Pod, kind: 'requests' | 'limits'): Amounts {
  const out: Amounts = {};
  for (const c of pod.spec.containers) add(out, containerAmounts(c, kind));
  for (const c of pod.spec.initContainers ?? []) {
    const init = containerAmounts(c, kind);
    if (c.restartPolicy === 'Always') add(out, init);
    else for (const [k, v] of Object.entries(init)) out[k] = Math.max(out[k] ?? 0, v);
  }
  add(out, amountsOf(pod.spec.overhead));
  return out;
}

/** The labels Tenon gives every per-node gauge (those of `karpenter_nodes_allocatable`). */
export function nodeLabels(node: Node): Record<string, string> {
  const l = node.metadata.labels ?? {};
  return {
    node_name: node.metadata.name ?? '',
    nodepool: l[Labels.nodePool] ?? 'N/A',
    zone: l[Labels.zone] ?? '',
    arch: l[Labels.arch] ?? '',
    capacity_type: l[Labels.capacityType] ?? '',
    instance_type: l[Labels.instanceType] ?? '',
  };
}

/** Which per-node total a gauge reports. */
export type NodeTotal = 'podRequests' | 'podLimits' | 'daemonRequests' | 'daemonLimits' | 'systemOverhead';

function totalOf(which: NodeTotal, node: Node, pods: readonly Pod[]): Amounts {
  if (which === 'systemOverhead') {
    const out = amountsOf(node.status?.capacity);
    for (const [k, v] of Object.entries(amountsOf(node.status?.allocatable))) out[k] = (out[k] ?? 0) - v;
    return out;
  }
  const daemonOnly = which === 'daemonRequests' || which === 'daemonLimits';
  const kind = which === 'podRequests' || which === 'daemonRequests' ? 'requests' : 'limits';
  const out: Amounts = {};
  for (const p of pods) if (!daemonOnly || isDaemonSetPod(p)) add(out, podAmounts(p, kind));
  return out;
}

/** One row per node and resource of a per-node total. */
export function* nodeTotalRows(which: NodeTotal, informers: ClusterInformers, state: ClusterState): Iterable<GaugeRow> {
  for (const node of informers.nodes.cache.list()) {
    const labels = nodeLabels(node);
    const totals = totalOf(which, node, which === 'systemOverhead' ? [] : state.podsOn(node.metadata.name ?? ''));
    for (const [resource, value] of Object.entries(totals))
      yield { labels: { ...labels, resource_type: resource }, value };
  }
}

/** Karpenter's count of state nodes: every Node, and every NodeClaim whose Node has not registered yet. */
export function* clusterStateNodeCountRows(informers: ClusterInformers, state: ClusterState): Iterable<GaugeRow> {
  const unregistered = informers.nodeClaims.cache.list().filter((nc) => !state.nodeOf(nc)).length;
  yield { labels: {}, value: informers.nodes.cache.list().length + unregistered };
}

/** 1 while the cluster state matches the API server (informers synced, created NodeClaims seen), else 0. */
export function* clusterStateSyncedRows(state: ClusterState): Iterable<GaugeRow> {
  yield { labels: {}, value: state.synced() ? 1 : 0 };
}
