/** Pods made from a workload's template, and the pod facts every workload controller reads. */
import type { KubeObject, OwnerReference, Pod } from '../../kube/index.js';
import type { PodTemplate } from '../world/resources.js';

/** A new pod from `template`, owned by `owner`. */
export function podFromTemplate(
  template: PodTemplate,
  p: { namespace: string; name: string; owner: OwnerReference; labels?: Record<string, string> },
): Pod {
  return {
    metadata: {
      name: p.name,
      namespace: p.namespace,
      labels: { ...template.metadata?.labels, ...p.labels },
      annotations: { ...template.metadata?.annotations },
      ownerReferences: [p.owner],
    },
    spec: structuredClone(template.spec),
  };
}

/** True while a pod counts toward its controller's replicas (not terminal, not being deleted). */
export function isActive(pod: Pod): boolean {
  return !pod.metadata.deletionTimestamp && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
}

/** True when the pod is Running and Ready. */
export function isReady(pod: Pod): boolean {
  return (
    pod.status?.phase === 'Running' &&
    (pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false)
  );
}

/** The key (`namespace/name`) of the object's controller owner of `kind`, if any. */
export function ownerKey(obj: KubeObject, kind: string): string | undefined {
  const ref = obj.metadata.ownerReferences?.find((r) => r.controller && r.kind === kind);
  return ref ? `${obj.metadata.namespace ?? 'default'}/${ref.name}` : undefined;
}

/**
 * Order in which surplus pods are deleted (ReplicaSet's ActivePods ordering): unassigned before assigned,
 * pending before running, not ready before ready, newer before older.
 */
export function deletionOrder(a: Pod, b: Pod): number {
  const rank = (p: Pod): number[] => [
    p.spec.nodeName ? 1 : 0,
    p.status?.phase === 'Running' ? 1 : 0,
    isReady(p) ? 1 : 0,
  ];
  const ra = rank(a);
  const rb = rank(b);
  for (let i = 0; i < ra.length; i++) if ((ra[i] ?? 0) !== (rb[i] ?? 0)) return (ra[i] ?? 0) - (rb[i] ?? 0);
  return (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '');
}

/** A short stable hash of a JSON value (FNV-1a, base 36), like pod-template-hash. */
export function templateHash(value: unknown): string {
  const text = JSON.stringify(value);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}
