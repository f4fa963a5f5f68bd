import type { CapacityBuffer, NodeClaim, NodeOverlay, NodePool } from '../api/index.js';
import type { Clock } from '../clock/index.js';
import {
  Informer,
  Resources,
  type Indexers,
  type KubeClient,
  type KubeObject,
  type Node,
  type Pod,
  type ResourceType,
  type SharedInformers,
} from '../kube/index.js';

/** A PodDisruptionBudget, as far as Tenon reads it. */
export interface PodDisruptionBudget extends KubeObject {
  spec?: {
    selector?: {
      matchLabels?: Record<string, string>;
      matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
    };
    minAvailable?: number | string;
    maxUnavailable?: number | string;
  };
  status?: { disruptionsAllowed?: number; currentHealthy?: number; desiredHealthy?: number; expectedPods?: number };
}

/** A storage.k8s.io/v1 VolumeAttachment, as far as Tenon reads it. */
export interface VolumeAttachment extends KubeObject {
  spec: { attacher: string; nodeName: string; source: { persistentVolumeName?: string } };
  status?: { attached?: boolean };
}

/** An apps/v1 DaemonSet, as far as Tenon reads it: its pod template lands on every new node it tolerates. */
export interface DaemonSet extends KubeObject {
  spec: {
    template: {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec: Pod['spec'];
    };
  };
}

/** A core/v1 PersistentVolumeClaim, as far as scheduling reads it. */
export interface PersistentVolumeClaim extends KubeObject {
  spec?: { storageClassName?: string; volumeName?: string };
}

/** A core/v1 PersistentVolume, as far as scheduling reads it. */
export interface PersistentVolume extends KubeObject {
  spec?: {
    csi?: { driver?: string };
    nodeAffinity?: {
      required?: {
        nodeSelectorTerms?: Array<{ matchExpressions?: Array<{ key: string; operator: string; values?: string[] }> }>;
      };
    };
  };
}

/** A storage.k8s.io/v1 StorageClass. */
export interface StorageClass extends KubeObject {
  provisioner?: string;
  volumeBindingMode?: 'Immediate' | 'WaitForFirstConsumer';
  allowedTopologies?: Array<{ matchLabelExpressions?: Array<{ key: string; values: string[] }> }>;
}

/** A storage.k8s.io/v1 CSINode: how many volumes of each driver its node can attach. */
export interface CSINode extends KubeObject {
  spec?: { drivers?: Array<{ name: string; allocatable?: { count?: number } }> };
}

/** A NodeClaim as stored: with full object metadata. */
export type StoredNodeClaim = NodeClaim & KubeObject;
/** A NodePool as stored. */
export type StoredNodePool = NodePool & KubeObject;
/** A NodeOverlay as stored. */
export type StoredNodeOverlay = NodeOverlay & KubeObject;
/** What a CapacityBuffer's scalableRef names (a Deployment), as far as the buffer reads it: its pods' shape. */
export interface Scalable extends KubeObject {
  spec: { replicas?: number; template: { metadata?: { labels?: Record<string, string> }; spec: Pod['spec'] } };
}

/** A PodTemplate as stored (a CapacityBuffer's pod shape). */
export interface StoredPodTemplate extends KubeObject {
  template: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: Pod['spec'] };
}

/** A CapacityBuffer as stored. */
export type StoredCapacityBuffer = CapacityBuffer & KubeObject;

/** The informers the controllers share, with the indexes they look things up by. */
export interface ClusterInformers {
  nodeClaims: Informer<StoredNodeClaim>;
  nodePools: Informer<StoredNodePool>;
  nodeOverlays: Informer<StoredNodeOverlay>;
  capacityBuffers: Informer<StoredCapacityBuffer>;
  /** Deployments: what a CapacityBuffer's scalableRef names (the shape of its units). */
  deployments: Informer<Scalable>;
  /** PodTemplates: the pod shapes CapacityBuffers resolve to (theirs, or the one their controller keeps). */
  podTemplates: Informer<StoredPodTemplate>;
  nodes: Informer<Node>;
  pods: Informer<Pod>;
  pdbs: Informer<PodDisruptionBudget>;
  volumeAttachments: Informer<VolumeAttachment>;
  daemonSets: Informer<DaemonSet>;
  persistentVolumeClaims: Informer<PersistentVolumeClaim>;
  persistentVolumes: Informer<PersistentVolume>;
  storageClasses: Informer<StorageClass>;
  csiNodes: Informer<CSINode>;
}

/** Index names. */
export const Indexes = { providerID: 'providerID', nodeName: 'nodeName' } as const;

/**
 * Creates (but does not start) the operator's informers: its own, or, when `shared` is given (the playground,
 * where the simulated world watches the same server), those of the process-wide registry.
 */
export function createInformers(client: KubeClient, clock: Clock, shared?: SharedInformers): ClusterInformers {
  const make = <T extends KubeObject>(resource: ResourceType<T>, indexers?: Indexers<T>): Informer<T> =>
    shared
      ? shared.get(resource, indexers)
      : new Informer<T>({ client, clock, onError: () => undefined, resource, indexers });
  return {
    nodeClaims: make<StoredNodeClaim>(Resources.nodeClaims, {
      [Indexes.providerID]: (nc) => (nc.status?.providerID ? [nc.status.providerID] : []),
    }),
    nodePools: make<StoredNodePool>(Resources.nodePools),
    nodeOverlays: make<StoredNodeOverlay>(Resources.nodeOverlays),
    capacityBuffers: make<StoredCapacityBuffer>(Resources.capacityBuffers),
    deployments: make<Scalable>(Resources.deployments),
    podTemplates: make<StoredPodTemplate>(Resources.podTemplates),
    nodes: make<Node>(Resources.nodes, {
      [Indexes.providerID]: (n) => (n.spec?.providerID ? [n.spec.providerID] : []),
    }),
    pods: make<Pod>(Resources.pods, { [Indexes.nodeName]: (p) => (p.spec.nodeName ? [p.spec.nodeName] : []) }),
    pdbs: make<PodDisruptionBudget>(Resources.podDisruptionBudgets),
    volumeAttachments: make<VolumeAttachment>(Resources.volumeAttachments, {
      [Indexes.nodeName]: (va) => [va.spec.nodeName],
    }),
    daemonSets: make<DaemonSet>(Resources.daemonSets),
    persistentVolumeClaims: make<PersistentVolumeClaim>(Resources.persistentVolumeClaims),
    persistentVolumes: make<PersistentVolume>(Resources.persistentVolumes),
    storageClasses: make<StorageClass>(Resources.storageClasses),
    csiNodes: make<CSINode>(Resources.csiNodes),
  };
}

/** Starts every informer (but those in `skip`: kinds the cluster does not serve) and resolves once all have synced. */
export async function startInformers(
  inf: ClusterInformers,
  skip: ReadonlySet<keyof ClusterInformers> = new Set(),
): Promise<void> {
  const all = (Object.entries(inf) as Array<[keyof ClusterInformers, Informer<KubeObject>]>)
    .filter(([name]) => !skip.has(name))
    .map(([, i]) => i);
  for (const i of all) i.start();
  await Promise.all(all.map((i) => i.waitForSync()));
}

/** Stops every informer. */
export function stopInformers(inf: ClusterInformers): void {
  for (const i of Object.values(inf) as Array<Informer<KubeObject>>) i.stop();
}
