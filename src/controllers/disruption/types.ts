/**
 * The disruption decision layer's inputs and outputs: a plain, in-memory view of the cluster (built from the
 * informers by view/, or from plain objects by tests and the benchmark) and the commands decided on it.
 */
import type { Budget, ConsolidationPolicy } from '../../api/index.js';
import type * as sched from '../../scheduling/index.js';
import { EventReasons } from '../event-reasons.js';

/** Budget reasons (Karpenter's DisruptionReason values); `Unhealthy` is node repair's. */
export type DisruptionReason = 'Drifted' | 'Empty' | 'Underutilized' | 'Unhealthy';

/** A node as the disruption methods see it: its scheduling shape plus what makes it a candidate. */
export interface DisruptionNode extends sched.ExistingNode {
  /** The NodeClaim behind it; undefined for nodes Tenon does not manage. */
  nodeClaim?: string;
  /** Its NodePool (label `karpenter.sh/nodepool`). */
  nodePool?: string;
  /** Hourly price of its offering (instance type x zone x capacity type); undefined when unknown. */
  price?: number;
  /** `karpenter.sh/do-not-disrupt: "true"` on the Node or its NodeClaim. */
  doNotDisrupt?: boolean;
  /** Node Ready condition is True. */
  ready: boolean;
  /** Being deleted, or claimed by a disruption command in flight. */
  deleting?: boolean;
  /** The NodeClaim's InstanceTerminating condition is True (left out of budget counts, as Karpenter does). */
  instanceTerminating?: boolean;
  /** Why it is drifted, when it is (NodePoolDrifted, RequirementsDrifted, or the provider's reason). */
  drifted?: string;
  /** Last time a pod was bound to or left it, or its initialization time (ms); consolidateAfter counts from here. */
  lastPodEventTime?: number;
  /** When its NodeClaim was created (ms), for disruption cost. */
  createdAt?: number;
  /** A pending pod was nominated to it: provisioning counts on its capacity. */
  nominated?: boolean;
  /** Its NodeClaim's expireAfter (ms), undefined for Never. */
  expireAfterMs?: number;
}

/** A PodDisruptionBudget as far as candidate filtering needs it. */
export interface DisruptionPdb {
  name: string;
  namespace: string;
  /** policy/v1: absent selects nothing, empty selects every pod of the namespace. */
  selector?: sched.LabelSelector;
  disruptionsAllowed: number;
}

/** A NodePool's disruption settings and what it can launch. */
export interface DisruptionNodePool {
  name: string;
  consolidationPolicy: ConsolidationPolicy;
  /** undefined for `Never`. */
  consolidateAfterMs: number | undefined;
  budgets: Budget[];
  /** Set for a static NodePool (`spec.replicas`): what staging a replacement for one of its nodes needs. */
  static?: StaticPool;
}

/** A static NodePool as disruption sees it (Karpenter's StaticDrift). */
export interface StaticPool {
  replicas: number;
  /** `limits.nodes`, undefined when unset. */
  limitNodes?: number;
  /** Every NodeClaim of the pool, being deleted or not (limits.nodes counts them all). */
  nodeClaims: number;
  /** NodeClaims not being deleted: more than `replicas` means a scale-down is still under way. */
  active: number;
  /** The NodeClaim the pool launches, staged as each replacement. */
  template: sched.NewNodeClaim;
}

/** Everything one disruption pass decides on. */
export interface DisruptionView {
  now: number;
  nodes: DisruptionNode[];
  /** NodeClaims launched but not yet nodes (they take pods in simulations, like provisioning's in-flight). */
  inFlight: sched.InFlightNodeClaim[];
  nodePools: DisruptionNodePool[];
  /** The scheduling engine's view of the same NodePools and their instance types. */
  schedulingNodePools: sched.NodePool[];
  instanceTypesByNodePool: Record<string, sched.InstanceType[]>;
  daemonSets: sched.DaemonSet[];
  pdbs: DisruptionPdb[];
  /** Pods waiting for capacity: a consolidation must leave room for them too (Karpenter includes them). */
  pendingPods: sched.Pod[];
  /** The SpotToSpotConsolidation feature gate. */
  spotToSpot: boolean;
}

/** A node chosen for disruption, with the pods that must move. */
export interface Candidate {
  node: DisruptionNode;
  nodePool: DisruptionNodePool;
  /** Pods that must be rescheduled elsewhere (not DaemonSet, not mirror, not terminal). */
  reschedulable: sched.Pod[];
  /** Karpenter's disruption cost: eviction cost of its pods scaled by remaining lifetime; cheaper goes first. */
  disruptionCost: number;
}

/**
 * Why a node cannot be disrupted now. `DisruptionBlocked` when it is not a candidate at all (do-not-disrupt,
 * PDB, budget…), `Unconsolidatable` when consolidation looked at it and found no cheaper way (Karpenter's split).
 */
export interface Blocked {
  node: DisruptionNode;
  message: string;
  reason: typeof EventReasons.disruptionBlocked | typeof EventReasons.unconsolidatable;
}

/** The consolidation type label of `karpenter_voluntary_disruption_decisions_total`. */
export type ConsolidationType = '' | 'empty' | 'single' | 'multi';

/** One disruption decision: candidates to remove and at most one replacement (several only for drift). */
export interface Command {
  reason: DisruptionReason;
  consolidationType: ConsolidationType;
  /** The method that decided it, for logs and events. */
  method: string;
  candidates: Candidate[];
  replacements: sched.NewNodeClaim[];
  /** Hourly price of the candidates and of the replacements (cheapest launchable option). */
  costBefore: number;
  costAfter: number;
  /** A human summary: "delete 3 nodes (…) and replace with 1 m5.large, saving $0.12/h". */
  summary: string;
  /**
   * The summary of Karpenter's own multi-node command when Tenon chose this one instead, because that one's
   * replacement would fit what it holds poorly (methods/prefix-choice.ts); shown in the events.
   */
  preferredOver?: string;
}

/** The decision's kind as Karpenter's metrics label it. */
export function decisionOf(cmd: Command): 'delete' | 'replace' {
  return cmd.replacements.length > 0 ? 'replace' : 'delete';
}
