/**
 * kube-scheduler's scheduler cache: every node's NodeInfo kept from pod and node events. A cycle used to rebuild
 * every NodeInfo from the informer (O(pods) per scheduled pod); now only the NodeInfo of a node whose pods or object
 * changed is rebuilt, and an unchanged one is the same object from cycle to cycle.
 */
import { keyOf, type Node, type Pod } from '../../kube/index.js';
import { Labels } from '../../api/index.js';
import { nodeInfo, requestsOf, withPods, type NodeInfo } from './node-info.js';
import { asSchedPod, occupiesNode, ownerUid } from './sched-pod.js';

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => a?.[k] === b?.[k]);
}

/** True when two versions of a bound pod look the same to the filters and scores (labels, owners, spec). */
function sameForScheduling(a: Pod, b: Pod): boolean {
  if (a.metadata.deletionTimestamp !== b.metadata.deletionTimestamp) return false;
  if (!sameLabels(a.metadata.labels, b.metadata.labels)) return false;
  if (JSON.stringify(a.metadata.ownerReferences) !== JSON.stringify(b.metadata.ownerReferences)) return false;
  return JSON.stringify(a.spec) === JSON.stringify(b.spec);
}

/** The NodeInfo without a pod (a new object). */
function withoutPod(info: NodeInfo, pod: Pod): NodeInfo {
  const requested = { ...info.requested };
  for (const [k, v] of Object.entries(requestsOf(pod))) requested[k] = (requested[k] ?? 0) - v;
  return { ...info, requested, pods: info.pods.filter((p) => p !== pod) };
}

/** Where a bound pod is counted: its node, its controller owner and the node's zone (shared by the pods alike). */
interface Placement {
  readonly node: string;
  readonly owner: string | undefined;
  readonly zone: string;
}

/** The NodeInfos of the live nodes, maintained incrementally from informer events. */
export class NodeInfoCache {
  private readonly nodes = new Map<string, Node>();
  /** Pods occupying each node, by key, in the order the informer last stored them (as its node index keeps them). */
  private readonly podsByNode = new Map<string, Map<string, Pod>>();
  /** Each bound pod's placement by key: one map entry per pod and one record per node and owner. */
  private readonly placed = new Map<string, Placement>();
  /** The shared placement records by node, then owner and zone (dropped with the node). */
  private readonly placements = new Map<string, Map<string, Placement>>();
  private readonly infos = new Map<string, NodeInfo>();
  private sortedNames: string[] | undefined;
  /** The last list() and each node's place in it: changed nodes are patched in, not the whole list rebuilt. */
  private listed: NodeInfo[] | undefined;
  private readonly listIndex = new Map<string, number>();
  private readonly dirty = new Set<string>();
  /** Pods per controller owner per zone, for spreading (kept as pods come and go, not counted per cycle). */
  private readonly ownerZones = new Map<string, Map<string, number>>();
  /** How many bound pods have each priority, for "could preemption find any victim at all". */
  private readonly priorities = new Map<number, number>();
  /** Bound pods with required pod anti-affinity (their rules reach other nodes). */
  private antiAffinityPods = 0;

  /** Records a pod's add or update: it occupies its node only while bound and not finished. */
  setPod(pod: Pod): void {
    const key = keyOf(pod);
    if (this.replaceInPlace(key, pod)) return;
    this.deletePod(key);
    const node = pod.spec.nodeName;
    if (!node || !occupiesNode(pod)) return;
    let pods = this.podsByNode.get(node);
    if (!pods) this.podsByNode.set(node, (pods = new Map()));
    pods.set(key, pod);
    const info = this.infos.get(node);
    if (info) this.infos.set(node, withPods(info, [pod]));
    this.dirty.add(node);
    this.count(pod, 1);
    this.place(key, pod, node);
  }

  /** Records where a pod is and counts it in its owner's zone. */
  private place(key: string, pod: Pod, node: string): void {
    const owner = ownerUid(pod);
    const zone = this.nodes.get(node)?.metadata.labels?.[Labels.zone] ?? '';
    let onNode = this.placements.get(node);
    if (!onNode) this.placements.set(node, (onNode = new Map()));
    const id = owner === undefined ? zone : [owner, zone].join('\n');
    let p = onNode.get(id);
    if (!p || p.owner !== owner) onNode.set(id, (p = { node, owner, zone }));
    this.placed.set(key, p);
    if (owner === undefined) return;
    let zones = this.ownerZones.get(owner);
    if (!zones) this.ownerZones.set(owner, (zones = new Map()));
    zones.set(zone, (zones.get(zone) ?? 0) + 1);
  }

  /** Forgets where a pod is and takes it out of its owner's zone count. */
  private unplace(key: string): void {
    const c = this.placed.get(key);
    if (!c) return;
    this.placed.delete(key);
    if (c.owner === undefined) return;
    const zones = this.ownerZones.get(c.owner);
    const n = (zones?.get(c.zone) ?? 0) - 1;
    if (n > 0) zones?.set(c.zone, n);
    else zones?.delete(c.zone);
    if (zones?.size === 0) this.ownerZones.delete(c.owner);
  }

  /** How many bound pods of a controller owner each zone has (zone '' for nodes without a zone label). */
  zoneCounts(owner: string): ReadonlyMap<string, number> {
    return this.ownerZones.get(owner) ?? new Map();
  }

  private count(pod: Pod, delta: number): void {
    if (asSchedPod(pod).spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length)
      this.antiAffinityPods += delta;
    const p = pod.spec.priority ?? 0;
    const n = (this.priorities.get(p) ?? 0) + delta;
    if (n > 0) this.priorities.set(p, n);
    else this.priorities.delete(p);
  }

  /** True when some bound pod has required pod anti-affinity. */
  hasAntiAffinity(): boolean {
    return this.antiAffinityPods > 0;
  }

  /** The lowest priority of any pod bound to a node (Infinity when none is). */
  lowestBoundPriority(): number {
    let low = Infinity;
    for (const p of this.priorities.keys()) low = Math.min(low, p);
    return low;
  }

  /**
   * A status update of a pod that keeps occupying its node (the kubelet's, most of a pod's updates) changes nothing
   * the filters and scores read: the pod object is swapped in the node's NodeInfo, which stays the same object, so
   * what was derived from it (verdicts, checker views) stays valid.
   */
  private replaceInPlace(key: string, pod: Pod): boolean {
    const node = this.placed.get(key)?.node;
    const pods = node === undefined ? undefined : this.podsByNode.get(node);
    const old = pods?.get(key);
    if (
      node === undefined ||
      !pods ||
      !old ||
      node !== pod.spec.nodeName ||
      !occupiesNode(pod) ||
      !sameForScheduling(old, pod)
    )
      return false;
    pods.set(key, pod);
    const info = this.infos.get(node);
    const i = info ? info.pods.indexOf(old) : -1;
    if (info && i >= 0) info.pods[i] = pod;
    else {
      this.infos.delete(node);
      this.dirty.add(node);
    }
    return true;
  }

  /** Records a pod's deletion. */
  deletePod(key: string): void {
    const node = this.placed.get(key)?.node;
    if (node === undefined) return;
    const pods = this.podsByNode.get(node);
    const pod = pods?.get(key);
    if (pod) this.count(pod, -1);
    this.unplace(key);
    pods?.delete(key);
    if (pods?.size === 0) this.podsByNode.delete(node);
    const info = this.infos.get(node);
    if (info && pod) this.infos.set(node, withoutPod(info, pod));
    else this.infos.delete(node);
    this.dirty.add(node);
  }

  /** Records a node's add or update. */
  setNode(node: Node): void {
    const name = node.metadata.name ?? '';
    const old = this.nodes.get(name);
    if (!old || !old.metadata.deletionTimestamp !== !node.metadata.deletionTimestamp) this.sortedNames = undefined;
    this.nodes.set(name, node);
    this.infos.delete(name);
    this.dirty.add(name);
    // A new node too: its pods may have come first (separate informers), counted in no zone until now.
    if (old?.metadata.labels?.[Labels.zone] !== node.metadata.labels?.[Labels.zone]) this.recountZones(name);
  }

  /** Counts a node's pods in its new zone. */
  private recountZones(name: string): void {
    for (const [key, pod] of this.podsByNode.get(name) ?? []) {
      this.unplace(key);
      this.place(key, pod, name);
    }
  }

  /** Records a node's deletion. */
  deleteNode(name: string): void {
    this.nodes.delete(name);
    this.placements.delete(name);
    this.infos.delete(name);
    this.sortedNames = undefined;
  }

  /** The NodeInfo of one node (undefined when unknown or being deleted); shared, not to be changed. */
  get(name: string): NodeInfo | undefined {
    const node = this.nodes.get(name);
    if (!node || node.metadata.deletionTimestamp) return undefined;
    let info = this.infos.get(name);
    if (!info) this.infos.set(name, (info = nodeInfo(node, [...(this.podsByNode.get(name)?.values() ?? [])])));
    return info;
  }

  /** Where a node is in the last list(), if it is there. */
  position(name: string): number | undefined {
    return this.listIndex.get(name);
  }

  /** The NodeInfos of the nodes not being deleted, by name; shared objects the caller must not change. */
  list(): readonly NodeInfo[] {
    if (this.sortedNames && this.listed) {
      for (const name of this.dirty) {
        const i = this.listIndex.get(name);
        const info = this.get(name);
        if (i !== undefined && info) this.listed[i] = info;
      }
      this.dirty.clear();
      return this.listed;
    }
    this.sortedNames = [...this.nodes.keys()].sort((a, b) => (a < b ? -1 : 1));
    this.dirty.clear();
    this.listIndex.clear();
    const out: NodeInfo[] = [];
    for (const name of this.sortedNames) {
      const info = this.get(name);
      if (!info) continue;
      this.listIndex.set(name, out.length);
      out.push(info);
    }
    this.listed = out;
    return out;
  }
}
