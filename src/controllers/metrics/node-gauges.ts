/**
 * The per-node gauges of Karpenter's `metrics.node` controller and the cluster-state gauges, read from the
 * informer caches when /metrics is scraped: `karpenter_nodes_total_pod_requests` / `_total_pod_limits` (every
 * pod bound to the node, DaemonSet pods included, as v1 counts them), `karpenter_nodes_total_daemon_requests` /
 * `_total_daemon_limits`, `karpenter_nodes_system_overhead` (capacity minus allocatable),
 * `karpenter_cluster_state_node_count` and `karpenter_cluster_state_synced`.
 */
import type { Clock } from '../../clock/index.js';
import type { Container, Node, Pod } from '../../kube/index.js';
import type { GaugeRow } from '../../observability/metrics.js';
import { wellKnownNodeLabels } from '../../observability/state-metrics.js';
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

/**
 * What a scrape computes per pod and per node, kept per object: the informer replaces an object when it changes, so
 * an entry is good for as long as its object is cached, and a scrape costs a lookup per unchanged pod instead of
 * parsing every container's quantities once per gauge family.
 */
export class ScrapeCache {
  private readonly pods = new WeakMap<Pod, { requests: Amounts; limits: Amounts }>();
  private readonly nodes = new WeakMap<Node, Record<string, string>>();

  /** The pod's requests or limits (see {@link podAmounts}). */
  amounts(pod: Pod, kind: 'requests' | 'limits'): Amounts {
    let e = this.pods.get(pod);
    if (!e) {
      e = { requests: podAmounts(pod, 'requests'), limits: podAmounts(pod, 'limits') };
      this.pods.set(pod, e);
    }
    return e[kind];
  }

  /** The node's series labels (see {@link nodeLabels}). */
  labels(node: Node): Record<string, string> {
    let l = this.nodes.get(node);
    if (!l) {
      l = nodeLabels(node);
      this.nodes.set(node, l);
    }
    return l;
  }
}

/**
 * The labels of every per-node series, as Karpenter's: each well-known label (empty when the node lacks it, so a
 * node no NodePool owns has `nodepool=""`), the node's name and its phase (a field Kubernetes no longer sets).
 */
export function nodeLabels(node: Node): Record<string, string> {
  const l = node.metadata.labels ?? {};
  const out: Record<string, string> = { node_name: node.metadata.name ?? '', phase: '' };
  for (const [key, label] of wellKnownNodeLabels) out[label] = l[key] ?? '';
  return out;
}

/** Karpenter's resource_type of a resource name: lower case, `-` as `_` (`ephemeral_storage`). */
export function resourceType(name: string): string {
  return name.toLowerCase().replaceAll('-', '_');
}

/** Which per-node total a gauge reports. */
export type NodeTotal = 'podRequests' | 'podLimits' | 'daemonRequests' | 'daemonLimits' | 'systemOverhead';

function totalOf(which: NodeTotal, node: Node, pods: readonly Pod[], cache: ScrapeCache): Amounts {
  if (which === 'systemOverhead') {
    const out = amountsOf(node.status?.capacity);
    for (const [k, v] of Object.entries(amountsOf(node.status?.allocatable))) out[k] = (out[k] ?? 0) - v;
    return out;
  }
  const daemonOnly = which === 'daemonRequests' || which === 'daemonLimits';
  const kind = which === 'podRequests' || which === 'daemonRequests' ? 'requests' : 'limits';
  const counted = pods.filter((p) => !daemonOnly || isDaemonSetPod(p));
  const out: Amounts = {};
  for (const p of counted) add(out, cache.amounts(p, kind));
  // Karpenter's sums of requests and limits count the pods as the `pods` resource.
  if (counted.length > 0) out.pods = counted.length;
  return out;
}

/** One row per node and resource of a per-node total. */
export function* nodeTotalRows(
  which: NodeTotal,
  informers: ClusterInformers,
  state: ClusterState,
  cache: ScrapeCache,
): Iterable<GaugeRow> {
  for (const node of informers.nodes.cache.list()) {
    const labels = cache.labels(node);
    const pods = which === 'systemOverhead' ? [] : state.podsOn(node.metadata.name ?? '');
    const totals = totalOf(which, node, pods, cache);
    for (const [resource, value] of Object.entries(totals))
      yield { labels: { ...labels, resource_type: resourceType(resource) }, value };
  }
}

/** `karpenter_nodes_current_lifetime_seconds`: each node's age. */
export function* nodeLifetimeRows(informers: ClusterInformers, clock: Clock, cache: ScrapeCache): Iterable<GaugeRow> {
  for (const node of informers.nodes.cache.list()) {
    const created = Date.parse(node.metadata.creationTimestamp ?? '');
    if (Number.isFinite(created))
      yield { labels: cache.labels(node), value: Math.max(0, clock.now() - created) / 1000 };
  }
}

/**
 * `karpenter_cluster_utilization_percent`: for each resource the nodes have allocatable, the pods' requests on
 * every node as a percentage of the nodes' allocatable.
 */
export function* clusterUtilizationRows(
  informers: ClusterInformers,
  state: ClusterState,
  cache: ScrapeCache,
): Iterable<GaugeRow> {
  const allocatable: Amounts = {};
  const requested: Amounts = {};
  for (const node of informers.nodes.cache.list()) {
    add(allocatable, amountsOf(node.status?.allocatable));
    add(requested, totalOf('podRequests', node, state.podsOn(node.metadata.name ?? ''), cache));
  }
  for (const [resource, total] of Object.entries(allocatable))
    if (total > 0)
      yield { labels: { resource_type: resourceType(resource) }, value: (100 * (requested[resource] ?? 0)) / total };
}

/** Karpenter's count of state nodes: every Node, and every NodeClaim whose Node has not registered yet. */
export function* clusterStateNodeCountRows(informers: ClusterInformers, state: ClusterState): Iterable<GaugeRow> {
  const unregistered = informers.nodeClaims.cache.list().filter((nc) => !state.nodeOf(nc)).length;
  yield { labels: {}, value: informers.nodes.cache.list().length + unregistered };
}

/** How long the cluster state has not been synced (0 while it is); asking `synced()` keeps the time current. */
export function* clusterStateUnsyncedRows(state: ClusterState): Iterable<GaugeRow> {
  state.synced();
  yield { labels: {}, value: state.unsyncedSeconds() };
}

/** 1 while the cluster state matches the API server (informers synced, created NodeClaims seen), else 0. */
export function* clusterStateSyncedRows(state: ClusterState): Iterable<GaugeRow> {
  yield { labels: {}, value: state.synced() ? 1 : 0 };
}
