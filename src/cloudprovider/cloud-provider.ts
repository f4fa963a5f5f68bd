/** The cloud provider interface, modelled on Karpenter's `cloudprovider.CloudProvider`. */
import type { InstanceType } from './instance-type.js';
import type { RepairPolicy } from './repair-policy.js';
import type { NodeClaim, NodePool } from './types.js';

/** Why a NodeClaim no longer matches what its NodeClass would launch today; undefined when it still does. */
export type DriftReason = string;

/** A NodeClass's readiness as a NodePool's `NodeClassReady` condition reports it. */
export interface NodeClassReadiness {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

/** What every cloud provider offers the controllers. All methods are safe to call concurrently. */
export interface CloudProvider {
  /** A short, stable name for logs and metrics (e.g. `aws`, `fake`). */
  readonly name: string;

  /**
   * Launches one instance for the NodeClaim, choosing among the instance types and offerings its
   * requirements allow (cheapest first). Resolves to a copy of the NodeClaim with `status.providerID`,
   * `status.capacity`, `status.allocatable` and the labels of the type and offering actually launched.
   * Throws InsufficientCapacityError (with every offering tried) when no offering had capacity,
   * NodeClassNotReadyError when the NodeClass is missing or not Ready, CreateError for anything else.
   */
  create(nodeClaim: NodeClaim): Promise<NodeClaim>;

  /**
   * Terminates the NodeClaim's instance and releases what was made for it. Idempotent in effect: when the
   * instance is already gone or terminated it throws NodeClaimNotFoundError, which callers treat as done.
   */
  delete(nodeClaim: NodeClaim): Promise<void>;

  /** The NodeClaim as the cloud sees the instance `providerID`; NodeClaimNotFoundError when it is gone. */
  get(providerID: string): Promise<NodeClaim>;

  /** Every live (not terminated) instance this provider launched for the cluster, as NodeClaims. */
  list(): Promise<NodeClaim[]>;

  /**
   * The instance types a NodePool can launch, with requirements, capacity, overhead, allocatable and
   * offerings (minus offerings known to be unavailable). Empty when the NodePool's NodeClass is not Ready.
   */
  getInstanceTypes(nodePool: NodePool): Promise<InstanceType[]>;

  /**
   * Whether the NodeClaim's instance differs from what its NodeClass would launch now: a reason such as
   * `AMIDrift`, `SubnetDrift`, `SecurityGroupDrift` or `NodeClassDrift`, or undefined when it does not.
   */
  isDrifted(nodeClaim: NodeClaim): Promise<DriftReason | undefined>;

  /**
   * The readiness of the NodeClass a NodePool refers to, for its `NodeClassReady` condition (Karpenter's
   * nodepool.readiness): NodeClassNotFound, NodeClassTerminating, NodeClassReadinessUnknown, or the NodeClass's own
   * Ready reason and message. Undefined when the provider does not manage that kind of NodeClass.
   */
  nodeClassReadiness?(nodePool: NodePool): NodeClassReadiness | undefined;

  /** Node conditions which, held longer than their toleration, mean the node should be replaced. */
  repairPolicies(): RepairPolicy[];
}
