/**
 * Where a pod may go for one topology group, given the candidate node's requirements (Karpenter's nextDomain*):
 * spread picks the least-loaded domain within maxSkew, affinity the domains that already hold a matching pod (or
 * any one domain for the first self-selecting pod), anti-affinity the domains that hold none.
 */
import type { Constraint } from '../model.js';
import type { PodInfo } from '../pod-info.js';
import { Requirement } from '../requirements/requirement.js';
import type { Requirements } from '../requirements/requirements.js';
import type { Domains } from './domains.js';
import type { TopologyGroup } from './group.js';

/** The outcome for one pod and node. */
export type TopologyDecision =
  | { ok: true; requirements: Requirement[] }
  | { ok: false; constraint: Constraint; message: string; details: Record<string, string | number> };

interface Args {
  group: TopologyGroup;
  pod: PodInfo;
  nodeReqs: Requirements;
  domains: Domains;
}

/** Domains the node may be in. */
function candidates(a: Args): string[] {
  const r = a.nodeReqs.get(a.group.spec.key);
  if (r && !r.complement) return [...r.values];
  const out: string[] = [];
  for (const d of a.domains.of(a.group.spec.key).keys()) if (!r || r.has(d)) out.push(d);
  return out;
}

/** Domains the pod could be in anywhere (nodeAffinityPolicy / nodeTaintsPolicy), for the spread minimum. */
function minCount(a: Args): number {
  const { spec } = a.group;
  const podReq = spec.honorNodeAffinity ? a.pod.requirements.get(spec.key) : undefined;
  const all = a.domains.of(spec.key);
  // Fast path: every known domain is eligible; if some holds no matching pod the minimum is 0.
  if (!podReq && !spec.honorNodeTaints && a.group.nonEmpty < all.size) return 0;
  let min = Number.POSITIVE_INFINITY;
  let eligible = 0;
  for (const d of all.keys()) {
    if (podReq && !podReq.has(d)) continue;
    if (spec.honorNodeTaints && !a.domains.tolerated(spec.key, d, a.pod.tolerations)) continue;
    eligible++;
    min = Math.min(min, a.group.count(d));
  }
  if (eligible === 0 || (spec.minDomains !== undefined && eligible < spec.minDomains)) return 0;
  return min;
}

function fail(a: Args, constraint: Constraint, what: string): TopologyDecision {
  const counts = [...a.group.counts.entries()].filter(([, c]) => c > 0).slice(0, 10);
  return {
    ok: false,
    constraint,
    message: `${what} on ${a.group.spec.key} cannot be satisfied here (matching pods per domain: ${counts.map(([d, c]) => `${d}=${c}`).join(', ') || 'none'})`,
    details: { topologyKey: a.group.spec.key, maxSkew: a.group.spec.maxSkew },
  };
}

function spread(a: Args): TopologyDecision {
  const min = minCount(a);
  const self = a.group.selects(a.pod.namespace, a.pod.labels) ? 1 : 0;
  let best: string | undefined;
  let bestCount = Number.POSITIVE_INFINITY;
  for (const d of candidates(a)) {
    const c = a.group.count(d);
    if (c + self - min > a.group.spec.maxSkew) continue;
    if (c < bestCount || (c === bestCount && best !== undefined && d < best)) {
      best = d;
      bestCount = c;
    }
  }
  if (best === undefined) return fail(a, 'topology-spread', `topology spread (maxSkew ${a.group.spec.maxSkew}, min ${min})`);
  return { ok: true, requirements: [Requirement.of(a.group.spec.key, 'In', [best])] };
}

function affinity(a: Args): TopologyDecision {
  const key = a.group.spec.key;
  const podReq = a.pod.requirements.get(key);
  const options = candidates(a).filter((d) => a.group.count(d) > 0);
  if (options.length === 0 && a.group.selects(a.pod.namespace, a.pod.labels)) {
    // The first self-selecting pod bootstraps the domain: prefer one the node already allows.
    const first = candidates(a)
      .filter((d) => !podReq || podReq.has(d))
      .sort()[0];
    if (first !== undefined) options.push(first);
  }
  if (options.length === 0) return fail(a, 'pod-affinity', 'pod affinity');
  return { ok: true, requirements: [Requirement.of(key, 'In', options)] };
}

function antiAffinity(a: Args): TopologyDecision {
  const options = candidates(a).filter((d) => a.group.count(d) === 0);
  if (options.length === 0) return fail(a, 'pod-anti-affinity', 'pod anti-affinity');
  return { ok: true, requirements: [Requirement.of(a.group.spec.key, 'In', options)] };
}

/** The requirement one group adds for `pod` on a node with `nodeReqs`, or why it cannot go there. */
export function nextDomains(a: Args): TopologyDecision {
  switch (a.group.spec.type) {
    case 'spread':
      return spread(a);
    case 'affinity':
      return affinity(a);
    case 'anti-affinity':
    case 'inverse-anti-affinity':
      return antiAffinity(a);
  }
}
