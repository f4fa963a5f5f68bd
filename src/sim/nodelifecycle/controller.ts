/**
 * The simulated node lifecycle controller of kube-controller-manager. Every monitor period it marks nodes
 * whose kubelet went silent for the grace period `Ready=Unknown` (NodeStatusUnknown, "Kubelet stopped posting
 * node status."), keeps the not-ready / unreachable / pressure / unschedulable taints in step with the
 * conditions, marks the pods of a node whose Ready condition left True not ready (MarkPodsNotReady), evicts pods
 * after their toleration seconds, and garbage-collects pods bound to nodes that no longer exist (podgc). All Node
 * and pod writes are conditional on the resourceVersion they were computed from.
 */
import { rfc3339 } from '../../clock/index.js';
import {
  EventRecorder,
  isNotFound,
  keyOf,
  updateWithRetry,
  type Lease,
  type Node,
  type Pod,
} from '../../kube/index.js';
import type { Agent, AgentContext } from '../world/agent.js';
import { ByNode } from '../world/informers.js';
import { SimResources } from '../world/resources.js';
import { evictionTime } from './eviction.js';
import { lastHeard, unknownConditions } from './health.js';
import { NodeNotReadyEvent, nodeReadyStatus, notReadyConditions } from './pod-readiness.js';
import { reconcileTaints } from './taints.js';

/** Options (kube-controller-manager's flags). */
export interface NodeLifecycleOptions {
  /** --node-monitor-period (default 5 s). */
  monitorPeriodMs?: number;
  /** --node-monitor-grace-period (default 50 s since Kubernetes 1.32; 40 s before). */
  gracePeriodMs?: number;
  /** --node-startup-grace-period for nodes that never became Ready (default 60 s). */
  startupGracePeriodMs?: number;
  /** How long a pod must be orphaned before podgc deletes it (default 40 s). */
  orphanQuarantineMs?: number;
}

/** The node lifecycle controller agent. */
export class NodeLifecycleController implements Agent {
  readonly name = 'node-lifecycle-controller';
  private cancel: (() => void) | undefined;
  private readonly orphanSince = new Map<string, number>();
  private readonly evicting = new Set<string>();
  /** Nodes whose pods could not all be marked not ready: tried again while the node stays not Ready. */
  private readonly markRetry = new Set<string>();
  private readonly recorder: EventRecorder;

  /** Creates the controller. */
  constructor(
    private readonly ctx: AgentContext,
    private readonly opts: NodeLifecycleOptions = {},
  ) {
    this.recorder = new EventRecorder({
      client: ctx.client,
      clock: ctx.clock,
      component: 'node-controller',
      onError: (e) => ctx.onError?.(this.name, e),
    });
  }

  /** Starts the monitor loop. */
  start(): void {
    this.ctx.informers.get<Lease>(SimResources.leases);
    this.ctx.informers.get<Pod>(SimResources.pods);
    const period = this.opts.monitorPeriodMs ?? 5_000;
    const tick = (): void => {
      void this.monitor()
        .catch((e: unknown) => this.ctx.onError?.(this.name, e))
        .finally(() => {
          if (this.cancel) this.cancel = this.ctx.clock.setTimer(period, tick);
        });
    };
    this.cancel = this.ctx.clock.setTimer(period, tick);
  }

  /** Stops the loop. */
  stop(): void {
    this.cancel?.();
    this.cancel = undefined;
  }

  /** One monitor pass over every node and orphaned pod. */
  async monitor(): Promise<void> {
    const nodes = this.ctx.informers.get<Node>(SimResources.nodes).cache.list();
    for (const node of nodes) {
      try {
        const observed = nodeReadyStatus(node);
        const current = await this.checkHealth(node);
        const tainted = await this.syncTaints(current);
        await this.markPods(tainted, observed);
        await this.evict(tainted);
      } catch (e) {
        if (!isNotFound(e)) this.ctx.onError?.(this.name, e);
      }
    }
    await this.collectOrphans(new Set(nodes.map((n) => n.metadata.name ?? '')));
  }

  private lease(node: Node): Lease | undefined {
    return this.ctx.informers.get<Lease>(SimResources.leases).cache.get(`kube-node-lease/${node.metadata.name ?? ''}`);
  }

  private async checkHealth(node: Node): Promise<Node> {
    const now = this.ctx.clock.now();
    const everReady = node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    const grace =
      everReady || this.lease(node) ? (this.opts.gracePeriodMs ?? 50_000) : (this.opts.startupGracePeriodMs ?? 60_000);
    if (now - lastHeard(node, this.lease(node)) <= grace) return node;
    return updateWithRetry<Node>({
      client: this.ctx.client,
      resource: SimResources.nodes,
      ref: { name: node.metadata.name ?? '' },
      current: node,
      subresource: 'status',
      mutate: (fresh) => {
        if (now - lastHeard(fresh, this.lease(fresh)) <= grace) return undefined;
        const conditions = unknownConditions(fresh, rfc3339(now));
        return conditions ? { ...fresh, status: { ...fresh.status, conditions } } : undefined;
      },
    });
  }

  private async syncTaints(node: Node): Promise<Node> {
    const now = rfc3339(this.ctx.clock.now());
    if (!reconcileTaints(node, now)) return node;
    return updateWithRetry<Node>({
      client: this.ctx.client,
      resource: SimResources.nodes,
      ref: { name: node.metadata.name ?? '' },
      current: node,
      mutate: (fresh) => {
        const taints = reconcileTaints(fresh, now);
        return taints ? { ...fresh, spec: { ...fresh.spec, taints } } : undefined;
      },
    });
  }

  /**
   * As upstream: when this pass took the node's Ready from True (`observed`) to something else, report the node's
   * status change and mark its pods not ready; a node whose marking failed is tried again on later passes while
   * it is still not Ready. A kubelet that posts NotReady itself keeps its pods' readiness its own business.
   */
  private async markPods(node: Node, observed: string): Promise<void> {
    const name = node.metadata.name ?? '';
    const transition = observed === 'True' && nodeReadyStatus(node) !== 'True';
    if (transition)
      void this.recorder.publish(
        { apiVersion: 'v1', kind: 'Node', metadata: { name, uid: node.metadata.uid } },
        { type: 'Normal', reason: NodeNotReadyEvent.reason, message: `Node ${name} status is now: NodeNotReady` },
      );
    if (transition || (this.markRetry.has(name) && observed !== 'True')) {
      if (!(await this.markPodsNotReady(name))) {
        this.markRetry.add(name);
        return;
      }
    }
    this.markRetry.delete(name);
  }

  /** Sets Ready=False on every pod bound to the node; false when any write failed (not counting pods gone). */
  private async markPodsNotReady(nodeName: string): Promise<boolean> {
    const pods = this.ctx.informers.get<Pod>(SimResources.pods).cache.byIndex(ByNode, nodeName);
    let ok = true;
    for (const pod of pods) {
      const now = rfc3339(this.ctx.clock.now());
      if (!notReadyConditions(pod, now)) continue;
      try {
        const updated = await updateWithRetry<Pod>({
          client: this.ctx.client,
          resource: SimResources.pods,
          ref: { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace },
          current: pod,
          subresource: 'status',
          mutate: (fresh) => {
            const conditions = fresh.spec.nodeName === nodeName ? notReadyConditions(fresh, now) : undefined;
            return conditions ? { ...fresh, status: { ...fresh.status, conditions } } : undefined;
          },
        });
        void this.recorder.publish(
          { ...updated, apiVersion: 'v1', kind: 'Pod' },
          {
            type: 'Warning',
            reason: NodeNotReadyEvent.reason,
            message: NodeNotReadyEvent.podMessage,
          },
        );
      } catch (e) {
        if (isNotFound(e)) continue;
        ok = false;
        this.ctx.onError?.(this.name, e);
      }
    }
    return ok;
  }

  private async evict(node: Node): Promise<void> {
    const taints = node.spec?.taints ?? [];
    if (!taints.some((t) => t.effect === 'NoExecute')) return;
    const now = this.ctx.clock.now();
    const pods = this.ctx.informers.get<Pod>(SimResources.pods).cache.byIndex(ByNode, node.metadata.name ?? '');
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp || this.evicting.has(keyOf(pod))) continue;
      const at = evictionTime(pod, taints, now);
      if (at === undefined || at > now) continue;
      this.evicting.add(keyOf(pod));
      await this.ctx.client
        .delete(SimResources.pods, { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace })
        .catch((e: unknown) => {
          if (!isNotFound(e)) this.ctx.onError?.(this.name, e);
        });
      this.evicting.delete(keyOf(pod));
    }
  }

  private async collectOrphans(nodes: ReadonlySet<string>): Promise<void> {
    const now = this.ctx.clock.now();
    const quarantine = this.opts.orphanQuarantineMs ?? 40_000;
    const seen = new Set<string>();
    for (const pod of this.ctx.informers.get<Pod>(SimResources.pods).cache.list()) {
      const node = pod.spec.nodeName;
      if (!node || nodes.has(node)) continue;
      const key = keyOf(pod);
      seen.add(key);
      const since = this.orphanSince.get(key) ?? now;
      this.orphanSince.set(key, since);
      if (now - since < quarantine) continue;
      await this.ctx.client
        .delete(
          SimResources.pods,
          { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace },
          { gracePeriodSeconds: 0 },
        )
        .catch((e: unknown) => {
          if (!isNotFound(e)) this.ctx.onError?.(this.name, e);
        });
    }
    for (const key of [...this.orphanSince.keys()]) if (!seen.has(key)) this.orphanSince.delete(key);
  }
}
