/**
 * Pod (anti-)affinity terms and spread constraints resolved for one owner pod: which namespaces count, the label
 * selector with matchLabelKeys / mismatchLabelKeys folded in, and a key for grouping identical terms.
 */
import type { LabelSelector, PodAffinityTerm, SchedulingInput } from '../model.js';
import { selectorMatches } from '../rules/labels.js';
import type { CheckNode, PlacedPod } from './world.js';

/** A resolved term: counts pods in `namespaces` (undefined: all) whose labels match `selector`. */
export interface ResolvedTerm {
  key: string;
  topologyKey: string;
  selector: LabelSelector | undefined;
  namespaces: ReadonlySet<string> | undefined;
}

function withKeys(
  selector: LabelSelector | undefined,
  labels: Readonly<Record<string, string>>,
  match: string[],
  mismatch: string[],
): LabelSelector | undefined {
  if (!selector || (match.length === 0 && mismatch.length === 0)) return selector;
  const exprs = [...(selector.matchExpressions ?? [])];
  for (const k of match) if (labels[k] !== undefined) exprs.push({ key: k, operator: 'In', values: [labels[k] ?? ''] });
  for (const k of mismatch)
    if (labels[k] !== undefined) exprs.push({ key: k, operator: 'NotIn', values: [labels[k] ?? ''] });
  return { ...selector, matchExpressions: exprs };
}

function namespacesOf(
  term: PodAffinityTerm,
  own: string,
  nsLabels: SchedulingInput['namespaces'],
): Set<string> | undefined {
  const sel = term.namespaceSelector;
  if (sel && Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0)
    return undefined;
  const out = new Set(term.namespaces ?? []);
  if (sel) for (const [ns, labels] of Object.entries(nsLabels ?? {})) if (selectorMatches(sel, labels)) out.add(ns);
  if (!sel && out.size === 0) out.add(own);
  return out;
}

/** Resolves a pod affinity term of `owner`. */
export function resolveAffinityTerm(
  term: PodAffinityTerm,
  owner: PlacedPod,
  nsLabels: SchedulingInput['namespaces'],
): ResolvedTerm {
  const selector = withKeys(term.labelSelector, owner.labels, term.matchLabelKeys ?? [], term.mismatchLabelKeys ?? []);
  const namespaces = namespacesOf(term, owner.namespace, nsLabels);
  const key = JSON.stringify([term.topologyKey, selector ?? null, namespaces ? [...namespaces].sort() : '*']);
  return { key, topologyKey: term.topologyKey, selector, namespaces };
}

/** Resolves a spread constraint's selector (matchLabelKeys folded in); spread counts the owner's namespace only. */
export function resolveSpreadSelector(
  selector: LabelSelector | undefined,
  owner: PlacedPod,
  matchLabelKeys: string[] | undefined,
): LabelSelector | undefined {
  return withKeys(selector, owner.labels, matchLabelKeys ?? [], []);
}

/** True when `pod` is counted by the term. */
export function termSelects(t: Pick<ResolvedTerm, 'selector' | 'namespaces'>, pod: PlacedPod): boolean {
  return (t.namespaces === undefined || t.namespaces.has(pod.namespace)) && selectorMatches(t.selector, pod.labels);
}

/** Domain values (present ones) the node may have for `key`; '*' (some unknown value) is left out. */
export function domainValues(node: CheckNode, key: string): string[] {
  return [...node.labels.possible(key)].filter((v): v is string => v !== undefined && v !== '*');
}
