/**
 * The writes orchestration makes on candidates: the `DisruptionReason` condition on the NodeClaim (set when a
 * command starts, cleared when it is abandoned) and the `karpenter.sh/disrupted:NoSchedule` taint on the Node
 * (added just before deletion, removed when a command fails). Node writes are conditional on the
 * resourceVersion they were computed from, so nobody else's change is undone (SCENARIOS.md S1).
 */
import { ConditionTypes, DisruptedTaint, type Taint } from '../../../api/index.js';
import { ignoreNotFound, Resources, updateWithRetry, type Node } from '../../../kube/index.js';
import type { StoredNodeClaim } from '../../../state/informers.js';
import { setCondition } from '../../conditions.js';
import type { ControllerContext } from '../../context.js';

/** True for Karpenter's `karpenter.sh/disrupted:NoSchedule` taint. */
export const isDisrupted = (t: Taint): boolean => t.key === DisruptedTaint.key && t.effect === DisruptedTaint.effect;

/** Rewrites a Node's taints with `change` (undefined: nothing to write), conditionally on its resourceVersion. */
async function editTaints(
  ctx: ControllerContext,
  node: string,
  change: (taints: Taint[]) => Taint[] | undefined,
): Promise<void> {
  await updateWithRetry<Node>({
    client: ctx.client,
    resource: Resources.nodes,
    ref: { name: node },
    mutate: (fresh) => {
      const next = change(fresh.spec?.taints ?? []);
      if (!next) return undefined;
      fresh.spec = { ...fresh.spec, taints: next };
      return fresh;
    },
  });
}

/** Adds the disrupted taint to a Node. */
export async function taintDisrupted(ctx: ControllerContext, node: string): Promise<void> {
  await editTaints(ctx, node, (taints) =>
    taints.some(isDisrupted)
      ? undefined
      : [...taints, { key: DisruptedTaint.key, effect: DisruptedTaint.effect } as Taint],
  );
}

/** Removes the disrupted taint from a Node, if it is there. */
export async function untaintDisrupted(ctx: ControllerContext, node: string): Promise<void> {
  await editTaints(ctx, node, (taints) =>
    taints.some(isDisrupted) ? taints.filter((t) => !isDisrupted(t)) : undefined,
  ).catch(ignoreNotFound);
}

/** Sets (reason) or clears (undefined) the NodeClaim's DisruptionReason condition. */
export async function markDisruptionReason(
  ctx: ControllerContext,
  nodeClaim: string,
  reason: string | undefined,
): Promise<void> {
  const now = ctx.clock.now();
  await updateWithRetry<StoredNodeClaim>({
    client: ctx.client,
    resource: Resources.nodeClaims,
    ref: { name: nodeClaim },
    subresource: 'status',
    mutate: (fresh) => {
      const conds = fresh.status?.conditions ?? [];
      const has = conds.some((c) => c.type === ConditionTypes.disruptionReason);
      if (!reason && !has) return undefined;
      const next = reason
        ? setCondition(
            conds,
            { type: ConditionTypes.disruptionReason, status: 'True', reason, message: `Disrupting: ${reason}` },
            { now },
          )
        : conds.filter((c) => c.type !== ConditionTypes.disruptionReason);
      fresh.status = { ...fresh.status, conditions: next };
      return fresh;
    },
  }).catch(ignoreNotFound);
}
