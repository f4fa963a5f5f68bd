/**
 * How kube-scheduler words a node's filter failures: the reasons of the first failing plugin in the framework's
 * order, and whether removing pods could change the verdict (Unschedulable versus UnschedulableAndUnresolvable).
 */
import type { Taint } from '../../api/index.js';
import type { Pod } from '../../kube/index.js';
import { untoleratedTaint, type CheckFamily, type Violation } from '../../scheduling/index.js';
import type { NodeInfo } from './node-info.js';

/** The taint a cordoned node stands for (kube-scheduler's NodeUnschedulable plugin checks tolerations of it). */
const unschedulableTaint: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

/** The framework's filter order, by checker family. */
const pluginOrder: readonly CheckFamily[] = [
  'accounting',
  'taints',
  'requirements',
  'host-ports',
  'resources',
  'csi-limits',
  'volume-topology',
  'topology-spread',
  'pod-affinity',
  'pod-anti-affinity',
];

/** The node's taints as kube-scheduler's filters see them: a cordoned node has the unschedulable one too. */
export function taintsOf(info: NodeInfo): Taint[] {
  const taints = [...(info.node.spec?.taints ?? [])];
  return info.node.spec?.unschedulable ? [unschedulableTaint, ...taints] : taints;
}

/** kube-scheduler's reason for each family whose wording does not depend on the violation. */
const fixedReasons: Partial<Record<CheckFamily, string>> = {
  requirements: "node(s) didn't match Pod's node affinity/selector",
  'host-ports': "node(s) didn't have free ports for the requested pod ports",
  'csi-limits': 'node(s) exceed max volume count',
  'topology-spread': "node(s) didn't match pod topology spread constraints",
  'pod-affinity': "node(s) didn't match pod affinity rules",
  'pod-anti-affinity': "node(s) didn't match pod anti-affinity rules",
};

function taintReason(pod: Pod, info: NodeInfo): string {
  const taint = untoleratedTaint(
    taintsOf(info).filter((t) => t.effect !== 'PreferNoSchedule'),
    pod.spec.tolerations ?? [],
  );
  if (taint?.key === unschedulableTaint.key && info.node.spec?.unschedulable) return 'node(s) were unschedulable';
  return `node(s) had untolerated taint {${taint?.key ?? ''}: ${taint?.value ?? ''}}`;
}

function reasonText(pod: Pod, info: NodeInfo, v: Violation): string {
  const fixed = fixedReasons[v.family];
  if (fixed) return fixed;
  if (v.family === 'taints') return taintReason(pod, info);
  if (v.family === 'resources')
    return v.details?.resource === 'pods' ? 'Too many pods' : `Insufficient ${String(v.details?.resource ?? '')}`;
  if (v.family === 'volume-topology')
    return v.message.includes('storageclass')
      ? "node(s) didn't find available persistent volumes to bind"
      : 'node(s) had volume node affinity conflict';
  return v.message;
}

/** Families kube-scheduler reports as Unschedulable (evicting pods may help), not UnschedulableAndUnresolvable. */
const resolvableFamilies: ReadonlySet<CheckFamily> = new Set([
  'host-ports',
  'resources',
  'csi-limits',
  'pod-anti-affinity',
  'topology-spread',
]);

/** Why a pod may not go on one node: kube-scheduler's reasons, and whether removing pods could change that. */
export interface NodeVerdict {
  reasons: string[];
  resolvable: boolean;
}

/** The reasons of the first failing plugin, worded as kube-scheduler's. */
export function verdictOf(pod: Pod, info: NodeInfo, violations: readonly Violation[]): NodeVerdict {
  if (violations.length === 0) return { reasons: [], resolvable: false };
  const family = pluginOrder.find((f) => violations.some((v) => v.family === f)) ?? violations[0]?.family;
  const texts = violations.filter((v) => v.family === family).map((v) => reasonText(pod, info, v));
  return { reasons: [...new Set(texts)].sort(), resolvable: family !== undefined && resolvableFamilies.has(family) };
}
