/**
 * Filters that look across nodes: PodTopologySpread (DoNotSchedule constraints) and InterPodAffinity (required
 * affinity and anti-affinity, including existing pods' anti-affinity against the incoming pod).
 */
import type { Pod } from '../../kube/index.js';
import { compileSelector, type PodAffinityTerm, type TopologySpreadConstraint } from '../../scheduling/index.js';
import type { NodeFilter } from './filters.js';
import { matchesNodeAffinity } from './node-affinity.js';
import type { NodeInfo } from './node-info.js';
import { asSchedPod } from './sched-pod.js';

function namespaceOf(p: Pod): string {
  return p.metadata.namespace ?? 'default';
}

function termSelects(term: PodAffinityTerm, owner: Pod, candidate: Pod): boolean {
  const namespaces = term.namespaces?.length ? term.namespaces : [namespaceOf(owner)];
  return namespaces.includes(namespaceOf(candidate)) && compileSelector(term.labelSelector)(candidate.metadata.labels);
}

function spreadCounts(c: TopologySpreadConstraint, pod: Pod, all: readonly NodeInfo[]): Map<string, number> {
  const select = compileSelector(c.labelSelector);
  const counts = new Map<string, number>();
  for (const n of all) {
    const domain = n.labels[c.topologyKey];
    if (domain === undefined) continue;
    if ((c.nodeAffinityPolicy ?? 'Honor') === 'Honor' && !matchesNodeAffinity(pod, n.node)) continue;
    const matching = n.pods.filter((p) => namespaceOf(p) === namespaceOf(pod) && select(p.metadata.labels)).length;
    counts.set(domain, (counts.get(domain) ?? 0) + matching);
  }
  return counts;
}

function violatesSpread(c: TopologySpreadConstraint, pod: Pod, n: NodeInfo, all: readonly NodeInfo[]): boolean {
  const domain = n.labels[c.topologyKey];
  if (domain === undefined) return true;
  const counts = spreadCounts(c, pod, all);
  const minCount = counts.size < (c.minDomains ?? 1) ? 0 : Math.min(...counts.values());
  const self = compileSelector(c.labelSelector)(pod.metadata.labels) ? 1 : 0;
  return (counts.get(domain) ?? 0) + self - minCount > c.maxSkew;
}

/** PodTopologySpread over the given nodes. */
export function topologySpread(all: readonly NodeInfo[]): NodeFilter {
  return (pod, n) => {
    const hard = asSchedPod(pod).spec.topologySpreadConstraints?.filter((c) => c.whenUnsatisfiable === 'DoNotSchedule') ?? [];
    return hard.some((c) => violatesSpread(c, pod, n, all)) ? ["node(s) didn't match pod topology spread constraints"] : [];
  };
}

function podsInDomain(all: readonly NodeInfo[], key: string, value: string | undefined): Pod[] {
  if (value === undefined) return [];
  return all.filter((n) => n.labels[key] === value).flatMap((n) => n.pods);
}

function antiAffinityViolated(pod: Pod, n: NodeInfo, all: readonly NodeInfo[]): boolean {
  const terms = asSchedPod(pod).spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  for (const t of terms) {
    if (podsInDomain(all, t.topologyKey, n.labels[t.topologyKey]).some((p) => termSelects(t, pod, p))) return true;
  }
  // Symmetry: an existing pod's required anti-affinity keeps the incoming pod out of its domain.
  for (const other of all) {
    for (const p of other.pods) {
      for (const t of asSchedPod(p).spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
        const value = other.labels[t.topologyKey];
        if (value !== undefined && n.labels[t.topologyKey] === value && termSelects(t, p, pod)) return true;
      }
    }
  }
  return false;
}

function affinityViolated(pod: Pod, n: NodeInfo, all: readonly NodeInfo[]): boolean {
  const terms = asSchedPod(pod).spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  return terms.some((t) => {
    if (podsInDomain(all, t.topologyKey, n.labels[t.topologyKey]).some((p) => termSelects(t, pod, p))) return false;
    // The first pod of a group that selects itself may go anywhere (kube-scheduler's special case).
    const anyMatch = all.some((o) => o.pods.some((p) => termSelects(t, pod, p)));
    return anyMatch || !termSelects(t, pod, pod);
  });
}

/** InterPodAffinity over the given nodes. */
export function interPodAffinity(all: readonly NodeInfo[]): NodeFilter {
  return (pod, n) => {
    if (affinityViolated(pod, n, all)) return ["node(s) didn't match pod affinity rules"];
    if (antiAffinityViolated(pod, n, all)) return ["node(s) didn't match pod anti-affinity rules"];
    return [];
  };
}
