/**
 * The pod queue (Karpenter's Queue): pods in bin-packing order, re-queued after a failed attempt; it stops when a
 * whole pass over the queue makes no progress.
 */
import type { PodInfo } from '../pod-info.js';

/**
 * Karpenter's order: CPU descending, then creation time, then UID. (Karpenter's comparator means to break CPU ties
 * by memory but returns the CPU comparison instead, so memory never decides; `karpenter-ffd` keeps that.)
 * Tenon's order breaks CPU ties by memory, which packs slightly better.
 */
export function queueOrder(strategy: 'tenon' | 'karpenter-ffd'): (a: PodInfo, b: PodInfo) => number {
  return (a, b) => {
    const cpu = (b.requests['cpu'] ?? 0) - (a.requests['cpu'] ?? 0);
    if (cpu !== 0) return cpu;
    if (strategy === 'tenon') {
      const mem = (b.requests['memory'] ?? 0) - (a.requests['memory'] ?? 0);
      if (mem !== 0) return mem;
    }
    return byAge(a, b);
  };
}

function byAge(a: PodInfo, b: PodInfo): number {
  const ta = a.pod.metadata.creationTimestamp ?? '';
  const tb = b.pod.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  const ua = a.pod.metadata.uid ?? a.key;
  const ub = b.pod.metadata.uid ?? b.key;
  if (ua !== ub) return ua < ub ? -1 : 1;
  return a.index - b.index;
}

/** A FIFO of pods with staleness detection. */
export class PodQueue {
  private items: PodInfo[];
  private head = 0;
  private readonly lastLen = new Map<PodInfo, number>();

  constructor(pods: PodInfo[], order: (a: PodInfo, b: PodInfo) => number) {
    this.items = [...pods].sort(order);
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
