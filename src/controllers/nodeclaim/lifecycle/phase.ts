import type { StoredNodeClaim } from '../../../state/informers.js';

export type { StoredNodeClaim } from '../../../state/informers.js';

/** What a phase asks of the parent: another pass later, or stop (the NodeClaim was deleted). */
export interface PhaseResult {
  requeueAfter?: number;
  stop?: boolean;
}

/** One sub-reconciler of the lifecycle; it edits the in-memory copy and owns one condition. */
export interface Phase {
  readonly name: string;
  reconcile(nc: StoredNodeClaim): Promise<PhaseResult>;
}

/** The earliest of two optional requeue delays. */
export function earliest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

export { cloudClaim } from '../../cloud-objects.js';
