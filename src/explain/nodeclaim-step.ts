/** Where a NodeClaim is in its lifecycle, read from its conditions (Launched, Registered, Initialized, Ready). */
import { ConditionTypes } from '../api/index.js';
import type { StoredNodeClaim } from '../state/informers.js';
import { timeOf } from './snapshot.js';

/** A lifecycle step and when the NodeClaim entered it. */
export interface Step {
  /** `Launching`, `Registering`, `Initializing`, `Ready`, `Deleting`. */
  name: 'Launching' | 'Registering' | 'Initializing' | 'Ready' | 'Deleting';
  /** When the step began (ms), when known. */
  since: number | undefined;
  /** The condition that gates the next step, with its reason and message. */
  waitingOn?: { type: string; reason?: string; message?: string };
}

function condition(
  nc: StoredNodeClaim,
  type: string,
): { status: string; reason?: string; message?: string; lastTransitionTime?: string } | undefined {
  return nc.status?.conditions?.find((c) => c.type === type);
}

/** The NodeClaim's current step. */
export function stepOf(nc: StoredNodeClaim): Step {
  const created = timeOf(nc.metadata.creationTimestamp);
  if (nc.metadata.deletionTimestamp) return { name: 'Deleting', since: timeOf(nc.metadata.deletionTimestamp) };
  const order: Array<[string, Step['name']]> = [
    [ConditionTypes.launched, 'Launching'],
    [ConditionTypes.registered, 'Registering'],
    [ConditionTypes.initialized, 'Initializing'],
  ];
  let since = created;
  for (const [type, name] of order) {
    const c = condition(nc, type);
    if (c?.status !== 'True') return { name, since, waitingOn: { type, reason: c?.reason, message: c?.message } };
    since = timeOf(c.lastTransitionTime) ?? since;
  }
  return { name: 'Ready', since };
}
