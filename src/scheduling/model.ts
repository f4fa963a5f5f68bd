/**
 * The scheduling engine's input and output: plain, Kubernetes-shaped objects so callers can pass what informers
 * hold (or test factories build) without conversion. Nothing here is mutated by the solver.
 */
import type { NodeSelectorRequirementWithMinValues, NodeSelectorTerm, Pod, ResourceList, Taint } from '../api/index.js';

export type { LabelSelector } from '../api/index.js';

/**
 * The pod and its parts are the API's one core/v1 Pod type: the engine reads informer objects as they are. What
 * the solver derives from a pod (requests, requirements, affinity and spread terms) is `PodInfo`, built by
 * `newPodInfo` (pod-info.ts).
 */
export type {
  Affinity,
  Container,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  Pod,
  PodAffinityRules,
  PodAffinityTerm,
  TopologySpreadConstraint,
  Volume,
} from '../api/index.js';

/** A Node (or an in-flight NodeClaim) that already exists. */
export interface ExistingNode {
  name: string;
  labels: Record<string, string>;
  taints?: Taint[];
  allocatable: ResourceList;
  /** Node capacity, counted against NodePool limits; defaults to allocatable. */
  capacity?: ResourceList;
  /** Pods bound to (or nominated onto) it; their requests use its capacity and they count for topology. */
  pods?: Pod[];
  /** False until Karpenter's Initialized condition; known ephemeral taints are then ignored (S1). */
  initialized?: boolean;
  /** CSI attach limits per driver name (CSINode `allocatable.count`). */
  csiAttachLimits?: Record<string, number>;
  /** Hourly price, used by the disruption helper. */
  price?: number;
  /** Marked for deletion: pods are not placed here. */
  markedForDeletion?: boolean;
  /** Startup taints it was launched with: ignored while it is not initialized. */
  startupTaints?: Taint[];
  /**
   * `namespace/name` of pending pods an earlier pass nominated here: each is placed here first while it still fits,
   * so the plan a NodeClaim was launched for holds from pass to pass.
   */
  nominatedPods?: string[];
}

/** A NodeClaim that was created but whose Node is not (fully) there yet. */
export interface InFlightNodeClaim extends ExistingNode {
  nodePool: string;
}

/** The parts of a Karpenter v1 NodePool spec that matter to scheduling. */
export interface NodePool {
  name: string;
  /** Higher weight is tried first (default 0). */
  weight?: number;
  template: {
    labels?: Record<string, string>;
    taints?: Taint[];
    startupTaints?: Taint[];
    requirements?: NodeSelectorRequirementWithMinValues[];
  };
  limits?: ResourceList;
}

/** One way to buy an instance type. */
export interface Offering {
  zone: string;
  capacityType: 'on-demand' | 'spot' | 'reserved';
  price: number;
  available: boolean;
  reservationId?: string;
}

/** An instance type a NodePool may launch. */
export interface InstanceType {
  name: string;
  /** Single-valued labels (instance-type, arch, os, family, …). */
  labels?: Record<string, string>;
  /** Extra requirements (multi-valued); zone and capacity type come from offerings. */
  requirements?: NodeSelectorRequirementWithMinValues[];
  capacity: ResourceList;
  /** Kubelet/system reservations and eviction threshold; allocatable = capacity - overhead. */
  overhead?: ResourceList;
  /** When given, used instead of capacity - overhead. */
  allocatable?: ResourceList;
  offerings: Offering[];
  /** Volumes a node of this type can attach per CSI driver (what its CSINode will report); absent: unlimited. */
  csiAttachLimits?: Record<string, number>;
}

/** A DaemonSet, by its pod template. */
export interface DaemonSet {
  name: string;
  namespace?: string;
  template: Pick<Pod, 'spec'> & { metadata?: Partial<Pod['metadata']> };
}

/** A StorageClass, as far as binding goes. */
export interface StorageClass {
  name: string;
  provisioner?: string;
  volumeBindingMode?: 'Immediate' | 'WaitForFirstConsumer';
  allowedTopologies?: { matchLabelExpressions?: { key: string; values: string[] }[] }[];
}

/** Volume facts the solver needs (SCENARIOS.md S4). */
export interface VolumeInfo {
  /** PVCs by `namespace/name`. */
  claims?: Record<string, { storageClassName?: string; volumeName?: string }>;
  /** PVs by name: their node affinity and CSI driver. */
  volumes?: Record<string, { nodeAffinity?: NodeSelectorTerm[]; driver?: string }>;
  storageClasses?: Record<string, StorageClass>;
}

/** The placement strategy. */
export type Strategy = 'tenon' | 'karpenter-ffd';

/**
 * Karpenter's preference policy: `Respect` treats preferred (anti-)affinities and ScheduleAnyway spreads as required
 * and relaxes them one at a time when a pod cannot be placed; `Ignore` disregards them from the start.
 */
export type PreferencePolicy = 'Respect' | 'Ignore';

/** Everything one solve needs. */
export interface SchedulingInput {
  pods: Pod[];
  nodes?: ExistingNode[];
  nodeClaims?: InFlightNodeClaim[];
  nodePools: NodePool[];
  /** Instance types every NodePool may use, unless overridden in `instanceTypesByNodePool`. */
  instanceTypes: InstanceType[];
  instanceTypesByNodePool?: Record<string, InstanceType[]>;
  daemonSets?: DaemonSet[];
  volumes?: VolumeInfo;
  /** Namespace labels by namespace name (for namespaceSelector). */
  namespaces?: Record<string, Record<string, string>>;
  seed?: number;
  strategy?: Strategy;
  /** Default Respect (Karpenter's default). */
  preferencePolicy?: PreferencePolicy;
}

/** Why a pod could not go somewhere. */
export type Constraint =
  | 'resources'
  | 'taints'
  | 'requirements'
  | 'node-affinity'
  | 'pod-affinity'
  | 'pod-anti-affinity'
  | 'topology-spread'
  | 'host-ports'
  | 'volume-topology'
  | 'volume-binding'
  | 'csi-limits'
  | 'nodepool-limits'
  | 'offerings'
  | 'no-nodepool'
  | 'invalid';

/** One reason a pod was not placed. */
export interface UnplacedReason {
  constraint: Constraint;
  /** `nodepool/<name>`, `node/<name>` or `nodeclaim/<name>`; absent when it applies everywhere. */
  target?: string;
  /** The numbers behind it (requested vs available, counts, …). */
  details?: Record<string, string | number>;
  message: string;
}

/** A new NodeClaim to create. */
export interface NewNodeClaim {
  nodePool: string;
  /** Requirements narrowed to what the pods need, with instance-type names restricted to the options. */
  requirements: NodeSelectorRequirementWithMinValues[];
  /** Instance type names that fit, cheapest first. */
  instanceTypeOptions: string[];
  /** The cheapest launchable offering (what cost accounting uses). */
  cheapest: { instanceType: string; zone: string; capacityType: string; price: number };
  /** `namespace/name` of the pods it is for. */
  pods: string[];
  /** Requests of its pods plus DaemonSet overhead. */
  requests: ResourceList;
  taints: Taint[];
  labels: Record<string, string>;
}

/** A pod that could not be placed, with every reason found. */
export interface UnplacedPod {
  pod: string;
  reasons: UnplacedReason[];
}

/** What a solve decided. */
export interface SchedulingResult {
  /** Pod key -> existing Node name. */
  existingNodes: { pod: string; node: string }[];
  /** Pod key -> in-flight NodeClaim name. */
  nominated: { pod: string; nodeClaim: string }[];
  newNodeClaims: NewNodeClaim[];
  unplaced: UnplacedPod[];
  /** Hourly price of the new NodeClaims (cheapest offering each). */
  cost: number;
}
