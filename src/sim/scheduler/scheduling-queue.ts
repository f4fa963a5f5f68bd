/**
 * kube-scheduler's queue of pods it could not place: each failed pod is parked and backs off (1 s doubling per
 * failure, at most 10 s); parked pods are all retried every 5 minutes; a change that may make room wakes them as
 * kube-scheduler's queueing hints do. Pods of an equivalence class (see parked-pods.ts) are woken only by a node
 * that can take them, as many as it can take; other pods are woken by every change.
 */
import type { Pod } from '../../kube/index.js';
import type { AgentContext } from '../world/agent.js';
import { classKeyOf, ParkedPods } from './parked-pods.js';

/** The queue's timings. */
export interface QueueTimings {
  /** How long an unschedulable pod waits before a retry without any cluster change (default 5 min). */
  unschedulableFlushMs?: number;
  /** A pod's back-off after its first failed attempt, doubled after each further one (default 1 s). */
  initialBackoffMs?: number;
  /** The longest back-off (default 10 s). */
  maxBackoffMs?: number;
}

/** What the queue needs of the scheduler. */
export interface QueueDeps {
  clock: AgentContext['clock'];
  /** Hands a pod to the scheduling loop. */
  schedule(key: string): void;
  /** The pod as the informer has it. */
  pod(key: string): Pod | undefined;
  /** How many pods like `pod` node `name` can take now (0 when it is not feasible for it). */
  roomOn(pod: Pod, name: string): number;
}

/** The unschedulable pods: parked, backing off, or woken and waiting out their back-off. */
export class SchedulingQueue {
  /** Bumped on every change that may make room, so a failure is known to still hold while it is unchanged. */
  seq = 0;
  private readonly unschedulable = new Set<string>();
  /** Parked pods a change has woken, waiting out their back-off before the next attempt. */
  private readonly moved = new Set<string>();
  /** Failed attempts per pending pod and when the last one ended, for its back-off. */
  private readonly attempts = new Map<string, { count: number; at: number }>();
  private readonly parked = new ParkedPods();
  /** Nodes that may have gained room since the parked pods were last offered them. */
  private readonly dirtyNodes = new Set<string>();
  private cancelFlush: (() => void) | undefined;
  private cancelRetry: (() => void) | undefined;

  /** Builds the queue. */
  constructor(
    private readonly deps: QueueDeps,
    private readonly timings: QueueTimings = {},
  ) {}

  /** Starts the 5-minute flush. */
  start(): void {
    this.cancelFlush = this.deps.clock.setTimer(this.timings.unschedulableFlushMs ?? 300_000, () => {
      this.parked.takeAll();
      for (const k of this.unschedulable) this.deps.schedule(k);
      this.start();
    });
  }

  /** Stops every timer. */
  stop(): void {
    this.cancelFlush?.();
    this.cancelRetry?.();
  }

  /** True when the pod failed and waits for a change or its back-off. */
  has(key: string): boolean {
    return this.unschedulable.has(key);
  }

  /** The pod is being tried now: it is no longer parked or woken. */
  popped(key: string): void {
    this.moved.delete(key);
    this.parked.remove(key);
  }

  /** Drops what the queue keeps about a pod that is bound, gone or no longer this scheduler's. */
  forget(key: string): void {
    this.parked.remove(key);
    this.unschedulable.delete(key);
    this.moved.delete(key);
    this.attempts.delete(key);
  }

  /** Parks a pod after a failed attempt, counting it for the back-off; a change during the attempt wakes it. */
  park(pod: Pod, key: string, seqAtStart: number): void {
    const prev = this.attempts.get(key);
    this.attempts.set(key, { count: (prev?.count ?? 0) + 1, at: this.deps.clock.now() });
    this.unschedulable.add(key);
    if (this.seq === seqAtStart) this.parked.park(key, classKeyOf(pod));
    else this.wake([key]);
  }

  /** A change that moves no pod (a new nomination): failures known before it no longer hold. */
  changed(): void {
    this.seq++;
  }

  /** The pod is no longer pending for this scheduler (or is being bound): it leaves the queue, back-off kept. */
  dropped(key: string): void {
    this.unschedulable.delete(key);
    this.popped(key);
  }

  /** A pod being bound leaves the unschedulable set (its back-off is kept until it is seen bound). */
  binding(key: string): void {
    this.unschedulable.delete(key);
  }

  /** A change no class can gain from (a node gone, a volume): pods without a class are woken. */
  changedForLoners(): void {
    this.seq++;
    this.wake(this.parked.takeLoners());
  }

  /**
   * A node may have room it did not have: pods without a class are woken at once, and each class is offered the
   * node once this turn of the event loop ends (several changes of one node are offered together).
   */
  nodeGainedRoom(name: string): void {
    this.changedForLoners();
    this.dirtyNodes.add(name);
    if (this.dirtyNodes.size === 1) queueMicrotask(() => this.offerDirtyNodes());
  }

  /** Wakes, per class, as many parked pods as the changed nodes can now take. */
  private offerDirtyNodes(): void {
    const names = [...this.dirtyNodes];
    this.dirtyNodes.clear();
    const toWake: Array<[string, number]> = [];
    for (const [cls, keys] of this.parked.classes()) {
      const [first] = keys;
      const rep = first === undefined ? undefined : this.deps.pod(first);
      if (!rep) continue;
      let room = 0;
      for (const name of names) room += this.deps.roomOn(rep, name);
      if (room > 0) toWake.push([cls, room]);
    }
    for (const [cls, room] of toWake) this.wake(this.parked.take(cls, room));
  }

  /** Parked pods to retry once their back-off is over. */
  private wake(keys: readonly string[]): void {
    for (const k of keys) this.moved.add(k);
    this.armRetry();
  }

  /** When the pod's back-off ends: 1 s after its first failure, doubling per failure, at most 10 s. */
  private readyAt(key: string): number {
    const a = this.attempts.get(key);
    if (!a) return 0;
    const initial = this.timings.initialBackoffMs ?? 1000;
    return a.at + Math.min(this.timings.maxBackoffMs ?? 10_000, initial * 2 ** (a.count - 1));
  }

  /** One timer for all woken pods, set for the earliest end of back-off among them. */
  private armRetry(): void {
    if (this.cancelRetry || this.moved.size === 0) return;
    let earliest = Number.POSITIVE_INFINITY;
    for (const k of this.moved) earliest = Math.min(earliest, this.readyAt(k));
    this.cancelRetry = this.deps.clock.setTimer(Math.max(0, earliest - this.deps.clock.now()), () => {
      this.cancelRetry = undefined;
      const now = this.deps.clock.now();
      for (const k of this.moved) {
        if (this.readyAt(k) > now) continue;
        this.moved.delete(k);
        this.deps.schedule(k);
      }
      this.armRetry();
    });
  }
}
