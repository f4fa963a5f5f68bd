/**
 * Per-pod node checks: resources against every allocatable the node may have (with DaemonSet overhead still to
 * come), nodeSelector and required node affinity against every way the node may turn out, taints.
 */
import { Labels } from '../../api/index.js';
import type { Pod } from '../model.js';
import { addAmounts, formatNano, podDemand, shortfalls, type Amounts } from '../rules/oracle-amounts.js';
import {
  blockingTaint,
  firstNotAlways,
  formatPossible,
  formatRequirement,
  termAlwaysHolds,
  type NodeLabels,
} from '../rules/labels.js';
import type { CheckNode, World } from './world.js';
import type { Violation } from './violation.js';

/** A pod's demand, computed once per pod object and check. */
export function demandOf(pod: Pod, demands: WeakMap<Pod, Amounts>): Amounts {
  let d = demands.get(pod);
  if (!d) demands.set(pod, (d = podDemand(pod)));
  return d;
}

function nodeResources(node: CheckNode, demands: WeakMap<Pod, Amounts>): Violation[] {
  if (!node.pods.some((p) => p.isNew)) return [];
  const used: Amounts = new Map(node.daemonOverhead);
  for (const p of node.pods) addAmounts(used, demandOf(p.pod, demands));
  const out: Violation[] = [];
  for (const c of node.capacities) {
    for (const s of shortfalls(used, c.allocatable)) {
      out.push({
        family: 'resources',
        target: node.target,
        message: `${node.target} (${c.name}) needs ${formatNano(s.need)} ${s.resource} for its ${node.pods.length} pods and DaemonSets but has ${formatNano(s.have)}`,
        details: {
          option: c.name,
          resource: s.resource,
          needed: formatNano(s.need),
          allocatable: formatNano(s.have),
          daemonOverhead: formatNano(node.daemonOverhead.get(s.resource) ?? 0n),
        },
      });
    }
  }
  if (node.kind === 'new' && node.capacities.length === 0)
    out.push({ family: 'offerings', target: node.target, message: `${node.target} has no valid instance type option` });
  return out;
}

/** Why the node's labels may fail the pod's nodeSelector or required node affinity, if they may. */
export function nodeAffinityFailure(pod: Pod, labels: NodeLabels): string | undefined {
  for (const [key, value] of Object.entries(pod.spec.nodeSelector ?? {})) {
    const bad = firstNotAlways(labels, [{ key, operator: 'In', values: [value] }]);
    if (bad) return `nodeSelector ${key}=${value} but the node's ${key} may be ${formatPossible(labels, key)}`;
  }
  const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (terms && terms.length > 0 && !terms.some((t) => termAlwaysHolds(labels, t))) {
    const first = terms[0]?.matchExpressions ?? [];
    const bad = firstNotAlways(labels, first);
    const why = bad ? `${formatRequirement(bad)} vs ${bad.key}=${formatPossible(labels, bad.key)}` : 'matchFields';
    return `no required node affinity term is guaranteed to hold (first term: ${why})`;
  }
  return undefined;
}

function podFit(world: World): Violation[] {
  const out: Violation[] = [];
  for (const p of world.placed) {
    if (!p.isNew) continue;
    const node = p.node;
    if (node.existing?.markedForDeletion)
      out.push({
        family: 'accounting',
        pod: p.key,
        target: node.target,
        message: `${node.target} is marked for deletion`,
      });
    const taint = blockingTaint(node.taints, p.pod.spec.tolerations ?? []);
    if (taint)
      out.push({
        family: 'taints',
        pod: p.key,
        target: node.target,
        message: `${node.target} has taint ${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect} the pod does not tolerate`,
      });
    const aff = nodeAffinityFailure(p.pod, node.labels);
    if (aff) out.push({ family: 'requirements', pod: p.key, target: node.target, message: aff });
    if (node.labels.possible(Labels.hostname).size !== 1)
      out.push({ family: 'nodeclaim', pod: p.key, target: node.target, message: 'node has no single hostname' });
  }
  return out;
}

/** Resource, node affinity and taint violations. */
export function checkNodeFit(world: World): Violation[] {
  return [...world.nodes.flatMap((n) => nodeResources(n, world.demands)), ...podFit(world)];
}
