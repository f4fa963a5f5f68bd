/**
 * What a static NodePool (one with `spec.replicas`) needs: how many NodeClaims to create or which to delete so
 * that exactly `replicas` stay, never more than `limits.nodes` in all. Pure, so the rules are tested apart.
 */

/** One of the pool's NodeClaims, as far as the choice of which to remove goes. */
export interface StaticMember {
  name: string;
  /** Being deleted already: counts against limits.nodes, not towards replicas. */
  deleting: boolean;
  /**
   * A disruption command is replacing it (its `DisruptionReason` condition is set): it still counts when deciding
   * whether to create, but not when deciding whether the pool has too many, so the replacement staged for it
   * is not taken for a surplus (Karpenter's static deprovisioning counts only running NodeClaims).
   */
  pendingDisruption: boolean;
  /** It has a providerID: an instance was launched for it. */
  resolved: boolean;
  /** Pods on its node that would have to move (DaemonSet pods excluded). */
  pods: number;
  /** One of those pods has `karpenter.sh/do-not-disrupt`. */
  doNotDisrupt: boolean;
  /** Karpenter's disruption cost of its pods (rescheduling cost x lifetime remaining). */
  disruptionCost: number;
  /** Creation time (ms). */
  createdAt: number;
}

/** The change that brings the pool to its replica count. */
export interface StaticPlan {
  create: number;
  /** NodeClaims to delete, cheapest to lose first. */
  remove: string[];
  /** Why fewer than needed are created (limits.nodes), for an event. */
  limitedBy?: string;
}

/**
 * Karpenter's static deprovisioning order: NodeClaims without an instance yet first, then empty nodes (only
 * DaemonSet pods, none with do-not-disrupt), then the rest with do-not-disrupt pods last and the lowest
 * disruption cost first. Newest first, then by name, among equals, so the choice is deterministic.
 */
export function byRemovalOrder(a: StaticMember, b: StaticMember): number {
  const empty = (m: StaticMember): boolean => m.pods === 0 && !m.doNotDisrupt;
  return (
    Number(a.resolved) - Number(b.resolved) ||
    Number(empty(b)) - Number(empty(a)) ||
    Number(a.doNotDisrupt) - Number(b.doNotDisrupt) ||
    a.disruptionCost - b.disruptionCost ||
    b.createdAt - a.createdAt ||
    a.name.localeCompare(b.name)
  );
}

/**
 * Scale up to `replicas` within `limits.nodes` (NodeClaims being deleted still hold their instances, so they
 * count against the limit); scale down by removing the NodeClaims that lose least (byRemovalOrder), never one
 * a disruption command is already replacing.
 */
export function planStatic(opts: {
  replicas: number;
  limitNodes?: number;
  members: readonly StaticMember[];
}): StaticPlan {
  const active = opts.members.filter((m) => !m.deleting);
  const running = active.filter((m) => !m.pendingDisruption);
  if (running.length > opts.replicas) {
    const order = [...running].sort(byRemovalOrder);
    return { create: 0, remove: order.slice(0, running.length - opts.replicas).map((m) => m.name) };
  }
  const wanted = Math.max(0, opts.replicas - active.length);
  if (opts.limitNodes === undefined) return { create: wanted, remove: [] };
  const room = Math.max(0, opts.limitNodes - opts.members.length);
  if (room >= wanted) return { create: wanted, remove: [] };
  return {
    create: room,
    remove: [],
    limitedBy: `limits.nodes is ${opts.limitNodes} and ${opts.members.length} NodeClaims exist`,
  };
}
