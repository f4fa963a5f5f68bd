import { isTerminal, type Pod } from '../../kube/index.js';

/**
 * Whether Tenon should find capacity for a pod, as Karpenter decides it: the kube-scheduler marked it
 * unschedulable, it is not bound, not terminal or terminating, not preempting (no nominatedNodeName), and not
 * owned by a DaemonSet (its pods follow nodes) or a Node (static pods).
 */
export function isProvisionable(pod: Pod): boolean {
  if (pod.spec.nodeName || pod.metadata.deletionTimestamp || isTerminal(pod)) return false;
  if (pod.status?.nominatedNodeName) return false;
  const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (scheduled?.status !== 'False' || scheduled.reason !== 'Unschedulable') return false;
  return !isOwnedBy(pod, 'DaemonSet') && !isOwnedBy(pod, 'Node');
}

/** Whether a pod is owned by an object of `kind`. */
export function isOwnedBy(pod: Pod, kind: string): boolean {
  return pod.metadata.ownerReferences?.some((o) => o.kind === kind) ?? false;
}

/** Whether a pod on a node being deleted must be re-homed (Karpenter's reschedulable pods). */
export function isReschedulable(pod: Pod): boolean {
  return !isTerminal(pod) && !pod.metadata.deletionTimestamp && !isOwnedBy(pod, 'DaemonSet') && !isOwnedBy(pod, 'Node');
}

export { podKey } from '../../state/cluster-state.js';
