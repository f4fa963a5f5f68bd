import { ConditionTypes } from '../../../api/index.js';
import { ignoreNotFound, Resources } from '../../../kube/index.js';
import { formatDuration } from '../../../settings/duration.js';
import { getCondition, isTrue } from '../../conditions.js';
import type { ControllerContext } from '../../context.js';
import { EventReasons } from '../../event-reasons.js';
import type { Phase, PhaseResult, StoredNodeClaim } from './phase.js';
import { disruptionLabels } from '../../../observability/disruption-metrics.js';

/**
 * Liveness: a NodeClaim not launched within the launch timeout, or launched but not registered within the
 * registration timeout, is deleted with an Event saying which wait expired and what was last observed.
 * A NodeClaim that registered is never deleted by the registration timeout (S3).
 */
export class LivenessPhase implements Phase {
  readonly name = 'liveness';
  /** Creates the phase. */
  constructor(private readonly ctx: ControllerContext) {}

  /** Deletes a NodeClaim whose launch or registration wait expired; otherwise requeues at the deadline. */
  async reconcile(nc: StoredNodeClaim): Promise<PhaseResult> {
    const conditions = nc.status?.conditions;
    if (isTrue(conditions, ConditionTypes.registered)) return {};
    const now = this.ctx.clock.now();
    const launched = getCondition(conditions, ConditionTypes.launched);
    if (launched?.status !== 'True') {
      const deadline = Date.parse(nc.metadata.creationTimestamp ?? '') + this.ctx.options.launchTimeout;
      if (!(deadline <= now)) return { requeueAfter: Number.isFinite(deadline) ? deadline - now : undefined };
      const last = launched ? `${launched.reason}: ${launched.message}` : 'no launch attempt recorded';
      return this.expire(
        nc,
        EventReasons.launchTimeout,
        `NodeClaim was not launched within the launch timeout (${formatDuration(this.ctx.options.launchTimeout)}); last observed: ${last}`,
      );
    }
    const deadline = Date.parse(launched.lastTransitionTime) + this.ctx.options.registrationTimeout;
    if (deadline > now) return { requeueAfter: deadline - now };
    const registered = getCondition(conditions, ConditionTypes.registered);
    const last = registered ? `${registered.reason}: ${registered.message}` : 'no registration attempt recorded';
    return this.expire(
      nc,
      EventReasons.registrationTimeout,
      `no Node registered for providerID ${nc.status?.providerID} within the registration timeout (${formatDuration(this.ctx.options.registrationTimeout)}); last observed: ${last}`,
    );
  }

  private async expire(nc: StoredNodeClaim, reason: string, message: string): Promise<PhaseResult> {
    await this.ctx.recorder.publish(nc, { type: 'Warning', reason, message });
    await this.ctx.client.delete(Resources.nodeClaims, { name: nc.metadata.name ?? '' }).catch(ignoreNotFound);
    this.ctx.metrics.disrupted(disruptionLabels(nc, 'liveness'));
    return { stop: true };
  }
}
