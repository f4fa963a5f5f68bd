/**
 * The one core/v1 Pod type of the code base: the kube layer reads and writes it, the scheduling engine places it,
 * the playground's kube-scheduler binds it. It types the fields Tenon reads; others pass through untouched.
 */
import type { NodeSelectorRequirementWithMinValues, ResourceList, Toleration } from './core.js';
import type { LabelSelector } from './shared/label-selector.js';
import type { ObjectMeta } from './shared/object-meta.js';

/** A node selector requirement (core/v1), with Karpenter's extra operators allowed. */
export type NodeSelectorRequirement = NodeSelectorRequirementWithMinValues;

/** One term of a node selector: all expressions must hold. */
export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

/** A pod (anti-)affinity term. */
export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  namespaceSelector?: LabelSelector;
  topologyKey: string;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}

/** Pod affinity or anti-affinity, required and preferred. */
export interface PodAffinityRules {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; podAffinityTerm: PodAffinityTerm }[];
}

/** core/v1 NodeAffinity. */
export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: NodeSelectorTerm[] };
  preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; preference: NodeSelectorTerm }[];
}

/** core/v1 Affinity. */
export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: PodAffinityRules;
  podAntiAffinity?: PodAffinityRules;
}

/** core/v1 TopologySpreadConstraint. */
export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: LabelSelector;
  minDomains?: number;
  nodeAffinityPolicy?: 'Honor' | 'Ignore';
  nodeTaintsPolicy?: 'Honor' | 'Ignore';
  matchLabelKeys?: string[];
}

/** A container port. */
export interface ContainerPort {
  containerPort: number;
  hostPort?: number;
  protocol?: string;
  hostIP?: string;
  name?: string;
}

/** A core/v1 container, as far as Tenon reads it. */
export interface Container {
  name: string;
  image?: string;
  resources?: { requests?: ResourceList; limits?: ResourceList };
  ports?: ContainerPort[];
  /** `Always` on an init container makes it a sidecar (its requests add to the pod's). */
  restartPolicy?: string;
}

/** A pod volume: the claim sources are what scheduling and the volume controllers read. */
export interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  ephemeral?: { volumeClaimTemplate?: { spec?: { storageClassName?: string } } };
}

/** core/v1 PodSpec, as far as Tenon reads and writes it. */
export interface PodSpec {
  nodeName?: string;
  containers: Container[];
  initContainers?: Container[];
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  tolerations?: Toleration[];
  topologySpreadConstraints?: TopologySpreadConstraint[];
  volumes?: Volume[];
  overhead?: ResourceList;
  priority?: number;
  priorityClassName?: string;
  preemptionPolicy?: 'PreemptLowerPriority' | 'Never';
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  schedulerName?: string;
  terminationGracePeriodSeconds?: number;
}

/** A core/v1 PodCondition. */
export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** core/v1 PodStatus, as far as Tenon reads and writes it. */
export interface PodStatus {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
  conditions?: PodCondition[];
  nominatedNodeName?: string;
  reason?: string;
  message?: string;
  startTime?: string;
}

/** A core/v1 Pod (timestamps stay RFC 3339 strings). */
export interface Pod {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: PodSpec;
  status?: PodStatus;
}
