/** Whether a pod's nodeSelector and required node affinity admit a node (core/v1 semantics: terms are ORed). */
import type { Node, Pod } from '../../kube/index.js';
import { Requirements, type NodeSelectorTerm } from '../../scheduling/index.js';
import { asSchedPod } from './sched-pod.js';

function fieldsMatch(term: NodeSelectorTerm, node: Node): boolean {
  for (const f of term.matchFields ?? []) {
    if (f.key !== 'metadata.name') return false;
    const has = (f.values ?? []).includes(node.metadata.name ?? '');
    if (f.operator === 'In' ? !has : f.operator === 'NotIn' ? has : true) return false;
  }
  return true;
}

function termMatches(term: NodeSelectorTerm, node: Node): boolean {
  if (!term.matchExpressions?.length && !term.matchFields?.length) return false;
  return Requirements.fromSelector(term.matchExpressions).matchesLabels(node.metadata.labels ?? {}) && fieldsMatch(term, node);
}

/** True when the node satisfies the pod's nodeSelector and one of its required node-affinity terms. */
export function matchesNodeAffinity(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const terms = asSchedPod(pod).spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!terms) return true;
  return terms.some((t) => termMatches(t, node));
}
