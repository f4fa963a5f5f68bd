/** Bridges the kube layer's Pod type to the scheduling engine's (the same JSON, typed more narrowly there). */
import type { Pod } from '../../kube/index.js';
import type { Pod as SchedPod } from '../../scheduling/index.js';

/** The pod as the scheduling engine's functions take it. */
export function asSchedPod(pod: Pod): SchedPod {
  return pod as unknown as SchedPod;
}

/** `namespace/name` of a pod. */
export function podKeyOf(pod: Pod): string {
  return `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''}`;
}

/** True when the pod still occupies its node (not terminal). */
export function occupiesNode(pod: Pod): boolean {
  return pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
}
