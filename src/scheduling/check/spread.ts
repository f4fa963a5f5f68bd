/**
 * Topology spread (whenUnsatisfiable: DoNotSchedule) over the final placement, with kube-scheduler's filter: for a
 * pod in domain d, count(d) + self − min over eligible domains ≤ maxSkew, where counts are of pods in the pod's
 * namespace matching the constraint's selector (the pod itself excluded), eligible domains are those of nodes
 * passing nodeAffinityPolicy / nodeTaintsPolicy, and min is 0 when there are fewer eligible domains than
 * minDomains. Each pod is judged against all the others wherever they end up, so the result does not depend on
 * binding order. A node whose domain is still open may add to any domain it may take (counted at its worst) but never
 * raises a minimum; so may a node that may or may not pass the owner's node filter (labels still open).
 */
import type { NodeSelectorRequirement, TopologySpreadConstraint } from '../model.js';
import { blockingTaint, firstNotAlways, possiblyMatches, selectorMatches, valueSatisfies } from '../rules/labels.js';
import { discoveredDomains } from '../rules/karpenter-domains.js';
import { domainValues, resolveSpreadSelector } from './terms.js';
import type { Violation } from './violation.js';
import type { CheckNode, PlacedPod, World } from './world.js';

interface Stats {
  certain: Map<string, number>;
  maybe: Map<string, number>;
  domains: Set<string>;
}

/** The owner's node filter under nodeAffinityPolicy Honor: nodeSelector and required terms (any one holds). */
function filterTerms(owner: PlacedPod, c: TopologySpreadConstraint): NodeSelectorRequirement[][] | undefined {
  if ((c.nodeAffinityPolicy ?? 'Honor') === 'Ignore') return undefined;
  const sel = Object.entries(owner.pod.spec.nodeSelector ?? {}).map(([key, v]) => ({
    key,
    operator: 'In' as const,
    values: [v],
  }));
  const terms =
    owner.pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (sel.length === 0 && terms.length === 0) return undefined;
  return terms.length === 0 ? [sel] : terms.map((t) => [...sel, ...(t.matchExpressions ?? [])]);
}

/**
 * The domains through which `node` may count for the owner, and whether it surely does: a node whose labels are
 * still open may turn out to fail the owner's node filter (its pods then raise a count but no minimum), and a value
 * of the topology key the filter rules out is no eligible domain at all.
 */
function eligibleDomains(
  node: CheckNode,
  owner: PlacedPod,
  c: TopologySpreadConstraint,
): { values: string[]; sure: boolean } {
  const values = domainValues(node, c.topologyKey);
  if ((c.nodeTaintsPolicy ?? 'Ignore') === 'Honor' && blockingTaint(node.taints, owner.pod.spec.tolerations ?? []))
    return { values: [], sure: false };
  const terms = filterTerms(owner, c);
  if (!terms) return { values, sure: true };
  const ok = terms.filter((t) => possiblyMatches(node.labels, t));
  const keep = values.filter((v) => ok.some((t) => t.every((r) => r.key !== c.topologyKey || valueSatisfies(r, v))));
  return { values: keep, sure: ok.some((t) => !firstNotAlways(node.labels, t)) };
}

function stats(world: World, owner: PlacedPod, c: TopologySpreadConstraint): Stats {
  const selector = resolveSpreadSelector(c.labelSelector, owner, c.matchLabelKeys);
  const s: Stats = { certain: new Map(), maybe: new Map(), domains: new Set() };
  for (const node of world.nodes) {
    const { values, sure } = eligibleDomains(node, owner, c);
    if (values.length === 0) continue;
    for (const v of values) s.domains.add(v);
    const n = node.pods.filter((p) => p.namespace === owner.namespace && selectorMatches(selector, p.labels)).length;
    const into = values.length === 1 && sure ? s.certain : s.maybe;
    for (const v of values) into.set(v, (into.get(v) ?? 0) + n);
  }
  if (world.domains === 'karpenter')
    for (const v of discoveredDomains(world.input, owner.pod, c, world.poolDomains)) s.domains.add(v);
  return s;
}

function groupKey(owner: PlacedPod, c: TopologySpreadConstraint): string {
  const spec = owner.pod.spec;
  const nodeReqs =
    (c.nodeAffinityPolicy ?? 'Honor') === 'Honor'
      ? [spec.nodeSelector ?? {}, spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? null]
      : null;
  const tolerations = (c.nodeTaintsPolicy ?? 'Ignore') === 'Honor' ? (spec.tolerations ?? []) : null;
  const selector = resolveSpreadSelector(c.labelSelector, owner, c.matchLabelKeys);
  return JSON.stringify([
    owner.namespace,
    c.topologyKey,
    selector ?? null,
    c.nodeAffinityPolicy,
    c.nodeTaintsPolicy,
    nodeReqs,
    tolerations,
  ]);
}

function judge(owner: PlacedPod, c: TopologySpreadConstraint, s: Stats): Violation | undefined {
  const d = owner.node.labels.certain(c.topologyKey);
  const base = { family: 'topology-spread' as const, pod: owner.key, target: owner.node.target };
  if (d === undefined || d === '*') {
    const possible = domainValues(owner.node, c.topologyKey);
    return {
      ...base,
      message: `spread on ${c.topologyKey}: the node's domain is ${possible.length ? `not decided (${possible.join('|')})` : 'missing'}`,
    };
  }
  const self = selectorMatches(resolveSpreadSelector(c.labelSelector, owner, c.matchLabelKeys), owner.labels) ? 1 : 0;
  const count = (s.certain.get(d) ?? 0) + (s.maybe.get(d) ?? 0);
  let min = Number.POSITIVE_INFINITY;
  // The pod's own domain enters the minimum as it enters the count (kube-scheduler counts both without the pod): a
  // pod that may or may not count there raises both alike, so it can never make the pod's own domain the culprit.
  for (const e of new Set([...s.domains, d])) min = Math.min(min, e === d ? count - self : (s.certain.get(e) ?? 0));
  if (c.minDomains !== undefined && s.domains.size < c.minDomains) min = 0;
  if (count - min <= c.maxSkew) return undefined;
  return {
    ...base,
    message: `spread on ${c.topologyKey}: domain ${d} holds ${count} matching pods, the least-loaded eligible domain ${min}, maxSkew ${c.maxSkew}`,
    details: {
      topologyKey: c.topologyKey,
      domain: d,
      count,
      min,
      maxSkew: c.maxSkew,
      eligibleDomains: s.domains.size,
      selector: JSON.stringify(c.labelSelector ?? null),
    },
  };
}

/** Spread violations of pods placed by this solve. */
export function checkSpread(world: World): Violation[] {
  const cache = new Map<string, Stats>();
  const out: Violation[] = [];
  for (const owner of world.placed) {
    if (!owner.isNew) continue;
    for (const c of owner.pod.spec.topologySpreadConstraints ?? []) {
      if (c.whenUnsatisfiable !== 'DoNotSchedule') continue;
      const key = groupKey(owner, c);
      let s = cache.get(key);
      if (!s) cache.set(key, (s = stats(world, owner, c)));
      const v = judge(owner, c, s);
      if (v) out.push(v);
    }
  }
  return out;
}
