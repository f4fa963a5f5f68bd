/**
 * What a NodePool's disruption budgets for reason Unhealthy leave for node repair: the most restrictive active
 * budget, what it allows, and the repairs already in flight. node.health waits while none is left, and
 * `tenon explain` says so with the same numbers.
 */
import { ConditionReasons, ConditionTypes, Labels, type Budget } from '../../../api/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../../../state/informers.js';
import { getCondition } from '../../conditions.js';
import { budgetWindowEnd, mostRestrictiveBudget } from '../../disruption/budgets/budgets.js';

/** The Unhealthy budget of one NodePool now. */
export interface UnhealthyBudget {
  /** Nodes the most restrictive active budget allows to be repaired at a time. */
  allowed: number;
  /** That budget; undefined when none applies (no limit). */
  budget: Budget | undefined;
  /** Initialized NodeClaims of the NodePool (what a percentage is taken of). */
  numNodes: number;
  /** NodeClaims whose repair is in flight: being deleted, or marked for disruption as Unhealthy. */
  repairing: string[];
  /** When the budget's schedule window ends, if it has one. */
  windowEnds: number | undefined;
}

/** Whether the NodeClaim has initialized: one that never did is repaired regardless of budgets. */
export function isInitialized(nc: StoredNodeClaim): boolean {
  return nc.status?.conditions?.some((c) => c.type === ConditionTypes.initialized && c.status === 'True') ?? false;
}

/**
 * The Unhealthy budget of NodePool `pool` given every NodeClaim. As in Karpenter, only repairs already in flight
 * count against it, not the unhealthy nodes themselves, which would otherwise starve the budget meant to repair them.
 */
export function unhealthyBudget(
  pool: { name: string; nodePool: StoredNodePool | undefined },
  nodeClaims: readonly StoredNodeClaim[],
  now: number,
): UnhealthyBudget {
  const claims = nodeClaims.filter((nc) => nc.metadata.labels?.[Labels.nodePool] === pool.name);
  const numNodes = claims.filter(isInitialized).length;
  const { allowed, budget } = mostRestrictiveBudget(
    {
      name: pool.name,
      budgets: pool.nodePool?.spec.disruption?.budgets ?? [],
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      consolidateAfterMs: undefined,
    },
    { reason: ConditionReasons.unhealthy, numNodes, now },
  );
  const repairing = claims
    .filter(
      (nc) =>
        nc.metadata.deletionTimestamp !== undefined ||
        getCondition(nc.status?.conditions, ConditionTypes.disruptionReason)?.reason === ConditionReasons.unhealthy,
    )
    .map((nc) => nc.metadata.name ?? '');
  return { allowed, budget, numNodes, repairing, windowEnds: budget ? budgetWindowEnd(budget, now) : undefined };
}
