/**
 * How pods are counted into a topology group's domains: the pods already on a node (cached per pod list), and a
 * pod placed on a planned node whose requirements may leave its domain open.
 */
import type { Pod } from '../model.js';
import type { Requirements } from '../requirements/requirements.js';
import type { SolveCache } from '../solve-cache.js';
import type { TopologyGroup } from './group.js';
import { filterMatch, type NodeFilter } from './node-filter.js';

/**
 * How many of a node's pods `g` selects, cached per pod list and group definition: disruption's removal
 * simulations build the same groups over the same nodes for every candidate (node objects are not mutated while
 * in use, as existing-bin.ts assumes too).
 */
export function matchingPods(pods: readonly Pod[], g: TopologyGroup, cache: SolveCache): number {
  if (pods.length === 0) return 0;
  let byGroup = cache.matchingPods.get(pods);
  if (!byGroup) {
    byGroup = new Map();
    cache.matchingPods.set(pods, byGroup);
  }
  const cached = byGroup.get(g.spec.hash);
  if (cached !== undefined) return cached;
  let n = 0;
  for (const pod of pods) if (g.selects(pod.metadata.namespace ?? 'default', pod.metadata.labels ?? {})) n++;
  byGroup.set(g.spec.hash, n);
  return n;
}

/** The values `key` may take on a node, when finite. */
export function finiteValues(reqs: Requirements, key: string): Iterable<string> {
  const r = reqs.get(key);
  return r && !r.complement ? r.values : [];
}

/** The node's value of `key` when it is settled. */
export function knownDomain(reqs: Requirements, key: string): string | undefined {
  const r = reqs.get(key);
  return r && !r.complement && r.values.size === 1 ? r.any() : undefined;
}

/** Counts a pod for a group whose owners count only nodes passing `filter`. */
export function recordFiltered(g: TopologyGroup, filter: NodeFilter, nodeReqs: Requirements): void {
  const domain = knownDomain(nodeReqs, g.spec.key);
  if (domain === undefined) return;
  const match = filterMatch(filter, nodeReqs);
  if (match !== 'no') g.record(domain, match === 'yes');
}

/** Counts a pod in `domain`, when it is known. */
export function recordDomain(g: TopologyGroup, domain: string | undefined): void {
  if (domain !== undefined) g.record(domain);
}
