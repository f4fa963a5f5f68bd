/**
 * The scheduling engine's input built from a snapshot, as the provisioning controller builds it from its
 * informers: existing nodes with their pods, in-flight NodeClaims, NodePools whose NodeClass is usable, DaemonSets,
 * volumes, and the pods to place.
 */
import { Labels } from '../api/index.js';
import type { Node, Pod } from '../kube/index.js';
import type * as sched from '../scheduling/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../state/informers.js';
import { quantities } from '../controllers/resource-lists.js';
import { toSchedulingNodePool } from '../controllers/provisioning/scheduling-input.js';
import type { ClusterSnapshot } from './snapshot.js';

/** Indexes over a snapshot that several explanations share. */
export class SnapshotIndex {
  /** Pods by node name. */
  readonly podsByNode = new Map<string, Pod[]>();
  /** NodeClaims by provider id. */
  readonly claimByProvider = new Map<string, StoredNodeClaim>();
  /** Nodes by provider id. */
  readonly nodeByProvider = new Map<string, Node>();

  /** Builds the indexes. */
  constructor(readonly snapshot: ClusterSnapshot) {
    for (const p of snapshot.pods) {
      const node = p.spec.nodeName;
      if (!node || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
      const list = this.podsByNode.get(node);
      if (list) list.push(p);
      else this.podsByNode.set(node, [p]);
    }
    for (const nc of snapshot.nodeClaims) if (nc.status?.providerID) this.claimByProvider.set(nc.status.providerID, nc);
    for (const n of snapshot.nodes) if (n.spec?.providerID) this.nodeByProvider.set(n.spec.providerID, n);
  }

  /** The NodeClaim behind a node, if Tenon launched it. */
  claimOf(node: Node): StoredNodeClaim | undefined {
    return node.spec?.providerID ? this.claimByProvider.get(node.spec.providerID) : undefined;
  }

  /** The node of a NodeClaim, once it registered. */
  nodeOf(nc: StoredNodeClaim): Node | undefined {
    return nc.status?.providerID ? this.nodeByProvider.get(nc.status.providerID) : undefined;
  }
}

function existingNode(node: Node, index: SnapshotIndex): sched.ExistingNode {
  const nc = index.claimOf(node);
  const name = node.metadata.name ?? '';
  return {
    name,
    labels: node.metadata.labels ?? {},
    taints: node.spec?.taints,
    allocatable: node.status?.allocatable ?? {},
    capacity: node.status?.capacity,
    pods: index.podsByNode.get(name) ?? [],
    initialized: nc ? node.metadata.labels?.[Labels.initialized] === 'true' : true,
    startupTaints: nc?.spec.startupTaints,
    markedForDeletion:
      Boolean(node.metadata.deletionTimestamp ?? nc?.metadata.deletionTimestamp) || node.spec?.unschedulable === true,
  };
}

function singleValued(nc: StoredNodeClaim): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of nc.spec.requirements)
    if (r.operator === 'In' && r.values?.length === 1 && r.values[0] !== undefined) out[r.key] = r.values[0];
  return out;
}

function inFlight(nc: StoredNodeClaim): sched.InFlightNodeClaim {
  const allocatable = quantities(nc.status?.allocatable) ?? quantities(nc.spec.resources?.requests) ?? {};
  const name = nc.metadata.name ?? '';
  return {
    name,
    nodePool: nc.metadata.labels?.[Labels.nodePool] ?? '',
    labels: { [Labels.hostname]: name, ...singleValued(nc), ...nc.metadata.labels },
    taints: nc.spec.taints,
    startupTaints: nc.spec.startupTaints,
    allocatable,
    capacity: quantities(nc.status?.capacity) ?? allocatable,
    initialized: false,
    pods: [],
  };
}

function volumes(s: ClusterSnapshot): sched.VolumeInfo {
  const claims: NonNullable<sched.VolumeInfo['claims']> = {};
  for (const c of s.persistentVolumeClaims)
    claims[`${c.metadata.namespace ?? 'default'}/${c.metadata.name ?? ''}`] = {
      storageClassName: c.spec?.storageClassName,
      volumeName: c.spec?.volumeName,
    };
  const vols: NonNullable<sched.VolumeInfo['volumes']> = {};
  for (const v of s.persistentVolumes)
    vols[v.metadata.name ?? ''] = {
      nodeAffinity: v.spec?.nodeAffinity?.required?.nodeSelectorTerms as sched.NodeSelectorTerm[] | undefined,
      driver: v.spec?.csi?.driver,
    };
  const storageClasses: NonNullable<sched.VolumeInfo['storageClasses']> = {};
  for (const sc of s.storageClasses) {
    const name = sc.metadata.name ?? '';
    storageClasses[name] = {
      name,
      provisioner: sc.provisioner,
      volumeBindingMode: sc.volumeBindingMode,
      allowedTopologies: sc.allowedTopologies,
    };
  }
  return { claims, volumes: vols, storageClasses };
}

/** What to build an input for. */
export interface ViewOptions {
  pods: readonly Pod[];
  /** NodePools the solver may open NodeClaims from. */
  nodePools: readonly StoredNodePool[];
  instanceTypes: ReadonlyMap<string, sched.InstanceType[]>;
}

/** The solver's input for `pods` against the snapshot's nodes, in-flight NodeClaims and the given NodePools. */
export function schedulingInput(index: SnapshotIndex, o: ViewOptions): sched.SchedulingInput {
  const s = index.snapshot;
  const byPool: Record<string, sched.InstanceType[]> = {};
  for (const np of o.nodePools) byPool[np.metadata.name ?? ''] = o.instanceTypes.get(np.metadata.name ?? '') ?? [];
  const namespaces: Record<string, Record<string, string>> = {};
  for (const ns of s.namespaces) namespaces[ns.metadata.name ?? ''] = ns.metadata.labels ?? {};
  return {
    pods: [...o.pods],
    nodes: s.nodes.map((n) => existingNode(n, index)),
    nodeClaims: s.nodeClaims.filter((nc) => !nc.metadata.deletionTimestamp && !index.nodeOf(nc)).map(inFlight),
    nodePools: o.nodePools.map(toSchedulingNodePool),
    instanceTypes: [],
    instanceTypesByNodePool: byPool,
    daemonSets: s.daemonSets.map((ds) => ({
      name: ds.metadata.name ?? '',
      namespace: ds.metadata.namespace,
      template: {
        metadata: ds.spec.template.metadata,
        spec: ds.spec.template.spec,
      },
    })),
    volumes: volumes(s),
    namespaces,
  };
}
