/** The kinds whose protobuf bodies this server decodes: the built-in kinds it serves, and Eviction. */

/** One decodable kind: its apiVersion, kind and k8s.io/api message (`core.v1.Pod`). */
export interface RootKind {
  apiVersion: string;
  kind: string;
  message: string;
}

const kinds: Array<[string, string, string]> = [
  ['v1', 'Namespace', 'core.v1.Namespace'],
  ['v1', 'Node', 'core.v1.Node'],
  ['v1', 'Pod', 'core.v1.Pod'],
  ['v1', 'Event', 'core.v1.Event'],
  ['v1', 'ConfigMap', 'core.v1.ConfigMap'],
  ['v1', 'Secret', 'core.v1.Secret'],
  ['v1', 'ServiceAccount', 'core.v1.ServiceAccount'],
  ['v1', 'Service', 'core.v1.Service'],
  ['v1', 'PersistentVolume', 'core.v1.PersistentVolume'],
  ['v1', 'PersistentVolumeClaim', 'core.v1.PersistentVolumeClaim'],
  ['v1', 'Binding', 'core.v1.Binding'],
  ['apps/v1', 'Deployment', 'apps.v1.Deployment'],
  ['apps/v1', 'ReplicaSet', 'apps.v1.ReplicaSet'],
  ['apps/v1', 'DaemonSet', 'apps.v1.DaemonSet'],
  ['apps/v1', 'StatefulSet', 'apps.v1.StatefulSet'],
  ['batch/v1', 'Job', 'batch.v1.Job'],
  ['coordination.k8s.io/v1', 'Lease', 'coordination.v1.Lease'],
  ['events.k8s.io/v1', 'Event', 'events.v1.Event'],
  ['policy/v1', 'PodDisruptionBudget', 'policy.v1.PodDisruptionBudget'],
  ['policy/v1', 'Eviction', 'policy.v1.Eviction'],
  ['scheduling.k8s.io/v1', 'PriorityClass', 'scheduling.v1.PriorityClass'],
  ['storage.k8s.io/v1', 'StorageClass', 'storage.v1.StorageClass'],
  ['storage.k8s.io/v1', 'CSINode', 'storage.v1.CSINode'],
  ['storage.k8s.io/v1', 'VolumeAttachment', 'storage.v1.VolumeAttachment'],
];

/** Every decodable kind. */
export const rootKinds: readonly RootKind[] = kinds.map(([apiVersion, kind, message]) => ({
  apiVersion,
  kind,
  message,
}));
