/**
 * The node-local predicates the kubelet's admission re-runs on a pod bound to it (GeneralPredicates and NoExecute
 * taints), each returning its reasons in kube's words or an empty list. The kube-scheduler's own filtering goes
 * through the placement checker (feasibility.ts).
 */
import type { Taint } from '../../api/index.js';
import type { Pod } from '../../kube/index.js';
import { conflictingPort, hostPortsOf, type Resources } from '../../scheduling/index.js';
import { matchesNodeAffinity } from './node-affinity.js';
import type { NodeInfo } from './node-info.js';
import { asSchedPod } from './sched-pod.js';

/** A filter over one node: the reasons it rejects the node. */
export type NodeFilter = (pod: Pod, node: NodeInfo) => string[];

function toleratesTaint(pod: Pod, taint: Taint): boolean {
  return (pod.spec.tolerations ?? []).some((tol) => {
    if (tol.effect && tol.effect !== taint.effect) return false;
    if (!tol.key) return tol.operator === 'Exists';
    if (tol.key !== taint.key) return false;
    return tol.operator === 'Exists' || (tol.value ?? '') === (taint.value ?? '');
  });
}

/** TaintToleration: every NoSchedule and NoExecute taint must be tolerated. */
export const taintToleration: NodeFilter = (pod, n) => {
  for (const t of n.node.spec?.taints ?? []) {
    if (t.effect === 'PreferNoSchedule' || toleratesTaint(pod, t)) continue;
    return [`node(s) had untolerated taint {${t.key}: ${t.value ?? ''}}`];
  }
  return [];
};

/** NodeAffinity: nodeSelector and required node affinity. */
export const nodeAffinity: NodeFilter = (pod, n) => (matchesNodeAffinity(pod, n.node) ? [] : ["node(s) didn't match Pod's node affinity/selector"]);

/** NodePorts: host ports must be free. */
export const nodePorts: NodeFilter = (pod, n) =>
  conflictingPort(n.ports, hostPortsOf(asSchedPod(pod))) ? ["node(s) didn't have free ports for the requested pod ports"] : [];

/** The resources a pod requests that a node lacks, by name. */
export function insufficient(requests: Resources, n: NodeInfo): string[] {
  const out: string[] = [];
  for (const [name, v] of Object.entries(requests)) {
    if (v <= 0) continue;
    if (v + (n.requested[name] ?? 0) > (n.allocatable[name] ?? 0)) out.push(name);
  }
  return out.sort();
}
