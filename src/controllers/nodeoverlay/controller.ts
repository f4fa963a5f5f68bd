/**
 * nodeoverlay.validation: the NodeOverlay status. `ValidationSucceeded` (and `Ready`) turn False with reason
 * `Conflict` when the overlay sets, at the same weight as another that goes first (the name later in the
 * alphabet, as Karpenter v1.15 orders them), the price of the same offering or the same capacity key of an
 * instance type of some NodePool; a conflicting overlay is not applied (cloudprovider/overlay/apply.ts).
 */
import { ConditionTypes, ConditionReasons } from '../../api/index.js';
import { OverlaidCloudProvider } from '../../cloudprovider/index.js';
import {
  ignoreNotFound,
  Resources,
  updateWithRetry,
  WorkQueue,
  type Reconciler,
  type ReconcileResult,
} from '../../kube/index.js';
import type { StoredNodeOverlay } from '../../state/informers.js';
import { setCondition } from '../conditions.js';
import type { ControllerContext } from '../context.js';
import { cloudPool } from '../cloud-objects.js';

/** Every NodeOverlay is checked again at this interval, as prices and instance types change underneath. */
const recheckMs = 5 * 60_000;

/** The NodeOverlay status controller. */
export class NodeOverlayController implements Reconciler {
  readonly name = 'nodeoverlay.validation';
  readonly queue: WorkQueue;

  /** Creates the controller; any overlay or NodePool change rechecks every overlay (conflicts are between them). */
  constructor(private readonly ctx: ControllerContext) {
    this.queue = new WorkQueue(ctx.clock);
    const all = (): void => {
      for (const o of ctx.informers.nodeOverlays.cache.list()) this.queue.add(o.metadata.name ?? '');
    };
    ctx.informers.nodeOverlays.on({ add: all, update: all, delete: all });
    ctx.informers.nodePools.on({ add: all, update: all });
  }

  /** Sets one overlay's conditions from the conflicts found over every NodePool. */
  async reconcile(name: string): Promise<ReconcileResult | void> {
    const overlay = this.ctx.informers.nodeOverlays.cache.get(name);
    if (!overlay || overlay.metadata.deletionTimestamp) return;
    const conflict = await this.conflictOf(name);
    await updateWithRetry<StoredNodeOverlay>({
      client: this.ctx.client,
      resource: Resources.nodeOverlays,
      ref: { name },
      subresource: 'status',
      mutate: (fresh) => {
        const status = (fresh.status ??= {});
        const at = { now: this.ctx.clock.now(), generation: fresh.metadata.generation };
        const valid = conflict
          ? {
              type: ConditionTypes.validationSucceeded,
              status: 'False' as const,
              reason: ConditionReasons.conflict,
              message: conflict,
            }
          : {
              type: ConditionTypes.validationSucceeded,
              status: 'True' as const,
              reason: ConditionReasons.validationSucceeded,
            };
        const ready = conflict
          ? {
              type: ConditionTypes.ready,
              status: 'False' as const,
              reason: ConditionReasons.conflict,
              message: conflict,
            }
          : { type: ConditionTypes.ready, status: 'True' as const, reason: ConditionReasons.ready };
        const conditions = setCondition(setCondition(status.conditions, valid, at), ready, at);
        if (JSON.stringify(conditions) === JSON.stringify(status.conditions)) return undefined;
        fresh.status = { ...status, conditions };
        return fresh;
      },
    }).catch(ignoreNotFound);
    return { requeueAfter: recheckMs };
  }

  private async conflictOf(name: string): Promise<string | undefined> {
    const provider = this.ctx.cloudProvider;
    if (!(provider instanceof OverlaidCloudProvider)) return undefined;
    for (const np of this.ctx.informers.nodePools.cache.list()) {
      const found = (await provider.conflicts(cloudPool(np))).get(name);
      if (found) return `NodePool ${np.metadata.name ?? ''}: ${found}`;
    }
    return undefined;
  }
}
