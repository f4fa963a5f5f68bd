/**
 * Where a pod may go for one topology group, given the candidate node's requirements (Karpenter's nextDomain*):
 * spread allows the domains within maxSkew, affinity the domains that already hold a matching pod (or any one
 * domain for the first self-selecting pod), anti-affinity the domains that hold none. Each group answers with the
 * domains it allows and, when the pod's domain must be settled now, how to pick one; Topology intersects the
 * answers of all groups on the same key before picking, so two groups never choose different domains.
 */
import { Labels } from '../../api/index.js';
import type { Constraint } from '../model.js';
import type { PodInfo } from '../pod-info.js';
import type { Requirement } from '../requirements/requirement.js';
import type { Requirements } from '../requirements/requirements.js';
import { filterAllowsDomain } from './node-filter.js';
import type { Domains } from './domains.js';
import type { TopologyGroup } from './group.js';

const hostnameKey = Labels.hostname;

/** How to pick one domain among the allowed: least or most matching pods of the group (ties by name). */
export type Pick = 'least' | 'most';

/** Why a group refuses a node. */
export interface Refusal {
  ok: false;
  constraint: Constraint;
  message: string;
  details: Record<string, string | number>;
}

/** One group's answer for one pod and node. */
export type DomainChoice =
  | {
      ok: true;
      /** Allowed domains; undefined when the group does not restrict this node. */
      allowed: string[] | undefined;
      /** Set when the pod's domain must be a single known value (so it is counted exactly). */
      pick: Pick | undefined;
    }
  | Refusal;

/** What a group is asked about. */
export interface Args {
  group: TopologyGroup;
  pod: PodInfo;
  nodeReqs: Requirements;
  domains: Domains;
  /** Whether a self-selecting pod may start its affinity group now (see Topology.allowStart). */
  allowStart: boolean;
}

/** Domains the node may be in. */
function candidates(a: Args): string[] {
  const r = a.nodeReqs.get(a.group.spec.key);
  if (r && !r.complement) return [...r.values];
  const out: string[] = [];
  for (const d of a.domains.of(a.group.spec.key).keys()) if (!r || r.has(d)) out.push(d);
  return out;
}

/** Which domains count for a minimum: the owner's own requirement on the key, and whether the group's tolerations apply. */
interface Eligibility {
  podReq: Requirement | undefined;
  taints: boolean;
}

/** True when `domain` is eligible for the minimum (nodeAffinityPolicy / nodeTaintsPolicy). */
function eligibleDomain(a: Args, domain: string, e: Eligibility): boolean {
  const { spec } = a.group;
  if (spec.nodeFilter && !filterAllowsDomain(spec.nodeFilter, spec.key, domain)) return false;
  if (e.podReq && !e.podReq.has(domain)) return false;
  return !e.taints || !spec.tolerations || a.domains.tolerated(spec.key, domain, spec.tolerations);
}

/**
 * The smallest count of matching pods over the eligible domains (those the group's node filter allows, narrowed by
 * `e`), zero for hostnames or below minDomains. Only pods surely counted count towards it.
 */
function eligibleMin(a: Args, e: Eligibility): number {
  const { spec } = a.group;
  // Karpenter: a hostname domain can always be a new, empty node, so its minimum is zero.
  if (spec.key === hostnameKey) return 0;
  const all = a.domains.of(spec.key);
  // Fast path: every known domain is eligible; if some holds no matching pod the minimum is 0.
  if (!e.podReq && !spec.nodeFilter && !e.taints && a.group.nonEmpty < all.size) return 0;
  let min = Number.POSITIVE_INFINITY;
  let eligible = 0;
  for (const d of all.keys()) {
    if (!eligibleDomain(a, d, e)) continue;
    eligible++;
    min = Math.min(min, a.group.floor(d));
  }
  if (eligible === 0 || (spec.minDomains !== undefined && eligible < spec.minDomains)) return 0;
  return min;
}

/** The spread minimum the pod itself sees as an owner of the group. */
function minCount(a: Args): number {
  const { spec } = a.group;
  return eligibleMin(a, {
    podReq: spec.honorNodeAffinity ? a.pod.requirements.get(spec.key) : undefined,
    taints: spec.tolerations !== undefined,
  });
}

/**
 * The smallest minimum any owner of the group may see: over every domain the group's node filter allows, ignoring
 * an owner's own narrower requirement and tolerations (either can only raise its minimum).
 */
function globalMin(a: Args): number {
  return eligibleMin(a, { podReq: undefined, taints: false });
}

/** A refusal naming the group and a few of its counts. */
export function refuse(a: { group: TopologyGroup }, constraint: Constraint, what: string): Refusal {
  const counts: [string, number][] = [];
  for (const e of a.group.counts) {
    if (e[1] > 0) counts.push(e);
    if (counts.length >= 10) break;
  }
  return {
    ok: false,
    constraint,
    message: `${what} on ${a.group.spec.key} cannot be satisfied here (matching pods per domain: ${counts.map(([d, c]) => `${d}=${c}`).join(', ') || 'none'})`,
    details: { topologyKey: a.group.spec.key, maxSkew: a.group.spec.maxSkew },
  };
}

/** Up to `n` domains, with a count each, as "us-east-1a has 1, us-east-1b has 2". */
function withCounts(domains: readonly string[], count: (d: string) => number, n = 3): string {
  const shown = domains.slice(0, n).map((d) => `${d} has ${count(d)}`);
  return `${shown.join(', ')}${domains.length > n ? ` (and ${domains.length - n} more)` : ''}`;
}

/** The eligible domains, other than `here`, that hold the group's minimum (none for hostnames: a new node). */
function fewestDomains(a: Args, here: readonly string[], min: number): string[] {
  const { spec } = a.group;
  if (spec.key === hostnameKey) return [];
  const e = {
    podReq: spec.honorNodeAffinity ? a.pod.requirements.get(spec.key) : undefined,
    taints: !!spec.tolerations,
  };
  const out: string[] = [];
  for (const d of a.domains.of(spec.key).keys())
    if (!here.includes(d) && eligibleDomain(a, d, e) && a.group.floor(d) === min) out.push(d);
  return out.sort();
}

/**
 * Why no domain this node may be in keeps the spread within maxSkew, with the counts: how many matching pods each
 * domain the node may be in holds, which domain holds the fewest, and the skew one more pod would make ("matching
 * pods: us-east-1a has 1 (the only domain this node may be in); us-east-1b has 0, the fewest; one more in
 * us-east-1a would make the skew 2 > maxSkew 1").
 */
function spreadRefusal(a: Args, min: number, self: number): Refusal {
  const { spec } = a.group;
  const count = (d: string): number => a.group.count(d);
  const here = candidates(a).sort((x, y) => count(x) - count(y) || (x < y ? -1 : 1));
  const least = here[0] ?? '';
  const skew = count(least) + self - min;
  const fewest = fewestDomains(a, here, min);
  const where =
    here.length === 1
      ? `${least} has ${count(least)} (the only domain this node may be in)`
      : `in the domains this node may be in, ${withCounts(here, count)}`;
  const low = fewest.length ? `${withCounts(fewest, () => min)}, the fewest` : `the fewest any domain has is ${min}`;
  return {
    ok: false,
    constraint: 'topology-spread',
    message: `topology spread on ${spec.key} (maxSkew ${spec.maxSkew}) cannot be satisfied here: matching pods: ${where}; ${low}; one more in ${least} would make the skew ${skew} > maxSkew ${spec.maxSkew}`,
    details: { topologyKey: spec.key, maxSkew: spec.maxSkew, min, skew, domain: least, fewestDomain: fewest[0] ?? '' },
  };
}

function spread(a: Args): DomainChoice {
  const min = minCount(a);
  const self = a.group.selects(a.pod.namespace, a.pod.labels) ? 1 : 0;
  const allowed = candidates(a).filter((d) => a.group.count(d) + self - min <= a.group.spec.maxSkew);
  if (allowed.length === 0) return spreadRefusal(a, min, self);
  return { ok: true, allowed, pick: 'least' };
}

/**
 * Required pod affinity: a domain that holds a matching pod. Only when no matching pod exists anywhere may a pod
 * that matches its own term start one (kube-scheduler's rule), and only when the solver allows starts.
 */
function affinity(a: Args): DomainChoice {
  const podReq = a.pod.requirements.get(a.group.spec.key);
  const cands = candidates(a);
  let allowed = cands.filter((d) => a.group.count(d) > 0);
  if (
    allowed.length === 0 &&
    a.allowStart &&
    a.group.nonEmpty === 0 &&
    a.group.selects(a.pod.namespace, a.pod.labels)
  ) {
    allowed = cands.filter((d) => !podReq || podReq.has(d));
  }
  if (allowed.length === 0) return refuse(a, 'pod-affinity', 'pod affinity');
  return { ok: true, allowed, pick: 'most' };
}

function antiAffinity(a: Args): DomainChoice {
  const allowed = candidates(a).filter((d) => a.group.count(d) === 0);
  if (allowed.length === 0) return refuse(a, 'pod-anti-affinity', 'pod anti-affinity');
  // Settle the domain: a NodeClaim left open over several zones would block all of them for the other pods.
  return { ok: true, allowed, pick: 'least' };
}

/** The answer of a group the pod must satisfy (its own constraints, and others' anti-affinity against it). */
export function nextDomains(a: Args): DomainChoice {
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

/**
 * The answer of a group that counts the pod without the pod carrying it. kube-scheduler would let such a pod go
 * anywhere, but the final placement must still satisfy the constraint for the pods that do carry it:
 * - DoNotSchedule spread: the pod may not raise a domain holding such pods past maxSkew (against the smallest
 *   count of any domain, never above the minimum those pods see).
 * - pod affinity: no restriction, but the pod's domain is settled so it is counted exactly.
 */
export function countedDomains(a: Args): DomainChoice {
  const cands = candidates(a);
  if (cands.length === 0) return { ok: true, allowed: undefined, pick: undefined };
  if (a.group.spec.type === 'affinity') {
    return { ok: true, allowed: cands, pick: 'most' };
  }
  const min = globalMin(a);
  const allowed = cands.filter(
    (d) => (a.group.constrained.get(d) ?? 0) === 0 || a.group.count(d) + 1 - min <= a.group.spec.maxSkew,
  );
  if (allowed.length === 0) {
    return refuse(
      a,
      'topology-spread',
      `topology spread of other pods (maxSkew ${a.group.spec.maxSkew}, min ${min}) counting this pod`,
    );
  }
  return { ok: true, allowed, pick: 'least' };
}
