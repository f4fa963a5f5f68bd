/**
 * Builds the scheduling engine's input from cluster state: existing nodes with their pods, in-flight
 * NodeClaims with the capacity any of their instance types guarantees, NodePools, DaemonSets and the pending
 * pods (plus pods that must leave nodes being deleted, so their replacement capacity launches first).
 */
import { Labels, type NodeSelectorRequirementWithMinValues, type ResourceList } from '../../api/index.js';
import type { InstanceType as ProviderInstanceType } from '../../cloudprovider/index.js';
import type { Node, Pod } from '../../kube/index.js';
import type * as sched from '../../scheduling/index.js';
import { fromResourceList, toResourceList } from '../../scheduling/index.js';
import type { ClusterState } from '../../state/cluster-state.js';
import type { DaemonSet, StoredNodeClaim, StoredNodePool } from '../../state/informers.js';
import { quantities } from '../resource-lists.js';
import { isProvisionable, isReschedulable } from './provisionable.js';

/** The scheduling view of a NodePool. */
export function toSchedulingNodePool(np: StoredNodePool): sched.NodePool {
  const t = np.spec.template;
  return {
    name: np.metadata.name ?? '',
    weight: np.spec.weight,
    template: {
      labels: t.metadata?.labels,
      taints: t.spec.taints,
      startupTaints: t.spec.startupTaints,
      requirements: t.spec.requirements,
    },
    limits: quantities(np.spec.limits),
  };
}

/**
 * What successive inputs of one owner (the provisioner, the disruption controller) share: one scheduling view
 * per provider instance type object, so the solver prepares each type once (requirements from its labels and
 * offerings) while the provider hands out the same objects; and each type's allocatable, parsed once per list
 * object (every pass reads it for each in-flight NodeClaim, which may name dozens of types).
 */
export class SchedulingInputCache {
  readonly instanceTypes = new WeakMap<ProviderInstanceType, sched.InstanceType>();
  readonly allocatable = new WeakMap<object, Record<string, number>>();
}

/** The scheduling view of a provider instance type (the same object for the same provider object and cache). */
export function toSchedulingInstanceType(it: ProviderInstanceType, cache: SchedulingInputCache): sched.InstanceType {
  let t = cache.instanceTypes.get(it);
  if (!t) {
    t = {
      name: it.name,
      labels: it.labels,
      requirements: it.requirements,
      capacity: it.capacity,
      allocatable: it.allocatable,
      offerings: it.offerings,
      csiAttachLimits: it.csiAttachLimits,
    };
    cache.instanceTypes.set(it, t);
  }
  return t;
}

/** Labels a node launched from these requirements will surely carry: every single-valued `In`. */
export function requirementLabels(reqs: readonly NodeSelectorRequirementWithMinValues[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of reqs)
    if (r.operator === 'In' && r.values?.length === 1 && r.values[0] !== undefined) out[r.key] = r.values[0];
  return out;
}

/** Per resource, the least any of the named instance types offers: what the NodeClaim will surely have. */
export function guaranteedAllocatable(
  names: readonly string[],
  types: ReadonlyMap<string, ProviderInstanceType>,
  cache: SchedulingInputCache,
): ResourceList | undefined {
  let min: Record<string, number> | undefined;
  for (const name of names) {
    const it = types.get(name);
    if (!it) continue;
    let a = cache.allocatable.get(it.allocatable);
    if (!a) cache.allocatable.set(it.allocatable, (a = fromResourceList(it.allocatable)));
    if (!min) {
      min = { ...a };
      continue;
    }
    for (const k of Object.keys(min)) min[k] = Math.min(min[k] ?? 0, a[k] ?? 0);
  }
  return min ? toResourceList(min) : undefined;
}

/** The instance type a launched NodeClaim runs as (its label), as a one-name list. */
function launchedAs(nc: StoredNodeClaim): string[] | undefined {
  const name = nc.metadata.labels?.[Labels.instanceType];
  return name ? [name] : undefined;
}

function instanceTypeNames(nc: StoredNodeClaim): string[] {
  return nc.spec.requirements.find((r) => r.key === Labels.instanceType && r.operator === 'In')?.values ?? [];
}

/**
 * Attach limits per CSI driver from the node's CSINode (same name as the node); until the kubelet has registered
 * it, the limits its instance type declares.
 */
function attachLimits(
  state: ClusterState,
  node: Node,
  types: ReadonlyMap<string, ProviderInstanceType>,
): Record<string, number> | undefined {
  const drivers = state.informers.csiNodes.cache.get(node.metadata.name ?? '')?.spec?.drivers;
  if (!drivers?.length) return types.get(node.metadata.labels?.[Labels.instanceType] ?? '')?.csiAttachLimits;
  const out: Record<string, number> = {};
  for (const d of drivers) if (d.allocatable?.count !== undefined) out[d.name] = d.allocatable.count;
  return out;
}

/** Per CSI driver, the fewest volumes any of the named instance types attaches (what the NodeClaim surely will). */
function guaranteedAttachLimits(
  names: readonly string[],
  types: ReadonlyMap<string, ProviderInstanceType>,
): Record<string, number> | undefined {
  let min: Record<string, number> | undefined;
  for (const name of names) {
    const limits = types.get(name)?.csiAttachLimits;
    // A type that declares no limit for a driver attaches as many as the node will take: the rest decide.
    if (!limits) continue;
    if (!min) {
      min = { ...limits };
      continue;
    }
    for (const [driver, n] of Object.entries(limits)) min[driver] = Math.min(min[driver] ?? n, n);
  }
  return min;
}

/**
 * What a node will offer: until its NodeClaim is initialized, the resources its Node has not registered yet
 * (a device plugin's nvidia.com/gpu, aws.amazon.com/neuron) count at the NodeClaim's amount, as Karpenter's
 * state node does, so the pods waiting for them stay on it instead of launching more NodeClaims.
 */
function expectedResources(
  reported: ResourceList | undefined,
  launched: Record<string, string | number> | undefined,
  initialized: boolean,
): ResourceList | undefined {
  if (initialized || !launched) return reported;
  const out: ResourceList = { ...reported };
  for (const [k, v] of Object.entries(launched)) {
    const have = out[k];
    if (have === undefined || have === '0') out[k] = String(v);
  }
  return out;
}

/** A node's allocatable and capacity for scheduling (see expectedResources). */
function nodeResources(
  node: Node,
  nc: StoredNodeClaim | undefined,
  initialized: boolean,
): { allocatable: ResourceList; capacity: ResourceList | undefined } {
  return {
    allocatable: expectedResources(node.status?.allocatable, nc?.status?.allocatable, initialized) ?? {},
    capacity: expectedResources(node.status?.capacity, nc?.status?.capacity, initialized),
  };
}

function existingNode(
  node: Node,
  state: ClusterState,
  types: ReadonlyMap<string, ProviderInstanceType>,
): sched.ExistingNode {
  const nc = state.nodeClaimOf(node);
  const name = node.metadata.name ?? '';
  const deleting = Boolean(node.metadata.deletionTimestamp ?? nc?.metadata.deletionTimestamp);
  const initialized = !nc || node.metadata.labels?.[Labels.initialized] === 'true';
  return {
    name,
    labels: node.metadata.labels ?? {},
    taints: node.spec?.taints,
    ...nodeResources(node, nc, initialized),
    pods: state.podsOn(name),
    initialized,
    startupTaints: nc?.spec.startupTaints,
    markedForDeletion: deleting,
    csiAttachLimits: attachLimits(state, node, types),
  };
}

function inFlight(
  nc: StoredNodeClaim,
  types: ReadonlyMap<string, ProviderInstanceType>,
  cache: SchedulingInputCache,
): sched.InFlightNodeClaim {
  const allocatable =
    quantities(nc.status?.allocatable) ??
    guaranteedAllocatable(instanceTypeNames(nc), types, cache) ??
    quantities(nc.spec.resources?.requests) ??
    {};
  return {
    name: nc.metadata.name ?? '',
    nodePool: nc.metadata.labels?.[Labels.nodePool] ?? '',
    // Until its Node exists, the NodeClaim's name stands in for the hostname (hostname spread and anti-affinity).
    labels: {
      [Labels.hostname]: nc.metadata.name ?? '',
      ...requirementLabels(nc.spec.requirements),
      ...nc.metadata.labels,
    },
    taints: nc.spec.taints,
    startupTaints: nc.spec.startupTaints,
    allocatable,
    capacity: quantities(nc.status?.capacity) ?? allocatable,
    initialized: false,
    pods: [],
    csiAttachLimits: guaranteedAttachLimits(launchedAs(nc) ?? instanceTypeNames(nc), types),
  };
}

/** PVCs, PVs and StorageClasses as the engine reads them (SCENARIOS.md S4). */
function volumeInfo(state: ClusterState): sched.VolumeInfo {
  const inf = state.informers;
  const claims: NonNullable<sched.VolumeInfo['claims']> = {};
  for (const c of inf.persistentVolumeClaims.cache.list())
    claims[`${c.metadata.namespace ?? 'default'}/${c.metadata.name ?? ''}`] = {
      storageClassName: c.spec?.storageClassName,
      volumeName: c.spec?.volumeName,
    };
  const volumes: NonNullable<sched.VolumeInfo['volumes']> = {};
  for (const v of inf.persistentVolumes.cache.list()) {
    const terms = v.spec?.nodeAffinity?.required?.nodeSelectorTerms as sched.NodeSelectorTerm[] | undefined;
    volumes[v.metadata.name ?? ''] = { nodeAffinity: terms, driver: v.spec?.csi?.driver };
  }
  const storageClasses: NonNullable<sched.VolumeInfo['storageClasses']> = {};
  for (const sc of inf.storageClasses.cache.list()) {
    const name = sc.metadata.name ?? '';
    storageClasses[name] = {
      name,
      provisioner: sc.provisioner,
      volumeBindingMode: sc.volumeBindingMode,
      allowedTopologies: sc.allowedTopologies,
    };
  }
  return { claims, volumes, storageClasses };
}

function toSchedulingDaemonSet(ds: DaemonSet): sched.DaemonSet {
  const template = {
    metadata: ds.spec.template.metadata,
    spec: ds.spec.template.spec,
  };
  return { name: ds.metadata.name ?? '', namespace: ds.metadata.namespace, template };
}

/** What one provisioning pass decides on. */
export interface ProvisioningView {
  input: sched.SchedulingInput;
  /** The pods being placed, by `namespace/name`. */
  pods: Map<string, Pod>;
}

/**
 * Gives each node and in-flight NodeClaim the pending pods nominated to it (`node/<name>`, `nodeclaim/<name>`; a
 * registered node also takes those nominated to its NodeClaim), which the solver places there first.
 */
function withNominations(
  state: ClusterState,
  pods: ReadonlyMap<string, Pod>,
  bins: { nodes: sched.ExistingNode[]; nodeClaims: sched.InFlightNodeClaim[] },
): void {
  const byTarget = new Map<string, string[]>();
  for (const key of pods.keys()) {
    const target = state.nominationOf(key)?.target;
    if (!target) continue;
    const list = byTarget.get(target);
    if (list) list.push(key);
    else byTarget.set(target, [key]);
  }
  if (byTarget.size === 0) return;
  for (const n of bins.nodeClaims) n.nominatedPods = byTarget.get(`nodeclaim/${n.name}`);
  for (const n of bins.nodes) {
    const node = state.informers.nodes.cache.get(n.name);
    const claim = node && state.nodeClaimOf(node)?.metadata.name;
    const keys = [
      ...(byTarget.get(`node/${n.name}`) ?? []),
      ...(claim ? (byTarget.get(`nodeclaim/${claim}`) ?? []) : []),
    ];
    if (keys.length > 0) n.nominatedPods = keys;
  }
}

/** Collects the scheduling input; `instanceTypes` are the provider's, by NodePool name; `cache` is the caller's. */
export function buildSchedulingInput(
  state: ClusterState,
  nodePools: readonly StoredNodePool[],
  instanceTypes: ReadonlyMap<string, ProviderInstanceType[]>,
  cache: SchedulingInputCache = new SchedulingInputCache(),
): ProvisioningView {
  const inf = state.informers;
  const byName = new Map<string, ProviderInstanceType>();
  for (const list of instanceTypes.values()) for (const it of list) byName.set(it.name, it);
  const nodes = inf.nodes.cache.list().map((n) => existingNode(n, state, byName));
  const pods = new Map<string, Pod>();
  const add = (p: Pod): void => {
    pods.set(`${p.metadata.namespace ?? 'default'}/${p.metadata.name ?? ''}`, p);
  };
  for (const p of inf.pods.cache.list()) if (isProvisionable(p)) add(p);
  for (const n of nodes) if (n.markedForDeletion) for (const p of state.podsOn(n.name)) if (isReschedulable(p)) add(p);
  const nodeClaims = inf.nodeClaims.cache
    .list()
    .filter((nc) => !nc.metadata.deletionTimestamp && !state.nodeOf(nc))
    .map((nc) => inFlight(nc, byName, cache));
  withNominations(state, pods, { nodes, nodeClaims });
  const byPool: Record<string, sched.InstanceType[]> = {};
  for (const [pool, list] of instanceTypes) byPool[pool] = list.map((it) => toSchedulingInstanceType(it, cache));
  const input: sched.SchedulingInput = {
    pods: [...pods.values()],
    nodes,
    nodeClaims,
    nodePools: nodePools.map(toSchedulingNodePool),
    instanceTypes: [],
    instanceTypesByNodePool: byPool,
    daemonSets: inf.daemonSets.cache.list().map(toSchedulingDaemonSet),
    volumes: volumeInfo(state),
  };
  return { input, pods };
}
