/**
 * The nodes a spread constraint counts for its owner under nodeAffinityPolicy: Honor (kube-scheduler's default):
 * those matching the owner's nodeSelector and one of its required node affinity terms. Owners that differ here see
 * different counts and minimums, so their spread groups are kept apart.
 */
import type { Pod } from '../model.js';
import type { Requirements } from '../requirements/requirements.js';
import { Requirements as Reqs } from '../requirements/requirements.js';

/** An owner's node filter: any one term (nodeSelector folded into each) must hold. */
export interface NodeFilter {
  terms: Requirements[];
  /** Identifies the filter in a group hash. */
  key: string;
}

/** Whether a node passes a filter: surely, perhaps (its requirements are still open), or not at all. */
export type FilterMatch = 'yes' | 'maybe' | 'no';

/** The node filter of `pod`, or undefined when it selects every node. */
export function nodeFilterOf(pod: Pod): NodeFilter | undefined {
  const selector = pod.spec.nodeSelector ?? {};
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (Object.keys(selector).length === 0 && terms.length === 0) return undefined;
  const base = Reqs.fromLabels(selector);
  const built =
    terms.length === 0 ? [base] : terms.map((t) => base.copy().addAll(Reqs.fromSelector(t.matchExpressions)));
  const sorted = Object.entries(selector).sort(([a], [b]) => (a < b ? -1 : 1));
  return { terms: built, key: JSON.stringify([sorted, terms.map((t) => t.matchExpressions ?? [])]) };
}

/** True when every value the node may take for each key of `term` satisfies it. */
function surely(term: Requirements, node: Requirements): boolean {
  for (const [key, r] of [...term.keys()].map((k) => [k, term.get(k)] as const)) {
    const n = node.get(key);
    if (!r || !n || n.complement || n.values.size === 0) return false;
    for (const v of n.values) if (!r.has(v)) return false;
  }
  return true;
}

/** How a node with requirements `node` passes `filter`. */
export function filterMatch(filter: NodeFilter, node: Requirements): FilterMatch {
  let maybe = false;
  for (const t of filter.terms) {
    if (t.intersects(node) !== undefined) continue;
    if (surely(t, node)) return 'yes';
    maybe = true;
  }
  return maybe ? 'maybe' : 'no';
}

/** True when a node with concrete `labels` passes `filter`. */
export function filterMatchesLabels(filter: NodeFilter, labels: Readonly<Record<string, string>>): boolean {
  return filter.terms.some((t) => t.matchesLabels(labels));
}

/** True when some node in `domain` of `key` may pass the filter (the domains the owner's minimum is taken over). */
export function filterAllowsDomain(filter: NodeFilter, key: string, domain: string): boolean {
  return filter.terms.some((t) => t.get(key)?.has(domain) ?? true);
}
