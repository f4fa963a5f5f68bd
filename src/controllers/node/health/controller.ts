import { Annotations, Labels } from '../../../api/index.js';
import { rfc3339 } from '../../../clock/index.js';
import {
  ignoreNotFound,
  Resources,
  WorkQueue,
  type Node,
  type Reconciler,
  type ReconcileResult,
} from '../../../kube/index.js';
import { formatDuration } from '../../../settings/duration.js';
import type { RepairPolicy } from '../../../cloudprovider/index.js';
import { Indexes, type StoredNodeClaim, type StoredNodePool } from '../../../state/informers.js';
import type { ControllerContext } from '../../context.js';
import type { OrchestrationQueue } from '../../disruption/orchestration/queue.js';
import { EventReasons } from '../../event-reasons.js';
import { stageStaticRepair } from './static-repair.js';
import { isInitialized, unhealthyBudget } from './unhealthy-budget.js';
import { unhealthyCondition, type Unhealthy } from './unhealthy.js';
import { disruptionLabels, snakeCase } from '../../../observability/disruption-metrics.js';
import { reschedulableOn } from '../../metrics/disrupted.js';

const blockedRetry = 5 * 60_000;
/** How soon a repair held back by a budget is retried (a replacement in flight may finish soon). */
const budgetRetry = 30_000;

/**
 * node.health (SCENARIOS.md S5): a Node whose condition matches a repair policy (Ready=False or Ready=Unknown
 * by default, plus the provider's) for longer than the toleration is repaired: its NodeClaim is deleted with an
 * immediate termination timestamp, so the drain does not wait for pods that are already lost. When more than
 * the threshold of a NodePool's nodes are unhealthy at once, which points at the network or control plane
 * rather than the nodes, nothing is repaired: a `NodeRepairBlocked` Event says why and the check is retried.
 * A static NodePool's node is replaced replacement first instead (static-repair.ts).
 */
export class NodeHealthController implements Reconciler {
  readonly name = 'node.health';
  readonly queue: WorkQueue;

  /** Creates the controller and wires Node events to its queue; static repairs go through `orchestration`. */
  constructor(
    private readonly ctx: ControllerContext,
    private readonly orchestration: OrchestrationQueue,
  ) {
    this.queue = new WorkQueue(ctx.clock);
    const enqueue = (n: Node): void => this.queue.add(n.metadata.name ?? '');
    ctx.informers.nodes.on({ add: enqueue, update: (_o, n) => enqueue(n) });
  }

  /** Checks one Node against the repair policies. */
  async reconcile(name: string): Promise<ReconcileResult | void> {
    if (!this.ctx.options.nodeRepair || !this.ctx.options.featureGates.NodeRepair) return;
    const node = this.ctx.informers.nodes.cache.get(name);
    const nodePool = node?.metadata.labels?.[Labels.nodePool];
    if (!node || !nodePool || node.metadata.deletionTimestamp) return;
    const policies = this.ctx.cloudProvider.repairPolicies();
    const unhealthy = unhealthyCondition(node, policies);
    if (!unhealthy) return;
    const now = this.ctx.clock.now();
    if (unhealthy.repairAt > now) return { requeueAfter: unhealthy.repairAt - now };
    const nodeClaim = node.spec?.providerID
      ? this.ctx.informers.nodeClaims.cache.byIndex(Indexes.providerID, node.spec.providerID)[0]
      : undefined;
    if (!nodeClaim || nodeClaim.metadata.deletionTimestamp) return;
    return this.repairWithinLimits({ node, nodeClaim, nodePool, policies, unhealthy, now });
  }

  private async repairWithinLimits(r: {
    node: Node;
    nodeClaim: StoredNodeClaim;
    nodePool: string;
    policies: RepairPolicy[];
    unhealthy: Unhealthy;
    now: number;
  }): Promise<ReconcileResult | void> {
    if (await this.blocked(r.node, r.nodePool, r.policies)) return { requeueAfter: blockedRetry };
    if (await this.outOfBudget(r)) return { requeueAfter: budgetRetry };
    const np = this.ctx.informers.nodePools.cache.get(r.nodePool);
    if (np?.spec.replicas !== undefined) return this.repairStatic(r, np);
    await this.repair(r);
  }

  private async repairStatic(
    r: { node: Node; nodeClaim: StoredNodeClaim; unhealthy: Unhealthy },
    np: StoredNodePool,
  ): Promise<ReconcileResult | void> {
    const c = r.unhealthy.condition;
    const why = `${c.type}=${c.status} for longer than its toleration of ${formatDuration(r.unhealthy.policy.tolerationDuration)}`;
    const outcome = await stageStaticRepair({ ...r, ctx: this.ctx, orchestration: this.orchestration, np, why });
    if (outcome.kind === 'in-flight') return;
    if (outcome.kind === 'scaling-down') return { requeueAfter: budgetRetry };
    if (outcome.kind === 'at-limit') {
      const message = `Node repair waits: ${outcome.message}`;
      await this.ctx.recorder.publish(r.node, { type: 'Normal', reason: EventReasons.disruptionBlocked, message });
      return { requeueAfter: budgetRetry };
    }
    const message = `Repairing Node ${r.node.metadata.name}: ${why}; launching a replacement first (static NodePool ${np.metadata.name})`;
    await this.ctx.recorder.publish(r.node, { type: 'Warning', reason: EventReasons.nodeRepair, message });
    await this.ctx.recorder.publish(r.nodeClaim, { type: 'Warning', reason: EventReasons.nodeRepair, message });
    this.ctx.metrics.nodeRepairs.inc({ nodepool: np.metadata.name ?? '', condition: `${c.type}=${c.status}` });
  }

  /**
   * Whether the NodePool's budgets for reason `Unhealthy` leave no room (unhealthy-budget.ts); a node that never
   * initialized is repaired regardless.
   */
  private async outOfBudget(r: {
    node: Node;
    nodeClaim: StoredNodeClaim;
    nodePool: string;
    now: number;
  }): Promise<boolean> {
    if (!isInitialized(r.nodeClaim)) return false;
    const pool = { name: r.nodePool, nodePool: this.ctx.informers.nodePools.cache.get(r.nodePool) };
    const b = unhealthyBudget(pool, this.ctx.informers.nodeClaims.cache.list(), r.now);
    if (b.allowed - b.repairing.length > 0) return false;
    const message = `Node repair waits: the disruption budgets of NodePool ${r.nodePool} for reason Unhealthy allow ${b.allowed} node(s) at a time and ${b.repairing.length} are being replaced`;
    await this.ctx.recorder.publish(r.node, { type: 'Normal', reason: EventReasons.disruptionBlocked, message });
    return true;
  }

  private async blocked(node: Node, nodePool: string, policies: RepairPolicy[]): Promise<boolean> {
    const poolNodes = this.ctx.informers.nodes.cache
      .list()
      .filter((n) => n.metadata.labels?.[Labels.nodePool] === nodePool);
    const unhealthyCount = poolNodes.filter((n) => unhealthyCondition(n, policies)).length;
    const threshold = this.ctx.options.nodeRepairUnhealthyThreshold;
    // Karpenter scales the percentage to a node count rounding up, so a small pool can still repair one node.
    const allowed = Math.ceil(threshold * poolNodes.length - 1e-9);
    if (unhealthyCount <= allowed) return false;
    const message = `Node repair blocked: ${unhealthyCount} of ${poolNodes.length} nodes of NodePool ${nodePool} are unhealthy, more than ${Math.round(threshold * 100)}% (${allowed} allowed); this looks like a network or control-plane incident rather than broken nodes. Retrying in ${formatDuration(blockedRetry)}.`;
    await this.ctx.recorder.publish(node, { type: 'Warning', reason: EventReasons.nodeRepairBlocked, message });
    this.ctx.metrics.nodeRepairsBlocked.inc({ nodepool: nodePool });
    return true;
  }

  private async repair(r: {
    node: Node;
    nodeClaim: StoredNodeClaim;
    unhealthy: Unhealthy;
    now: number;
  }): Promise<void> {
    const { node, nodeClaim, unhealthy } = r;
    const c = unhealthy.condition;
    const message = `Repairing Node ${node.metadata.name}: ${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''} for longer than its toleration of ${formatDuration(unhealthy.policy.tolerationDuration)}; deleting NodeClaim ${nodeClaim.metadata.name} without waiting for drain`;
    await this.ctx.recorder.publish(node, { type: 'Warning', reason: EventReasons.nodeRepair, message });
    await this.ctx.recorder.publish(nodeClaim, { type: 'Warning', reason: EventReasons.nodeRepair, message });
    const ref = { name: nodeClaim.metadata.name ?? '' };
    await this.ctx.client
      .patch(Resources.nodeClaims, ref, {
        metadata: { annotations: { [Annotations.nodeClaimTerminationTimestamp]: rfc3339(r.now) } },
      })
      .catch(ignoreNotFound);
    await this.ctx.client.delete(Resources.nodeClaims, ref).catch(ignoreNotFound);
    const nodepool = node.metadata.labels?.[Labels.nodePool] ?? '';
    this.ctx.metrics.nodeRepairs.inc({ nodepool, condition: `${c.type}=${c.status}` });
    // A repair does not wait for the drain: its pods are terminated forcefully.
    const labels = disruptionLabels(nodeClaim, 'unhealthy', { mode: 'forceful' });
    this.ctx.metrics.disrupted(labels, reschedulableOn(this.ctx.state, node.metadata.name));
    this.ctx.metrics.nodeClaimsUnhealthyDisrupted.inc({
      condition: snakeCase(c.type),
      nodepool: labels.nodepool,
      capacity_type: labels.capacity_type,
      image_id: nodeClaim.status?.imageID ?? '',
      termination_mode: labels.termination_mode,
    });
  }
}
