import { Annotations, DisruptedTaint } from '../../../api/index.js';
import { isTerminal, type Pod } from '../../../kube/index.js';

const criticalPriorityClasses: ReadonlySet<string> = new Set(['system-cluster-critical', 'system-node-critical']);

/** Whether a pod is owned by a DaemonSet. */
export function isDaemonSetPod(pod: Pod): boolean {
  return (pod.metadata.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet');
}

/** Whether a pod is a static pod's mirror (the kubelet owns it; eviction does nothing). */
function isMirror(pod: Pod): boolean {
  return Boolean(pod.metadata.annotations?.['kubernetes.io/config.mirror']);
}

/** Whether a pod tolerates `karpenter.sh/disrupted:NoSchedule` (Karpenter leaves such pods in place). */
function toleratesDisrupted(pod: Pod): boolean {
  return (pod.spec.tolerations ?? []).some(
    (t) =>
      (t.operator === 'Exists' && !t.key) ||
      (t.key === DisruptedTaint.key && (!t.effect || t.effect === DisruptedTaint.effect)),
  );
}

/**
 * Whether a pod is stuck terminating: its deletion deadline (deletionTimestamp already includes the grace
 * period) passed over a minute ago, as happens on a node whose kubelet is gone. Karpenter stops waiting for them.
 */
export function isStuckTerminating(pod: Pod, now: number): boolean {
  const at = Date.parse(pod.metadata.deletionTimestamp ?? '');
  return Number.isFinite(at) && now - at > 60_000;
}

/** The pods a drain must remove: not terminal, not mirrors, not tolerating the disrupted taint, not stuck terminating. */
export function drainablePods(pods: readonly Pod[], now: number): Pod[] {
  return pods.filter((p) => !isTerminal(p) && !isMirror(p) && !toleratesDisrupted(p) && !isStuckTerminating(p, now));
}

/** Whether a pod asks not to be disrupted. */
export function isDoNotDisrupt(pod: Pod): boolean {
  return pod.metadata.annotations?.[Annotations.doNotDisrupt] === 'true';
}

/**
 * Karpenter's drain tiers: non-critical workload pods, then non-critical DaemonSet pods, then critical workload
 * pods, then critical DaemonSet pods. Only the first non-empty tier is drained at a time, so node agents and
 * critical pods keep serving the pods that are still leaving.
 */
export function drainTiers(pods: readonly Pod[]): Pod[][] {
  const critical = (p: Pod): boolean => criticalPriorityClasses.has(p.spec.priorityClassName ?? '');
  return [
    pods.filter((p) => !critical(p) && !isDaemonSetPod(p)),
    pods.filter((p) => !critical(p) && isDaemonSetPod(p)),
    pods.filter((p) => critical(p) && !isDaemonSetPod(p)),
    pods.filter((p) => critical(p) && isDaemonSetPod(p)),
  ];
}
