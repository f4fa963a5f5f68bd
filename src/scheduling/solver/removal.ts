/**
 * Disruption's question (consolidation): if these nodes were removed, could their pods fit on the remaining
 * nodes and in-flight NodeClaims plus at most one new NodeClaim, and what would that cost? It is answered by a
 * solve over the cluster minus the candidates, with the candidates' pods as the pending pods. Nodes are parsed
 * once per node object (see existing-bin.ts) and instance types once per object, so a simulator kept across
 * candidates answers each one quickly.
 */
import type { ExistingNode, NewNodeClaim, Pod, SchedulingInput, SchedulingResult, UnplacedPod } from '../model.js';
import type { Resources } from '../resources/resources.js';
import { SolveCache } from '../solve-cache.js';
import { binOrder, poolUsage, usageWithout } from './context.js';
import { pack } from './solve.js';

/** The answer for one set of candidate nodes. */
export interface RemovalResult {
  /** True when every reschedulable pod fits on the remaining capacity plus at most one new NodeClaim. */
  feasible: boolean;
  /** The candidate node names that were found (unknown names are ignored and listed in `unknown`). */
  removed: string[];
  unknown: string[];
  /** Pods that would move (`namespace/name`), DaemonSet pods excluded: they go with their node. */
  pods: string[];
  /** Where each pod would go: an existing node, an in-flight NodeClaim, or the replacement. */
  placements: { pod: string; node?: string; nodeClaim?: string; replacement?: true }[];
  /** The one new NodeClaim needed, if any (absent when the pods fit on what remains). */
  replacement: NewNodeClaim | undefined;
  /** Hourly price of the replacement (0 without one). */
  replacementPrice: number;
  /** Sum of the removed nodes' hourly prices (`ExistingNode.price`, 0 when unknown). */
  removedPrice: number;
  /** removedPrice - replacementPrice: what the removal saves per hour (negative when it costs more). */
  savings: number;
  /** Why the removal is not feasible: pods that could not be placed, or more than one NodeClaim needed. */
  unplaced: UnplacedPod[];
  /** How many new NodeClaims the pods would need (feasible only when at most one). */
  newNodeClaims: number;
}

function isDaemonSetPod(p: Pod): boolean {
  return p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet') ?? false;
}

/** A pod as pending again: unbound. */
function unbound(p: Pod): Pod {
  if (p.spec.nodeName === undefined) return p;
  const { nodeName: _, ...spec } = p.spec;
  return { ...p, spec };
}

function keyOf(p: Pod): string {
  return `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`;
}

function toRemoval(
  result: SchedulingResult,
  opts: { removed: ExistingNode[]; unknown: string[]; pods: Pod[] },
): RemovalResult {
  const placements: RemovalResult['placements'] = [
    ...result.existingNodes.map((e) => ({ pod: e.pod, node: e.node })),
    ...result.nominated.map((e) => ({ pod: e.pod, nodeClaim: e.nodeClaim })),
    ...result.newNodeClaims.flatMap((c) => c.pods.map((pod) => ({ pod, replacement: true as const }))),
  ];
  const replacement = result.newNodeClaims.length === 1 ? result.newNodeClaims[0] : undefined;
  const replacementPrice = replacement?.cheapest.price ?? 0;
  const removedPrice = opts.removed.reduce((s, n) => s + (n.price ?? 0), 0);
  const unplaced = [...result.unplaced];
  if (result.newNodeClaims.length > 1) {
    for (const c of result.newNodeClaims.slice(1)) {
      for (const pod of c.pods) {
        unplaced.push({
          pod,
          reasons: [
            {
              constraint: 'resources',
              message: `needs more than one new NodeClaim (${result.newNodeClaims.length})`,
              details: { newNodeClaims: result.newNodeClaims.length },
            },
          ],
        });
      }
    }
  }
  return {
    feasible: unplaced.length === 0,
    removed: opts.removed.map((n) => n.name),
    unknown: opts.unknown,
    pods: opts.pods.map(keyOf),
    placements,
    replacement: result.newNodeClaims.length <= 1 ? replacement : undefined,
    replacementPrice: result.newNodeClaims.length <= 1 ? replacementPrice : Number.POSITIVE_INFINITY,
    removedPrice,
    savings: result.newNodeClaims.length <= 1 ? removedPrice - replacementPrice : Number.NEGATIVE_INFINITY,
    unplaced,
    newNodeClaims: result.newNodeClaims.length,
  };
}

/**
 * Answers removal questions against one cluster snapshot. `cluster.pods` (pending pods) are ignored: only the
 * candidates' pods move. Node objects must not be mutated while the simulator is used (they are parsed once).
 */
export class RemovalSimulator {
  private readonly byName: Map<string, ExistingNode>;
  private readonly nodes: ExistingNode[];
  /** NodePool usage of the whole snapshot; each simulation subtracts the removed nodes. */
  private readonly usage: Map<string, Resources>;

  /** `cache` (one per disruption pass, say) lets simulations parse each node and instance type once. */
  constructor(
    private readonly cluster: SchedulingInput,
    private readonly cache: SolveCache = new SolveCache(),
  ) {
    this.byName = new Map((cluster.nodes ?? []).map((n) => [n.name, n]));
    // In the solver's order already (initialized first, then by name), so each simulation's sort has nothing to do.
    this.nodes = [...(cluster.nodes ?? [])].sort(binOrder);
    this.usage = poolUsage(cluster, cache);
  }

  /** If the nodes named `candidates` were removed, where would their pods go and what would it cost? */
  simulate(candidates: readonly string[]): RemovalResult {
    const names = new Set(candidates);
    const removed: ExistingNode[] = [];
    const unknown: string[] = [];
    for (const name of names) {
      const n = this.byName.get(name);
      if (n) removed.push(n);
      else unknown.push(name);
    }
    const pods = removed.flatMap((n) => (n.pods ?? []).filter((p) => !isDaemonSetPod(p)).map(unbound));
    const nodes = this.nodes.filter((n) => !names.has(n.name));
    // One packing is enough here: the pods go to existing capacity first, and at most one NodeClaim is wanted.
    const result = pack(
      { ...this.cluster, pods, nodes },
      { strategy: 'tenon', targets: false },
      usageWithout(this.usage, removed, this.cluster.volumes, this.cache),
      this.cache,
    );
    return toRemoval(result, { removed, unknown, pods });
  }
}

/** One-off form of RemovalSimulator.simulate. */
export function simulateRemoval(cluster: SchedulingInput, candidates: readonly string[]): RemovalResult {
  return new RemovalSimulator(cluster).simulate(candidates);
}
