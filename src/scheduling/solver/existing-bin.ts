/**
 * An existing Node or in-flight NodeClaim as a bin: fixed allocatable, its labels as requirements, its taints
 * (ephemeral and startup taints ignored until it is initialized — S1), host ports and CSI attachments in use.
 */
import { Labels, type Taint } from '../../api/index.js';
import { conflictingPort, hostPortsOf, type HostPort } from '../host-ports.js';
import type { ExistingNode, Pod, VolumeInfo } from '../model.js';
import { podTopologyKeys } from '../topology/terms.js';
import type { PodInfo } from '../pod-info.js';
import { amount } from '../resources/amounts.js';
import { podRequests } from '../resources/pod-requests.js';
import type { SolveCache } from '../solve-cache.js';
import { addInto, exceeded, fromResourceList, type Resources } from '../resources/resources.js';
import { Requirements } from '../requirements/requirements.js';
import { effectiveTaints, formatTaint, untoleratedTaint } from '../taints.js';
import type { Topology } from '../topology/topology.js';
import { podVolumes } from '../volumes.js';
import { noFit, type Fit } from './fit.js';

const hostnameKey = Labels.hostname;

/** What a node holds before this solve, parsed once per node object (repeated solves, e.g. disruption, reuse it). */
export interface NodeFacts {
  volumes: VolumeInfo | undefined;
  requirements: Requirements;
  taints: Taint[];
  allocatable: Resources;
  used: Resources;
  ports: HostPort[];
  attachments: { driver: string; id: string }[];
  /** Capacity counted against NodePool limits (allocatable when capacity is not given). */
  capacity: Resources;
  /** Topology keys its pods' spread constraints and (anti-)affinity terms use. */
  topologyKeys: Set<string>;
  /** Its pods with required anti-affinity (they can reject incoming pods). */
  antiAffinityPods: Pod[];
}

/**
 * A node's labels as requirements, by labels object. Callers build new node objects for every solve (each pass
 * of the provisioner and of disruption), while a cached Node's labels object stays the same until its labels
 * change; the requirements are only read.
 */
function requirementsOf(labels: ExistingNode['labels'], cache: SolveCache | undefined): Requirements {
  if (!cache) return Requirements.fromLabels(labels);
  let r = cache.labelRequirements.get(labels);
  if (!r) cache.labelRequirements.set(labels, (r = Requirements.fromLabels(labels, cache.requirements)));
  return r;
}

/** The parsed facts of `node` (with a cache, parsed once per node object and volume info). */
export function nodeFacts(node: ExistingNode, volumes: VolumeInfo | undefined, cache?: SolveCache): NodeFacts {
  const cached = cache?.nodeFacts.get(node);
  if (cached && cached.volumes === volumes) return cached;
  const allocatable = fromResourceList(node.allocatable);
  const base: NodeFacts = {
    volumes,
    requirements: requirementsOf(node.labels, cache),
    taints: effectiveTaints(node.taints ?? [], {
      initialized: node.initialized ?? true,
      startupTaints: node.startupTaints,
    }),
    allocatable,
    used: {},
    ports: [],
    attachments: [],
    capacity: node.capacity ? fromResourceList(node.capacity) : allocatable,
    topologyKeys: new Set(),
    antiAffinityPods: [],
  };
  for (const p of node.pods ?? []) {
    for (const k of podTopologyKeys(p)) base.topologyKeys.add(k);
    if (p.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length)
      base.antiAffinityPods.push(p);
    addInto(base.used, podRequests(p, cache));
    base.ports.push(...hostPortsOf(p));
    base.attachments.push(...podVolumes(p, volumes).attachments);
  }
  cache?.nodeFacts.set(node, base);
  return base;
}

/**
 * An existing Node or in-flight NodeClaim. Its usage, host ports and attachments start as the node's parsed facts,
 * shared, and are copied on the first change: a removal simulation builds a bin for every node of the cluster and
 * adds pods to few of them.
 */
export class ExistingBin {
  readonly requirements: Requirements;
  readonly taints: Taint[];
  readonly allocatable: Resources;
  readonly pods: PodInfo[] = [];
  /** The node's parsed facts (shared across solves). */
  readonly facts: NodeFacts;
  private usage: Resources;
  private hostPorts: HostPort[];
  private attachedIds: Map<string, Set<string>> | undefined;
  private owned = false;
  /** `kind/name`, as reasons name it (built once: every pod tried against the bin names it when refused). */
  readonly target: string;

  constructor(
    readonly node: ExistingNode,
    readonly kind: 'node' | 'nodeclaim',
    opts: { volumes: VolumeInfo | undefined; cache: SolveCache },
  ) {
    const base = nodeFacts(node, opts.volumes, opts.cache);
    this.facts = base;
    this.requirements = base.requirements;
    this.taints = base.taints;
    this.allocatable = base.allocatable;
    this.usage = base.used;
    this.hostPorts = base.ports;
    this.target = `${kind}/${node.name}`;
  }

  /** Requests of the pods on it (and of DaemonSet pods charged to it). */
  get used(): Readonly<Resources> {
    return this.usage;
  }

  /** Host ports in use. */
  get ports(): readonly HostPort[] {
    return this.hostPorts;
  }

  private own(): void {
    if (this.owned) return;
    this.usage = { ...this.usage };
    this.hostPorts = [...this.hostPorts];
    this.owned = true;
  }

  /** Charges requests that are not a pending pod's (DaemonSet pods still to come on a starting node). */
  charge(requests: Resources): void {
    this.own();
    addInto(this.usage, requests);
  }

  /** CSI volume ids attached per driver, built on first use. */
  private get attached(): Map<string, Set<string>> {
    if (!this.attachedIds) {
      const m = new Map<string, Set<string>>();
      for (const a of this.facts.attachments) addAttachment(m, a);
      this.attachedIds = m;
    }
    return this.attachedIds;
  }

  private attach(a: { driver: string; id: string }): void {
    addAttachment(this.attached, a);
  }

  private csiFailure(pod: PodInfo): string | undefined {
    if (pod.volumes.attachments.length === 0) return undefined;
    const limits = this.node.csiAttachLimits ?? {};
    const extra = new Map<string, number>();
    for (const a of pod.volumes.attachments) {
      if (limits[a.driver] === undefined || this.attached.get(a.driver)?.has(a.id)) continue;
      extra.set(a.driver, (extra.get(a.driver) ?? 0) + 1);
    }
    for (const [driver, n] of extra) {
      const used = this.attached.get(driver)?.size ?? 0;
      if (used + n > (limits[driver] ?? 0)) return driver;
    }
    return undefined;
  }

  /** Whether `pod` fits here, without changing anything. */
  canAdd(pod: PodInfo, topology: Topology): Fit {
    const target = this.target;
    if (this.node.markedForDeletion)
      return noFit({ constraint: 'invalid', target, message: `${target} is being deleted` });
    const taint = untoleratedTaint(this.taints, pod.tolerations);
    if (taint)
      return noFit({
        constraint: 'taints',
        target,
        message: `${target} has taint ${formatTaint(taint)} the pod does not tolerate`,
      });
    const res = exceeded(this.used, pod.requests, this.allocatable);
    if (res) {
      const details = {
        resource: res,
        requested: pod.requests[res] ?? 0,
        used: this.used[res] ?? 0,
        allocatable: this.allocatable[res] ?? 0,
      };
      return noFit({ constraint: 'resources', target, details, message: insufficient(target, details) });
    }
    const port = conflictingPort(this.ports, pod.hostPorts);
    if (port)
      return noFit({
        constraint: 'host-ports',
        target,
        message: `${target} already uses host port ${port.protocol}/${port.port}`,
      });
    const incompatible = this.requirements.compatible(pod.requirements, new Set());
    if (incompatible)
      return noFit({
        constraint: 'node-affinity',
        target,
        message: `${target} does not match the pod's node requirements: ${incompatible}`,
      });
    const quick = topology.quickReject(pod, this.node.labels[hostnameKey]);
    if (quick)
      return noFit({
        constraint: quick.constraint,
        target,
        details: quick.details,
        message: `${target}: ${quick.message}`,
      });
    const driver = this.csiFailure(pod);
    if (driver)
      return noFit({
        constraint: 'csi-limits',
        target,
        message: `${target} reached its CSI attach limit for ${driver}`,
      });
    const topo = topology.addRequirements(pod, this.requirements, this.taints);
    if (!topo.ok)
      return noFit({
        constraint: topo.constraint,
        target,
        details: topo.details,
        message: `${target}: ${topo.message}`,
      });
    const reqs = this.requirements.copy();
    for (const r of topo.requirements) reqs.add(r);
    const conflict = this.requirements.intersects(reqs);
    if (conflict) return noFit({ constraint: 'topology-spread', target, message: `${target}: ${conflict}` });
    return { ok: true, requirements: this.requirements };
  }

  /** Adds `pod` (after a successful canAdd). */
  add(pod: PodInfo, topology: Topology): void {
    this.own();
    addInto(this.usage, pod.requests);
    this.hostPorts.push(...pod.hostPorts);
    for (const a of pod.volumes.attachments) this.attach(a);
    this.pods.push(pod);
    topology.record(pod, this.requirements, this.taints);
  }
}

function addAttachment(m: Map<string, Set<string>>, a: { driver: string; id: string }): void {
  let s = m.get(a.driver);
  if (!s) {
    s = new Set();
    m.set(a.driver, s);
  }
  s.add(a.id);
}

/** "node/x has insufficient cpu (requested 2 CPU, 0.5 CPU free)". */
function insufficient(
  target: string,
  d: { resource: string; requested: number; used: number; allocatable: number },
): string {
  return `${target} has insufficient ${d.resource} (requested ${amount(d.resource, d.requested)}, ${amount(d.resource, Math.max(0, d.allocatable - d.used))} free)`;
}
