/**
 * "If these nodes were removed, where would their pods go?" — the one question consolidation asks the
 * scheduling engine. The methods depend only on this interface, so the engine's own removal simulator can
 * replace the solve-based one without touching them.
 */
import type * as sched from '../../../scheduling/index.js';
import type { Candidate } from '../types.js';

/** A pod that would be left without a place, and why. */
export interface Stranded {
  pod: string;
  reason: string;
  /** The uninitialized node or NodeClaim (`node/NAME`, `nodeclaim/NAME`) the pod would have to wait for, if that is why. */
  waitsFor?: string;
}

/** What removing a set of candidates would take. */
export interface RemovalOutcome {
  /** Pods that fit nowhere (empty when all fit). */
  stranded: Stranded[];
  /** NodeClaims that would have to be launched, instance type options cheapest first. */
  newNodeClaims: sched.NewNodeClaim[];
}

/** Hints a simulator may use to answer faster; the answer must not depend on them when they are satisfied. */
export interface RemovalHints {
  /** A new NodeClaim would only be accepted below this hourly price; outcomes needing pricier ones may be cut short. */
  maxNewNodePrice?: number;
}

/** Simulates the removal of candidates from one snapshot of the cluster. */
export interface RemovalSimulator {
  /** Where the candidates' reschedulable pods (and any pending pods) would go with the candidates gone. */
  simulate(candidates: readonly Candidate[], hints?: RemovalHints): RemovalOutcome;
  /** Full solves run so far, when the simulator counts them: searches bound their optional work by these. */
  readonly solves?: number;
}
