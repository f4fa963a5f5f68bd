/**
 * capacitybuffer.status: what each CapacityBuffer resolved to (status.replicas, the strategy) and whether it can
 * be provisioned: `ReadyForProvisioning` True, or False with the reason (no scalable object, an unsupported
 * reference...). Provisioning reads the buffers itself; this controller only reports.
 */
import { ActiveCapacityStrategy, ConditionReasons } from '../../api/index.js';
import {
  ignoreNotFound,
  parseKey,
  Resources,
  updateWithRetry,
  WorkQueue,
  type KubeObject,
  type Reconciler,
  type ReconcileResult,
} from '../../kube/index.js';
import type { StoredCapacityBuffer } from '../../state/informers.js';
import { setCondition } from '../conditions.js';
import type { ControllerContext } from '../context.js';
import { resolveFromCache } from './buffer-pods.js';

/** The condition CapacityBuffers report readiness with. */
export const ReadyForProvisioning = 'ReadyForProvisioning';

/** The CapacityBuffer status controller. */
export class CapacityBufferController implements Reconciler {
  readonly name = 'capacitybuffer.status';
  readonly queue: WorkQueue;

  /** Creates the controller; buffer changes, and changes of the Deployments they name, queue the buffers. */
  constructor(private readonly ctx: ControllerContext) {
    this.queue = new WorkQueue(ctx.clock);
    const key = (o: KubeObject): string => `${o.metadata.namespace ?? 'default'}/${o.metadata.name ?? ''}`;
    ctx.informers.capacityBuffers.on({ add: (b) => this.queue.add(key(b)), update: (_o, b) => this.queue.add(key(b)) });
    const byDeployment = (d: KubeObject): void => {
      for (const b of ctx.informers.capacityBuffers.cache.list()) {
        if (b.metadata.namespace === d.metadata.namespace && b.spec.scalableRef?.name === d.metadata.name)
          this.queue.add(key(b));
      }
    };
    ctx.informers.deployments.on({ add: byDeployment, update: (_o, d) => byDeployment(d), delete: byDeployment });
  }

  /** Writes one buffer's status. */
  async reconcile(key: string): Promise<ReconcileResult | void> {
    const buffer = this.ctx.informers.capacityBuffers.cache.get(key);
    if (!buffer || buffer.metadata.deletionTimestamp) return;
    const resolved = resolveFromCache(this.ctx.informers, buffer);
    const ref = parseKey(key);
    await updateWithRetry<StoredCapacityBuffer>({
      client: this.ctx.client,
      resource: Resources.capacityBuffers,
      ref,
      subresource: 'status',
      mutate: (fresh) => {
        const status = fresh.status ?? {};
        const at = { now: this.ctx.clock.now(), generation: fresh.metadata.generation };
        const condition = resolved.ok
          ? {
              type: ReadyForProvisioning,
              status: 'True' as const,
              reason: ConditionReasons.ready,
              message: `${resolved.replicas} unit(s) of buffer capacity`,
            }
          : {
              type: ReadyForProvisioning,
              status: 'False' as const,
              reason: resolved.reason,
              message: resolved.message,
            };
        const next = {
          ...status,
          provisioningStrategy: fresh.spec.provisioningStrategy ?? ActiveCapacityStrategy,
          replicas: resolved.ok ? resolved.replicas : 0,
          conditions: setCondition(status.conditions, condition, at),
        };
        if (JSON.stringify(next) === JSON.stringify(fresh.status)) return undefined;
        fresh.status = next;
        return fresh;
      },
    }).catch(ignoreNotFound);
  }
}
