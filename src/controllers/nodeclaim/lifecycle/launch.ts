import { ConditionReasons, ConditionTypes } from '../../../api/index.js';
import { CreateError, InsufficientCapacityError, NodeClassNotReadyError } from '../../../cloudprovider/index.js';
import { ignoreNotFound, Resources } from '../../../kube/index.js';
import { isTrue, setCondition } from '../../conditions.js';
import type { ControllerContext } from '../../context.js';
import { EventReasons } from '../../event-reasons.js';
import { cloudClaim, type Phase, type PhaseResult, type StoredNodeClaim } from './phase.js';

/** Launch: asks the cloud provider for an instance and records what it launched (condition `Launched`). */
export class LaunchPhase implements Phase {
  readonly name = 'launch';
  /** Creates the phase. */
  constructor(private readonly ctx: ControllerContext) {}

  /** Launches once; a NodeClaim that already has a providerID is not launched again. */
  async reconcile(nc: StoredNodeClaim): Promise<PhaseResult> {
    if (isTrue(nc.status?.conditions, ConditionTypes.launched)) return {};
    const now = this.ctx.clock.now();
    try {
      const created = nc.status?.providerID
        ? await this.ctx.cloudProvider.get(nc.status.providerID)
        : await this.ctx.cloudProvider.create(cloudClaim(nc));
      nc.metadata.labels = { ...created.metadata.labels, ...nc.metadata.labels };
      nc.status = {
        ...nc.status,
        providerID: created.status?.providerID,
        imageID: created.status?.imageID,
        capacity: created.status?.capacity,
        allocatable: created.status?.allocatable,
      };
      nc.status.conditions = setCondition(
        nc.status.conditions,
        { type: ConditionTypes.launched, status: 'True', reason: ConditionReasons.launched },
        { now },
      );
      const nodepool = nc.metadata.labels?.['karpenter.sh/nodepool'] ?? '';
      const labels = nc.metadata.labels ?? {};
      this.ctx.log.info(
        {
          controller: 'nodeclaim.lifecycle',
          NodeClaim: { name: nc.metadata.name },
          NodePool: { name: nodepool },
          'provider-id': nc.status.providerID,
          'instance-type': labels['node.kubernetes.io/instance-type'],
          zone: labels['topology.kubernetes.io/zone'],
          'capacity-type': labels['karpenter.sh/capacity-type'],
        },
        'launched nodeclaim',
      );
      return {};
    } catch (e) {
      return this.failed(nc, e);
    }
  }

  private async failed(nc: StoredNodeClaim, e: unknown): Promise<PhaseResult> {
    const now = this.ctx.clock.now();
    const status = nc.status ?? {};
    nc.status = status;
    if (InsufficientCapacityError.is(e)) {
      // The pods go back to provisioning, which will pick other offerings (the provider marks these unavailable).
      await this.ctx.recorder.publish(nc, {
        type: 'Warning',
        reason: EventReasons.insufficientCapacityError,
        message: `NodeClaim ${nc.metadata.name} event: creating nodeclaim, ${e.message}`,
      });
      await this.ctx.client.delete(Resources.nodeClaims, { name: nc.metadata.name ?? '' }).catch(ignoreNotFound);
      return { stop: true };
    }
    const reason = NodeClassNotReadyError.is(e)
      ? ConditionReasons.nodeClassNotReady
      : CreateError.is(e)
        ? e.reason
        : ConditionReasons.launchFailed;
    const message = e instanceof Error ? e.message : String(e);
    status.conditions = setCondition(
      status.conditions,
      { type: ConditionTypes.launched, status: 'False', reason, message },
      { now },
    );
    await this.ctx.recorder.publish(nc, {
      type: 'Warning',
      reason: EventReasons.launchFailed,
      message: `Failed to launch NodeClaim: ${message}`,
    });
    return { requeueAfter: 10_000 };
  }
}
