/**
 * kube-controller-manager's MarkPodsNotReady: when the node lifecycle controller finds a node's Ready condition
 * gone from True (its kubelet went silent), it sets the Ready condition of every pod on the node to False, so
 * their controllers stop counting them available and Services stop sending them traffic. The kubelet sets them
 * Ready again when it is back (its status manager finds the API server's status differs from its own).
 */
import type { Node, Pod, PodCondition } from '../../kube/index.js';

/** The Event kube-controller-manager records on each pod it marks (and the node status change it reports). */
export const NodeNotReadyEvent = { reason: 'NodeNotReady', podMessage: 'Node is not ready' } as const;

/** The node's Ready status; a node that never posted one counts as Unknown, as the controller treats it. */
export function nodeReadyStatus(node: Node): string {
  return node.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'Unknown';
}

/**
 * The pod's conditions with Ready set to False (its transition time `now`, reason and message kept, as upstream
 * only flips the status); undefined when the pod has no Ready condition or it is already False.
 */
export function notReadyConditions(pod: Pod, now: string): PodCondition[] | undefined {
  const conditions = pod.status?.conditions ?? [];
  const ready = conditions.find((c) => c.type === 'Ready');
  if (!ready || ready.status === 'False') return undefined;
  return conditions.map((c) => (c === ready ? { ...c, status: 'False', lastTransitionTime: now } : c));
}
