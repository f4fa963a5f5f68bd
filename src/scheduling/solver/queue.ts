/**
 * The pod queue (Karpenter's Queue): pods in bin-packing order, re-queued after a failed attempt; it stops when a
 * whole pass over the queue makes no progress.
 */
import type { PodInfo } from '../pod-info.js';

/** What orders the queue: the strategy's rule, and pods to place before all others (if any). */
export interface QueueOrder {
  strategy: 'tenon' | 'karpenter-ffd';
  first?: ReadonlySet<string>;
}

/** A pod with its sort keys read once: a sort of 150,000 pods compares each a few dozen times. */
interface Keyed {
  pod: PodInfo;
  early: number;
  cpu: number;
  memory: number;
  created: string;
}

/**
 * Karpenter's order: CPU descending, then creation time, then UID. (Karpenter's comparator means to break CPU ties
 * by memory but returns the CPU comparison instead, so memory never decides; `karpenter-ffd` keeps that.)
 * Tenon's order breaks CPU ties by memory, which packs slightly better. Both break the last ties by input position,
 * which solve() makes the pods' content order (canonical.ts) instead of UIDs, so names never decide. Pods in `first`
 * come before all others.
 */
function compare(a: Keyed, b: Keyed): number {
  return a.early - b.early || b.cpu - a.cpu || b.memory - a.memory || byAge(a, b);
}

function byAge(a: Keyed, b: Keyed): number {
  if (a.created !== b.created) return a.created < b.created ? -1 : 1;
  return a.pod.index - b.pod.index;
}

/** `pods` in queue order (a new array). */
export function inQueueOrder(pods: readonly PodInfo[], order: QueueOrder): PodInfo[] {
  const keyed: Keyed[] = pods.map((pod) => ({
    pod,
    early: order.first?.has(pod.key) ? 0 : 1,
    cpu: pod.requests['cpu'] ?? 0,
    memory: order.strategy === 'tenon' ? (pod.requests['memory'] ?? 0) : 0,
    created: pod.pod.metadata.creationTimestamp ?? '',
  }));
  return keyed.sort(compare).map((k) => k.pod);
}

/** A FIFO of pods with staleness detection. */
export class PodQueue {
  private items: PodInfo[];
  private head = 0;
  private readonly lastLen = new Map<PodInfo, number>();

  constructor(pods: readonly PodInfo[], order: QueueOrder) {
    this.items = inQueueOrder(pods, order);
  }

  private get length(): number {
    return this.items.length - this.head;
  }

  /** The next pod, or undefined when empty or no longer making progress. */
  pop(): PodInfo | undefined {
    const p = this.items[this.head];
    if (!p) return undefined;
    if (this.lastLen.get(p) === this.length) return undefined;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return p;
  }

  /** Re-queues a pod; after a relaxation the pod does not count as stale. */
  push(p: PodInfo, relaxed: boolean): void {
    this.items.push(p);
    if (relaxed) this.lastLen.delete(p);
    else this.lastLen.set(p, this.length);
  }

  /** Pods still queued. */
  remaining(): PodInfo[] {
    return this.items.slice(this.head);
  }
}
