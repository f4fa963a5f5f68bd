import { ConditionTypes } from '../../../api/index.js';
import { ignoreNodeClaimNotFound, type NodeClaim as CloudNodeClaim } from '../../../cloudprovider/index.js';
import { ignoreNotFound, Resources, WorkQueue, type Reconciler, type ReconcileResult } from '../../../kube/index.js';
import { Indexes, type StoredNodeClaim } from '../../../state/informers.js';
import { getCondition } from '../../conditions.js';
import type { ControllerContext } from '../../context.js';
import { EventReasons } from '../../event-reasons.js';
import { disruptionLabels } from '../../../observability/disruption-metrics.js';
import { reschedulableOn } from '../../metrics/disrupted.js';

/** How often the cloud is compared with the cluster. */
export const garbageCollectionPeriod = 2 * 60_000;
/** An instance younger than this may belong to a NodeClaim whose status write is still in flight. */
const instanceGracePeriod = 30_000;
/** A NodeClaim launched less than this ago may not be listed by the cloud yet (eventual consistency). */
const nodeClaimGracePeriod = 10_000;

/** The single key this periodic controller is queued under. */
export const garbageCollectionKey = 'garbage-collection';

/**
 * nodeclaim.garbagecollection: every few minutes, compares the cloud's instances with the cluster. Instances
 * with no NodeClaim (past a grace period) are terminated, with their Nodes; NodeClaims whose instance is gone
 * are deleted, so provisioning replaces the capacity.
 */
export class GarbageCollectionController implements Reconciler {
  readonly name = 'nodeclaim.garbagecollection';
  readonly queue: WorkQueue;

  /** Creates the controller; call `queue.add(garbageCollectionKey)` once to start its cycle. */
  constructor(private readonly ctx: ControllerContext) {
    this.queue = new WorkQueue(ctx.clock);
  }

  /** One comparison of cloud and cluster. */
  async reconcile(): Promise<ReconcileResult> {
    const instances = await this.ctx.cloudProvider.list();
    const now = this.ctx.clock.now();
    const live = new Set(instances.map((i) => i.status?.providerID ?? ''));
    for (const instance of instances) await this.collectInstance(instance, now);
    for (const nc of this.ctx.informers.nodeClaims.cache.list()) await this.collectNodeClaim(nc, live, now);
    return { requeueAfter: garbageCollectionPeriod };
  }

  private async collectNodeClaim(nc: StoredNodeClaim, live: Set<string>, now: number): Promise<void> {
    const id = nc.status?.providerID;
    const launched = getCondition(nc.status?.conditions, ConditionTypes.launched);
    if (!id || live.has(id) || nc.metadata.deletionTimestamp || launched?.status !== 'True') return;
    if (now - Date.parse(launched.lastTransitionTime) < nodeClaimGracePeriod) return;
    await this.ctx.recorder.publish(nc, {
      type: 'Normal',
      reason: EventReasons.garbageCollected,
      message: `instance ${id} no longer exists; deleting NodeClaim`,
    });
    await this.ctx.client.delete(Resources.nodeClaims, { name: nc.metadata.name ?? '' }).catch(ignoreNotFound);
    this.ctx.metrics.disrupted(
      disruptionLabels(nc, 'garbage_collected'),
      reschedulableOn(this.ctx.state, this.ctx.state.nodeOf(nc)?.metadata.name),
    );
  }

  private async collectInstance(instance: CloudNodeClaim, now: number): Promise<void> {
    const id = instance.status?.providerID;
    if (!id || this.ctx.informers.nodeClaims.cache.byIndex(Indexes.providerID, id).length) return;
    const created = Date.parse(instance.metadata.creationTimestamp ?? '');
    if (Number.isFinite(created) && now - created < instanceGracePeriod) return;
    await this.ctx.cloudProvider.delete(instance).catch(ignoreNodeClaimNotFound);
    for (const node of this.ctx.informers.nodes.cache.byIndex(Indexes.providerID, id)) {
      await this.ctx.client.delete(Resources.nodes, { name: node.metadata.name ?? '' }).catch(ignoreNotFound);
    }
    this.ctx.log.info({ controller: this.name, providerID: id }, 'terminated an instance that has no NodeClaim');
  }
}
