/**
 * The kube-scheduler's feasibility filter, decided by the scheduling engine's independent placement checker: a
 * node is feasible for a pod when placing the pod there breaks no rule. The checker judges whole placements, so
 * this adapter asks it once per cycle with one copy of the pod on every node (copies cannot see each other when
 * the pod has no inter-pod rule and no running pod has anti-affinity), or once per node otherwise. The violations
 * are then worded as kube-scheduler's filter plugins word their reasons, in the framework's order, keeping only
 * the first failing plugin per node, as the framework stops there.
 */
import type { Taint } from '../../api/index.js';
import type { Pod } from '../../kube/index.js';
import {
  checkPlacement,
  toResourceList,
  type ExistingNode,
  type Pod as SchedPod,
  type SchedulingInput,
  type Violation,
  type VolumeInfo,
} from '../../scheduling/index.js';
import type { CsiNode } from '../world/resources.js';
import { requestsOf, type NodeInfo } from './node-info.js';
import { asSchedPod, podKeyOf, readsOtherPods } from './sched-pod.js';
import { specText } from './spec-key.js';
import { taintsOf, verdictOf, type NodeVerdict } from './filter-reasons.js';

export type { NodeVerdict } from './filter-reasons.js';

/** What the filter reads besides the pod and the nodes. */
export interface FeasibilityContext {
  volumes: VolumeInfo;
  csiNodes: readonly CsiNode[];
  /** Whether any node runs a pod with required anti-affinity, when the caller keeps count (else the nodes are read). */
  antiAffinityAnywhere?: boolean;
}

function csiLimits(csi: CsiNode | undefined): Record<string, number> | undefined {
  const drivers = csi?.spec.drivers ?? [];
  const out: Record<string, number> = {};
  for (const d of drivers) if (d.allocatable?.count !== undefined) out[d.name] = d.allocatable.count;
  return drivers.length > 0 ? out : undefined;
}

function hasHostPort(containers: SchedPod['spec']['containers'] | undefined): boolean {
  for (const c of containers ?? []) for (const p of c.ports ?? []) if (p.hostPort) return true;
  return false;
}

const aloneCache = new WeakMap<SchedPod, boolean>();

/** True when the checker must see the pod itself (host ports, volumes), not only what it requests; cached per object. */
function seenAlone(pod: SchedPod): boolean {
  let v = aloneCache.get(pod);
  if (v === undefined)
    aloneCache.set(
      pod,
      (v =
        (pod.spec.volumes ?? []).length > 0 ||
        hasHostPort(pod.spec.containers) ||
        hasHostPort(pod.spec.initContainers)),
    );
  return v;
}

/**
 * The node's pods as the checker needs them when copies are independent: only per-node rules apply then, and they
 * read nothing of a pod without host ports or volumes but its requests, so those pods become one pod requesting
 * their sum (slots included). This keeps a cycle from re-reading every pod of the cluster.
 */
function condensed(info: NodeInfo): SchedPod[] {
  const alone = info.pods.filter((p) => seenAlone(asSchedPod(p)));
  const load: Record<string, number> = { ...info.requested };
  for (const p of alone) for (const [k, v] of Object.entries(requestsOf(p))) load[k] = (load[k] ?? 0) - v;
  const count = load['pods'] ?? 0;
  if (count <= 1) return info.pods.map(asSchedPod);
  const requests = toResourceList({ ...load, pods: count - 1 });
  const filler: SchedPod = {
    metadata: { name: `~load-${info.name}`, namespace: '~' },
    spec: { containers: [{ name: 'load', resources: { requests } }] },
  };
  return [...alone.map(asSchedPod), filler];
}

/** The checker's view of a NodeInfo: the node as kube-scheduler sees it (every taint counts, no daemon overhead). */
function existingNode(info: NodeInfo, csi: CsiNode | undefined, condense: boolean): ExistingNode {
  return {
    name: info.name,
    labels: info.labels,
    taints: taintsOf(info),
    // A hand-written Node may carry numbers; the checker reads quantity strings.
    allocatable: Object.fromEntries(
      Object.entries(info.node.status?.allocatable ?? {}).map(([k, v]) => [k, String(v)]),
    ),
    pods: condense ? condensed(info) : info.pods.map(asSchedPod),
    initialized: true,
    csiAttachLimits: csiLimits(csi),
  };
}

// The scheduler's NodeInfo of an unchanged node is the same object from cycle to cycle, so its checker view is
// built once per node change instead of once per node per cycle.
const views = new WeakMap<NodeInfo, { csi: CsiNode | undefined; condense: boolean; node: ExistingNode }>();
const csiByName = new WeakMap<readonly CsiNode[], Map<string, CsiNode>>();

/** The CSINodes by node name (built once per list; a cycle looks up hundreds of nodes). */
function csiIndex(csiNodes: readonly CsiNode[]): ReadonlyMap<string, CsiNode> {
  let m = csiByName.get(csiNodes);
  if (!m) csiByName.set(csiNodes, (m = new Map(csiNodes.map((c) => [c.metadata.name ?? '', c]))));
  return m;
}

function cachedExistingNode(info: NodeInfo, csiByNode: ReadonlyMap<string, CsiNode>, condense: boolean): ExistingNode {
  const csi = csiByNode.get(info.name);
  const v = views.get(info);
  if (v && v.csi === csi && v.condense === condense) return v.node;
  const node = existingNode(info, csi, condense);
  views.set(info, { csi, condense, node });
  return node;
}

function copyOf(pod: SchedPod, i: number): SchedPod {
  return { ...pod, metadata: { ...pod.metadata, name: `${pod.metadata.name}~${i}` } };
}

/** What a cycle reads of a NodeInfo's pods besides their sum, gathered once per NodeInfo object. */
interface PodTraits {
  /** Some pod has required pod anti-affinity. */
  antiAffinity: boolean;
  /** Some pod is seen alone by the checker (host ports, volumes). */
  alone: boolean;
}

const traits = new WeakMap<NodeInfo, PodTraits>();

function traitsOf(info: NodeInfo): PodTraits {
  let t = traits.get(info);
  if (!t) {
    const pods = info.pods.map(asSchedPod);
    t = {
      antiAffinity: pods.some(
        (p) => !!p.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length,
      ),
      alone: pods.some(seenAlone),
    };
    traits.set(info, t);
  }
  return t;
}

/** True when one copy of the pod per node is judged exactly as the pod alone on each node. */
function copiesIndependent(pod: Pod, nodes: readonly NodeInfo[], ctx: FeasibilityContext): boolean {
  if (readsOtherPods(pod)) return false;
  return !(ctx.antiAffinityAnywhere ?? nodes.some((n) => traitsOf(n).antiAffinity));
}

/**
 * Violations of a pod spec on a node, kept per NodeInfo object (an unchanged node keeps it across cycles). Only
 * for judgements that read nothing but the pod and that node: copies independent, the pod without volumes, and
 * every pod of the node condensed into its load (none seen alone). The node's CSINode is part of the key.
 */
const verdictCache = new WeakMap<NodeInfo, Map<string, Remembered>>();

/** A remembered judgement: the violations and the verdict worded from them. */
interface Remembered {
  csi: CsiNode | undefined;
  violations: Violation[];
  verdict: NodeVerdict;
}

function cached(info: NodeInfo, key: string, csi: CsiNode | undefined): Remembered | undefined {
  const hit = verdictCache.get(info)?.get(key);
  return hit && hit.csi === csi ? hit : undefined;
}

function remember(info: NodeInfo, key: string, entry: Remembered): void {
  let m = verdictCache.get(info);
  if (!m) verdictCache.set(info, (m = new Map()));
  m.set(key, entry);
}

/** Checks `pod` placed on each of `targets` (a copy per target), all `nodes` being the cluster; violations by target node. */
function judge(
  pod: SchedPod,
  targets: readonly NodeInfo[],
  all: { nodes: ExistingNode[]; ctx: FeasibilityContext },
): Map<string, Violation[]> {
  const copies = targets.map((_, i) => copyOf(pod, i));
  const input: SchedulingInput = {
    pods: copies,
    nodes: all.nodes,
    nodePools: [],
    instanceTypes: [],
    volumes: all.ctx.volumes,
  };
  const byCopy = new Map(
    copies.map((c, i) => [`${c.metadata.namespace ?? 'default'}/${c.metadata.name ?? ''}`, targets[i]?.name ?? '']),
  );
  const existingNodes = copies.map((c, i) => ({
    pod: `${c.metadata.namespace ?? 'default'}/${c.metadata.name ?? ''}`,
    node: targets[i]?.name ?? '',
  }));
  const out = new Map<string, Violation[]>(targets.map((t) => [t.name, []]));
  for (const v of checkPlacement(input, { existingNodes, nominated: [], newNodeClaims: [], unplaced: [], cost: 0 })) {
    const node =
      (v.pod !== undefined ? byCopy.get(v.pod) : undefined) ??
      (targets.length === 1 ? targets[0]?.name : v.target?.replace(/^node\//, ''));
    if (node !== undefined) out.get(node)?.push(v);
  }
  return out;
}

/**
 * For each of `targets` (default: every node), why `pod` may not go there (no reasons when it may), judged by the
 * placement checker with `nodes` as the whole cluster.
 */
export function infeasibility(
  pod: Pod,
  nodes: readonly NodeInfo[],
  ctx: FeasibilityContext,
  targets: readonly NodeInfo[] = nodes,
): Map<string, NodeVerdict> {
  const independent = copiesIndependent(pod, nodes, ctx);
  const sched = {
    ...asSchedPod(pod),
    metadata: { ...asSchedPod(pod).metadata, name: podKeyOf(pod).split('/')[1] ?? '' },
  };
  const verdicts = new Map<string, Violation[]>();
  const cacheable = independent && (pod.spec.volumes ?? []).length === 0;
  const key = cacheable ? specText(pod) : '';
  const csi = csiIndex(ctx.csiNodes);
  const unknown = cacheable ? targets.filter((n) => traitsOf(n).alone || !cached(n, key, csi.get(n.name))) : targets;
  // Independent copies read nothing but their own node, so the checker needs only the nodes being judged.
  const all = { nodes: (independent ? unknown : nodes).map((n) => cachedExistingNode(n, csi, independent)), ctx };
  if (unknown.length === 1 || independent) {
    if (unknown.length > 0) for (const [k, v] of judge(sched, unknown, all)) verdicts.set(k, v);
  } else {
    for (const n of unknown) verdicts.set(n.name, judge(sched, [n], all).get(n.name) ?? []);
  }
  return new Map(
    targets.map((n) => [n.name, cachedOrJudged(pod, n, { cacheable, key, csi: csi.get(n.name), verdicts })]),
  );
}

/**
 * Verdicts by position in the node list, for one class of pods (one spec text): the NodeInfo each was given on and
 * the verdict. A cycle walks up to every node (thousands once the fleet is large, most of them full); reading a
 * slot and comparing one object is much cheaper than the per-node hashing of the verdict cache, and an unchanged
 * node is the same NodeInfo at the same place from cycle to cycle. The NodeInfos are held weakly: a class no longer
 * scheduled must not keep old NodeInfos, and the pod versions they list, alive.
 */
interface Slots {
  csiNodes: readonly CsiNode[];
  infos: (WeakRef<NodeInfo> | undefined)[];
  verdicts: (NodeVerdict | undefined)[];
}

/** Classes with slots at once; past this they start over (a class then only re-reads the verdict cache). */
const maxSlotClasses = 256;
const slotsByClass = new Map<string, Slots>();

/**
 * Verdicts on the nodes at `positions` of `nodes`, in that order: from the slots of the pod's class where the node
 * is unchanged, else judged (as `infeasibility`) and kept in the slots when that is sound.
 */
export function verdictsAt(
  pod: Pod,
  nodes: readonly NodeInfo[],
  ctx: FeasibilityContext,
  positions: readonly number[],
): NodeVerdict[] {
  const slots = slotsOf(pod, nodes, ctx);
  const out: NodeVerdict[] = new Array(positions.length);
  const unknown: NodeInfo[] = [];
  const unknownAt: number[] = [];
  for (let k = 0; k < positions.length; k++) {
    const i = positions[k] as number;
    const n = nodes[i] as NodeInfo;
    const v = slots && slots.infos[i]?.deref() === n ? slots.verdicts[i] : undefined;
    if (v) out[k] = v;
    else {
      unknown.push(n);
      unknownAt.push(k);
    }
  }
  if (unknown.length === 0) return out;
  const judged = infeasibility(pod, nodes, ctx, unknown);
  unknown.forEach((n, u) => {
    const k = unknownAt[u] as number;
    const v = judged.get(n.name) ?? { reasons: [], resolvable: false };
    out[k] = v;
    if (slots && !traitsOf(n).alone) {
      slots.infos[positions[k] as number] = new WeakRef(n);
      slots.verdicts[positions[k] as number] = v;
    }
  });
  return out;
}

/** The slots of the pod's class; undefined when its verdicts read more than the pod and one node. */
function slotsOf(pod: Pod, nodes: readonly NodeInfo[], ctx: FeasibilityContext): Slots | undefined {
  if (!copiesIndependent(pod, nodes, ctx) || (pod.spec.volumes ?? []).length > 0) return undefined;
  const key = specText(pod);
  let slots = slotsByClass.get(key);
  if (slots && slots.csiNodes === ctx.csiNodes) return slots;
  if (!slots && slotsByClass.size >= maxSlotClasses) slotsByClass.clear();
  slotsByClass.set(key, (slots = { csiNodes: ctx.csiNodes, infos: [], verdicts: [] }));
  return slots;
}

/** The verdict on `n`: judged this cycle (and remembered when that is sound) or remembered from an earlier one. */
function cachedOrJudged(
  pod: Pod,
  n: NodeInfo,
  c: { cacheable: boolean; key: string; csi: CsiNode | undefined; verdicts: ReadonlyMap<string, Violation[]> },
): NodeVerdict {
  const judged = c.verdicts.get(n.name);
  if (!c.cacheable) return verdictOf(pod, n, judged ?? []);
  if (judged === undefined) return cached(n, c.key, c.csi)?.verdict ?? verdictOf(pod, n, []);
  const verdict = verdictOf(pod, n, judged);
  if (!traitsOf(n).alone) remember(n, c.key, { csi: c.csi, violations: judged, verdict });
  return verdict;
}

/**
 * The checker's violations of `pod` placed on `info` by the rules of that node alone (with `taints` in place of the
 * node's, if given): for the kubelet's admission and the DaemonSet controller, which each read some of the families.
 */
export function nodeLocalViolations(pod: Pod, info: NodeInfo, taints?: Taint[]): Violation[] {
  const node = existingNode(info, undefined, true);
  if (taints) node.taints = taints;
  const sched = {
    ...asSchedPod(pod),
    metadata: { ...asSchedPod(pod).metadata, name: podKeyOf(pod).split('/')[1] ?? '' },
  };
  return judge(sched, [info], { nodes: [node], ctx: { volumes: {}, csiNodes: [] } }).get(info.name) ?? [];
}
