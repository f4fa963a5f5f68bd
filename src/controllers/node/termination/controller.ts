import { Annotations, DisruptedTaint, Finalizers, Labels, type Taint } from '../../../api/index.js';
import {
  ignoreNotFound,
  KubeApiError,
  isTooManyRequests,
  nodeReadyCondition,
  Resources,
  updateWithRetry,
  WorkQueue,
  type Node,
  type Pod,
  type Reconciler,
  type ReconcileResult,
} from '../../../kube/index.js';
import { NodeClaimNotFoundError } from '../../../cloudprovider/index.js';
import { parseDuration } from '../../../settings/duration.js';
import { podKey } from '../../../state/cluster-state.js';
import { Indexes, type StoredNodeClaim } from '../../../state/informers.js';
import type { ControllerContext } from '../../context.js';
import { EventReasons } from '../../event-reasons.js';
import { drainablePods, drainTiers, isDoNotDisrupt } from './drain-order.js';
import { ReplacementWaits, type DrainReason, type ReplacementWorld } from './replacement-wait.js';

/**
 * node.termination: for a Node being deleted that carries `karpenter.sh/termination`, taint it
 * `karpenter.sh/disrupted:NoSchedule`, drain it tier by tier through the eviction API (PDB refusals are
 * retried), delete what is left once the NodeClaim's terminationGracePeriod has passed, wait for volumes to
 * detach, and release the finalizer. The NodeClaim's own finalizer then terminates the instance. A Node that is
 * not Ready and whose instance is already gone is released at once, undrained. An interrupted node's drain first
 * waits for its pods' replacement capacity (replacement-wait.ts).
 */
export class NodeTerminationController implements Reconciler {
  readonly name = 'node.termination';
  readonly queue: WorkQueue;
  private readonly waits = new ReplacementWaits();
  private readonly world: ReplacementWorld;

  /** Creates the controller and wires its informers to its queue. */
  constructor(private readonly ctx: ControllerContext) {
    this.queue = new WorkQueue(ctx.clock);
    const enqueue = (n: Node): void => {
      if (n.metadata.deletionTimestamp) this.queue.add(n.metadata.name ?? '');
    };
    ctx.informers.nodes.on({
      add: enqueue,
      update: (_o, n) => enqueue(n),
      delete: (n) => this.waits.forget(n.metadata.name ?? ''),
    });
    this.world = {
      nominationOf: (pod) => ctx.state.nominationOf(podKey(pod))?.target,
      nodeClaim: (name) => ctx.informers.nodeClaims.cache.get(name),
      node: (name) => ctx.informers.nodes.cache.get(name),
      managed: (node) => ctx.state.nodeClaimOf(node) !== undefined,
    };
  }

  /** One pass of termination for one Node. */
  async reconcile(name: string): Promise<ReconcileResult | void> {
    const node = this.ctx.informers.nodes.cache.get(name);
    if (!node?.metadata.deletionTimestamp || !node.metadata.finalizers?.includes(Finalizers.termination)) return;
    const nodeClaim = await this.deleteNodeClaim(node);
    // As Karpenter: a Node that is not Ready and whose instance is gone has nothing left to drain (a do-not-disrupt
    // pod or a PDB must not hold a dead node). A Ready one still has a running kubelet, whatever the cloud says.
    if (nodeReadyCondition(node)?.status !== 'True' && (await this.instanceGone(node))) {
      await this.release(name);
      return;
    }
    await this.taint(name);
    const deadline = this.deadline(node, nodeClaim);
    const expired = deadline !== undefined && this.ctx.clock.now() >= deadline;
    const pods = drainablePods(this.ctx.informers.pods.cache.byIndex(Indexes.nodeName, name), this.ctx.clock.now());
    if (pods.length && !expired) {
      const waitMs = this.awaitReplacement(name, nodeClaim, pods);
      if (waitMs !== undefined) return { requeueAfter: waitMs };
    }
    if (pods.length) return this.drain(node, pods, expired);
    const attachments = this.ctx.informers.volumeAttachments.cache.byIndex(Indexes.nodeName, name);
    if (attachments.length && !expired) {
      await this.ctx.recorder.publish(node, {
        type: 'Normal',
        reason: EventReasons.awaitingVolumeDetachment,
        message: `Awaiting deletion of bound volumeattachments (${attachments.map((a) => a.metadata.name).join(', ')})`,
      });
      return { requeueAfter: 1000 };
    }
    await this.release(name);
  }

  /** Deletes the Node's NodeClaim (the two go together) unless it is already deleting; returns it, if any. */
  private async deleteNodeClaim(node: Node): Promise<StoredNodeClaim | undefined> {
    const providerID = node.spec?.providerID;
    const nodeClaim = providerID
      ? this.ctx.informers.nodeClaims.cache.byIndex(Indexes.providerID, providerID)[0]
      : undefined;
    if (nodeClaim && !nodeClaim.metadata.deletionTimestamp)
      await this.ctx.client.delete(Resources.nodeClaims, { name: nodeClaim.metadata.name ?? '' }).catch(ignoreNotFound);
    return nodeClaim;
  }

  /** True when the cloud provider says the Node's instance no longer exists. */
  private async instanceGone(node: Node): Promise<boolean> {
    const providerID = node.spec?.providerID;
    if (!providerID) return false;
    try {
      await this.ctx.cloudProvider.get(providerID);
      return false;
    } catch (e) {
      if (NodeClaimNotFoundError.is(e)) return true;
      throw e;
    }
  }

  /** How long to wait before looking again while an interrupted node waits for its replacement; undefined: drain. */
  private awaitReplacement(name: string, nodeClaim: StoredNodeClaim | undefined, pods: Pod[]): number | undefined {
    const now = this.ctx.clock.now();
    const outcome = this.waits.check({ node: name, nodeClaim, pods, now }, this.world);
    const fields = { controller: this.name, Node: { name }, NodeClaim: { name: nodeClaim?.metadata.name ?? '' } };
    if (outcome.wait) {
      if (outcome.first)
        this.ctx.log.info(
          { ...fields, pods: pods.length, 'drain-deadline': new Date(outcome.until).toISOString() },
          'waiting for replacement capacity before draining',
        );
      return Math.max(1, Math.min(1000, outcome.until - now));
    }
    if (outcome.first)
      this.ctx.log.info({ ...fields, reason: drainReasonText[outcome.why] }, 'draining interrupted node');
    return undefined;
  }

  /** When pods are deleted without eviction: the NodeClaim's termination timestamp (repair sets it to now), else deletion + terminationGracePeriod. */
  private deadline(node: Node, nodeClaim: StoredNodeClaim | undefined): number | undefined {
    const stamped = Date.parse(nodeClaim?.metadata.annotations?.[Annotations.nodeClaimTerminationTimestamp] ?? '');
    if (Number.isFinite(stamped)) return stamped;
    const tgp = nodeClaim?.spec.terminationGracePeriod;
    const ms = tgp ? parseDuration(tgp) : undefined;
    return ms === undefined ? undefined : Date.parse(node.metadata.deletionTimestamp ?? '') + ms;
  }

  /** Adds the disrupted taint, and says so in the log when this call added it. */
  private async taint(name: string): Promise<void> {
    if (!(await this.addTaint(name))) return;
    this.ctx.log.info(
      {
        controller: this.name,
        Node: { name },
        'taint.Key': DisruptedTaint.key,
        'taint.Value': '',
        'taint.Effect': DisruptedTaint.effect,
      },
      'tainted node',
    );
  }

  /** Adds the disrupted taint; true when this call added it. */
  private async addTaint(name: string): Promise<boolean> {
    let added = false;
    await updateWithRetry<Node>({
      client: this.ctx.client,
      resource: Resources.nodes,
      ref: { name },
      mutate: (fresh) => {
        added = false;
        const taints = fresh.spec?.taints ?? [];
        if (taints.some((t) => t.key === DisruptedTaint.key && t.effect === DisruptedTaint.effect)) return undefined;
        fresh.spec = { ...fresh.spec, taints: [...taints, { ...DisruptedTaint } as Taint] };
        added = true;
        return fresh;
      },
    }).catch(ignoreNotFound);
    return added;
  }

  private async drain(node: Node, pods: Pod[], expired: boolean): Promise<ReconcileResult> {
    const tier = drainTiers(pods).find((t) => t.length > 0) ?? [];
    for (const pod of tier) {
      if (pod.metadata.deletionTimestamp) continue;
      if (expired) await this.forceDelete(node, pod);
      else if (!isDoNotDisrupt(pod)) await this.evict(node, pod);
    }
    return { requeueAfter: 1000 };
  }

  private async evict(node: Node, pod: Pod): Promise<void> {
    const ref = { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? 'default' };
    try {
      await this.ctx.client.evict(ref);
      this.ctx.metrics.podEvictionRequests.inc({ code: '200' });
      await this.ctx.recorder.publish(pod, {
        type: 'Normal',
        reason: EventReasons.evicted,
        message: `Evicted pod: draining Node ${node.metadata.name}`,
      });
    } catch (e) {
      if (KubeApiError.is(e)) this.ctx.metrics.podEvictionRequests.inc({ code: String(e.code) });
      if (isTooManyRequests(e)) {
        await this.ctx.recorder.publish(node, {
          type: 'Warning',
          reason: EventReasons.failedDraining,
          message: `Failed to drain node, pod ${ref.namespace}/${ref.name}: eviction refused (a PodDisruptionBudget allows no more disruptions); retrying`,
        });
        return;
      }
      ignoreNotFound(e);
    }
  }

  private async forceDelete(node: Node, pod: Pod): Promise<void> {
    await this.ctx.recorder.publish(node, {
      type: 'Warning',
      reason: EventReasons.terminationGracePeriodExpiring,
      message: `Deleting pod ${pod.metadata.namespace}/${pod.metadata.name}: the NodeClaim's terminationGracePeriod has expired`,
    });
    await this.ctx.client
      .delete(Resources.pods, { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace })
      .catch(ignoreNotFound);
  }

  private async release(name: string): Promise<void> {
    let released = false;
    await updateWithRetry<Node>({
      client: this.ctx.client,
      resource: Resources.nodes,
      ref: { name },
      mutate: (fresh) => {
        released = false;
        if (!fresh.metadata.finalizers?.includes(Finalizers.termination)) return undefined;
        fresh.metadata.finalizers = fresh.metadata.finalizers.filter((f) => f !== Finalizers.termination);
        released = true;
        return fresh;
      },
    }).catch(ignoreNotFound);
    if (!released) return;
    this.waits.forget(name);
    this.ctx.log.info({ controller: this.name, Node: { name } }, 'drained node');
    this.ctx.log.info({ controller: this.name, Node: { name } }, 'deleted node');
    const cached = this.ctx.informers.nodes.cache.get(name);
    const labels = cached?.metadata.labels ?? {};
    this.ctx.metrics.nodesTerminated.inc({ nodepool: labels[Labels.nodePool] ?? '', zone: labels[Labels.zone] ?? '' });
    const nodepool = { nodepool: labels[Labels.nodePool] ?? '' };
    this.ctx.metrics.state.nodesDrained.inc(nodepool);
    const created = Date.parse(cached?.metadata.creationTimestamp ?? '');
    if (Number.isFinite(created))
      this.ctx.metrics.state.nodeLifetime.observe(nodepool, Math.max(0, (this.ctx.clock.now() - created) / 1000));
    const requested = Date.parse(cached?.metadata.deletionTimestamp ?? '');
    if (Number.isFinite(requested))
      this.ctx.metrics.state.nodeTerminationDuration.observe(
        { nodepool: labels[Labels.nodePool] ?? '' },
        Math.max(0, (this.ctx.clock.now() - requested) / 1000),
      );
  }
}

/** Why an interrupted node's drain went ahead, as its log line says. */
const drainReasonText: Record<DrainReason, string> = {
  'not-interrupted': 'no interruption',
  replaced: 'its pods have initialized capacity to go to',
  'launch-failed': 'the replacement failed to launch',
  deadline: 'the pods need their termination grace before the instance ends',
  'nothing-to-move': 'no pod needs a replacement',
};
