import {
  ConditionTypes,
  EphemeralTaintOwners,
  isKnownEphemeralTaintKey,
  Labels,
  type Taint,
  ConditionReasons,
} from '../../../api/index.js';
import { nodeReadyCondition, Resources, type Node } from '../../../kube/index.js';
import { formatDuration } from '../../../settings/duration.js';
import { getCondition, isTrue, setCondition } from '../../conditions.js';
import type { ControllerContext } from '../../context.js';
import { EventReasons } from '../../event-reasons.js';
import { nodesFor } from './node-lookup.js';
import type { Phase, PhaseResult, StoredNodeClaim } from './phase.js';
import { hasTaint, taintString } from './taint-set.js';

const standardResources: ReadonlySet<string> = new Set(['cpu', 'memory', 'pods', 'ephemeral-storage']);

/** Why a registered Node is not initialized yet, or undefined when it is. */
interface Waiting {
  reason: string;
  message: string;
  lingering?: Taint;
}

/**
 * Initialization: the Node is Ready, every startup and known ephemeral taint is gone and the requested
 * extended resources are registered (condition `Initialized`). While waiting, the condition says exactly for
 * what (S3); an ephemeral taint that outlives the alert time is reported with the agent expected to remove it (S1).
 */
export class InitializationPhase implements Phase {
  readonly name = 'initialization';
  /** Creates the phase. */
  constructor(private readonly ctx: ControllerContext) {}

  /** Marks the NodeClaim and its Node initialized once nothing is missing. */
  async reconcile(nc: StoredNodeClaim): Promise<PhaseResult> {
    const status = (nc.status ??= {});
    if (isTrue(status.conditions, ConditionTypes.initialized)) return {};
    const now = this.ctx.clock.now();
    const node = isTrue(status.conditions, ConditionTypes.registered) ? nodesFor(this.ctx.informers, nc)[0] : undefined;
    if (!node) {
      const message = status.providerID
        ? `no Node with providerID ${status.providerID} yet`
        : 'waiting for the instance to launch';
      status.conditions = setCondition(
        status.conditions,
        { type: ConditionTypes.initialized, status: 'Unknown', reason: ConditionReasons.nodeNotFound, message },
        { now },
      );
      return {};
    }
    const registeredAt =
      Date.parse(getCondition(status.conditions, ConditionTypes.registered)?.lastTransitionTime ?? '') || now;
    const waiting = this.waitingFor(nc, node, now - registeredAt);
    if (waiting) {
      status.conditions = setCondition(
        status.conditions,
        { type: ConditionTypes.initialized, status: 'Unknown', reason: waiting.reason, message: waiting.message },
        { now },
      );
      if (waiting.lingering)
        await this.ctx.recorder.publish(nc, {
          type: 'Warning',
          reason: EventReasons.ephemeralTaintLingering,
          message: waiting.message,
        });
      const alertIn = registeredAt + this.ctx.options.lingeringTaintAlert - now;
      return alertIn > 0 ? { requeueAfter: alertIn } : {};
    }
    await this.ctx.client.patch(
      Resources.nodes,
      { name: node.metadata.name ?? '' },
      { metadata: { labels: { [Labels.initialized]: 'true' } } },
    );
    nc.metadata.labels = { ...nc.metadata.labels, [Labels.initialized]: 'true' };
    status.conditions = setCondition(
      status.conditions,
      { type: ConditionTypes.initialized, status: 'True', reason: ConditionReasons.initialized },
      { now },
    );
    this.ctx.log.info(
      {
        controller: 'nodeclaim.lifecycle',
        NodeClaim: { name: nc.metadata.name },
        Node: { name: node.metadata.name },
        allocatable: node.status?.allocatable,
      },
      'initialized nodeclaim',
    );
    return {};
  }

  private waitingFor(nc: StoredNodeClaim, node: Node, sinceRegistered: number): Waiting | undefined {
    const name = node.metadata.name ?? '';
    const ready = nodeReadyCondition(node);
    if (ready?.status !== 'True') {
      const detail = ready
        ? `Ready=${ready.status}${ready.reason ? ` (${ready.reason})` : ''}`
        : 'no Ready condition yet';
      return { reason: ConditionReasons.nodeNotReady, message: `Node ${name} is not Ready: ${detail}` };
    }
    const taints = node.spec?.taints ?? [];
    const startup = (nc.spec.startupTaints ?? []).find((t) => hasTaint(taints, t as Taint));
    if (startup)
      return {
        reason: ConditionReasons.startupTaintsExist,
        message: `startup taint ${taintString(startup as Taint)} is still present on Node ${name}; whatever prepares the node must remove it`,
      };
    const ephemeral = taints.find((t) => isKnownEphemeralTaintKey(t.key));
    if (ephemeral) return this.ephemeralWait(name, ephemeral, sinceRegistered);
    const missing = Object.keys(nc.spec.resources?.requests ?? {}).filter(
      (r) => !standardResources.has(r) && !isRegistered(node, r),
    );
    if (missing.length)
      return {
        reason: ConditionReasons.resourcesNotRegistered,
        message: `Node ${name} has not registered the requested resources ${missing.join(', ')}`,
      };
    return undefined;
  }

  private ephemeralWait(name: string, taint: Taint, since: number): Waiting {
    const owner = EphemeralTaintOwners[taint.key] ?? 'the agent that owns this readiness taint';
    const base = `known ephemeral taint ${taintString(taint)} is still present on Node ${name}; expected to be removed by ${owner}`;
    if (since < this.ctx.options.lingeringTaintAlert)
      return { reason: ConditionReasons.knownEphemeralTaintsExist, message: base };
    const message = `${base}; it has lingered ${formatDuration(since)} since registration (alert after ${formatDuration(this.ctx.options.lingeringTaintAlert)})`;
    return { reason: ConditionReasons.knownEphemeralTaintsExist, message, lingering: taint };
  }
}

function isRegistered(node: Node, resource: string): boolean {
  const v = node.status?.allocatable?.[resource];
  return v !== undefined && v !== '0';
}
