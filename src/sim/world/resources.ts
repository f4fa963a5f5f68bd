/** The kinds the simulated world reads and writes beyond the kube layer's registry, and their shapes. */
import { Resources, type KubeObject, type OwnerReference, type ResourceType } from '../../kube/index.js';
import type { Pod } from '../../kube/index.js';
import type { LabelSelector, NodeSelectorTerm } from '../../scheduling/index.js';

/** A pod template (spec and metadata of the pods a workload creates). */
export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: Pod['spec'];
}

/** apps/v1 ReplicaSet. */
export interface ReplicaSet extends KubeObject {
  spec: { replicas?: number; selector: LabelSelector; template: PodTemplate; minReadySeconds?: number };
  status?: {
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    fullyLabeledReplicas?: number;
    observedGeneration?: number;
  };
}

/** apps/v1 Deployment. */
export interface Deployment extends KubeObject {
  spec: {
    replicas?: number;
    selector: LabelSelector;
    template: PodTemplate;
    strategy?: {
      type?: 'RollingUpdate' | 'Recreate';
      rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string };
    };
    revisionHistoryLimit?: number;
    paused?: boolean;
  };
  status?: {
    replicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    unavailableReplicas?: number;
    observedGeneration?: number;
  };
}

/** apps/v1 DaemonSet. */
export interface DaemonSet extends KubeObject {
  spec: { selector: LabelSelector; template: PodTemplate };
  status?: {
    desiredNumberScheduled?: number;
    currentNumberScheduled?: number;
    numberReady?: number;
    numberMisscheduled?: number;
    observedGeneration?: number;
  };
}

/** A PVC template of a StatefulSet. */
export interface ClaimTemplate {
  metadata: { name: string; labels?: Record<string, string> };
  spec: PersistentVolumeClaim['spec'];
}

/** apps/v1 StatefulSet. */
export interface StatefulSet extends KubeObject {
  spec: {
    replicas?: number;
    selector: LabelSelector;
    serviceName?: string;
    template: PodTemplate;
    volumeClaimTemplates?: ClaimTemplate[];
    podManagementPolicy?: 'OrderedReady' | 'Parallel';
  };
  status?: { replicas?: number; readyReplicas?: number; currentReplicas?: number; observedGeneration?: number };
}

/** core/v1 PersistentVolumeClaim. */
export interface PersistentVolumeClaim extends KubeObject {
  spec: {
    storageClassName?: string;
    accessModes?: string[];
    resources?: { requests?: Record<string, string> };
    volumeName?: string;
  };
  status?: { phase?: 'Pending' | 'Bound' | 'Lost'; capacity?: Record<string, string>; accessModes?: string[] };
}

/** core/v1 PersistentVolume (CSI). */
export interface PersistentVolume extends KubeObject {
  spec: {
    capacity?: Record<string, string>;
    accessModes?: string[];
    storageClassName?: string;
    persistentVolumeReclaimPolicy?: string;
    claimRef?: { kind?: string; namespace?: string; name?: string; uid?: string };
    csi?: { driver: string; volumeHandle: string };
    nodeAffinity?: { required?: { nodeSelectorTerms: NodeSelectorTerm[] } };
  };
  status?: { phase?: 'Pending' | 'Available' | 'Bound' | 'Released' | 'Failed' };
}

/** storage.k8s.io/v1 StorageClass. */
export interface StorageClass extends KubeObject {
  provisioner: string;
  volumeBindingMode?: 'Immediate' | 'WaitForFirstConsumer';
  allowedTopologies?: Array<{ matchLabelExpressions?: Array<{ key: string; values: string[] }> }>;
  reclaimPolicy?: string;
  parameters?: Record<string, string>;
}

/** storage.k8s.io/v1 CSINode. */
export interface CsiNode extends KubeObject {
  spec: { drivers: Array<{ name: string; nodeID: string; topologyKeys?: string[]; allocatable?: { count?: number } }> };
}

/** storage.k8s.io/v1 VolumeAttachment. */
export interface VolumeAttachment extends KubeObject {
  spec: { attacher: string; nodeName: string; source: { persistentVolumeName?: string } };
  status?: { attached: boolean; attachmentMetadata?: Record<string, string> };
}

/** policy/v1 PodDisruptionBudget, as far as preemption reads it. */
export interface PodDisruptionBudget extends KubeObject {
  spec: { selector?: LabelSelector; minAvailable?: number | string; maxUnavailable?: number | string };
  status?: { disruptionsAllowed?: number };
}

/** batch/v1 Job. */
export interface Job extends KubeObject {
  spec: {
    completions?: number;
    parallelism?: number;
    backoffLimit?: number;
    activeDeadlineSeconds?: number;
    suspend?: boolean;
    template: PodTemplate;
    selector?: LabelSelector;
  };
  status?: {
    active?: number;
    ready?: number;
    succeeded?: number;
    failed?: number;
    startTime?: string;
    completionTime?: string;
    conditions?: JobCondition[];
  };
}

/** A batch/v1 JobCondition. */
export interface JobCondition {
  type: 'Complete' | 'Failed' | 'Suspended' | 'FailureTarget' | 'SuccessCriteriaMet';
  status: 'True' | 'False';
  reason?: string;
  message?: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
}

function rt(group: string, kind: string, plural: string, namespaced: boolean): ResourceType {
  return { group, version: 'v1', kind, plural, namespaced };
}

/** Every kind the world uses: the kube registry plus StatefulSets, Jobs and PriorityClasses. */
export const SimResources = {
  ...Resources,
  statefulSets: rt('apps', 'StatefulSet', 'statefulsets', true),
  jobs: rt('batch', 'Job', 'jobs', true),
  priorityClasses: rt('scheduling.k8s.io', 'PriorityClass', 'priorityclasses', false),
} as const;

/** A controller owner reference to `owner`. */
export function controllerRef(owner: KubeObject, kind: string, apiVersion = 'apps/v1'): OwnerReference {
  return {
    apiVersion,
    kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** The uid of the object's controller owner, if any. */
export function controllerUid(obj: KubeObject): string | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller)?.uid;
}
