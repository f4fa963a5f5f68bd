/**
 * The simulated kube-scheduler: takes pending pods of the default scheduler one at a time, binds each to the
 * best feasible node through the pods/binding subresource, or marks it PodScheduled=False (Unschedulable) with
 * kube-scheduler's message and a FailedScheduling event. A pod that fits nowhere may preempt lower-priority pods:
 * it is nominated to the node (status.nominatedNodeName, which keeps its room from lower-priority pods) and the
 * victims are deleted gracefully; it binds there once they are gone. Unschedulable pods wait in the scheduling
 * queue (scheduling-queue.ts) for a change that may make room for them. Filtering stops once enough feasible nodes
 * are found (percentageOfNodesToScore), and a failure of a pod's equivalence class is reused by the next pod of
 * the class while nothing that could make room has changed.
 */
import { isConflict, isNotFound, keyOf, parseKey, type Node, type Pod } from '../../kube/index.js';
import type { Agent, AgentContext } from '../world/agent.js';
import { startQueue, type QueueRunner } from '../world/queue-runner.js';
import {
  SimResources,
  type CsiNode,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type PodDisruptionBudget,
  type StorageClass,
} from '../world/resources.js';
import { decide, type Decision } from './decide.js';
import { fitErrorMessage } from './fit-error.js';
import { infeasibility } from './feasibility.js';
import { copiesThatFit, requestsOf, withPods, type NodeInfo } from './node-info.js';
import { NodeInfoCache } from './node-info-cache.js';
import { classKeyOf } from './parked-pods.js';
import { SchedulingQueue, type QueueTimings } from './scheduling-queue.js';
import { preempt, priorityOf } from './preemption.js';
import { occupiesNode } from './sched-pod.js';
import { volumeInfo, type VolumeObjects } from './volume-filter.js';
import { selectNodeForClaims } from './volume-binding.js';
import { evictVictims, postBinding, writeUnschedulable } from './pod-writes.js';
import { SeriesEventRecorder } from './series-events.js';

/** Options of the scheduler: its queue's timings. */
export type SchedulerOptions = QueueTimings;

/** The pods this scheduler is responsible for. */
export function isPendingForScheduler(pod: Pod): boolean {
  return (
    !pod.spec.nodeName &&
    !pod.metadata.deletionTimestamp &&
    occupiesNode(pod) &&
    (pod.spec.schedulerName ?? 'default-scheduler') === 'default-scheduler'
  );
}

/** The series of a pod's scheduling events, which end when it is bound. */
const schedulingSeries = [
  { type: 'Normal', reason: 'Scheduled' },
  { type: 'Warning', reason: 'FailedScheduling' },
] as const;

/** The simulated kube-scheduler agent. */
export class KubeScheduler implements Agent {
  readonly name = 'kube-scheduler';
  private runner: QueueRunner | undefined;
  private readonly queue: SchedulingQueue;
  /** A class's last failed cycle, reused by its next pod while nothing that could make room has changed. */
  private readonly failures = new Map<string, { seq: number; message: string; clearNomination: boolean }>();
  /** kube-scheduler's nextStartNodeIndex: where the next cycle starts filtering. */
  private nextStart = 0;
  /** Pods bound by this scheduler whose binding the informer has not shown yet. */
  private readonly assumed = new Map<string, { pod: Pod; node: string }>();
  /** Pending pods nominated to a node by preemption: their room is kept from pods of lower priority. */
  private readonly nominated = new Map<string, Pod>();
  private readonly events: SeriesEventRecorder;
  private readonly cache = new NodeInfoCache();
  /** The CSINodes as one array until one changes, so what the filter derives from them is derived once. */
  private csiNodes: CsiNode[] | undefined;

  /** Creates the scheduler. */
  constructor(
    private readonly ctx: AgentContext,
    private readonly opts: SchedulerOptions = {},
  ) {
    // kube-scheduler records through client-go's events.k8s.io broadcaster: one Event per pod and reason, counted.
    const pod = (k: string): Pod | undefined => ctx.informers.get<Pod>(SimResources.pods).cache.get(k);
    this.queue = new SchedulingQueue(
      { clock: ctx.clock, schedule: (k) => this.runner?.queue.add(k), pod, roomOn: (p, n) => this.roomOn(p, n) },
      opts,
    );
    this.events = new SeriesEventRecorder({
      client: ctx.client,
      clock: ctx.clock,
      component: 'default-scheduler',
      onError: (e) => ctx.onError?.(this.name, e),
    });
  }

  /** Watches pods, nodes and volumes and starts the scheduling loop. */
  start(): void {
    const inf = this.ctx.informers;
    this.runner = startQueue(this.ctx, { name: this.name, reconcile: (k) => this.scheduleOne(k) });
    inf.get<Pod>(SimResources.pods).on({
      add: (p) => {
        this.cache.setPod(p);
        this.enqueue(p);
      },
      update: (_o, p) => {
        // An assumed pod stays on its node in the cache until the informer shows the binding.
        if (p.spec.nodeName || !this.assumed.has(keyOf(p))) this.cache.setPod(p);
        this.podUpdated(p);
      },
      delete: (p) => {
        this.cache.deletePod(keyOf(p));
        this.assumed.delete(keyOf(p));
        this.setNomination(keyOf(p), undefined);
        this.queue.forget(keyOf(p));
        if (p.spec.nodeName) this.queue.nodeGainedRoom(p.spec.nodeName);
      },
    });
    inf.get(SimResources.podDisruptionBudgets);
    inf.get<Node>(SimResources.nodes).on({
      add: (n) => {
        this.cache.setNode(n);
        this.queue.nodeGainedRoom(n.metadata.name ?? '');
      },
      update: (o, n) => {
        this.cache.setNode(n);
        this.nodeUpdated(o, n);
      },
      delete: (n) => {
        this.cache.deleteNode(n.metadata.name ?? '');
        // Fewer nodes makes no room, but topology domains change for pods whose rules read other pods.
        this.queue.changedForLoners();
      },
    });
    // Volumes matter only to pods with volumes, which have no class and are woken by every change anyway.
    for (const rt of [
      SimResources.persistentVolumeClaims,
      SimResources.persistentVolumes,
      SimResources.storageClasses,
    ]) {
      inf.get(rt).on({ add: () => this.queue.changedForLoners(), update: () => this.queue.changedForLoners() });
    }
    // A CSINode is its node's attach limits: a change there is a change of that node.
    const csiChanged = (c: CsiNode): void => {
      this.csiNodes = undefined;
      this.queue.nodeGainedRoom(c.metadata.name ?? '');
    };
    inf.get<CsiNode>(SimResources.csiNodes).on({
      add: csiChanged,
      update: (_o, c) => csiChanged(c),
      delete: () => {
        this.csiNodes = undefined;
      },
    });
    this.queue.start();
  }

  /** Stops the loop. */
  stop(): void {
    this.runner?.stop();
    this.queue.stop();
    this.events.stop();
  }

  private enqueue(p: Pod): void {
    if (isPendingForScheduler(p)) this.runner?.queue.add(keyOf(p));
  }

  /** Records a pod's nomination (undefined: none); a nomination that ends gives its node's room back. */
  private setNomination(key: string, p: Pod | undefined): void {
    const before = this.nominated.get(key)?.status?.nominatedNodeName;
    if (p) this.nominated.set(key, p);
    else this.nominated.delete(key);
    const after = p?.status?.nominatedNodeName;
    if (before === after) return;
    if (before) this.queue.nodeGainedRoom(before);
    else this.queue.changed();
  }

  private podUpdated(p: Pod): void {
    const key = keyOf(p);
    this.setNomination(
      key,
      !p.spec.nodeName && p.status?.nominatedNodeName && !p.metadata.deletionTimestamp ? p : undefined,
    );
    if (p.spec.nodeName) {
      this.assumed.delete(key);
      this.queue.forget(key);
      if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed' || p.metadata.deletionTimestamp)
        this.queue.nodeGainedRoom(p.spec.nodeName);
      return;
    }
    // Only spec changes make a parked pod worth another try; our own status writes must not loop.
    if (!this.queue.has(key)) this.enqueue(p);
  }

  private nodeUpdated(o: Node, n: Node): void {
    const relevant = (x: Node): string =>
      JSON.stringify([x.metadata.labels, x.spec?.taints, x.spec?.unschedulable, x.status?.allocatable]);
    if (relevant(o) !== relevant(n)) this.queue.nodeGainedRoom(n.metadata.name ?? '');
  }

  /** How many pods like `pod` node `name` can take now (0 when it is not feasible for it). */
  private roomOn(pod: Pod, name: string): number {
    const info = this.nodeInfoFor(pod, name);
    if (!info) return 0;
    const volumes = this.volumeObjects();
    const nodes = this.cache.hasAntiAffinity() ? this.nodeInfos(pod) : [info];
    const verdict = infeasibility(pod, nodes, { volumes: volumeInfo(volumes), csiNodes: volumes.csiNodes }, [info]).get(
      name,
    );
    return verdict && verdict.reasons.length === 0 ? copiesThatFit(requestsOf(pod), info) : 0;
  }

  /** The volume objects a cycle reads. */
  private volumeObjects(): VolumeObjects {
    const inf = this.ctx.informers;
    return {
      claims: inf.get<PersistentVolumeClaim>(SimResources.persistentVolumeClaims).cache.list(),
      volumes: inf.get<PersistentVolume>(SimResources.persistentVolumes).cache.list(),
      storageClasses: inf.get<StorageClass>(SimResources.storageClasses).cache.list(),
      csiNodes: (this.csiNodes ??= inf.get<CsiNode>(SimResources.csiNodes).cache.list()),
    };
  }

  /**
   * The nodes as `pod` sees them: bound and assumed pods (both in the cache), and pods nominated there with at least
   * its priority. The cached NodeInfos are shared, so a node with nominated pods gets a copy with them added.
   */
  private nodeInfos(pod: Pod): readonly NodeInfo[] {
    const extra = this.extraCharges(pod);
    const infos = this.cache.list();
    if (extra.size === 0) return infos;
    const out = infos.slice();
    for (const [name, add] of extra) {
      const i = this.cache.position(name);
      const info = i === undefined ? undefined : out[i];
      if (i === undefined || !info || info.name !== name) continue;
      out[i] = withPods(info, add);
    }
    return out;
  }

  /** Pods the cache does not show on a node: nominations `pod` must leave room for. */
  private extraCharges(pod: Pod, onlyNode?: string): Map<string, Pod[]> {
    const extra = new Map<string, Pod[]>();
    const charge = (node: string, p: Pod): void => {
      if (onlyNode !== undefined && node !== onlyNode) return;
      const list = extra.get(node);
      if (list) list.push(p);
      else extra.set(node, [p]);
    };
    for (const [k, p] of this.nominated) {
      if (k !== keyOf(pod) && !this.assumed.has(k) && priorityOf(p) >= priorityOf(pod))
        charge(p.status?.nominatedNodeName ?? '', p);
    }
    return extra;
  }

  /** One node as `pod` sees it (see nodeInfos). */
  private nodeInfoFor(pod: Pod, name: string): NodeInfo | undefined {
    const info = this.cache.get(name);
    const add = this.extraCharges(pod, name).get(name);
    if (!info || !add) return info;
    return withPods(info, add);
  }

  /**
   * The last failure of the pod's class, when it still holds: no change that could make room since, no pod that
   * preemption could evict, and no nomination of the pod's own.
   */
  private knownFailure(pod: Pod): { message: string; clearNomination: boolean } | undefined {
    const cls = classKeyOf(pod);
    const f = cls === undefined ? undefined : this.failures.get(cls);
    if (!f || f.seq !== this.queue.seq || pod.status?.nominatedNodeName) return undefined;
    return this.cache.lowestBoundPriority() >= priorityOf(pod) ? f : undefined;
  }

  private async scheduleOne(key: string): Promise<void> {
    const inf = this.ctx.informers;
    const pod = inf.get<Pod>(SimResources.pods).cache.get(key);
    if (!pod || !isPendingForScheduler(pod) || this.assumed.has(key)) {
      this.queue.dropped(key);
      return;
    }
    this.queue.popped(key);
    const seqAtStart = this.queue.seq;
    const known = this.knownFailure(pod);
    if (known) {
      this.queue.park(pod, key, seqAtStart);
      await this.markUnschedulable(pod, known.message, known.clearNomination ? null : undefined);
      return;
    }
    const volumes = this.volumeObjects();
    const nodes = this.nodeInfos(pod);
    const decision = decide({
      pod,
      nodes,
      volumes,
      rng: this.ctx.rng,
      start: this.nextStart,
      antiAffinityAnywhere: this.cache.hasAntiAffinity(),
      zoneCounts: (o) => this.cache.zoneCounts(o),
    });
    if (decision.kind === 'bind') {
      this.nextStart = nodes.length === 0 ? 0 : (this.nextStart + decision.examined) % nodes.length;
      await this.bind(pod, decision.node, volumes.claims);
      return;
    }
    this.queue.park(pod, key, seqAtStart);
    await this.postFilter(pod, { nodes, volumes, decision, seq: seqAtStart });
  }

  /** Preemption for a pod no node took, then its Unschedulable condition (with the nomination, if any). */
  private async postFilter(
    pod: Pod,
    cycle: {
      nodes: readonly NodeInfo[];
      volumes: VolumeObjects;
      decision: Extract<Decision, { kind: 'unschedulable' }>;
      seq: number;
    },
  ): Promise<void> {
    const { nodes, volumes, decision } = cycle;
    if (decision.diagnosis.preFilter) {
      // Removing pods cannot fix what PreFilter rejects; kube still tries every node and finds no victims.
      const preemption = `0/${nodes.length} nodes are available: ${nodes.length} No preemption victims found for incoming pod.`;
      await this.markUnschedulable(pod, fitErrorMessage({ ...decision.diagnosis, preemption }), undefined);
      return;
    }
    const budgets = this.ctx.informers.get<PodDisruptionBudget>(SimResources.podDisruptionBudgets).cache.list();
    const outcome = preempt({
      pod,
      nodes,
      verdicts: decision.verdicts,
      ctx: { volumes: volumeInfo(volumes), csiNodes: volumes.csiNodes },
      budgets,
    });
    if (outcome.kind === 'none') {
      const message = fitErrorMessage({ ...decision.diagnosis, preemption: outcome.message });
      const cls = classKeyOf(pod);
      if (cls !== undefined && cycle.seq === this.queue.seq)
        this.failures.set(cls, { seq: cycle.seq, message, clearNomination: outcome.clearNomination });
      await this.markUnschedulable(pod, message, outcome.clearNomination ? null : undefined);
      return;
    }
    const message = fitErrorMessage(decision.diagnosis);
    await this.markUnschedulable(pod, message, outcome.candidate.node);
    await evictVictims(this.ctx.client, pod, outcome.candidate, {
      now: this.ctx.clock.now(),
      publish: (v, e) => this.events.publish(v, e),
    });
  }

  private async bind(pod: Pod, node: string, claims: readonly PersistentVolumeClaim[]): Promise<void> {
    const key = keyOf(pod);
    const { namespace = 'default', name } = parseKey(key);
    this.assumed.set(key, { pod, node });
    // As kube-scheduler's cache assumes the pod: its node is charged at once, not once per later cycle.
    this.cache.setPod({ ...pod, spec: { ...pod.spec, nodeName: node } });
    this.queue.binding(key);
    try {
      await selectNodeForClaims(this.ctx.client, {
        pod,
        node,
        claims,
        storageClasses: this.ctx.informers.get<StorageClass>(SimResources.storageClasses).cache.list(),
      });
      await postBinding(this.ctx.client, { namespace, name }, node);
      await this.events.publish(pod, {
        type: 'Normal',
        reason: 'Scheduled',
        message: `Successfully assigned ${namespace}/${name} to ${node}`,
      });
      // A bound pod is not scheduled again: its series end now rather than after 6 silent minutes.
      await this.events.finish(pod, schedulingSeries);
    } catch (e) {
      this.forgetAssumed(key, node);
      // Already bound (by someone else) or deleted meanwhile: nothing to retry.
      if (isConflict(e) || isNotFound(e)) return;
      throw e;
    }
  }

  /** Takes back an assumed binding that failed: the pod is as the informer shows it, and its node has the room again. */
  private forgetAssumed(key: string, node: string): void {
    if (!this.assumed.delete(key)) return;
    this.cache.deletePod(key);
    const current = this.ctx.informers.get<Pod>(SimResources.pods).cache.get(key);
    if (current) this.cache.setPod(current);
    this.queue.nodeGainedRoom(node);
  }

  /** Marks the pod Unschedulable; `nominate` sets (a node), clears (null) or keeps (undefined) its nominated node. */
  private async markUnschedulable(pod: Pod, message: string, nominate: string | null | undefined): Promise<void> {
    const written = await writeUnschedulable(this.ctx.client, pod, { message, nominate, now: this.ctx.clock.now() });
    if (written) await this.events.publish(pod, { type: 'Warning', reason: 'FailedScheduling', message });
  }
}
