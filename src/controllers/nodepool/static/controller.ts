/**
 * nodepool.static: a NodePool with `spec.replicas` keeps exactly that many NodeClaims, whatever the pods, as
 * Karpenter's static capacity does. It creates the missing ones from the template (no resource requests: the
 * cheapest type its requirements allow), and on scale-down removes those that lose least. Provisioning never
 * launches for such a pool and consolidation never removes its nodes; drift, expiration and repair delete them
 * as usual, and this controller puts the count back.
 */
import { ConditionTypes, Labels, type NodeSelectorRequirementWithMinValues } from '../../../api/index.js';
import {
  ignoreNotFound,
  Resources,
  WorkQueue,
  type KubeObject,
  type Reconciler,
  type ReconcileResult,
} from '../../../kube/index.js';
import type { NewNodeClaim } from '../../../scheduling/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../../../state/informers.js';
import type { ControllerContext } from '../../context.js';
import { EventReasons } from '../../event-reasons.js';
import { nodeClaimFor } from '../../provisioning/nodeclaim-template.js';
import { planStatic, type StaticMember } from './plan.js';

/** Whether a NodePool is static (has `spec.replicas`). */
export function isStaticNodePool(np: { spec: { replicas?: number } }): boolean {
  return np.spec.replicas !== undefined;
}

/** The planned NodeClaim a static pool launches: its requirements as they are, and nothing to fit. */
function staticClaim(np: StoredNodePool): NewNodeClaim {
  const name = np.metadata.name ?? '';
  const requirements: NodeSelectorRequirementWithMinValues[] = [
    ...np.spec.template.spec.requirements.filter((r) => r.key !== Labels.nodePool),
    { key: Labels.nodePool, operator: 'In', values: [name] },
  ];
  return {
    nodePool: name,
    requirements,
    instanceTypeOptions: [],
    cheapest: { instanceType: '', zone: '', capacityType: '', price: 0 },
    pods: [],
    requests: {},
    taints: [],
    labels: {},
  };
}

/** The static NodePool controller. */
export class StaticNodePoolController implements Reconciler {
  readonly name = 'nodepool.static';
  readonly queue: WorkQueue;

  /** Creates the controller; NodePool and NodeClaim changes queue the NodePool. */
  constructor(private readonly ctx: ControllerContext) {
    this.queue = new WorkQueue(ctx.clock);
    const byPool = (np: KubeObject): void => this.queue.add(np.metadata.name ?? '');
    ctx.informers.nodePools.on({ add: byPool, update: (_o, np) => byPool(np) });
    const byClaim = (nc: KubeObject): void => {
      const pool = nc.metadata.labels?.[Labels.nodePool];
      if (pool) this.queue.add(pool);
    };
    ctx.informers.nodeClaims.on({ add: byClaim, update: (_o, n) => byClaim(n), delete: byClaim });
  }

  /** Brings one static NodePool to its replica count. */
  async reconcile(name: string): Promise<ReconcileResult | void> {
    const np = this.ctx.informers.nodePools.cache.get(name);
    if (!np || np.metadata.deletionTimestamp || np.spec.replicas === undefined) return;
    const claims = this.ctx.informers.nodeClaims.cache
      .list()
      .filter((nc) => nc.metadata.labels?.[Labels.nodePool] === name);
    const limit = np.spec.limits?.nodes;
    const limitNodes = limit === undefined ? undefined : Number(limit);
    const plan = planStatic({
      replicas: np.spec.replicas,
      members: claims.map((nc) => this.member(nc)),
      ...(Number.isFinite(limitNodes) ? { limitNodes } : {}),
    });
    for (let i = 0; i < plan.create; i++) {
      const made = await this.ctx.client.create<StoredNodeClaim>(
        Resources.nodeClaims,
        nodeClaimFor(np, staticClaim(np)),
      );
      this.ctx.log.info(
        { controller: this.name, nodePool: name, nodeClaim: made.metadata.name },
        'created static nodeclaim',
      );
    }
    for (const victim of plan.remove) {
      await this.ctx.client.delete(Resources.nodeClaims, { name: victim }).catch(ignoreNotFound);
      this.ctx.log.info(
        { controller: this.name, nodePool: name, nodeClaim: victim },
        'removed static nodeclaim (scale down)',
      );
    }
    if (plan.limitedBy) {
      const message = `Cannot reach ${np.spec.replicas} replicas: ${plan.limitedBy}`;
      await this.ctx.recorder.publish(np, { type: 'Warning', reason: EventReasons.staticNodePoolLimited, message });
    }
  }

  private member(nc: StoredNodeClaim): StaticMember {
    const node = this.ctx.state.nodeOf(nc);
    const pods = node
      ? this.ctx.state
          .podsOn(node.metadata.name ?? '')
          .filter((p) => !p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet')).length
      : 0;
    return {
      name: nc.metadata.name ?? '',
      deleting: nc.metadata.deletionTimestamp !== undefined,
      initialized: nc.status?.conditions?.find((c) => c.type === ConditionTypes.initialized)?.status === 'True',
      pods,
      createdAt: Date.parse(nc.metadata.creationTimestamp ?? '') || 0,
    };
  }
}
