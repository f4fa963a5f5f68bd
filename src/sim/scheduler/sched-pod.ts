/** Bridges the kube layer's Pod type to the scheduling engine's (the same JSON, typed more narrowly there). */
import type { Pod } from '../../kube/index.js';
import type { Pod as SchedPod } from '../../scheduling/index.js';

type Quantities = Record<string, string | number> | undefined;

function hasNumber(list: Quantities): boolean {
  return Object.values(list ?? {}).some((v) => typeof v === 'number');
}

function asText(list: Quantities): Record<string, string> | undefined {
  return list && Object.fromEntries(Object.entries(list).map(([k, v]) => [k, String(v)]));
}

type Containers = SchedPod['spec']['containers'];

function textContainers(cs: Containers | undefined): Containers | undefined {
  return cs?.map((c) => ({
    ...c,
    resources: c.resources && {
      ...c.resources,
      requests: asText(c.resources.requests as Quantities),
      limits: asText(c.resources.limits as Quantities),
    },
  }));
}

const normalized = new WeakMap<Pod, SchedPod>();

/**
 * The pod as the scheduling engine's functions take it. A manifest's `cpu: 1` reaches the API (and the informer) as a
 * JSON number while the engine's model types quantities as strings, so such pods are copied with string quantities
 * (once per pod object).
 */
export function asSchedPod(pod: Pod): SchedPod {
  const cached = normalized.get(pod);
  if (cached) return cached;
  const p: SchedPod = pod;
  const all = [...p.spec.containers, ...(p.spec.initContainers ?? [])];
  const numeric =
    hasNumber(p.spec.overhead as Quantities) ||
    all.some((c) => hasNumber(c.resources?.requests as Quantities) || hasNumber(c.resources?.limits as Quantities));
  const out: SchedPod = numeric
    ? {
        ...p,
        spec: {
          ...p.spec,
          containers: textContainers(p.spec.containers) ?? [],
          initContainers: textContainers(p.spec.initContainers),
          overhead: asText(p.spec.overhead as Quantities),
        },
      }
    : p;
  normalized.set(pod, out);
  return out;
}

/** `namespace/name` of a pod. */
export function podKeyOf(pod: Pod): string {
  return [pod.metadata.namespace ?? 'default', pod.metadata.name].join('/');
}

/** True when the pod still occupies its node (not terminal). */
export function occupiesNode(pod: Pod): boolean {
  return pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
}

/** True when the pod's own rules read other pods: required pod (anti-)affinity or a DoNotSchedule spread. */
export function readsOtherPods(pod: Pod): boolean {
  const spec = asSchedPod(pod).spec;
  if (spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length) return true;
  if (spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length) return true;
  return spec.topologySpreadConstraints?.some((c) => c.whenUnsatisfiable === 'DoNotSchedule') ?? false;
}

/** The uid of the pod's controller owner (its ReplicaSet, StatefulSet, …), if it has one. */
export function ownerUid(p: Pod): string | undefined {
  return p.metadata.ownerReferences?.find((r) => r.controller)?.uid;
}
