/**
 * Marks a previous life left behind. Orchestration taints a candidate and sets its NodeClaim's `DisruptionReason`
 * while a command runs in memory; a process killed mid-command leaves both on a node nobody is disrupting. Such a
 * node is counted by no budget (it is neither deleting nor claimed) yet stays unschedulable, so the next command
 * would disrupt a second node beside it. As Karpenter does at the start of each disruption pass, the marks are
 * removed from every node that no command in flight holds and that is not being deleted.
 */
import { ConditionTypes, DisruptedTaint } from '../../../api/index.js';
import { ignoreNotFound, Resources } from '../../../kube/index.js';
import type { StoredNodeClaim } from '../../../state/informers.js';
import type { ControllerContext } from '../../context.js';
import { markDisruptionReason, untaintDisrupted } from './marks.js';

/**
 * Removes the disrupted taint and the DisruptionReason condition from nodes that are not deleting and that no
 * command holds; `claimed` is asked again before each write, since commands start while this runs.
 */
export async function clearStaleMarks(ctx: ControllerContext, claimed: () => ReadonlySet<string>): Promise<void> {
  for (const node of ctx.informers.nodes.cache.list()) {
    const name = node.metadata.name ?? '';
    if (claimed().has(name) || node.metadata.deletionTimestamp) continue;
    const nc = ctx.state.nodeClaimOf(node);
    const taint = (node.spec?.taints ?? []).some(
      (t) => t.key === DisruptedTaint.key && t.effect === DisruptedTaint.effect,
    );
    const reason = nc?.status?.conditions?.some((c) => c.type === ConditionTypes.disruptionReason) ?? false;
    if (!taint && !reason) continue;
    if (nc?.metadata.deletionTimestamp) continue;
    // The cache may not have seen a deletion a command just made: ask the server before undoing anything.
    const fresh = nc?.metadata.name
      ? await ctx.client.get<StoredNodeClaim>(Resources.nodeClaims, { name: nc.metadata.name }).catch(ignoreNotFound)
      : undefined;
    if ((nc && (!fresh || fresh.metadata.deletionTimestamp)) || claimed().has(name)) continue;
    ctx.log.info({ controller: 'disruption', Node: { name } }, 'removing disruption marks left by a stopped command');
    if (taint) await untaintDisrupted(ctx, name);
    if (reason && nc?.metadata.name) await markDisruptionReason(ctx, nc.metadata.name, undefined);
  }
}
