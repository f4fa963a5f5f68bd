/**
 * Topology domains as Karpenter discovers them, for the checker's `domains: 'karpenter'` mode: besides the domains
 * of nodes that exist (all kube-scheduler knows), every value of the key a NodePool may launch into — its
 * requirements' `In` values and the values of the instance-type offerings it allows — counts as an eligible domain
 * holding whatever pods are there (none, if no node is there). A hostname domain can always be a new, empty node, so
 * its minimum is zero. Karpenter spreads over these domains when it launches capacity; the simulated kube-scheduler
 * (src/sim) keeps kube semantics and never uses this mode.
 */
import { Labels } from '../../api/index.js';
import type { NodePool, NodeSelectorRequirement, Pod, SchedulingInput, TopologySpreadConstraint } from '../model.js';
import { blockingTaint, NodeLabels, possiblyMatches, valueSatisfies } from './labels.js';

/** Stands for a node Karpenter could still launch: an empty hostname domain. */
export const NewHostname = '(a new node)';

/** How the checker finds a spread constraint's eligible domains: kube-scheduler's (nodes only) or Karpenter's. */
export type DomainMode = 'kube' | 'karpenter';

function poolAllows(pool: NodePool, labels: Readonly<Record<string, string>>): boolean {
  const view = NodeLabels.exact(labels);
  return possiblyMatches(view, pool.template.requirements ?? []);
}

/** Domains found per NodePool and key, for one input (the caller keeps it while checking that input). */
export type PoolDomainMemo = Map<string, Set<string>>;

/** The values of `key` the NodePool's requirements name (`In`) or its template labels fix. */
function requirementDomains(pool: NodePool, key: string, out: Set<string>): void {
  const reqs = (pool.template.requirements ?? []).filter((r) => r.key === key);
  for (const r of reqs)
    if (r.operator === 'In') for (const v of r.values ?? []) if (reqs.every((q) => valueSatisfies(q, v))) out.add(v);
  const fixed = pool.template.labels?.[key];
  if (fixed !== undefined) out.add(fixed);
}

/** The values of `key` on the offerings the NodePool allows. */
function offeringDomains(input: SchedulingInput, pool: NodePool, key: string, out: Set<string>): void {
  for (const it of input.instanceTypesByNodePool?.[pool.name] ?? input.instanceTypes) {
    const base = {
      ...(it.labels ?? {}),
      ...(pool.template.labels ?? {}),
      [Labels.instanceType]: it.name,
      [Labels.nodePool]: pool.name,
    };
    for (const o of it.offerings) {
      const labels: Record<string, string> = { ...base, [Labels.zone]: o.zone, [Labels.capacityType]: o.capacityType };
      const v = labels[key];
      if (o.available && v !== undefined && !out.has(v) && poolAllows(pool, labels)) out.add(v);
    }
  }
}

/** Values of `key` a NodePool may launch into (its `In` values and those of the offerings it allows); memoized in `byPool`. */
export function poolDomains(
  input: SchedulingInput,
  pool: NodePool,
  key: string,
  byPool: PoolDomainMemo = new Map(),
): ReadonlySet<string> {
  const id = JSON.stringify([pool.name, key]);
  const known = byPool.get(id);
  if (known) return known;
  const out = new Set<string>();
  requirementDomains(pool, key, out);
  offeringDomains(input, pool, key, out);
  byPool.set(id, out);
  return out;
}

function ownerFilter(pod: Pod, c: TopologySpreadConstraint): NodeSelectorRequirement[][] | undefined {
  if ((c.nodeAffinityPolicy ?? 'Honor') === 'Ignore') return undefined;
  const sel = Object.entries(pod.spec.nodeSelector ?? {}).map(([key, v]) => ({
    key,
    operator: 'In' as const,
    values: [v],
  }));
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (sel.length === 0 && terms.length === 0) return undefined;
  return terms.length === 0 ? [sel] : terms.map((t) => [...sel, ...(t.matchExpressions ?? [])]);
}

/**
 * The domains of `c.topologyKey` Karpenter would count for `pod` beyond those of existing nodes: the NodePools'
 * values the pod's node filter allows on that key (nodeAffinityPolicy), from NodePools whose taints it tolerates
 * when nodeTaintsPolicy is Honor; for the hostname key, one new empty node.
 */
export function discoveredDomains(
  input: SchedulingInput,
  pod: Pod,
  c: TopologySpreadConstraint,
  memo: PoolDomainMemo = new Map(),
): string[] {
  if (c.topologyKey === Labels.hostname) return [NewHostname];
  const terms = ownerFilter(pod, c);
  const out = new Set<string>();
  for (const pool of input.nodePools) {
    if (
      (c.nodeTaintsPolicy ?? 'Ignore') === 'Honor' &&
      blockingTaint(pool.template.taints ?? [], pod.spec.tolerations ?? [])
    )
      continue;
    for (const v of poolDomains(input, pool, c.topologyKey, memo)) {
      if (!terms || terms.some((t) => t.every((r) => r.key !== c.topologyKey || valueSatisfies(r, v)))) out.add(v);
    }
  }
  return [...out].sort();
}
