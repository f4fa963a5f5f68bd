/**
 * Repair of a static NodePool's node (Karpenter's repair for static pools, which mirrors StaticDrift): the pool
 * is not sized to pods, so instead of deleting the unhealthy node and letting the count be restored afterwards,
 * one NodeClaim from the pool's template is staged first through the disruption orchestration queue, which
 * deletes the unhealthy NodeClaim once the replacement is initialized (without waiting for its drain). Nothing is
 * staged while the pool is still scaling down, and a pool whose limits.nodes leaves no room is blocked.
 */
import { ConditionReasons, Labels } from '../../../api/index.js';
import type { Node } from '../../../kube/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../../../state/informers.js';
import type { ControllerContext } from '../../context.js';
import { staticAtLimitMessage, staticRoom } from '../../disruption/methods/static-drift.js';
import type { OrchestrationQueue } from '../../disruption/orchestration/queue.js';
import type { Command, DisruptionNode } from '../../disruption/types.js';
import { limitNodesOf, poolClaims, staticClaim, staticCounts } from '../../nodepool/static/members.js';

/** What staging a static repair came to. */
export type StaticRepairOutcome =
  { kind: 'staged' } | { kind: 'in-flight' } | { kind: 'scaling-down' } | { kind: 'at-limit'; message: string };

function candidateNode(node: Node, nodeClaim: StoredNodeClaim, pool: string): DisruptionNode {
  return {
    name: node.metadata.name ?? '',
    labels: node.metadata.labels ?? {},
    allocatable: {},
    pods: [],
    nodeClaim: nodeClaim.metadata.name,
    nodePool: pool,
    ready: false,
  };
}

/** Stages the replacement of an unhealthy node of the static NodePool `np`, or says why not. */
export async function stageStaticRepair(args: {
  ctx: ControllerContext;
  orchestration: OrchestrationQueue;
  np: StoredNodePool;
  node: Node;
  nodeClaim: StoredNodeClaim;
  why: string;
}): Promise<StaticRepairOutcome> {
  const { ctx, orchestration, np, node, nodeClaim } = args;
  if (orchestration.claimed().has(node.metadata.name ?? '')) return { kind: 'in-flight' };
  const name = np.metadata.name ?? '';
  const counts = staticCounts(poolClaims(ctx, name));
  const replicas = np.spec.replicas ?? 0;
  if (counts.active > replicas) return { kind: 'scaling-down' };
  const limitNodes = limitNodesOf(np);
  if (staticRoom({ nodeClaims: counts.nodeClaims, ...(limitNodes === undefined ? {} : { limitNodes }) }) < 1)
    return { kind: 'at-limit', message: staticAtLimitMessage };
  const candidate = {
    node: candidateNode(node, nodeClaim, name),
    nodePool: { name, consolidationPolicy: 'WhenEmpty' as const, consolidateAfterMs: undefined, budgets: [] },
    reschedulable: [],
    disruptionCost: 0,
  };
  const command: Command = {
    reason: ConditionReasons.unhealthy,
    consolidationType: '',
    method: 'repair',
    candidates: [candidate],
    replacements: [staticClaim(np)],
    costBefore: 0,
    costAfter: 0,
    summary: `repair: replace unhealthy node ${node.metadata.name ?? ''} (${args.why}) of static NodePool ${name} (${node.metadata.labels?.[Labels.instanceType] ?? 'unknown type'})`,
  };
  await orchestration.start(command);
  return { kind: 'staged' };
}
