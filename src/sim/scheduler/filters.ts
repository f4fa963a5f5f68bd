/**
 * The kube-scheduler's filter plugins that look at one node: each returns the reasons it rejects the node
 * (in kube-scheduler's words, which make up the "0/N nodes are available: …" message) or an empty list. This
 * is the module to swap for the scheduling engine's independent placement checker once it exists.
 */
import type { Taint } from '../../api/index.js';
import type { Pod } from '../../kube/index.js';
import { conflictingPort, hostPortsOf, podRequests, type Resources } from '../../scheduling/index.js';
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

/** NodeUnschedulable: a cordoned node takes only pods tolerating node.kubernetes.io/unschedulable. */
export const nodeUnschedulable: NodeFilter = (pod, n) => {
  if (!n.node.spec?.unschedulable) return [];
  return toleratesTaint(pod, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }) ? [] : ['node(s) were unschedulable'];
};

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

/** NodeResourcesFit: "Insufficient cpu", "Too many pods". */
export const nodeResourcesFit: NodeFilter = (pod, n) =>
  insufficient(podRequests(asSchedPod(pod)), n).map((name) => (name === 'pods' ? 'Too many pods' : `Insufficient ${name}`));

/** The node-local filters in kube-scheduler's default order. */
export const nodeFilters: readonly NodeFilter[] = [nodeUnschedulable, taintToleration, nodeAffinity, nodePorts, nodeResourcesFit];

/** The reasons the node-local filters reject a node: the first failing filter's, as the framework stops there. */
export function filterNode(pod: Pod, n: NodeInfo, extra: readonly NodeFilter[] = []): string[] {
  for (const f of [...nodeFilters, ...extra]) {
    const reasons = f(pod, n);
    if (reasons.length > 0) return reasons;
  }
  return [];
}
