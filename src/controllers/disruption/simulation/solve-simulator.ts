/**
 * The removal simulator on top of the scheduling engine's `solve`, as Karpenter's SimulateScheduling does it:
 * the candidates are left out of the cluster, their reschedulable pods join the pending pods and the pods of
 * nodes already being deleted, and the solver places them all. A pod placed on a node or NodeClaim that is not
 * initialized yet counts as stranded: a disruption must not bet on capacity that may never come up.
 * (Why not the engine's RemovalSimulator: it packs with the cost-minimising strategy and ignores pending pods;
 * see docs/adr/0011-disruption.md.)
 */
import { binOrder, poolUsage, solve, SolveCache, usageWithout } from '../../../scheduling/index.js';
import type * as sched from '../../../scheduling/index.js';
import { podKeyOf, reschedulablePods } from '../candidates/pods.js';
import type { Candidate, DisruptionView } from '../types.js';
import { QuickReject } from './quick-reject.js';
import type { RemovalHints, RemovalOutcome, RemovalSimulator, Stranded } from './removal-simulator.js';

/** Simulates removals against one snapshot of the cluster with the full solver. */
export class SolveRemovalSimulator implements RemovalSimulator {
  private readonly receivers: sched.ExistingNode[];
  private readonly leaving: sched.Pod[];
  private readonly uninitialized: Set<string>;
  private quickReject: QuickReject | undefined;
  private readonly pendingKeys: Set<string>;
  /** What the receivers and in-flight NodeClaims count against each NodePool's limits; each simulation subtracts its candidates. */
  private readonly usage: Map<string, sched.Resources>;
  /** Number of full solves run (see RemovalSimulator.solves). */
  solves = 0;

  /** Prepares the parts of the input every simulation shares. */
  constructor(
    private readonly view: DisruptionView,
    private readonly cache: SolveCache = new SolveCache(),
  ) {
    // Nodes already being deleted take no pods; theirs must be re-homed along with the candidates'.
    // In the solver's order, so a 5,000-node solve does not sort its bins again for every candidate.
    this.receivers = view.nodes.filter((n) => !n.deleting).sort(binOrder);
    this.leaving = view.nodes.filter((n) => n.deleting).flatMap((n) => reschedulablePods(n.pods));
    this.uninitialized = new Set([
      ...view.nodes.filter((n) => n.initialized === false).map((n) => n.name),
      ...view.inFlight.map((n) => n.name),
    ]);
    this.pendingKeys = new Set(view.pendingPods.map(podKeyOf));
    this.usage = poolUsage(
      { pods: [], nodes: this.receivers, nodeClaims: view.inFlight, nodePools: [], instanceTypes: [] },
      cache,
    );
  }

  /** Built on first use: a pass that simulates nothing should not pay for it. */
  private get quick(): QuickReject {
    this.quickReject ??= new QuickReject(
      this.receivers.filter((n) => n.initialized !== false),
      Object.values(this.view.instanceTypesByNodePool).flat(),
    );
    return this.quickReject;
  }

  /** See RemovalSimulator. */
  simulate(candidates: readonly Candidate[], hints: RemovalHints = {}): RemovalOutcome {
    const early = this.quick.check(candidates, hints.maxNewNodePrice);
    if (early) return early;
    this.solves++;
    const names = new Set(candidates.map((c) => c.node.name));
    const moving = candidates.flatMap((c) => c.reschedulable);
    const input: sched.SchedulingInput = {
      pods: [...this.view.pendingPods, ...this.leaving, ...moving],
      nodes: this.receivers.filter((n) => !names.has(n.name)),
      nodeClaims: this.view.inFlight,
      nodePools: this.view.schedulingNodePools,
      instanceTypes: [],
      instanceTypesByNodePool: this.view.instanceTypesByNodePool,
      daemonSets: this.view.daemonSets,
      // Karpenter's first-fit-decreasing packing: a new NodeClaim grows up to the largest type and keeps every type
      // that fits as an option. Tenon's own strategy would buy the cheapest mix of small nodes with one type each,
      // which is right for provisioning but hides both "one replacement" and the spot flexibility consolidation needs.
      strategy: 'karpenter-ffd',
    };
    const result = solve(
      input,
      usageWithout(
        this.usage,
        candidates.map((c) => c.node),
        undefined,
        this.cache,
      ),
      this.cache,
    );
    const leavingKeys = new Set(this.leaving.map(podKeyOf));
    // Pods that were pending anyway do not make a removal fail (Karpenter's AllNonPendingPodsScheduled).
    const pending = this.pendingKeys;
    const stranded: Stranded[] = result.unplaced
      .filter((u) => !pending.has(u.pod))
      .map((u) => ({ pod: u.pod, reason: u.reasons.map((r) => r.message).join('; ') || 'no place found' }));
    const onUninitialized = [
      ...result.existingNodes.map((p) => ({ pod: p.pod, target: `node/${p.node}`, name: p.node })),
      ...result.nominated.map((p) => ({ pod: p.pod, target: `nodeclaim/${p.nodeClaim}`, name: p.nodeClaim })),
    ];
    for (const p of onUninitialized) {
      if (this.uninitialized.has(p.name) && !leavingKeys.has(p.pod))
        stranded.push({ pod: p.pod, reason: `would schedule against uninitialized ${p.target}`, waitsFor: p.target });
    }
    return { stranded, newNodeClaims: result.newNodeClaims };
  }
}
