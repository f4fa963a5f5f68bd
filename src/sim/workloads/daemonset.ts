/**
 * The DaemonSet controller: one pod per node that the template's node selector and affinity admit and whose
 * NoSchedule / NoExecute taints the pod tolerates (with the tolerations DaemonSet pods always get). Each pod is
 * pinned to its node with node affinity on `metadata.name` and placed by the kube-scheduler, as upstream.
 */
import type { Toleration } from '../../api/index.js';
import { isNotFound, keyOf, type Node, type Pod } from '../../kube/index.js';
import { nodeLocalViolations } from '../scheduler/feasibility.js';
import { nodeInfo } from '../scheduler/node-info.js';
import type { Agent, AgentContext } from '../world/agent.js';
import { startQueue, type QueueRunner } from '../world/queue-runner.js';
import { controllerRef, SimResources, type DaemonSet } from '../world/resources.js';
import { Expectations, inOrder } from './expectations.js';
import { podsOf, watchOwnerAndPods, writeStatus } from './owned-pods.js';
import { isActive, isReady, podFromTemplate } from './pod-template.js';

/** The tolerations the DaemonSet controller adds to every pod it creates. */
export const DaemonSetTolerations: Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

/** The pod the DaemonSet would run on `node` (before creation). */
export function daemonPod(ds: DaemonSet, node: string, name: string): Pod {
  const pod = podFromTemplate(ds.spec.template, {
    namespace: ds.metadata.namespace ?? 'default',
    name,
    owner: controllerRef(ds, 'DaemonSet'),
  });
  pod.spec.tolerations = [...(pod.spec.tolerations ?? []), ...DaemonSetTolerations];
  pod.spec.affinity = {
    ...pod.spec.affinity,
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
      },
    },
  };
  return pod;
}

/** True when the DaemonSet should run a pod on the node. */
export function shouldRun(ds: DaemonSet, node: Node): boolean {
  if (node.metadata.deletionTimestamp) return false;
  const probe = podFromTemplate(ds.spec.template, {
    namespace: 'x',
    name: 'probe',
    owner: controllerRef(ds, 'DaemonSet'),
  });
  probe.spec.tolerations = [...(probe.spec.tolerations ?? []), ...DaemonSetTolerations];
  // Node affinity and taints decide; resources do not (the scheduler, or preemption, makes room).
  return !nodeLocalViolations(probe, nodeInfo(node, [])).some(
    (v) => v.family === 'requirements' || v.family === 'taints',
  );
}

/** The node a DaemonSet pod is for: its binding, else its metadata.name affinity. */
export function targetNode(pod: Pod): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return terms?.[0]?.matchFields?.[0]?.values?.[0];
}

/** The DaemonSet controller agent. */
export class DaemonSetController implements Agent {
  readonly name = 'daemonset-controller';
  private runner: QueueRunner | undefined;
  private readonly expectations: Expectations;

  /** Creates the controller. */
  constructor(private readonly ctx: AgentContext) {
    this.expectations = new Expectations(ctx.clock);
  }

  /** Starts watching DaemonSets, their pods and nodes. */
  start(): void {
    this.runner = startQueue(this.ctx, { name: this.name, reconcile: (k) => this.reconcile(k) });
    const all = (): void => {
      for (const ds of this.ctx.informers.get<DaemonSet>(SimResources.daemonSets).cache.list())
        this.runner?.queue.add(keyOf(ds));
    };
    watchOwnerAndPods(this.ctx, {
      kind: 'DaemonSet',
      resource: SimResources.daemonSets,
      enqueue: (k) => this.runner?.queue.add(k),
      expectations: this.expectations,
    });
    this.ctx.informers.get<Node>(SimResources.nodes).on({
      add: all,
      update: (o, n) =>
        JSON.stringify([o.metadata.labels, o.spec]) !== JSON.stringify([n.metadata.labels, n.spec]) ? all() : undefined,
      delete: all,
    });
  }

  /** Stops the controller. */
  stop(): void {
    this.runner?.stop();
  }

  private async reconcile(key: string): Promise<void> {
    const ds = this.ctx.informers.get<DaemonSet>(SimResources.daemonSets).cache.get(key);
    if (!ds || ds.metadata.deletionTimestamp) return;
    const nodes = this.ctx.informers.get<Node>(SimResources.nodes).cache.list();
    const wanted = new Set(nodes.filter((n) => shouldRun(ds, n)).map((n) => n.metadata.name ?? ''));
    const pods = podsOf(this.ctx, ds).filter(isActive);
    const byNode = new Map<string, Pod[]>();
    for (const p of pods) byNode.set(targetNode(p) ?? '', [...(byNode.get(targetNode(p) ?? '') ?? []), p]);
    if (this.expectations.satisfied(key)) {
      const missing = [...wanted].filter((n) => !byNode.has(n)).sort();
      const surplus = pods.filter(
        (p) => !wanted.has(targetNode(p) ?? '') || (byNode.get(targetNode(p) ?? '')?.indexOf(p) ?? 0) > 0,
      );
      this.expectations.expect(key, missing.length, surplus.length);
      const changes = [
        ...missing.map((node) => ({
          add: () => this.create(key, ds, node),
          release: () => this.expectations.created(key),
        })),
        ...surplus.map((p) => ({ add: () => this.remove(key, p), release: () => this.expectations.deleted(key) })),
      ];
      await inOrder(
        changes,
        (c) => c.add(),
        (c) => c.release(),
      );
    }
    const scheduled = pods.filter((p) => wanted.has(targetNode(p) ?? '') && p.spec.nodeName);
    await writeStatus(this.ctx, SimResources.daemonSets, ds, {
      desiredNumberScheduled: wanted.size,
      currentNumberScheduled: scheduled.length,
      numberReady: scheduled.filter(isReady).length,
      numberMisscheduled: pods.filter((p) => p.spec.nodeName && !wanted.has(p.spec.nodeName)).length,
      observedGeneration: ds.metadata.generation ?? 1,
    });
  }

  private async create(key: string, ds: DaemonSet, node: string): Promise<void> {
    try {
      await this.ctx.client.create(
        SimResources.pods,
        daemonPod(ds, node, `${ds.metadata.name ?? 'ds'}-${this.ctx.rng.suffix(5)}`),
      );
    } catch (e) {
      this.expectations.created(key);
      throw e;
    }
  }

  private async remove(key: string, p: Pod): Promise<void> {
    try {
      await this.ctx.client.delete(SimResources.pods, { name: p.metadata.name ?? '', namespace: p.metadata.namespace });
    } catch (e) {
      this.expectations.deleted(key);
      if (!isNotFound(e)) throw e;
    }
  }
}
