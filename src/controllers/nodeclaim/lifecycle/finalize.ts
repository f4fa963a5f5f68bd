import { Finalizers, Labels } from '../../../api/index.js';
import { ignoreNodeClaimNotFound } from '../../../cloudprovider/index.js';
import { ignoreNotFound, Resources, updateWithRetry } from '../../../kube/index.js';
import type { ControllerContext } from '../../context.js';
import { EventReasons } from '../../event-reasons.js';
import { nodesFor } from './node-lookup.js';
import { cloudClaim, type PhaseResult, type StoredNodeClaim } from './phase.js';

/**
 * Finalize: on NodeClaim deletion, delete its Node (node termination drains it), wait for the Node to go,
 * terminate the instance, then release the finalizer.
 */
export async function finalizeNodeClaim(ctx: ControllerContext, nc: StoredNodeClaim): Promise<PhaseResult> {
  if (!nc.metadata.finalizers?.includes(Finalizers.termination)) return {};
  const nodes = nodesFor(ctx.informers, nc);
  for (const node of nodes) {
    if (!node.metadata.deletionTimestamp)
      await ctx.client.delete(Resources.nodes, { name: node.metadata.name ?? '' }).catch(ignoreNotFound);
  }
  if (nodes.length) return { requeueAfter: 1000 };
  if (nc.status?.providerID) {
    await ctx.cloudProvider.delete(cloudClaim(nc)).catch(ignoreNodeClaimNotFound);
    await ctx.recorder.publish(nc, {
      type: 'Normal',
      reason: EventReasons.instanceTerminating,
      message: `terminating instance ${nc.status.providerID}`,
    });
  }
  // A second reconcile of a stale cached copy finds the finalizer already gone: count and log the deletion once.
  let released = false;
  await updateWithRetry<StoredNodeClaim>({
    client: ctx.client,
    resource: Resources.nodeClaims,
    ref: { name: nc.metadata.name ?? '' },
    mutate: (fresh) => {
      released = fresh.metadata.finalizers?.includes(Finalizers.termination) ?? false;
      if (!released) return undefined;
      fresh.metadata.finalizers = (fresh.metadata.finalizers ?? []).filter((f) => f !== Finalizers.termination);
      return fresh;
    },
  }).catch(ignoreNotFound);
  if (released) recordDeleted(ctx, nc);
  return { stop: true };
}

/** Counts the NodeClaim terminated, observes how long its termination took, and logs it. */
function recordDeleted(ctx: ControllerContext, nc: StoredNodeClaim): void {
  ctx.metrics.nodeClaimsTerminated.inc(terminatedLabels(nc));
  const requested = Date.parse(nc.metadata.deletionTimestamp ?? '');
  if (Number.isFinite(requested))
    ctx.metrics.state.nodeClaimTerminationDuration.observe(
      { nodepool: nc.metadata.labels?.[Labels.nodePool] ?? '' },
      Math.max(0, (ctx.clock.now() - requested) / 1000),
    );
  ctx.log.info(
    {
      controller: 'nodeclaim.lifecycle',
      NodeClaim: { name: nc.metadata.name },
      Node: { name: nc.status?.nodeName ?? '' },
      'provider-id': nc.status?.providerID ?? '',
    },
    'deleted nodeclaim',
  );
}

/** The labels of `karpenter_nodeclaims_terminated_total`. */
function terminatedLabels(nc: StoredNodeClaim): Record<'nodepool' | 'capacity_type' | 'zone', string> {
  const l = nc.metadata.labels ?? {};
  return {
    nodepool: l[Labels.nodePool] ?? '',
    capacity_type: l[Labels.capacityType] ?? '',
    zone: l[Labels.zone] ?? '',
  };
}
