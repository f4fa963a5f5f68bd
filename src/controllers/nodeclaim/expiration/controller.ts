/**
 * nodeclaim.expiration: a NodeClaim older than its `expireAfter` is deleted. As in Karpenter v1 this is
 * forceful: no budget, do-not-disrupt or replacement-first applies; the drain still goes through the eviction
 * API (PDBs) until the NodeClaim's terminationGracePeriod runs out, and the pods that go pending are
 * provisioned for as usual.
 */

import { ignoreNotFound, Resources, WorkQueue, type Reconciler, type ReconcileResult } from '../../../kube/index.js';
import { formatDuration, parseDuration } from '../../../settings/duration.js';
import type { StoredNodeClaim } from '../../../state/informers.js';
import type { ControllerContext } from '../../context.js';
import { EventReasons } from '../../event-reasons.js';
import { disruptionLabels } from '../../../observability/disruption-metrics.js';
import { reschedulableOn } from '../../metrics/disrupted.js';

/** When the NodeClaim expires (ms), or undefined for `Never`. */
export function expiresAt(nc: StoredNodeClaim): number | undefined {
  const after = nc.spec.expireAfter ?? '720h';
  if (after === 'Never') return undefined;
  const ms = parseDuration(after);
  const created = Date.parse(nc.metadata.creationTimestamp ?? '');
  return ms === undefined || !Number.isFinite(created) ? undefined : created + ms;
}

/** The expiration controller. */
export class NodeClaimExpirationController implements Reconciler {
  readonly name = 'nodeclaim.expiration';
  readonly queue: WorkQueue;

  /** Creates the controller and wires NodeClaim events to it. */
  constructor(private readonly ctx: ControllerContext) {
    this.queue = new WorkQueue(ctx.clock);
    const enqueue = (nc: StoredNodeClaim): void => this.queue.add(nc.metadata.name ?? '');
    ctx.informers.nodeClaims.on({ add: enqueue, update: (_o, nc) => enqueue(nc) });
  }

  /** Deletes the NodeClaim once expired; otherwise comes back when it will be. */
  async reconcile(name: string): Promise<ReconcileResult | void> {
    const nc = this.ctx.informers.nodeClaims.cache.get(name);
    if (!nc || nc.metadata.deletionTimestamp) return;
    const at = expiresAt(nc);
    if (at === undefined) return;
    const now = this.ctx.clock.now();
    if (now < at) return { requeueAfter: at - now };
    const message = `Disrupting NodeClaim: expired (expireAfter ${formatDuration(at - Date.parse(nc.metadata.creationTimestamp ?? ''))})`;
    await this.ctx.recorder.publish(nc, { type: 'Normal', reason: EventReasons.disruptionTerminating, message });
    const node = this.ctx.state.nodeOf(nc);
    if (node)
      await this.ctx.recorder.publish(node, { type: 'Normal', reason: EventReasons.disruptionTerminating, message });
    await this.ctx.client.delete(Resources.nodeClaims, { name }).catch(ignoreNotFound);
    this.ctx.metrics.disrupted(disruptionLabels(nc, 'expired'), reschedulableOn(this.ctx.state, node?.metadata.name));
    this.ctx.log.info({ controller: this.name, nodeClaim: name }, 'nodeclaim expired');
  }
}
