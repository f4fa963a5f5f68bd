/** The interruption controller's Events (Karpenter's reasons and messages), on the NodeClaim and its Node. */
import type { EventSpec, KubeObject } from '../../../../kube/index.js';
import { MessageKinds, type InterruptionMessage } from './messages.js';

/** Event reasons of the interruption controller. */
export const InterruptionEventReasons = {
  spotInterrupted: 'SpotInterrupted',
  rebalanceRecommendation: 'SpotRebalanceRecommendation',
  instanceUnhealthy: 'InstanceUnhealthy',
  instanceStopping: 'InstanceStopping',
  instanceTerminating: 'InstanceTerminating',
  terminatingOnInterruption: 'TerminatingOnInterruption',
} as const;

function spec(o: KubeObject, type: EventSpec['type'], reason: string, message: string): EventSpec {
  return { type, reason, message, dedupe: { values: [o.metadata.uid ?? o.metadata.name ?? ''] } };
}

/** The notice Karpenter records for a message, before it acts; undefined for kinds it records nothing for. */
export function noticeFor(msg: InterruptionMessage, o: KubeObject): EventSpec | undefined {
  const R = InterruptionEventReasons;
  switch (msg.kind) {
    case MessageKinds.spotInterruption:
      return spec(o, 'Warning', R.spotInterrupted, 'Spot interruption warning was triggered');
    case MessageKinds.rebalanceRecommendation:
      return spec(o, 'Normal', R.rebalanceRecommendation, 'Spot rebalance recommendation was triggered');
    case MessageKinds.scheduledChange:
      return spec(o, 'Warning', R.instanceUnhealthy, 'An unhealthy warning was triggered for the instance');
    case MessageKinds.instanceStopped:
      return spec(o, 'Warning', R.instanceStopping, 'Instance is stopping');
    case MessageKinds.instanceTerminated:
      return spec(o, 'Warning', R.instanceTerminating, 'Instance is terminating');
    default:
      return undefined;
  }
}

/** The Event recorded when an interruption deletes the NodeClaim (`kind` names the object in the message). */
export function terminatingOnInterruption(o: KubeObject, kind: 'NodeClaim' | 'Node'): EventSpec {
  const R = InterruptionEventReasons;
  return spec(o, 'Warning', R.terminatingOnInterruption, `Interruption triggered termination for the ${kind}`);
}
