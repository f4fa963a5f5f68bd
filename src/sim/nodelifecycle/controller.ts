/**
 * The simulated node lifecycle controller of kube-controller-manager. Every monitor period it marks nodes
 * whose kubelet went silent for the grace period `Ready=Unknown` (NodeStatusUnknown, "Kubelet stopped posting
 * node status."), keeps the not-ready / unreachable / pressure / unschedulable taints in step with the
 * conditions, evicts pods after their toleration seconds, and garbage-collects pods bound to nodes that no
 * longer exist (podgc). All Node writes are conditional on the resourceVersion they were computed from.
 */
import { rfc3339 } from '../../clock/index.js';
import { isNotFound, keyOf, updateWithRetry, type Lease, type Node, type Pod } from '../../kube/index.js';
import type { Agent, AgentContext } from '../world/agent.js';
import { ByNode } from '../world/informers.js';
import { SimResources } from '../world/resources.js';
import { evictionTime } from './eviction.js';
import { lastHeard, unknownConditions } from './health.js';
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

  /** Creates the controller. */
  constructor(
    private readonly ctx: AgentContext,
    private readonly opts: NodeLifecycleOptions = {},
  ) {}

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
        const current = await this.checkHealth(node);
        const tainted = await this.syncTaints(current);
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
