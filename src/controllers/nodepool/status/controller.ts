import { Annotations, ConditionTypes, Labels, ConditionReasons } from '../../../api/index.js';
import {
  ignoreNotFound,
  Resources,
  updateWithRetry,
  WorkQueue,
  type KubeObject,
  type Reconciler,
  type ReconcileResult,
} from '../../../kube/index.js';
import { cloudPool } from '../../cloud-objects.js';
import { setCondition } from '../../conditions.js';
import type { StoredNodePool } from '../../../state/informers.js';
import type { ControllerContext } from '../../context.js';
import { nodePoolHash, nodePoolHashVersion } from '../hash/nodepool-hash.js';
import { sumResources } from './resource-sum.js';
import type { Resources as ResourceAmounts } from '../../../scheduling/index.js';

/** How often a NodePool whose NodeClass is not Ready looks at it again. */
const nodeClassWaitMs = 1000;
/** How often a NodePool whose NodeClass is Ready looks at it again. */
const nodeClassRecheckMs = 30_000;
/** How long NodeClaim changes gather before their NodePool's status is recomputed. */
const claimBatchMs = 1000;

/**
 * nodepool.status: keeps the NodePool's hash annotations current, and its status: resources in use (the sum of
 * its NodeClaims' capacity), node count, `NodeClassReady` (when the provider manages the NodeClass kind) and `Ready`.
 */
export class NodePoolStatusController implements Reconciler {
  readonly name = 'nodepool.status';
  readonly queue: WorkQueue;

  /** Each NodeClaim's capacity, parsed once per object version (see sumResources). */
  private readonly parsedCapacity = new WeakMap<object, ResourceAmounts>();

  /** Creates the controller; NodePool and NodeClaim changes queue the NodePool. */
  constructor(private readonly ctx: ControllerContext) {
    this.queue = new WorkQueue(ctx.clock);
    ctx.informers.nodePools.on({
      add: (np) => this.queue.add(np.metadata.name ?? ''),
      update: (_o, np) => this.queue.add(np.metadata.name ?? ''),
    });
    // NodeClaim changes come in bursts (a scale-up launches thousands): their sum is taken at most once a second.
    const byClaim = (nc: KubeObject): void => {
      const pool = nc.metadata.labels?.[Labels.nodePool];
      if (pool) this.queue.addAfter(pool, claimBatchMs);
    };
    ctx.informers.nodeClaims.on({ add: byClaim, update: (_o, n) => byClaim(n), delete: byClaim });
  }

  /** Recomputes one NodePool's annotations and status. */
  async reconcile(name: string): Promise<ReconcileResult | void> {
    const np = this.ctx.informers.nodePools.cache.get(name);
    if (!np) return;
    const hash = nodePoolHash(np);
    if (np.metadata.annotations?.[Annotations.nodePoolHash] !== hash) {
      await this.ctx.client
        .patch(
          Resources.nodePools,
          { name },
          {
            metadata: {
              annotations: { [Annotations.nodePoolHash]: hash, [Annotations.nodePoolHashVersion]: nodePoolHashVersion },
            },
          },
        )
        .catch(ignoreNotFound);
    }
    const claims = this.ctx.informers.nodeClaims.cache
      .list()
      .filter((nc) => nc.metadata.labels?.[Labels.nodePool] === name && !nc.metadata.deletionTimestamp);
    const classReady = this.ctx.cloudProvider.nodeClassReadiness?.(cloudPool(np));
    const resources = {
      ...sumResources(
        claims.map((nc) => nc.status?.capacity ?? {}),
        this.parsedCapacity,
      ),
      nodes: String(claims.length),
    };
    await updateWithRetry<StoredNodePool>({
      client: this.ctx.client,
      resource: Resources.nodePools,
      ref: { name },
      subresource: 'status',
      mutate: (fresh) => {
        const status = (fresh.status ??= {});
        const now = this.ctx.clock.now();
        const generation = fresh.metadata.generation;
        let conditions = setCondition(
          status.conditions,
          { type: ConditionTypes.validationSucceeded, status: 'True', reason: ConditionReasons.validationSucceeded },
          { now, generation },
        );
        if (classReady)
          conditions = setCondition(
            conditions,
            { type: ConditionTypes.nodeClassReady, ...classReady },
            { now, generation },
          );
        // Ready follows its dependents, as Karpenter's root condition does: False with the first False one's reason.
        const ready = setCondition(
          conditions,
          classReady && classReady.status !== 'True'
            ? { type: ConditionTypes.ready, status: 'False', reason: classReady.reason, message: classReady.message }
            : { type: ConditionTypes.ready, status: 'True', reason: ConditionReasons.ready },
          { now, generation },
        );
        const next = { ...status, resources, nodes: claims.length, conditions: ready };
        if (JSON.stringify(next) === JSON.stringify(status)) return undefined;
        fresh.status = next as typeof fresh.status;
        return fresh;
      },
    }).catch(ignoreNotFound);
    // The NodeClass is watched by the provider, not here: look again soon while it is not Ready, now and then after.
    if (classReady) return { requeueAfter: classReady.status === 'True' ? nodeClassRecheckMs : nodeClassWaitMs };
  }
}
