/**
 * An existing Node or in-flight NodeClaim as a bin: fixed allocatable, its labels as requirements, its taints
 * (ephemeral and startup taints ignored until it is initialized — S1), host ports and CSI attachments in use.
 */
import { Labels, type Taint } from '../../api/index.js';
import { conflictingPort, hostPortsOf, type HostPort } from '../host-ports.js';
import type { ExistingNode, VolumeInfo } from '../model.js';
import type { PodInfo } from '../pod-info.js';
import { podRequests } from '../resources/pod-requests.js';
import { addInto, exceeded, fromResourceList, type Resources } from '../resources/resources.js';
import { Requirements } from '../requirements/requirements.js';
import { effectiveTaints, formatTaint, untoleratedTaint } from '../taints.js';
import type { Topology } from '../topology/topology.js';
import { podVolumes } from '../volumes.js';
import { noFit, type Fit } from './fit.js';

const hostnameKey = Labels.hostname;

/** An existing node or in-flight NodeClaim. */
export class ExistingBin {
  readonly requirements: Requirements;
  readonly taints: Taint[];
  readonly allocatable: Resources;
  readonly used: Resources = {};
  readonly ports: HostPort[] = [];
  readonly attached = new Map<string, Set<string>>();
  readonly pods: PodInfo[] = [];
  readonly target: string;

  constructor(
    readonly node: ExistingNode,
    readonly kind: 'node' | 'nodeclaim',
    opts: { volumes: VolumeInfo | undefined; daemonOverhead: Resources },
  ) {
    this.target = `${kind}/${node.name}`;
    this.requirements = Requirements.fromLabels(node.labels);
    this.taints = effectiveTaints(node.taints ?? [], { initialized: node.initialized ?? true, startupTaints: node.startupTaints });
    this.allocatable = fromResourceList(node.allocatable);
    addInto(this.used, opts.daemonOverhead);
    for (const p of node.pods ?? []) {
      addInto(this.used, podRequests(p));
      this.ports.push(...hostPortsOf(p));
      for (const a of podVolumes(p, opts.volumes).attachments) this.attach(a);
    }
  }

  private attach(a: { driver: string; id: string }): void {
    let s = this.attached.get(a.driver);
    if (!s) {
      s = new Set();
      this.attached.set(a.driver, s);
    }
    s.add(a.id);
  }

  private csiFailure(pod: PodInfo): string | undefined {
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
    if (this.node.markedForDeletion) return noFit({ constraint: 'invalid', target, message: `${target} is being deleted` });
    const taint = untoleratedTaint(this.taints, pod.tolerations);
    if (taint) return noFit({ constraint: 'taints', target, message: `${target} has taint ${formatTaint(taint)} the pod does not tolerate` });
    const res = exceeded(this.used, pod.requests, this.allocatable);
    if (res) {
      const details = { resource: res, requested: pod.requests[res] ?? 0, used: this.used[res] ?? 0, allocatable: this.allocatable[res] ?? 0 };
      return noFit({ constraint: 'resources', target, details, message: `${target} has insufficient ${res}` });
    }
    const port = conflictingPort(this.ports, pod.hostPorts);
    if (port) return noFit({ constraint: 'host-ports', target, message: `${target} already uses host port ${port.protocol}/${port.port}` });
    const incompatible = this.requirements.compatible(pod.requirements, new Set());
    if (incompatible) return noFit({ constraint: 'node-affinity', target, message: `${target} does not match the pod's node requirements: ${incompatible}` });
    const quick = topology.quickReject(pod, this.node.labels[hostnameKey]);
    if (quick) return noFit({ constraint: quick.constraint, target, details: quick.details, message: `${target}: ${quick.message}` });
    const driver = this.csiFailure(pod);
    if (driver) return noFit({ constraint: 'csi-limits', target, message: `${target} reached its CSI attach limit for ${driver}` });
    const topo = topology.addRequirements(pod, this.requirements);
    if (!topo.ok) return noFit({ constraint: topo.constraint, target, details: topo.details, message: `${target}: ${topo.message}` });
    const reqs = this.requirements.copy();
    for (const r of topo.requirements) reqs.add(r);
    const conflict = this.requirements.intersects(reqs);
    if (conflict) return noFit({ constraint: 'topology-spread', target, message: `${target}: ${conflict}` });
    return { ok: true, requirements: this.requirements };
  }

  /** Adds `pod` (after a successful canAdd). */
  add(pod: PodInfo, topology: Topology): void {
    addInto(this.used, pod.requests);
    this.ports.push(...pod.hostPorts);
    for (const a of pod.volumes.attachments) this.attach(a);
    this.pods.push(pod);
    topology.record(pod, this.requirements);
  }
}
