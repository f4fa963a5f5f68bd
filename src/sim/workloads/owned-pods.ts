/** Wiring shared by the workload controllers: queue the owner on its own changes and on its pods' changes. */
import { isNotFound, keyOf, type KubeObject, type Pod, type ResourceType } from '../../kube/index.js';
import type { Agent, AgentContext } from '../world/agent.js';
import { startQueue, type QueueRunner } from '../world/queue-runner.js';
import { ByOwner } from '../world/informers.js';
import { SimResources } from '../world/resources.js';
import { Expectations } from './expectations.js';
import { isActive, isReady, ownerKey } from './pod-template.js';

/** Registers handlers that queue `kind` objects when they or their pods change, counting observed pods against expectations. */
export function watchOwnerAndPods(
  ctx: AgentContext,
  spec: { kind: string; resource: ResourceType; enqueue: (key: string) => void; expectations: Expectations },
): void {
  ctx.informers.get(spec.resource).on({
    add: (o) => spec.enqueue(keyOf(o)),
    update: (_a, o) => spec.enqueue(keyOf(o)),
    delete: (o) => {
      spec.expectations.forget(keyOf(o));
      spec.enqueue(keyOf(o));
    },
  });
  ctx.informers.get<Pod>(SimResources.pods).on({
    add: (p) => {
      const k = ownerKey(p, spec.kind);
      if (!k) return;
      spec.expectations.created(k);
      spec.enqueue(k);
    },
    update: (o, p) => {
      const k = ownerKey(p, spec.kind);
      if (!k) return;
      // A pod that starts terminating counts as deleted, as upstream: the controller need not wait for the kubelet.
      if (p.metadata.deletionTimestamp && !o.metadata.deletionTimestamp) spec.expectations.deleted(k);
      spec.enqueue(k);
    },
    delete: (p) => {
      const k = ownerKey(p, spec.kind);
      if (!k) return;
      if (!p.metadata.deletionTimestamp) spec.expectations.deleted(k);
      spec.enqueue(k);
    },
  });
}

/** The pods whose controller is `owner`. */
export function podsOf(ctx: AgentContext, owner: KubeObject): Pod[] {
  return ctx.informers.get<Pod>(SimResources.pods).cache.byIndex(ByOwner, owner.metadata.uid ?? '');
}

/** Writes `status` through the status subresource when it differs from the object's current one. */
export async function writeStatus(
  ctx: AgentContext,
  rt: ResourceType,
  obj: KubeObject & { status?: object },
  status: object,
): Promise<void> {
  const current = obj.status ?? {};
  const merged = { ...current, ...status };
  if (JSON.stringify(merged) === JSON.stringify(current)) return;
  await ctx.client.patch(
    rt,
    { name: obj.metadata.name ?? '', namespace: obj.metadata.namespace },
    { status },
    { subresource: 'status' },
  );
}

/**
 * A controller of pods owned by one kind of workload (ReplicaSet, StatefulSet): a queue per kind fed by the owner
 * and its pods, with expectations so a stale cache never creates or deletes twice.
 */
export abstract class OwnedPodsController implements Agent {
  abstract readonly name: string;
  protected runner: QueueRunner | undefined;
  protected readonly expectations: Expectations;

  /** Creates the controller for owners of `owner.kind` stored at `owner.resource`. */
  constructor(
    protected readonly ctx: AgentContext,
    private readonly owner: { kind: string; resource: ResourceType },
  ) {
    this.expectations = new Expectations(ctx.clock);
  }

  /** Starts watching the owners and their pods. */
  start(): void {
    this.runner = startQueue(this.ctx, { name: this.name, reconcile: (k) => this.reconcile(k) });
    watchOwnerAndPods(this.ctx, {
      ...this.owner,
      enqueue: (k) => this.runner?.queue.add(k),
      expectations: this.expectations,
    });
  }

  /** Stops the controller. */
  stop(): void {
    this.runner?.stop();
  }

  /** Brings one owner's pods toward its spec. */
  protected abstract reconcile(key: string): Promise<void>;

  /** Creates one pod for the owner under `key`; a failed create releases the expectation it was counted in. */
  protected async createPod(key: string, pod: Pod): Promise<void> {
    try {
      await this.ctx.client.create(SimResources.pods, pod);
    } catch (e) {
      this.expectations.created(key);
      throw e;
    }
  }

  /** Deletes one pod (gone already is fine); with `key`, a failed delete releases its expectation. */
  protected async deletePod(p: Pod, key?: string): Promise<void> {
    try {
      await this.ctx.client.delete(SimResources.pods, { name: p.metadata.name ?? '', namespace: p.metadata.namespace });
    } catch (e) {
      if (key) this.expectations.deleted(key);
      if (!isNotFound(e)) throw e;
    }
  }
}

/** How one owner's pods stand, as the ReplicaSet's status counts them. */
export interface PodCounts {
  /** Pods not terminal and not being deleted. */
  active: number;
  /** Active pods that are Running and Ready. */
  ready: number;
  /** Failed pods not yet being deleted. */
  failed: number;
}

function countsOf(p: Pod): PodCounts {
  const active = isActive(p);
  return {
    active: active ? 1 : 0,
    ready: active && isReady(p) ? 1 : 0,
    failed: p.status?.phase === 'Failed' && !p.metadata.deletionTimestamp ? 1 : 0,
  };
}

/**
 * Per-owner pod counts kept from pod events, so a reconcile triggered by one pod's change reads its owner's counts
 * in O(1) instead of walking every pod of the owner (which made a large ReplicaSet's pod events cost O(pods²)).
 */
export class PodTally {
  private readonly byOwner = new Map<string, PodCounts>();

  /** Starts counting from the shared pod informer (cached pods arrive as adds). */
  constructor(ctx: AgentContext) {
    ctx.informers.get<Pod>(SimResources.pods).on({
      add: (p) => this.apply(p, 1),
      update: (o, p) => {
        this.apply(o, -1);
        this.apply(p, 1);
      },
      delete: (p) => this.apply(p, -1),
    });
  }

  /** The counts of the pods whose controller has uid `owner`, as of now (a copy). */
  counts(owner: string): PodCounts {
    const t = this.byOwner.get(owner);
    return t ? { ...t } : { active: 0, ready: 0, failed: 0 };
  }

  private apply(p: Pod, sign: 1 | -1): void {
    const owner = p.metadata.ownerReferences?.find((r) => r.controller)?.uid;
    if (!owner) return;
    const c = countsOf(p);
    const t = this.byOwner.get(owner) ?? { active: 0, ready: 0, failed: 0 };
    t.active += sign * c.active;
    t.ready += sign * c.ready;
    t.failed += sign * c.failed;
    if (t.active === 0 && t.ready === 0 && t.failed === 0) this.byOwner.delete(owner);
    else this.byOwner.set(owner, t);
  }
}
