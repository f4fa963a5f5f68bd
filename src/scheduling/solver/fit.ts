/**
 * The outcome of trying a pod on a bin: a plan to commit, or a structured reason.
 */
import type { InstanceTypeInfo } from '../instance-types.js';
import type { UnplacedReason } from '../model.js';
import type { Requirements } from '../requirements/requirements.js';

/** A pod fits: what the bin becomes if it is added. */
export interface FitPlan {
  ok: true;
  requirements: Requirements;
  /** New bins only: the instance types still possible (possibly kept lazily, see NewBin.lazy). */
  options?: InstanceTypeInfo[];
  /** New bins only: index in `options` of the cheapest type that holds the bin with the pod. */
  firstFit?: number;
}

/** A pod does not fit, and why. */
export interface NoFit {
  ok: false;
  reason: UnplacedReason;
}

/** Either. */
export type Fit = FitPlan | NoFit;

/** Builds a NoFit. */
export function noFit(reason: UnplacedReason): NoFit {
  return { ok: false, reason };
}
