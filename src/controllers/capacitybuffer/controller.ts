/**
 * capacitybuffer.status: resolves each CapacityBuffer as the cluster-autoscaler's buffer controller does
 * (source.ts for the pod shape, resolve.ts for the count) and writes what it found to its status: the PodTemplate
 * of its units (`podTemplateRef`, for a scalable buffer one it keeps, `capacitybuffer-<name>-pod-template`, owned
 * by the buffer), `podTemplateGeneration`, `replicas`, the strategy, and `ReadyForProvisioning` True (reason
 * `AttributesSetSuccessfully`) or False (reason `error`, with the cause). Provisioning reads that status.
 */
import { ActiveCapacityStrategy, ConditionReasons, type CapacityBuffer } from '../../api/index.js';
import {
  ignoreNotFound,
  isNotFound,
  parseKey,
  Resources,
  updateWithRetry,
  WorkQueue,
  type KubeObject,
  type Reconciler,
  type ReconcileResult,
} from '../../kube/index.js';
import type { StoredCapacityBuffer, StoredPodTemplate } from '../../state/informers.js';
import { setCondition } from '../conditions.js';
import type { ControllerContext } from '../context.js';
import { ReadyForProvisioning } from './buffer-pods.js';
import { resolveBuffer, type PodShape, type ResolvedBuffer } from './resolve.js';
import { bufferSource, managedTemplateName } from './source.js';

export { ReadyForProvisioning } from './buffer-pods.js';

/** How often a buffer is looked at again: its scalable object's pods and scale are not watched. */
const relookMs = 30_000;

const key = (o: KubeObject): string => `${o.metadata.namespace ?? 'default'}/${o.metadata.name ?? ''}`;

/** The CapacityBuffer status controller. */
export class CapacityBufferController implements Reconciler {
  readonly name = 'capacitybuffer.status';
  readonly queue: WorkQueue;

  /** Creates the controller; buffer changes, and changes of the Deployments and PodTemplates they name, queue them. */
  constructor(private readonly ctx: ControllerContext) {
    this.queue = new WorkQueue(ctx.clock);
    ctx.informers.capacityBuffers.on({ add: (b) => this.queue.add(key(b)), update: (_o, b) => this.queue.add(key(b)) });
    const named = (o: KubeObject, ref: (b: StoredCapacityBuffer) => string | undefined): void => {
      for (const b of ctx.informers.capacityBuffers.cache.list())
        if (b.metadata.namespace === o.metadata.namespace && ref(b) === o.metadata.name) this.queue.add(key(b));
    };
    const byDeployment = (d: KubeObject): void => named(d, (b) => b.spec.scalableRef?.name);
    ctx.informers.deployments.on({ add: byDeployment, update: (_o, d) => byDeployment(d), delete: byDeployment });
    const byTemplate = (t: KubeObject): void => named(t, (b) => b.spec.podTemplateRef?.name);
    ctx.informers.podTemplates.on({ add: byTemplate, update: (_o, t) => byTemplate(t), delete: byTemplate });
  }

  /** Resolves one buffer and writes its status. */
  async reconcile(k: string): Promise<ReconcileResult | void> {
    const buffer = this.ctx.informers.capacityBuffers.cache.get(k);
    if (!buffer || buffer.metadata.deletionTimestamp) return;
    const resolved = resolveBuffer(buffer, await bufferSource(this.ctx, buffer));
    const template = resolved.ok ? await this.templateOf(buffer, resolved.template) : undefined;
    await this.writeStatus(buffer, resolved, template);
    return { requeueAfter: relookMs };
  }

  /** The PodTemplate a ready buffer's units are made of: its own, or the one kept for a scalable buffer. */
  private async templateOf(buffer: StoredCapacityBuffer, shape: PodShape): Promise<StoredPodTemplate | undefined> {
    const namespace = buffer.metadata.namespace ?? 'default';
    const own = buffer.spec.podTemplateRef;
    if (own) return this.ctx.informers.podTemplates.cache.get(`${namespace}/${own.name}`);
    const name = managedTemplateName(buffer.metadata.name ?? '');
    const kept = this.ctx.informers.podTemplates.cache.get(`${namespace}/${name}`);
    const template = {
      metadata: { labels: shape.metadata?.labels, annotations: shape.metadata?.annotations },
      spec: shape.spec,
    };
    if (kept && JSON.stringify(kept.template) === JSON.stringify(template)) return kept;
    const body: StoredPodTemplate = {
      metadata: {
        name,
        namespace,
        ...(kept ? { resourceVersion: kept.metadata.resourceVersion } : {}),
        ownerReferences: [
          {
            apiVersion: 'autoscaling.x-k8s.io/v1beta1',
            kind: 'CapacityBuffer',
            name: buffer.metadata.name ?? '',
            uid: buffer.metadata.uid ?? '',
            controller: true,
          },
        ],
      },
      template,
    };
    try {
      return kept
        ? await this.ctx.client.update<StoredPodTemplate>(Resources.podTemplates, body)
        : await this.ctx.client.create<StoredPodTemplate>(Resources.podTemplates, body);
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  private async writeStatus(
    buffer: StoredCapacityBuffer,
    resolved: ResolvedBuffer,
    template: StoredPodTemplate | undefined,
  ): Promise<void> {
    const ready = resolved.ok && template !== undefined;
    await updateWithRetry<StoredCapacityBuffer>({
      client: this.ctx.client,
      resource: Resources.capacityBuffers,
      ref: parseKey(key(buffer)),
      subresource: 'status',
      mutate: (fresh) => {
        const status = fresh.status ?? {};
        const at = { now: this.ctx.clock.now(), generation: fresh.metadata.generation };
        const condition = ready
          ? {
              type: ReadyForProvisioning,
              status: 'True' as const,
              reason: ConditionReasons.attributesSetSuccessfully,
              message: 'ready',
            }
          : {
              type: ReadyForProvisioning,
              status: 'False' as const,
              reason: ConditionReasons.bufferError,
              message: resolved.ok ? 'Buffer not ready for provisioning' : resolved.message,
            };
        const next: NonNullable<CapacityBuffer['status']> = {
          conditions: setCondition(status.conditions, condition, at),
          provisioningStrategy: fresh.spec.provisioningStrategy ?? ActiveCapacityStrategy,
          ...(ready && template
            ? { podTemplateRef: { name: template.metadata.name ?? '' }, replicas: resolved.replicas }
            : {}),
          ...(ready && template?.metadata.generation !== undefined
            ? { podTemplateGeneration: template.metadata.generation }
            : {}),
        };
        if (JSON.stringify(next) === JSON.stringify(fresh.status)) return undefined;
        fresh.status = next;
        return fresh;
      },
    }).catch(ignoreNotFound);
  }
}
