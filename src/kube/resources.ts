import type { ObjectMeta } from '../api/index.js';

/** Where a kind lives in the API: group, version, plural and scope. */
export interface ResourceType<_T = KubeObject> {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

/** The metadata every Kubernetes object carries, and owner references: the api layer's definitions. */
export type { ObjectMeta, OwnerReference } from '../api/index.js';

/** Any Kubernetes object. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

/** A list response. */
export interface KubeList<T extends KubeObject> {
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

/** `apiVersion` text of a resource type. */
export function apiVersionOf(rt: ResourceType<unknown>): string {
  return rt.group ? `${rt.group}/${rt.version}` : rt.version;
}

/** The collection path of a resource type, in a namespace when it is namespaced. */
export function collectionPath(rt: ResourceType<unknown>, namespace?: string): string {
  const base = rt.group ? `/apis/${rt.group}/${rt.version}` : `/api/${rt.version}`;
  const ns = rt.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${rt.plural}`;
}

/** The path of one object, optionally of a subresource. */
export function objectPath(rt: ResourceType<unknown>, ref: { name: string; namespace?: string }, sub?: string): string {
  const path = `${collectionPath(rt, ref.namespace)}/${encodeURIComponent(ref.name)}`;
  return sub ? `${path}/${sub}` : path;
}

/** The cache key of an object: `namespace/name`, or `name` for cluster-scoped objects. */
export function keyOf(obj: { metadata: ObjectMeta }): string {
  const { namespace, name = '' } = obj.metadata;
  // join makes a flat string; a template literal makes a cons string, which costs twice the memory as a map key.
  return namespace ? [namespace, name].join('/') : name;
}

/** Splits a cache key back into namespace and name. */
export function parseKey(key: string): { namespace?: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

function rt(groupVersion: string, kind: string, plural: string, namespaced: boolean): ResourceType {
  const [group, version] = groupVersion.includes('/') ? groupVersion.split('/') : ['', groupVersion];
  return { group: group ?? '', version: version ?? 'v1', kind, plural, namespaced };
}

/** The kinds Tenon reads and writes. */
export const Resources = {
  namespaces: rt('v1', 'Namespace', 'namespaces', false),
  nodes: rt('v1', 'Node', 'nodes', false),
  pods: rt('v1', 'Pod', 'pods', true),
  events: rt('v1', 'Event', 'events', true),
  persistentVolumes: rt('v1', 'PersistentVolume', 'persistentvolumes', false),
  persistentVolumeClaims: rt('v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true),
  configMaps: rt('v1', 'ConfigMap', 'configmaps', true),
  leases: rt('coordination.k8s.io/v1', 'Lease', 'leases', true),
  daemonSets: rt('apps/v1', 'DaemonSet', 'daemonsets', true),
  deployments: rt('apps/v1', 'Deployment', 'deployments', true),
  replicaSets: rt('apps/v1', 'ReplicaSet', 'replicasets', true),
  statefulSets: rt('apps/v1', 'StatefulSet', 'statefulsets', true),
  jobs: rt('batch/v1', 'Job', 'jobs', true),
  podTemplates: rt('v1', 'PodTemplate', 'podtemplates', true),
  storageClasses: rt('storage.k8s.io/v1', 'StorageClass', 'storageclasses', false),
  csiNodes: rt('storage.k8s.io/v1', 'CSINode', 'csinodes', false),
  volumeAttachments: rt('storage.k8s.io/v1', 'VolumeAttachment', 'volumeattachments', false),
  podDisruptionBudgets: rt('policy/v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true),
  nodePools: rt('karpenter.sh/v1', 'NodePool', 'nodepools', false),
  nodeClaims: rt('karpenter.sh/v1', 'NodeClaim', 'nodeclaims', false),
  ec2NodeClasses: rt('karpenter.k8s.aws/v1', 'EC2NodeClass', 'ec2nodeclasses', false),
  nodeOverlays: rt('karpenter.sh/v1alpha1', 'NodeOverlay', 'nodeoverlays', false),
  capacityBuffers: rt('autoscaling.x-k8s.io/v1beta1', 'CapacityBuffer', 'capacitybuffers', true),
} as const;
