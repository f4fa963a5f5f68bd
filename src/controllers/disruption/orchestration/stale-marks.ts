/**
 * Marks a previous life left behind. Orchestration taints a candidate and sets its NodeClaim's `DisruptionReason`
 * while a command runs in memory; a process killed mid-command leaves both on a node nobody is disrupting. Such a
 * node is counted by no budget (it is neither deleting nor claimed) yet stays unschedulable, so the next command
 * would disrupt a second node beside it. As Karpenter does at the start of each disruption pass, the marks are
 * removed from every node that no command in flight holds and that is not being deleted.
 */
import { ConditionTypes } from '../../../api/index.js';
import { ignoreNotFound, Resources, type Node } from '../../../kube/index.js';
import type { StoredNodeClaim } from '../../../state/informers.js';
import type { ControllerContext } from '../../context.js';
import { isDisrupted, markDisruptionReason, untaintDisrupted } from './marks.js';

/** The marks a node and its NodeClaim carry. */
function marksOf(node: Node, nc: StoredNodeClaim | undefined): { taint: boolean; reason: boolean } {
  return {
    taint: (node.spec?.taints ?? []).some(isDisrupted),
    reason: nc?.status?.conditions?.some((c) => c.type === ConditionTypes.disruptionReason) ?? false,
  };
}

/** False when the server says the NodeClaim is gone or deleting: the cache may not have seen a command's deletion. */
async function notDeleting(ctx: ControllerContext, nc: StoredNodeClaim | undefined): Promise<boolean> {
  if (!nc) return true;
  if (nc.metadata.deletionTimestamp) return false;
  const fresh = await ctx.client
    .get<StoredNodeClaim>(Resources.nodeClaims, { name: nc.metadata.name ?? '' })
    .catch(ignoreNotFound);
  return fresh !== undefined && !fresh.metadata.deletionTimestamp;
}

/**
 * Removes the disrupted taint and the DisruptionReason condition from nodes that are not deleting and that no
 * command holds; `claimed` is asked again before each write, since commands start while this runs.
 */
export async function clearStaleMarks(ctx: ControllerContext, claimed: () => ReadonlySet<string>): Promise<void> {
  for (const node of ctx.informers.nodes.cache.list()) {
    const name = node.metadata.name ?? '';
    if (claimed().has(name) || node.metadata.deletionTimestamp) continue;
    const nc = ctx.state.nodeClaimOf(node);
    const { taint, reason } = marksOf(node, nc);
    if (!taint && !reason) continue;
    if (!(await notDeleting(ctx, nc)) || claimed().has(name)) continue;
    ctx.log.info({ controller: 'disruption', Node: { name } }, 'removing disruption marks left by a stopped command');
    if (taint) await untaintDisrupted(ctx, name);
    if (reason && nc) await markDisruptionReason(ctx, nc.metadata.name ?? '', undefined);
  }
}
