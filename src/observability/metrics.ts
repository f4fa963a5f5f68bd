import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ControllerMetrics } from './controller-metrics.js';
import { nodeResourceLabelNames, StateMetrics, type ClusterStateGauge, type NodeTotalGauge } from './state-metrics.js';
import { tenonVersion } from '../version.js';
import { RowGauge } from './row-gauge.js';
import { StatusConditionMetrics } from './status-condition-metrics.js';
import type { DisruptionLabels } from './disruption-metrics.js';

const disruptionLabelNames = ['reason', 'nodepool', 'capacity_type', 'consolidation_policy', 'termination_mode'];

/** One sample of a gauge that is filled when it is scraped. */
export interface GaugeRow {
  labels: Record<string, string>;
  value: number;
}

/** The gauges filled at scrape time from the cluster's state, by metric name. */
export type ScrapedGauge =
  | 'karpenter_pods_state'
  | 'karpenter_nodepools_usage'
  | 'karpenter_nodepools_limit'
  | 'karpenter_nodes_allocatable'
  | NodeTotalGauge
  | ClusterStateGauge;

/** Prometheus metrics, with Karpenter's names and labels so existing dashboards keep working. */
export class Metrics {
  readonly registry = new Registry();
  private readonly sources = new Map<ScrapedGauge, () => Iterable<GaugeRow>>();
  /** controller-runtime's reconcile and client-go's workqueue metrics. */
  readonly controllers = new ControllerMetrics(this.registry);
  /** Per-node totals, cluster-state gauges, pod startup and NodeClaim termination durations. */
  readonly state = new StateMetrics(this.registry, (name) => this.rowsOf(name));
  /** operatorpkg's `operator_<kind>_status_condition_*` and `operator_<kind>_termination_*` families. */
  readonly statusConditions = new StatusConditionMetrics(this.registry);
  readonly nodeClaimsCreated = new Counter({
    name: 'karpenter_nodeclaims_created_total',
    help: 'Number of nodeclaims created in total by Karpenter. Labeled by reason the nodeclaim was created, the owning nodepool, and if min values was relaxed for this nodeclaim.',
    labelNames: ['reason', 'nodepool', 'min_values_relaxed'],
    registers: [this.registry],
  });
  readonly nodeClaimsTerminated = new Counter({
    name: 'karpenter_nodeclaims_terminated_total',
    help: 'Number of nodeclaims terminated in total by Karpenter. Labeled by the owning nodepool, capacity type, and zone.',
    labelNames: ['nodepool', 'capacity_type', 'zone'],
    registers: [this.registry],
  });
  private readonly nodeClaimsDisrupted = new Counter({
    name: 'karpenter_nodeclaims_disrupted_total',
    help: 'Number of nodeclaims disrupted in total by Karpenter. Labeled by reason the nodeclaim was disrupted and the owning nodepool.',
    labelNames: disruptionLabelNames,
    registers: [this.registry],
  });
  private readonly podsDisruptionInitiated = new Counter({
    name: 'karpenter_pods_disruption_initiated_total',
    help: 'Number of pods whose disruption Karpenter initiated: the reschedulable pods of each disrupted nodeclaim. Labeled as karpenter_nodeclaims_disrupted_total.',
    labelNames: disruptionLabelNames,
    registers: [this.registry],
  });
  readonly nodesCreated = new Counter({
    name: 'karpenter_nodes_created_total',
    help: 'Number of nodes created in total by Karpenter. Labeled by owning nodepool and zone.',
    labelNames: ['nodepool', 'zone'],
    registers: [this.registry],
  });
  readonly nodesTerminated = new Counter({
    name: 'karpenter_nodes_terminated_total',
    help: 'Number of nodes terminated in total by Karpenter. Labeled by owning nodepool and zone.',
    labelNames: ['nodepool', 'zone'],
    registers: [this.registry],
  });
  readonly podsState: Gauge = new RowGauge({
    name: 'karpenter_pods_state',
    help: 'Pod state is the current state of pods. This metric can be used several ways as it is labeled by the pod name, namespace, owner, node, nodepool name, zone, architecture, capacity type, instance type and pod phase.',
    labelNames: [
      'name',
      'namespace',
      'owner',
      'node',
      'nodepool',
      'zone',
      'arch',
      'capacity_type',
      'instance_type',
      'phase',
    ],
    registry: this.registry,
    rows: () => this.rowsOf('karpenter_pods_state'),
  });
  readonly nodesAllocatable: Gauge = new RowGauge({
    name: 'karpenter_nodes_allocatable',
    help: 'Node allocatable are the resources allocatable by nodes.',
    labelNames: [...nodeResourceLabelNames],
    registry: this.registry,
    rows: () => this.rowsOf('karpenter_nodes_allocatable'),
  });
  readonly schedulingDuration = new Histogram({
    name: 'karpenter_scheduler_scheduling_duration_seconds',
    help: 'Duration of scheduling simulations used for deprovisioning and provisioning in seconds.',
    labelNames: ['controller'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });
  readonly schedulingQueueDepth = new Gauge({
    name: 'karpenter_scheduler_queue_depth',
    help: 'The number of pods currently waiting to be scheduled.',
    labelNames: ['controller'],
    registers: [this.registry],
  });
  readonly unschedulablePods = new Gauge({
    name: 'karpenter_scheduler_unschedulable_pods_count',
    help: 'The number of unschedulable Pods.',
    labelNames: ['controller'],
    registers: [this.registry],
  });
  readonly disruptionDecisions = new Counter({
    name: 'karpenter_voluntary_disruption_decisions_total',
    help: 'Number of disruption decisions performed. Labeled by disruption decision, reason, and consolidation type.',
    labelNames: ['decision', 'reason', 'consolidation_type'],
    registers: [this.registry],
  });
  readonly nodePoolDisruptionDecisions = new Counter({
    name: 'karpenter_voluntary_disruption_decisions_by_nodepool_total',
    help: 'Number of disruption decisions performed by nodepool. Labeled by nodepool name, disruption decision, reason, and consolidation type.',
    labelNames: ['nodepool', 'decision', 'reason', 'consolidation_type'],
    registers: [this.registry],
  });
  readonly failedValidations = new Counter({
    name: 'karpenter_voluntary_disruption_failed_validations_total',
    help: 'Number of candidates that were selected for disruption but failed validation. Labeled by consolidation type.',
    labelNames: ['consolidation_type'],
    registers: [this.registry],
  });
  readonly disruptionQueueFailures = new Counter({
    name: 'karpenter_voluntary_disruption_queue_failures_total',
    help: 'The number of times that an enqueued disruption decision failed. Labeled by disruption method.',
    labelNames: ['decision', 'reason', 'consolidation_type'],
    registers: [this.registry],
  });
  readonly allowedDisruptions = new Gauge({
    name: 'karpenter_nodepools_allowed_disruptions',
    help: 'The number of nodes for a given NodePool that can be concurrently disrupting at a point in time. Labeled by NodePool.',
    labelNames: ['nodepool', 'reason'],
    registers: [this.registry],
  });
  readonly nodesConsumingBudgets = new Gauge({
    name: 'karpenter_nodepools_nodes_consuming_budgets',
    help: 'The number of nodes consuming the budget of a nodepool at a point in time. Labeled by NodePool.',
    labelNames: ['nodepool', 'reason'],
    registers: [this.registry],
  });
  readonly eligibleNodes = new Gauge({
    name: 'karpenter_voluntary_disruption_eligible_nodes',
    help: 'Number of nodes eligible for disruption by Karpenter. Labeled by disruption reason.',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  readonly consolidationTimeouts = new Counter({
    name: 'karpenter_voluntary_disruption_consolidation_timeouts_total',
    help: 'Number of times the Consolidation algorithm has reached a timeout. Labeled by consolidation type.',
    labelNames: ['consolidation_type'],
    registers: [this.registry],
  });
  readonly nodePoolUsage: Gauge = new RowGauge({
    name: 'karpenter_nodepools_usage',
    help: 'The amount of resources that have been provisioned for a nodepool. Labeled by nodepool name and resource type.',
    labelNames: ['nodepool', 'resource_type'],
    registry: this.registry,
    rows: () => this.rowsOf('karpenter_nodepools_usage'),
  });
  readonly nodePoolLimit: Gauge = new RowGauge({
    name: 'karpenter_nodepools_limit',
    help: 'Limits specified on the nodepool that restrict the quantity of resources provisioned. Labeled by nodepool name and resource type.',
    labelNames: ['nodepool', 'resource_type'],
    registry: this.registry,
    rows: () => this.rowsOf('karpenter_nodepools_limit'),
  });
  readonly cloudProviderDuration = new Histogram({
    name: 'karpenter_cloudprovider_duration_seconds',
    help: 'Duration of cloud provider method calls. Labeled by the controller, method name and provider.',
    labelNames: ['controller', 'method', 'provider'],
    registers: [this.registry],
  });
  readonly cloudProviderErrors = new Counter({
    name: 'karpenter_cloudprovider_errors_total',
    help: 'Total number of errors returned from CloudProvider calls.',
    labelNames: ['controller', 'method', 'provider', 'error'],
    registers: [this.registry],
  });
  readonly interruptionReceivedMessages = new Counter({
    name: 'karpenter_interruption_received_messages_total',
    help: 'Count of messages received from the SQS queue. Broken down by message type and whether the message was actionable.',
    labelNames: ['message_type'],
    registers: [this.registry],
  });
  readonly interruptionDeletedMessages = new Counter({
    name: 'karpenter_interruption_deleted_messages_total',
    help: 'Count of messages deleted from the SQS queue.',
    registers: [this.registry],
  });
  readonly interruptionMessageQueueDuration = new Histogram({
    name: 'karpenter_interruption_message_queue_duration_seconds',
    help: 'Amount of time an interruption message is on the queue before it is processed by karpenter.',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });
  readonly podEvictionRequests = new Counter({
    name: 'karpenter_pods_eviction_requests_total',
    help: 'The total number of pod eviction requests made by Karpenter, labeled by response code',
    labelNames: ['code'],
    registers: [this.registry],
  });
  readonly nodeClaimsUnhealthyDisrupted = new Counter({
    name: 'karpenter_nodeclaims_unhealthy_disrupted_total',
    help: 'Number of unhealthy nodeclaims disrupted in total by Karpenter. Labeled by condition on the node was disrupted, the owning nodepool, and the image ID.',
    labelNames: ['condition', 'nodepool', 'capacity_type', 'image_id', 'termination_mode'],
    registers: [this.registry],
  });
  readonly nodeRepairs = new Counter({
    name: 'tenon_node_repairs_total',
    help: 'Nodes repaired (NodeClaim force-deleted) after an unhealthy condition outlived its toleration. Labeled by nodepool and condition.',
    labelNames: ['nodepool', 'condition'],
    registers: [this.registry],
  });
  readonly nodeRepairsBlocked = new Counter({
    name: 'tenon_node_repairs_blocked_total',
    help: "Repairs refused because too many of a NodePool's nodes were unhealthy at once. Labeled by nodepool.",
    labelNames: ['nodepool'],
    registers: [this.registry],
  });

  constructor() {
    // As Karpenter: the timeout series of both consolidation kinds exist before the first timeout.
    for (const consolidation_type of ['multi', 'single']) this.consolidationTimeouts.inc({ consolidation_type }, 0);
  }

  /**
   * Counts one disrupted NodeClaim and, when known, the reschedulable pods it had (Karpenter counts them on the
   * NodeClaims voluntary disruption, expiration, repair and garbage collection delete).
   */
  disrupted(labels: DisruptionLabels, reschedulablePods?: number): void {
    this.nodeClaimsDisrupted.inc({ ...labels });
    if (reschedulablePods !== undefined) this.podsDisruptionInitiated.inc({ ...labels }, reschedulablePods);
  }

  /**
   * Fills a gauge from `rows` each time it is scraped: a gauge per pod costs nothing between scrapes, and
   * shows exactly the cluster of the moment (no series left behind by deleted pods).
   */
  fillOnScrape(name: ScrapedGauge, rows: () => Iterable<GaugeRow>): void {
    this.sources.set(name, rows);
  }

  private rowsOf(name: ScrapedGauge): Iterable<GaugeRow> {
    return this.sources.get(name)?.() ?? [];
  }

  /**
   * Adds Node.js process metrics (CPU, memory, heap, event-loop lag, handles), as a Go controller exports its
   * runtime's, and `karpenter_build_info`: 1, labeled by the version, runtime and architecture this process runs.
   */
  collectProcessMetrics(build: { version: string; commit?: string } = { version: tenonVersion }): void {
    collectDefaultMetrics({ register: this.registry });
    const info = new Gauge({
      name: 'karpenter_build_info',
      help: "A metric with a constant '1' value labeled by version from which karpenter was built.",
      labelNames: ['version', 'goversion', 'goarch', 'commit'],
      registers: [this.registry],
    });
    // The runtime's version and architecture in Go's terms, where Karpenter's labels name them.
    const goarch = process.arch === 'x64' ? 'amd64' : process.arch;
    info.set({ version: build.version, goversion: process.version, goarch, commit: build.commit ?? '' }, 1);
  }
}
