/**
 * Karpenter's gauges of the cluster's state (per-node totals, cluster-state node count and sync) filled when
 * scraped, the pod startup and node termination summaries and the NodeClaim termination histogram, with v1's names,
 * labels and buckets.
 */
import { Counter, Histogram, Summary, type Registry } from 'prom-client';
import { RowGauge, type Row } from './row-gauge.js';
import { WellKnownLabels } from '../scheduling/index.js';

/** The per-node gauges filled at scrape time. */
export const nodeTotalGauges = {
  karpenter_nodes_total_pod_requests:
    'Node total pod requests are the resources requested by pods bound to nodes, including the DaemonSet pods.',
  karpenter_nodes_total_pod_limits:
    'Node total pod limits are the resources specified by pod limits, including the DaemonSet pods.',
  karpenter_nodes_total_daemon_requests:
    'Node total daemon requests are the resource requested by DaemonSet pods bound to nodes.',
  karpenter_nodes_total_daemon_limits: 'Node total daemon limits are the resources specified by DaemonSet pod limits.',
  karpenter_nodes_system_overhead:
    "Node system daemon overhead are the resources reserved for system overhead, the difference between the node's capacity and allocatable values are reported by the status.",
} as const;

/** A per-node gauge's name. */
export type NodeTotalGauge = keyof typeof nodeTotalGauges;

/** The cluster-state gauges filled at scrape time. */
export type ClusterStateGauge =
  | 'karpenter_cluster_state_node_count'
  | 'karpenter_cluster_state_synced'
  | 'karpenter_cluster_state_unsynced_time_seconds'
  | 'karpenter_nodes_current_lifetime_seconds'
  | 'karpenter_cluster_utilization_percent';

/**
 * Karpenter's metric label for each well-known node label: the part of the key after the slash, lower case, `-` as
 * `_` (`karpenter.k8s.aws/instance-cpu` is `instance_cpu`).
 */
export const wellKnownNodeLabels: ReadonlyArray<readonly [key: string, label: string]> = [...WellKnownLabels].map(
  (key) => [key, (key.split('/')[1] ?? key).toLowerCase().replaceAll('-', '_')] as const,
);

/** Labels of a per-node series: every well-known label, the node's name and its phase (Karpenter's node metrics). */
export const nodeLabelNames: readonly string[] = [...wellKnownNodeLabels.map(([, l]) => l), 'node_name', 'phase'];

/** Labels of every per-node resource gauge (as `karpenter_nodes_allocatable`). */
export const nodeResourceLabelNames: readonly string[] = [...nodeLabelNames, 'resource_type'];

/** The rows of the moment registered under `name`. */
type RowsOf = (name: NodeTotalGauge | ClusterStateGauge) => Iterable<Row>;

/** The instruments; the per-node and cluster-state gauges ask `rowsOf` for their rows on every scrape. */
export class StateMetrics {
  /** The time from pod creation until the pod is running (its Ready transition), for pods seen Pending. */
  readonly podStartupDuration: Summary;
  /** The time taken between a node's deletion request and the removal of its finalizer. */
  readonly nodeTerminationDuration: Summary<'nodepool'>;
  /** Nodes drained (their termination finalizer released), by NodePool. */
  readonly nodesDrained: Counter<'nodepool'>;
  /** A terminated node's age, from creation to its finalizer's release, by NodePool. */
  readonly nodeLifetime: Histogram<'nodepool'>;
  /** Duration of NodeClaim termination in seconds (deletion request to finalizer released). */
  readonly nodeClaimTerminationDuration: Histogram<'nodepool'>;

  /** Registers every instrument on `registry`. */
  constructor(registry: Registry, rowsOf: RowsOf) {
    for (const [name, help] of Object.entries(nodeTotalGauges) as Array<[NodeTotalGauge, string]>) {
      new RowGauge({ name, help, labelNames: nodeResourceLabelNames, registry, rows: () => rowsOf(name) });
    }
    const clusterState: Array<[ClusterStateGauge, string]> = [
      ['karpenter_cluster_state_node_count', 'Current count of nodes in cluster state'],
      [
        'karpenter_cluster_state_synced',
        "Returns 1 if cluster state is synced and 0 otherwise. Synced checks that nodeclaims and nodes that are stored in the APIServer have the same representation as Karpenter's cluster state",
      ],
      ['karpenter_cluster_state_unsynced_time_seconds', 'The time for which cluster state is not synced'],
    ];
    for (const [name, help] of clusterState) {
      new RowGauge({ name, help, labelNames: [], registry, rows: () => rowsOf(name) });
    }
    new RowGauge({
      name: 'karpenter_nodes_current_lifetime_seconds',
      help: 'Node age in seconds',
      labelNames: nodeLabelNames,
      registry,
      rows: () => rowsOf('karpenter_nodes_current_lifetime_seconds'),
    });
    new RowGauge({
      name: 'karpenter_cluster_utilization_percent',
      help: 'Utilization of allocatable resources by pod requests',
      labelNames: ['resource_type'],
      registry,
      rows: () => rowsOf('karpenter_cluster_utilization_percent'),
    });
    this.podStartupDuration = new Summary({
      name: 'karpenter_pods_startup_duration_seconds',
      help: 'The time from pod creation until the pod is running.',
      // client_golang's summary defaults (10 minute window in 5 buckets) and Karpenter's objectives.
      percentiles: [0, 0.5, 0.9, 0.99, 1],
      maxAgeSeconds: 600,
      ageBuckets: 5,
      registers: [registry],
    });
    this.nodeTerminationDuration = new Summary({
      name: 'karpenter_nodes_termination_duration_seconds',
      help: "The time taken between a node's deletion request and the removal of its finalizer",
      labelNames: ['nodepool'],
      percentiles: [0, 0.5, 0.9, 0.99, 1],
      maxAgeSeconds: 600,
      ageBuckets: 5,
      registers: [registry],
    });
    this.nodesDrained = new Counter({
      name: 'karpenter_nodes_drained_total',
      help: 'The total number of nodes drained by Karpenter',
      labelNames: ['nodepool'],
      registers: [registry],
    });
    const minute = 60;
    const hour = 60 * minute;
    const day = 24 * hour;
    this.nodeLifetime = new Histogram({
      name: 'karpenter_nodes_lifetime_duration_seconds',
      help: 'The lifetime duration of the nodes since creation.',
      labelNames: ['nodepool'],
      // Karpenter's: 15 minutes to 30 days.
      buckets: [
        ...[15, 30, 45].map((m) => m * minute),
        ...[1, 2, 4, 6, 8, 10, 12, 16, 20].map((h) => h * hour),
        ...[1, 2, 3, 5, 10, 15, 20, 25, 30].map((d) => d * day),
      ],
      registers: [registry],
    });
    this.nodeClaimTerminationDuration = new Histogram({
      name: 'karpenter_nodeclaims_termination_duration_seconds',
      help: 'Duration of NodeClaim termination in seconds.',
      labelNames: ['nodepool'],
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048],
      registers: [registry],
    });
  }
}
