/**
 * `karpenter_pods_startup_duration_seconds`, as Karpenter's `metrics.pod` controller observes it: a pod seen
 * Pending is remembered; when it is seen again past Pending with a Ready condition, the time from its creation to
 * that condition's transition is observed once.
 */
import type { Pod } from '../../kube/index.js';
import type { Metrics } from '../../observability/metrics.js';
import type { ClusterInformers } from '../../state/informers.js';

function keyOf(p: Pod): string {
  return `${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`;
}

/** Watches the pod informer and observes each pod's startup once. */
export class PodStartupObserver {
  private readonly pending = new Set<string>();

  /** Subscribes to `informers.pods`; observations go to `metrics`. */
  constructor(informers: ClusterInformers, metrics: Metrics) {
    const seen = (p: Pod): void => this.seen(p, metrics);
    informers.pods.on({ add: seen, update: (_o, p) => seen(p), delete: (p) => this.pending.delete(keyOf(p)) });
  }

  private seen(pod: Pod, metrics: Metrics): void {
    const key = keyOf(pod);
    if (pod.status?.phase === 'Pending') {
      this.pending.add(key);
      return;
    }
    const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
    if (!ready || !this.pending.has(key)) return;
    this.pending.delete(key);
    const seconds =
      (Date.parse(ready.lastTransitionTime ?? '') - Date.parse(pod.metadata.creationTimestamp ?? '')) / 1000;
    if (Number.isFinite(seconds)) metrics.state.podStartupDuration.observe(Math.max(0, seconds));
  }
}
