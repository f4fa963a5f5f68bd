/**
 * The kubelet's own admission of a pod bound to it (its GeneralPredicates plus NoExecute taints), judged by the
 * scheduling engine's placement checker: a pod that does not fit what the kubelet already runs is rejected with
 * phase Failed, as the real kubelet does when a binding raced another one.
 */
import type { Pod } from '../../kube/index.js';
import { podRequests, untoleratedTaint, type Violation } from '../../scheduling/index.js';
import { nodeLocalViolations } from '../scheduler/feasibility.js';
import type { NodeInfo } from '../scheduler/node-info.js';
import { asSchedPod } from '../scheduler/sched-pod.js';

/** The kubelet's verdict on a pod. */
export type Admission = { admit: true } | { admit: false; reason: string; message: string };

function rejected(reason: string, message: string): Admission {
  return { admit: false, reason, message: `Pod was rejected: ${message}` };
}

function resourceRejection(pod: Pod, info: NodeInfo, v: Violation): Admission {
  const short = String(v.details?.resource ?? '');
  const requested = podRequests(asSchedPod(pod))[short] ?? 0;
  const msg = `Node didn't have enough resource: ${short}, requested: ${requested}, used: ${info.requested[short] ?? 0}, capacity: ${info.allocatable[short] ?? 0}`;
  return rejected(`Out${short}`, msg);
}

/** Admits or rejects `pod` on the node described by `info` (the pods the kubelet already admitted). */
export function admit(pod: Pod, info: NodeInfo): Admission {
  const noExecute = (info.node.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');
  const violations = nodeLocalViolations(pod, info, noExecute);
  const of = (family: Violation['family']): Violation | undefined => violations.find((v) => v.family === family);
  if (of('requirements'))
    return rejected('NodeAffinity', "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector");
  if (of('taints')) {
    const t = untoleratedTaint(noExecute, pod.spec.tolerations ?? []);
    return rejected(
      'TaintToleration',
      `Predicate TaintToleration failed: node(s) had untolerated taint {${t?.key ?? ''}: ${t?.value ?? ''}}`,
    );
  }
  if (of('host-ports'))
    return rejected(
      'NodePorts',
      "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
    );
  const resources = violations
    .filter((v) => v.family === 'resources')
    .sort((a, b) => String(a.details?.resource).localeCompare(String(b.details?.resource)))[0];
  return resources ? resourceRejection(pod, info, resources) : { admit: true };
}
