/**
 * nodepool.static: a NodePool with `spec.replicas` keeps exactly that many NodeClaims, whatever the pods, as
 * Karpenter's static capacity does. It creates the missing ones from the template (no resource requests: the
 * cheapest type its requirements allow), and on scale-down removes those that lose least. Provisioning never
 * launches for such a pool and consolidation never removes its nodes. Drift (disruption's StaticDrift) and
 * repair (node.health) replace a node replacement first, within the pool's budgets and limits.nodes; expiration
 * deletes it outright, as Karpenter v1 does, and this controller puts the count back.
 */
import { Labels } from '../../../api/index.js';
import {
  ignoreNotFound,
  Resources,
  WorkQueue,
  type KubeObject,
  type Reconciler,
  type ReconcileResult,
} from '../../../kube/index.js';
import type { StoredNodeClaim } from '../../../state/informers.js';
import type { ControllerContext } from '../../context.js';
import { EventReasons } from '../../event-reasons.js';
import { nodeClaimFor } from '../../provisioning/nodeclaim-template.js';
import { limitNodesOf, poolClaims, staticClaim, staticMember } from './members.js';
import { planStatic } from './plan.js';

export { isStaticNodePool } from './members.js';

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
    const limitNodes = limitNodesOf(np);
    const plan = planStatic({
      replicas: np.spec.replicas,
      members: poolClaims(this.ctx, name).map((nc) => staticMember(this.ctx, nc)),
      ...(limitNodes === undefined ? {} : { limitNodes }),
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
}
