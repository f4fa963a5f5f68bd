/**
 * A static NodePool's NodeClaims as its controllers count them, and the NodeClaim it launches. Shared by
 * nodepool.static (keeping the count), disruption (staging drift replacements) and node.health (staging
 * repair replacements), so all three count the same way.
 */
import { ConditionTypes, Labels, type NodeSelectorRequirementWithMinValues } from '../../../api/index.js';
import type { NewNodeClaim } from '../../../scheduling/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../../../state/informers.js';
import { isTrue } from '../../conditions.js';
import type { ControllerContext } from '../../context.js';
import { evictionCost, lifetimeRemaining, podDoNotDisrupt } from '../../disruption/candidates/pods.js';
import { parseDuration } from '../../../settings/duration.js';
import type { StaticMember } from './plan.js';

/** Whether a NodePool is static (has `spec.replicas`). */
export function isStaticNodePool(np: { spec: { replicas?: number } }): boolean {
  return np.spec.replicas !== undefined;
}

/** The NodePool's `limits.nodes` as a number, undefined when unset or unreadable. */
export function limitNodesOf(np: StoredNodePool): number | undefined {
  const limit = np.spec.limits?.nodes;
  const n = limit === undefined ? NaN : Number(limit);
  return Number.isFinite(n) ? n : undefined;
}

/** The planned NodeClaim a static pool launches: its requirements as they are, and nothing to fit. */
export function staticClaim(np: StoredNodePool): NewNodeClaim {
  const name = np.metadata.name ?? '';
  const requirements: NodeSelectorRequirementWithMinValues[] = [
    ...np.spec.template.spec.requirements.filter((r) => r.key !== Labels.nodePool),
    { key: Labels.nodePool, operator: 'In', values: [name] },
  ];
  return {
    nodePool: name,
    requirements,
    instanceTypeOptions: [],
    cheapest: { instanceType: '', zone: '', capacityType: '', price: 0 },
    pods: [],
    requests: {},
    taints: [],
    labels: {},
  };
}

/** The NodeClaims of a NodePool. */
export function poolClaims(ctx: ControllerContext, pool: string): StoredNodeClaim[] {
  return ctx.informers.nodeClaims.cache.list().filter((nc) => nc.metadata.labels?.[Labels.nodePool] === pool);
}

/** How a static pool stands: every NodeClaim (limits.nodes counts them all) and those not being deleted. */
export interface StaticCounts {
  nodeClaims: number;
  active: number;
}

/** Counts a static pool's NodeClaims. */
export function staticCounts(claims: readonly StoredNodeClaim[]): StaticCounts {
  return { nodeClaims: claims.length, active: claims.filter((nc) => !nc.metadata.deletionTimestamp).length };
}

/** One NodeClaim as the scale-down choice sees it. */
export function staticMember(ctx: ControllerContext, nc: StoredNodeClaim): StaticMember {
  const node = ctx.state.nodeOf(nc);
  const pods = node
    ? ctx.state
        .podsOn(node.metadata.name ?? '')
        .filter((p) => !p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet'))
    : [];
  const createdAt = Date.parse(nc.metadata.creationTimestamp ?? '') || 0;
  const expire = nc.spec.expireAfter;
  const expireAfterMs = expire && expire !== 'Never' ? parseDuration(expire) : undefined;
  const remaining = lifetimeRemaining({ now: ctx.clock.now(), createdAt, expireAfterMs });
  return {
    name: nc.metadata.name ?? '',
    deleting: nc.metadata.deletionTimestamp !== undefined,
    pendingDisruption: isTrue(nc.status?.conditions, ConditionTypes.disruptionReason),
    resolved: Boolean(nc.status?.providerID),
    pods: pods.length,
    doNotDisrupt: pods.some(podDoNotDisrupt),
    disruptionCost: pods.reduce((s, p) => s + evictionCost(p), 0) * remaining,
    createdAt,
  };
}
