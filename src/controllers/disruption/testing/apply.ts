/**
 * Carries out a command on a plain-object cluster, as the orchestration and the kube-scheduler would: the
 * replacements come up as nodes of their cheapest option, the candidates go, and the scheduler (the engine's
 * own solver, run without permission to launch anything) binds the displaced pods to the nodes that are left.
 * Used by property tests to check "no pod is left without a place" and by the benchmark to iterate passes.
 */
import { Labels } from '../../../api/index.js';
import { solve } from '../../../scheduling/index.js';
import type * as sched from '../../../scheduling/index.js';
import { reschedulablePods } from '../candidates/pods.js';
import type { Command, DisruptionNode, DisruptionView } from '../types.js';

/** The cluster after the command, or the pods that found no place. */
export type Applied = { ok: true; view: DisruptionView } | { ok: false; stranded: string[] };

let replacementCounter = 0;

function replacementNode(r: sched.NewNodeClaim, v: DisruptionView): DisruptionNode {
  replacementCounter++;
  const name = `replacement-${replacementCounter}`;
  const it = (v.instanceTypesByNodePool[r.nodePool] ?? []).find((t) => t.name === r.cheapest.instanceType);
  return {
    name,
    nodeClaim: `nc-${name}`,
    nodePool: r.nodePool,
    labels: {
      ...it?.labels,
      [Labels.hostname]: name,
      [Labels.zone]: r.cheapest.zone,
      [Labels.capacityType]: r.cheapest.capacityType,
      [Labels.nodePool]: r.nodePool,
      [Labels.instanceType]: r.cheapest.instanceType,
    },
    allocatable: it?.allocatable ?? it?.capacity ?? {},
    taints: r.taints.length ? r.taints : undefined,
    pods: [],
    initialized: true,
    ready: true,
    price: r.cheapest.price,
    lastPodEventTime: v.now,
  };
}

/** Applies `cmd` to `v`. */
export function applyCommand(v: DisruptionView, cmd: Command): Applied {
  const gone = new Set(cmd.candidates.map((c) => c.node.name));
  const replacements = cmd.replacements.map((r) => replacementNode(r, v));
  const nodes = [...v.nodes.filter((n) => !gone.has(n.name)), ...replacements];
  const moving = cmd.candidates.flatMap((c) => reschedulablePods(c.node.pods));
  // Replacements last, so the scheduler fills the surviving nodes first as the simulation did. The solver orders
  // nodes by name (initialized ones first), so the order of this list alone would not do: a replacement named
  // "replacement-12" would come before "replacement-9". Presented as not yet initialized, they come last.
  const fresh = new Set(replacements.map((n) => n.name));
  const solveNodes = nodes.map((n) => (fresh.has(n.name) ? { ...n, initialized: false } : n));
  const result = solve({
    pods: moving,
    nodes: solveNodes,
    nodePools: [],
    instanceTypes: [],
    daemonSets: v.daemonSets,
    strategy: 'karpenter-ffd',
  });
  if (result.unplaced.length > 0) return { ok: false, stranded: result.unplaced.map((u) => u.pod) };
  const byKey = new Map(moving.map((p) => [`${p.metadata.namespace ?? 'default'}/${p.metadata.name ?? ''}`, p]));
  const landed = new Map<string, sched.Pod[]>();
  for (const placed of result.existingNodes) {
    const p = byKey.get(placed.pod);
    if (p)
      landed.set(placed.node, [
        ...(landed.get(placed.node) ?? []),
        { ...p, spec: { ...p.spec, nodeName: placed.node } },
      ]);
  }
  // New node objects rather than edits: the solver caches what it derived from each node object it was given.
  const after = nodes.map((n) => {
    const extra = landed.get(n.name);
    return extra ? { ...n, pods: [...(n.pods ?? []), ...extra], lastPodEventTime: v.now } : n;
  });
  return { ok: true, view: { ...v, nodes: after } };
}

/** The fleet's hourly price. */
export function fleetCost(v: DisruptionView): number {
  return v.nodes.reduce((s, n) => s + (n.price ?? 0), 0);
}
