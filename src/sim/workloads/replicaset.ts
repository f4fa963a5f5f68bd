/** The ReplicaSet controller: keeps `replicas` active pods from the template, deleting surplus in ReplicaSet's order. */
import type { Pod } from '../../kube/index.js';
import type { AgentContext } from '../world/agent.js';
import { controllerRef, SimResources, type ReplicaSet } from '../world/resources.js';
import { inOrder } from './expectations.js';
import { OwnedPodsController, PodTally, podsOf, writeStatus } from './owned-pods.js';
import { deletionOrder, isActive, podFromTemplate } from './pod-template.js';

/** At most this many pods are created or deleted per pass (the upstream burst is 500). */
const burst = 500;

/** The ReplicaSet controller agent. */
export class ReplicaSetController extends OwnedPodsController {
  readonly name = 'replicaset-controller';
  private tally: PodTally | undefined;

  /** Creates the controller. */
  constructor(ctx: AgentContext) {
    super(ctx, { kind: 'ReplicaSet', resource: SimResources.replicaSets });
  }

  /** Starts counting pods, then watching the ReplicaSets and their pods. */
  override start(): void {
    this.tally = new PodTally(this.ctx);
    super.start();
  }

  // The counts come from the tally; the pods themselves are listed only when some must be deleted.
  protected async reconcile(key: string): Promise<void> {
    const rs = this.ctx.informers.get<ReplicaSet>(SimResources.replicaSets).cache.get(key);
    if (!rs || rs.metadata.deletionTimestamp) return;
    const counts = this.tally?.counts(rs.metadata.uid ?? '') ?? { active: 0, ready: 0, failed: 0 };
    if (this.expectations.satisfied(key)) await this.scale(key, rs, counts.active);
    // Failed pods (rejected by a kubelet) are replaced: delete them so they stop counting.
    if (counts.failed > 0)
      for (const p of podsOf(this.ctx, rs).filter((x) => x.status?.phase === 'Failed' && !x.metadata.deletionTimestamp))
        await this.deletePod(p);
    await writeStatus(this.ctx, SimResources.replicaSets, rs, {
      replicas: counts.active,
      fullyLabeledReplicas: counts.active,
      readyReplicas: counts.ready,
      availableReplicas: counts.ready,
      observedGeneration: rs.metadata.generation ?? 1,
    });
  }

  private async scale(key: string, rs: ReplicaSet, active: number): Promise<void> {
    const diff = (rs.spec.replicas ?? 1) - active;
    if (diff > 0) {
      const n = Math.min(diff, burst);
      this.expectations.expect(key, n, 0);
      const slots = Array.from({ length: n }, (_, i) => i);
      await inOrder(
        slots,
        () => this.createPod(key, this.newPod(rs)),
        () => this.expectations.created(key),
      );
    } else if (diff < 0) {
      const victims = podsOf(this.ctx, rs).filter(isActive).sort(deletionOrder).slice(0, Math.min(-diff, burst));
      this.expectations.expect(key, 0, victims.length);
      await inOrder(
        victims,
        (p) => this.deletePod(p, key),
        () => this.expectations.deleted(key),
      );
    }
  }

  private newPod(rs: ReplicaSet): Pod {
    const namespace = rs.metadata.namespace ?? 'default';
    return podFromTemplate(rs.spec.template, {
      namespace,
      name: `${rs.metadata.name ?? 'rs'}-${this.ctx.rng.suffix(5)}`,
      owner: controllerRef(rs, 'ReplicaSet'),
    });
  }
}
