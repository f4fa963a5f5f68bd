/**
 * The kubelet's own admission of a pod bound to it (its GeneralPredicates plus NoExecute taints): a pod that
 * does not fit what the kubelet already runs is rejected with phase Failed, as the real kubelet does when a
 * binding raced another one.
 */
import type { Pod } from '../../kube/index.js';
import { podRequests } from '../../scheduling/index.js';
import { insufficient, nodeAffinity, nodePorts, taintToleration } from '../scheduler/filters.js';
import type { NodeInfo } from '../scheduler/node-info.js';
import { asSchedPod } from '../scheduler/sched-pod.js';

/** The kubelet's verdict on a pod. */
export type Admission = { admit: true } | { admit: false; reason: string; message: string };

function rejected(reason: string, message: string): Admission {
  return { admit: false, reason, message: `Pod was rejected: ${message}` };
}

/** Admits or rejects `pod` on the node described by `info` (the pods the kubelet already admitted). */
export function admit(pod: Pod, info: NodeInfo): Admission {
  const affinity = nodeAffinity(pod, info);
  if (affinity.length > 0) return rejected('NodeAffinity', `Predicate NodeAffinity failed: ${affinity.join(', ')}`);
  const noExecute = { ...info, node: { ...info.node, spec: { ...info.node.spec, taints: (info.node.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute') } } };
  const taint = taintToleration(pod, noExecute);
  if (taint.length > 0) return rejected('TaintToleration', `Predicate TaintToleration failed: ${taint.join(', ')}`);
  if (nodePorts(pod, info).length > 0) return rejected('NodePorts', "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports");
  const requests = podRequests(asSchedPod(pod));
  const [short] = insufficient(requests, info);
  if (short === undefined) return { admit: true };
  const msg = `Node didn't have enough resource: ${short}, requested: ${requests[short] ?? 0}, used: ${info.requested[short] ?? 0}, capacity: ${info.allocatable[short] ?? 0}`;
  return rejected(`Out${short}`, msg);
}
