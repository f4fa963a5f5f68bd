/**
 * The Deployment controller: one ReplicaSet per pod template (named by its pod-template-hash), scaled with a
 * rolling update within maxSurge / maxUnavailable, or Recreate; the status sums the ReplicaSets'.
 */
import { isAlreadyExists, keyOf } from '../../kube/index.js';
import type { Agent, AgentContext } from '../world/agent.js';
import { ByOwner } from '../world/informers.js';
import { startQueue, type QueueRunner } from '../world/queue-runner.js';
import { controllerRef, SimResources, type Deployment, type ReplicaSet } from '../world/resources.js';
import { writeStatus } from './owned-pods.js';
import { ownerKey, templateHash } from './pod-template.js';
import { nextRollout, resolveBounds } from './rollout.js';

/** The label (and ReplicaSet name suffix) that ties pods to a template revision. */
export const PodTemplateHashLabel = 'pod-template-hash';

/** The Deployment controller agent. */
export class DeploymentController implements Agent {
  readonly name = 'deployment-controller';
  private runner: QueueRunner | undefined;

  /** Creates the controller. */
  constructor(private readonly ctx: AgentContext) {}

  /** Starts watching Deployments and their ReplicaSets. */
  start(): void {
    this.runner = startQueue(this.ctx, { name: this.name, reconcile: (k) => this.reconcile(k) });
    const enqueue = (k: string | undefined): void => {
      if (k) this.runner?.queue.add(k);
    };
    this.ctx.informers
      .get<Deployment>(SimResources.deployments)
      .on({ add: (d) => enqueue(keyOf(d)), update: (_o, d) => enqueue(keyOf(d)) });
    this.ctx.informers.get<ReplicaSet>(SimResources.replicaSets).on({
      add: (rs) => enqueue(ownerKey(rs, 'Deployment')),
      update: (_o, rs) => enqueue(ownerKey(rs, 'Deployment')),
      delete: (rs) => enqueue(ownerKey(rs, 'Deployment')),
    });
  }

  /** Stops the controller. */
  stop(): void {
    this.runner?.stop();
  }

  private async reconcile(key: string): Promise<void> {
    const d = this.ctx.informers.get<Deployment>(SimResources.deployments).cache.get(key);
    if (!d || d.metadata.deletionTimestamp) return;
    const owned = this.ctx.informers
      .get<ReplicaSet>(SimResources.replicaSets)
      .cache.byIndex(ByOwner, d.metadata.uid ?? '');
    const hash = templateHash(d.spec.template);
    const current = owned.find((rs) => rs.metadata.labels?.[PodTemplateHashLabel] === hash);
    const old = owned
      .filter((rs) => rs !== current)
      .sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''));
    if (!current) {
      await this.createReplicaSet(d, hash, old.length === 0 ? (d.spec.replicas ?? 1) : 0);
      return;
    }
    if (!d.spec.paused) await this.rollout(d, current, old);
    const sum = (f: (rs: ReplicaSet) => number | undefined): number => owned.reduce((s, rs) => s + (f(rs) ?? 0), 0);
    const replicas = sum((rs) => rs.status?.replicas);
    const available = sum((rs) => rs.status?.availableReplicas);
    await writeStatus(this.ctx, SimResources.deployments, d, {
      replicas,
      updatedReplicas: current.status?.replicas ?? 0,
      readyReplicas: sum((rs) => rs.status?.readyReplicas),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, (d.spec.replicas ?? 1) - available),
      observedGeneration: d.metadata.generation ?? 1,
    });
  }

  private async rollout(d: Deployment, current: ReplicaSet, old: ReplicaSet[]): Promise<void> {
    const replicas = d.spec.replicas ?? 1;
    if (d.spec.strategy?.type === 'Recreate') {
      for (const rs of old) await this.scaleTo(rs, 0);
      const oldPods = old.reduce((s, rs) => s + (rs.status?.replicas ?? 0), 0);
      if (oldPods === 0) await this.scaleTo(current, replicas);
      return;
    }
    const { maxSurge, maxUnavailable } = resolveBounds(
      replicas,
      d.spec.strategy?.rollingUpdate?.maxSurge,
      d.spec.strategy?.rollingUpdate?.maxUnavailable,
    );
    const available = [current, ...old].reduce(
      (s, rs) => s + Math.min(rs.status?.availableReplicas ?? 0, rs.spec.replicas ?? 0),
      0,
    );
    const next = nextRollout({
      replicas,
      maxSurge,
      maxUnavailable,
      newReplicas: current.spec.replicas ?? 0,
      oldReplicas: old.map((rs) => rs.spec.replicas ?? 0),
      available,
    });
    // With no old ReplicaSet left to replace, a plain scale goes straight to the desired count.
    await this.scaleTo(current, old.every((rs) => (rs.spec.replicas ?? 0) === 0) ? replicas : next.newReplicas);
    for (const [i, rs] of old.entries()) await this.scaleTo(rs, next.oldReplicas[i] ?? 0);
  }

  private async scaleTo(rs: ReplicaSet, replicas: number): Promise<void> {
    if ((rs.spec.replicas ?? 1) === replicas) return;
    await this.ctx.client.patch(
      SimResources.replicaSets,
      { name: rs.metadata.name ?? '', namespace: rs.metadata.namespace },
      { spec: { replicas } },
    );
  }

  private async createReplicaSet(d: Deployment, hash: string, replicas: number): Promise<void> {
    const labels = { ...d.spec.template.metadata?.labels, [PodTemplateHashLabel]: hash };
    const rs: ReplicaSet = {
      metadata: {
        name: `${d.metadata.name ?? 'deploy'}-${hash}`,
        namespace: d.metadata.namespace,
        labels,
        ownerReferences: [controllerRef(d, 'Deployment')],
      },
      spec: {
        replicas,
        selector: { ...d.spec.selector, matchLabels: { ...d.spec.selector.matchLabels, [PodTemplateHashLabel]: hash } },
        template: { ...d.spec.template, metadata: { ...d.spec.template.metadata, labels } },
      },
    };
    await this.ctx.client.create(SimResources.replicaSets, rs).catch((e: unknown) => {
      // Created on a pass whose cache had not seen it yet.
      if (!isAlreadyExists(e)) throw e;
    });
  }
}
