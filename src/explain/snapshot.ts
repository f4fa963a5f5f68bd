/**
 * A read-only snapshot of what explanations need: every object kind Tenon reads, listed once. `tenon explain`
 * fills it from the API server (any cluster or the playground); tests and the report fill it the same way.
 */
import type { EC2NodeClass } from '../api/index.js';
import { Resources, type KubeClient, type KubeObject, type Node, type Pod, type ResourceType } from '../kube/index.js';
import type {
  CSINode,
  DaemonSet,
  PersistentVolume,
  PersistentVolumeClaim,
  PodDisruptionBudget,
  StorageClass,
  StoredNodeClaim,
  StoredNodePool,
} from '../state/informers.js';

/** An EC2NodeClass as stored. */
export type StoredNodeClass = EC2NodeClass & KubeObject;

/** A core/v1 Event, as far as explanations read it. */
export interface EventObject extends KubeObject {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
  involvedObject?: { kind?: string; name?: string; namespace?: string; uid?: string };
}

/** Every object an explanation may read. */
export interface ClusterSnapshot {
  pods: Pod[];
  nodes: Node[];
  nodeClaims: StoredNodeClaim[];
  nodePools: StoredNodePool[];
  nodeClasses: StoredNodeClass[];
  pdbs: PodDisruptionBudget[];
  daemonSets: DaemonSet[];
  persistentVolumeClaims: PersistentVolumeClaim[];
  persistentVolumes: PersistentVolume[];
  storageClasses: StorageClass[];
  csiNodes: CSINode[];
  events: EventObject[];
  namespaces: KubeObject[];
}

async function listOrEmpty<T extends KubeObject>(client: KubeClient, rt: ResourceType<T>): Promise<T[]> {
  try {
    return (await client.list<T>(rt)).items;
  } catch {
    // A kind the cluster does not serve (no EC2NodeClass CRD, no CSINode) is simply absent.
    return [];
  }
}

/** Lists everything an explanation reads; kinds the cluster does not serve come back empty. */
export async function readSnapshot(client: KubeClient): Promise<ClusterSnapshot> {
  const [pods, nodes, nodeClaims, nodePools, nodeClasses, pdbs, daemonSets, pvcs, pvs, scs, csi, events, namespaces] =
    await Promise.all([
      listOrEmpty<Pod>(client, Resources.pods),
      listOrEmpty<Node>(client, Resources.nodes),
      listOrEmpty<StoredNodeClaim>(client, Resources.nodeClaims),
      listOrEmpty<StoredNodePool>(client, Resources.nodePools),
      listOrEmpty<StoredNodeClass>(client, Resources.ec2NodeClasses),
      listOrEmpty<PodDisruptionBudget>(client, Resources.podDisruptionBudgets),
      listOrEmpty<DaemonSet>(client, Resources.daemonSets),
      listOrEmpty<PersistentVolumeClaim>(client, Resources.persistentVolumeClaims),
      listOrEmpty<PersistentVolume>(client, Resources.persistentVolumes),
      listOrEmpty<StorageClass>(client, Resources.storageClasses),
      listOrEmpty<CSINode>(client, Resources.csiNodes),
      listOrEmpty<EventObject>(client, Resources.events),
      listOrEmpty<KubeObject>(client, Resources.namespaces),
    ]);
  return {
    pods,
    nodes,
    nodeClaims,
    nodePools,
    nodeClasses,
    pdbs,
    daemonSets,
    persistentVolumeClaims: pvcs,
    persistentVolumes: pvs,
    storageClasses: scs,
    csiNodes: csi,
    events,
    namespaces,
  };
}

/** `namespace/name` of a namespaced object. */
export function keyOfPod(p: KubeObject): string {
  return `${p.metadata.namespace ?? 'default'}/${p.metadata.name ?? ''}`;
}

/** The time an RFC 3339 stamp stands for, or undefined. */
export function timeOf(stamp: string | undefined): number | undefined {
  if (!stamp) return undefined;
  const t = Date.parse(stamp);
  return Number.isNaN(t) ? undefined : t;
}
