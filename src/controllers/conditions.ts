import { rfc3339 } from '../clock/index.js';
/** A status condition as any of the Karpenter kinds publish it (NodeClaim's reason and message are optional). */
export interface ConditionLike {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}

/** A condition as Tenon writes it: reason and message always set. */
export interface Condition extends ConditionLike {
  reason: string;
  message: string;
}

/** The status, reason and message of a condition to set. */
export interface ConditionUpdate {
  type: string;
  status: ConditionLike['status'];
  reason: string;
  message?: string;
}

/** Finds a condition by type. */
export function getCondition<C extends ConditionLike>(
  conditions: readonly C[] | undefined,
  type: string,
): C | undefined {
  return conditions?.find((c) => c.type === type);
}

/** True when the condition is present with status True. */
export function isTrue(conditions: readonly ConditionLike[] | undefined, type: string): boolean {
  return getCondition(conditions, type)?.status === 'True';
}

/**
 * Returns the conditions with one set; lastTransitionTime moves only when the status changes, as
 * Kubernetes conventions ask, so a reason or message update does not look like a transition.
 */
export function setCondition(
  conditions: readonly ConditionLike[] | undefined,
  u: ConditionUpdate,
  opts: { now: number; generation?: number },
): Condition[] {
  const list: ConditionLike[] = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === u.type);
  const prev = i >= 0 ? list[i] : undefined;
  const next: Condition = {
    type: u.type,
    status: u.status,
    reason: u.reason,
    message: u.message ?? '',
    lastTransitionTime: prev && prev.status === u.status ? prev.lastTransitionTime : rfc3339(opts.now),
    ...(opts.generation !== undefined ? { observedGeneration: opts.generation } : {}),
  };
  if (i >= 0) list[i] = next;
  else list.push(next);
  return list.map((c) => ({ ...c, reason: c.reason ?? '', message: c.message ?? '' }));
}
