/**
 * Turns a pod's spread constraints and affinity terms into group definitions (hashable, de-duplicated).
 */
import { compileSelector, selectorKey, type LabelMatcher } from '../../api/index.js';
import type { Toleration } from '../../api/index.js';
import type { LabelSelector, Pod, PodAffinityTerm, TopologySpreadConstraint } from '../model.js';
import type { GroupSpec, GroupType } from './group.js';
import type { NodeFilter } from './node-filter.js';

/** Namespace labels by namespace, for namespaceSelector. */
export type NamespaceLabels = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Adds matchLabelKeys (In the pod's value) and mismatchLabelKeys (NotIn) to a selector. */
function withLabelKeys(
  selector: LabelSelector | undefined,
  labels: Readonly<Record<string, string>>,
  keys: { match?: string[]; mismatch?: string[] },
): LabelSelector | undefined {
  if (!selector || (!keys.match?.length && !keys.mismatch?.length)) return selector;
  const exprs = [...(selector.matchExpressions ?? [])];
  for (const k of keys.match ?? []) {
    const v = labels[k];
    if (v !== undefined) exprs.push({ key: k, operator: 'In', values: [v] });
  }
  for (const k of keys.mismatch ?? []) {
    const v = labels[k];
    if (v !== undefined) exprs.push({ key: k, operator: 'NotIn', values: [v] });
  }
  return { ...selector, matchExpressions: exprs };
}

/** The namespaces an affinity term counts pods in (undefined = all). */
export function termNamespaces(
  term: PodAffinityTerm,
  ownNamespace: string,
  nsLabels: NamespaceLabels,
): Set<string> | undefined {
  const explicit = term.namespaces ?? [];
  const sel = term.namespaceSelector;
  if (sel && !sel.matchLabels && !sel.matchExpressions?.length) return undefined; // {} selects every namespace
  const out = new Set<string>(explicit);
  if (sel) {
    const m = compileSelector(sel);
    for (const [ns, labels] of Object.entries(nsLabels)) if (m(labels)) out.add(ns);
  }
  if (explicit.length === 0 && !sel) out.add(ownNamespace);
  return out;
}

/** The spread owner a group definition is built for. */
export interface SpreadOwner {
  namespace: string;
  labels: Readonly<Record<string, string>>;
  filter: NodeFilter | undefined;
  tolerations: readonly Toleration[];
}

/**
 * A group definition for a spread constraint of `owner`, with its node filter and tolerations (ignored under
 * nodeAffinityPolicy / nodeTaintsPolicy Ignore, and for hostname, where an owner is never on a node it filters out
 * or does not tolerate and the minimum is zero anyway).
 */
export function spreadSpec(c: TopologySpreadConstraint, owner: SpreadOwner): GroupSpec {
  const { namespace, labels } = owner;
  const selector = withLabelKeys(c.labelSelector, labels, { match: c.matchLabelKeys });
  const honorNodeAffinity = (c.nodeAffinityPolicy ?? 'Honor') === 'Honor';
  const honorNodeTaints = (c.nodeTaintsPolicy ?? 'Ignore') === 'Honor';
  const byNode = c.topologyKey !== 'kubernetes.io/hostname';
  const nodeFilter = honorNodeAffinity && byNode ? owner.filter : undefined;
  const tolerations = honorNodeTaints && byNode ? owner.tolerations : undefined;
  return {
    type: 'spread',
    key: c.topologyKey,
    namespaces: new Set([namespace]),
    selector: compileSelector(selector),
    maxSkew: c.maxSkew,
    minDomains: c.minDomains,
    honorNodeAffinity,
    tolerations,
    nodeFilter,
    required: c.whenUnsatisfiable === 'DoNotSchedule',
    hash: JSON.stringify([
      'spread',
      c.topologyKey,
      namespace,
      selectorKey(selector),
      c.maxSkew,
      c.minDomains ?? 0,
      honorNodeAffinity,
      honorNodeTaints,
      c.whenUnsatisfiable,
      nodeFilter?.key ?? null,
      tolerations ?? null,
    ]),
  };
}

/** A group definition for a pod (anti-)affinity term. */
export function affinitySpec(
  type: GroupType,
  term: PodAffinityTerm,
  owner: { namespace: string; labels: Readonly<Record<string, string>> },
  nsLabels: NamespaceLabels,
): GroupSpec {
  const selector = withLabelKeys(term.labelSelector, owner.labels, {
    match: term.matchLabelKeys,
    mismatch: term.mismatchLabelKeys,
  });
  const namespaces = termNamespaces(term, owner.namespace, nsLabels);
  const hash = JSON.stringify([
    type,
    term.topologyKey,
    namespaces ? [...namespaces].sort() : '*',
    selectorKey(selector),
  ]);
  return termGroup(type, { key: term.topologyKey, namespaces, selector: compileSelector(selector), hash });
}

/** An (anti-)affinity group's definition: no skew, no tolerations or node filter of its own. */
function termGroup(
  type: GroupType,
  g: { key: string; namespaces: Set<string> | undefined; selector: LabelMatcher; hash: string },
): GroupSpec {
  return {
    type,
    ...g,
    maxSkew: 0,
    minDomains: undefined,
    honorNodeAffinity: true,
    tolerations: undefined,
    nodeFilter: undefined,
    required: false,
  };
}

/** The namespaces every set allows (undefined stands for all of them). */
function intersect(sets: (Set<string> | undefined)[]): Set<string> | undefined {
  let out: Set<string> | undefined;
  for (const s of sets) if (s) out = out ? new Set([...out].filter((n) => s.has(n))) : s;
  return out;
}

/**
 * Group definitions for a pod's required pod affinity terms. kube-scheduler judges several terms together
 * (InterPodAffinity's satisfyPodAffinity): only pods matching every term count, and the pod's domain of each term's
 * key must hold one. So with several terms each term becomes a group on its own key selecting pods that match all the
 * terms; a single term is its plain group.
 */
export function requiredAffinitySpecs(
  terms: readonly PodAffinityTerm[],
  owner: { namespace: string; labels: Readonly<Record<string, string>> },
  nsLabels: NamespaceLabels,
): GroupSpec[] {
  if (terms.length <= 1) return terms.map((t) => affinitySpec('affinity', t, owner, nsLabels));
  const parts = terms.map((t) => {
    const selector = withLabelKeys(t.labelSelector, owner.labels, {
      match: t.matchLabelKeys,
      mismatch: t.mismatchLabelKeys,
    });
    const namespaces = termNamespaces(t, owner.namespace, nsLabels);
    return {
      matcher: compileSelector(selector),
      namespaces,
      key: JSON.stringify([namespaces ? [...namespaces].sort() : '*', selectorKey(selector)]),
    };
  });
  const matchers = parts.map((p) => p.matcher);
  const selector: LabelMatcher = (labels) => matchers.every((m) => m(labels));
  const namespaces = intersect(parts.map((p) => p.namespaces));
  const joint = parts.map((p) => p.key).sort();
  const keys = [...new Set(terms.map((t) => t.topologyKey))];
  return keys.map((key) =>
    termGroup('affinity', { key, namespaces, selector, hash: JSON.stringify(['affinity-all', key, joint]) }),
  );
}

/** The topology keys a pod's spread constraints and pod (anti-)affinity terms use. */
export function podTopologyKeys(p: Pod): string[] {
  const keys: string[] = [];
  for (const c of p.spec.topologySpreadConstraints ?? []) keys.push(c.topologyKey);
  for (const rules of [p.spec.affinity?.podAffinity, p.spec.affinity?.podAntiAffinity]) {
    for (const t of rules?.requiredDuringSchedulingIgnoredDuringExecution ?? []) keys.push(t.topologyKey);
    for (const t of rules?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
      keys.push(t.podAffinityTerm.topologyKey);
  }
  return keys;
}
