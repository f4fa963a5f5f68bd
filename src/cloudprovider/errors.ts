/**
 * Typed cloud provider errors. Callers branch on them with the static guards, which check the `kind`
 * field rather than `instanceof` so they hold across package copies and serialisation boundaries.
 */
import type { OfferingRef } from './instance-type.js';

/** Every kind of typed cloud provider error. */
export type CloudProviderErrorKind = 'InsufficientCapacity' | 'NodeClassNotReady' | 'NodeClaimNotFound' | 'CreateError';

function hasKind(e: unknown, kind: CloudProviderErrorKind): boolean {
  return typeof e === 'object' && e !== null && (e as { kind?: unknown }).kind === kind;
}

/** No offering the launch tried had capacity; the NodeClaim should be deleted and its pods re-provisioned. */
export class InsufficientCapacityError extends Error {
  readonly kind = 'InsufficientCapacity' as const;
  /** Every offering the launch tried, each of which reported insufficient capacity. */
  readonly offeringsTried: readonly OfferingRef[];
  constructor(message: string, offeringsTried: readonly OfferingRef[]) {
    super(message);
    this.name = 'InsufficientCapacityError';
    this.offeringsTried = offeringsTried;
  }
  /** True when `e` is an InsufficientCapacityError. */
  static is(e: unknown): e is InsufficientCapacityError {
    return hasKind(e, 'InsufficientCapacity');
  }
}

/** The NodeClass the NodeClaim refers to is missing or not Ready; `reason` says which of its conditions fails. */
export class NodeClassNotReadyError extends Error {
  readonly kind = 'NodeClassNotReady' as const;
  readonly nodeClassName: string;
  constructor(nodeClassName: string, message: string) {
    super(message);
    this.name = 'NodeClassNotReadyError';
    this.nodeClassName = nodeClassName;
  }
  /** True when `e` is a NodeClassNotReadyError. */
  static is(e: unknown): e is NodeClassNotReadyError {
    return hasKind(e, 'NodeClassNotReady');
  }
}

/** The instance behind a NodeClaim does not exist (any more): for Delete this means the work is done. */
export class NodeClaimNotFoundError extends Error {
  readonly kind = 'NodeClaimNotFound' as const;
  readonly providerID: string;
  constructor(providerID: string, message?: string) {
    super(message ?? `instance ${providerID} not found`);
    this.name = 'NodeClaimNotFoundError';
    this.providerID = providerID;
  }
  /** True when `e` is a NodeClaimNotFoundError. */
  static is(e: unknown): e is NodeClaimNotFoundError {
    return hasKind(e, 'NodeClaimNotFound');
  }
}

/** A launch failed for a reason other than capacity; `reason` is a CamelCase word for the condition. */
export class CreateError extends Error {
  readonly kind = 'CreateError' as const;
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.name = 'CreateError';
    this.reason = reason;
  }
  /** True when `e` is a CreateError. */
  static is(e: unknown): e is CreateError {
    return hasKind(e, 'CreateError');
  }
}

/** Rethrows `e` unless it is a NodeClaimNotFoundError (Karpenter's IgnoreNodeClaimNotFoundError). */
export function ignoreNodeClaimNotFound(e: unknown): void {
  if (!NodeClaimNotFoundError.is(e)) throw e;
}
