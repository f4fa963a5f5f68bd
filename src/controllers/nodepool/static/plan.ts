/**
 * What a static NodePool (one with `spec.replicas`) needs: how many NodeClaims to create or which to delete so
 * that exactly `replicas` stay, never more than `limits.nodes` in all. Pure, so the rules are tested apart.
 */

/** One of the pool's NodeClaims, as far as the choice of which to remove goes. */
export interface StaticMember {
  name: string;
  /** Being deleted already: counts against limits.nodes, not towards replicas. */
  deleting: boolean;
  /** Its node is registered and initialized. */
  initialized: boolean;
  /** Pods on its node that would have to move (DaemonSet pods excluded). */
  pods: number;
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
 * Scale up to `replicas` within `limits.nodes` (NodeClaims being deleted still hold their instances, so they
 * count against the limit); scale down by removing the NodeClaims that lose least: not yet initialized first,
 * then those with the fewest pods, then the newest.
 */
export function planStatic(opts: {
  replicas: number;
  limitNodes?: number;
  members: readonly StaticMember[];
}): StaticPlan {
  const active = opts.members.filter((m) => !m.deleting);
  if (active.length > opts.replicas) {
    const order = [...active].sort(
      (a, b) =>
        Number(a.initialized) - Number(b.initialized) ||
        a.pods - b.pods ||
        b.createdAt - a.createdAt ||
        a.name.localeCompare(b.name),
    );
    return { create: 0, remove: order.slice(0, active.length - opts.replicas).map((m) => m.name) };
  }
  const wanted = opts.replicas - active.length;
  if (opts.limitNodes === undefined) return { create: wanted, remove: [] };
  const room = Math.max(0, opts.limitNodes - opts.members.length);
  if (room >= wanted) return { create: wanted, remove: [] };
  return {
    create: room,
    remove: [],
    limitedBy: `limits.nodes is ${opts.limitNodes} and ${opts.members.length} NodeClaims exist`,
  };
}
