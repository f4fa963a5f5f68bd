/** EC2NodeClass status conditions: each dependency's, and the root `Ready` summarising them. */
import { ConditionTypes, type Condition, ConditionReasons } from '../../../api/index.js';

/** The condition types the resolver owns, in the order they are reported. */
export const NodeClassConditionTypes = [
  ConditionTypes.subnetsReady,
  ConditionTypes.securityGroupsReady,
  ConditionTypes.amisReady,
  ConditionTypes.instanceProfileReady,
  ConditionTypes.placementGroupReady,
  ConditionTypes.capacityReservationsReady,
  ConditionTypes.validationSucceeded,
] as const;

/** One dependency's outcome before timestamps are attached. */
export interface ConditionOutcome {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

/** A True outcome whose reason is the type itself (Karpenter's convention). */
export function ok(type: string): ConditionOutcome {
  return { type, status: 'True', reason: type, message: '' };
}

/** The root condition: True when every dependency is, else False naming each one that is not and why. */
export function readyOutcome(outcomes: ConditionOutcome[]): ConditionOutcome {
  const bad = outcomes.filter((o) => o.status !== 'True');
  if (bad.length === 0) return ok(ConditionTypes.ready);
  return {
    type: ConditionTypes.ready,
    status: 'False',
    reason: ConditionReasons.unhealthyDependents,
    message: bad.map((o) => `${o.type}=${o.status}: ${o.message}`).join('; '),
  };
}

/** Conditions with timestamps: a condition keeps its lastTransitionTime while its status does not change. */
export function withTimestamps(
  outcomes: ConditionOutcome[],
  previous: Condition[] | undefined,
  now: string,
  generation?: number,
): Condition[] {
  return outcomes.map((o) => {
    const before = previous?.find((p) => p.type === o.type);
    return {
      ...o,
      lastTransitionTime: before && before.status === o.status ? before.lastTransitionTime : now,
      ...(generation === undefined ? {} : { observedGeneration: generation }),
    };
  });
}
