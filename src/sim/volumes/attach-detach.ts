/**
 * The attach/detach controller with a CSI attacher: a VolumeAttachment for every bound CSI volume that an
 * active pod on a node mounts, marked attached after a short delay; attachments no pod needs any more are
 * deleted. Reconciled per node.
 */
import { isAlreadyExists, isNotFound, type Pod } from '../../kube/index.js';
import type { Agent, AgentContext } from '../world/agent.js';
import { ByNode } from '../world/informers.js';
import { startQueue, type QueueRunner } from '../world/queue-runner.js';
import { SimResources, type PersistentVolumeClaim, type VolumeAttachment } from '../world/resources.js';
import { isActive } from '../workloads/pod-template.js';
import { attachmentName, podVolumesBound } from './readiness.js';

/** The attach/detach agent. */
export class AttachDetachController implements Agent {
  readonly name = 'attachdetach-controller';
  private runner: QueueRunner | undefined;

  /** Creates the controller. */
  constructor(
    private readonly ctx: AgentContext,
    private readonly attachDelayMs = { min: 500, max: 3_000 },
  ) {}

  /** Watches pods, claims and attachments. */
  start(): void {
    this.runner = startQueue(this.ctx, { name: this.name, reconcile: (k) => this.reconcile(k) });
    const byPod = (p: Pod): void => {
      if (p.spec.nodeName && (p.spec.volumes ?? []).length > 0) this.runner?.queue.add(p.spec.nodeName);
    };
    this.ctx.informers.get<Pod>(SimResources.pods).on({ add: byPod, update: (_o, p) => byPod(p), delete: byPod });
    this.ctx.informers.get<PersistentVolumeClaim>(SimResources.persistentVolumeClaims).on({ update: () => this.all() });
    this.ctx.informers
      .get<VolumeAttachment>(SimResources.volumeAttachments)
      .on({ add: (va) => this.runner?.queue.add(va.spec.nodeName) });
  }

  /** Stops the controller. */
  stop(): void {
    this.runner?.stop();
  }

  private all(): void {
    const nodes = new Set(
      this.ctx.informers
        .get<Pod>(SimResources.pods)
        .cache.list()
        .map((p) => p.spec.nodeName)
        .filter((n): n is string => !!n),
    );
    for (const n of nodes) this.runner?.queue.add(n);
  }

  private desired(node: string): VolumeAttachment[] {
    const out = new Map<string, VolumeAttachment>();
    for (const pod of this.ctx.informers.get<Pod>(SimResources.pods).cache.byIndex(ByNode, node)) {
      if (!isActive(pod) && !pod.metadata.deletionTimestamp) continue;
      for (const pv of podVolumesBound(this.ctx.informers, pod)) {
        const driver = pv?.spec.csi?.driver;
        if (!pv || !driver) continue;
        const name = attachmentName(driver, pv.metadata.name ?? '', node);
        out.set(name, {
          metadata: { name },
          spec: { attacher: driver, nodeName: node, source: { persistentVolumeName: pv.metadata.name } },
        });
      }
    }
    return [...out.values()];
  }

  private async reconcile(node: string): Promise<void> {
    const cache = this.ctx.informers.get<VolumeAttachment>(SimResources.volumeAttachments).cache;
    const desired = this.desired(node);
    for (const va of desired) {
      const current = cache.get(va.metadata.name ?? '');
      if (!current)
        await this.ctx.client
          .create(SimResources.volumeAttachments, va)
          .catch((e: unknown) => (isAlreadyExists(e) ? undefined : Promise.reject(e)));
      else if (!current.status?.attached) this.attachLater(current);
    }
    const wanted = new Set(desired.map((d) => d.metadata.name));
    for (const va of cache.list().filter((v) => v.spec.nodeName === node && !wanted.has(v.metadata.name))) {
      await this.ctx.client
        .delete(SimResources.volumeAttachments, { name: va.metadata.name ?? '' })
        .catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
    }
  }

  private readonly attaching = new Set<string>();

  private attachLater(va: VolumeAttachment): void {
    const name = va.metadata.name ?? '';
    if (this.attaching.has(name)) return;
    this.attaching.add(name);
    this.ctx.clock.setTimer(this.ctx.rng.between(this.attachDelayMs), () => {
      void this.ctx.client
        .patch(SimResources.volumeAttachments, { name }, { status: { attached: true } }, { subresource: 'status' })
        .catch((e: unknown) => (isNotFound(e) ? undefined : this.ctx.onError?.(this.name, e)))
        .finally(() => this.attaching.delete(name));
    });
  }
}
