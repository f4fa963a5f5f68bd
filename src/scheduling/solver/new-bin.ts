/**
 * A NodeClaim the solver plans (Karpenter's scheduling NodeClaim): it starts from a NodePool template and keeps
 * every instance type that still fits its pods plus DaemonSet overhead; each pod added narrows requirements and
 * instance types.
 */
import { Labels } from '../../api/index.js';
import { conflictingPort, type HostPort } from '../host-ports.js';
import { cheapestOffering, type InstanceTypeInfo } from '../instance-types.js';
import type { UnplacedReason } from '../model.js';
import type { PodInfo } from '../pod-info.js';
import { Requirement } from '../requirements/requirement.js';
import type { Requirements } from '../requirements/requirements.js';
import { WellKnownLabels } from '../requirements/well-known.js';
import { addInto, exceeded, maxInto, maxResources, type Resources } from '../resources/resources.js';
import { formatTaint, untoleratedTaint } from '../taints.js';
import type { Topology } from '../topology/topology.js';
import { noFit, type Fit, type NoFit } from './fit.js';
import { filterOptions, minValuesFailure } from './options.js';
import type { Template } from './template.js';

/** A planned NodeClaim. */
export class NewBin {
  requirements: Requirements;
  options: InstanceTypeInfo[];
  readonly requests: Resources;
  readonly ports: HostPort[] = [];
  readonly pods: PodInfo[] = [];
  /** Element-wise max allocatable over the options: a cheap first rejection. */
  ceiling: Resources = {};
  /** How many options the ceiling was computed from. */
  private ceilingFrom = Number.POSITIVE_INFINITY;
  /** Tenon: the instance type this bin was opened to fill (dropped if the requirements rule it out). */
  target: InstanceTypeInfo | undefined;
  /** Capacity reserved against the NodePool's limits (max over options). */
  reserved: Resources = {};

  constructor(
    readonly template: Template,
    readonly hostname: string,
    options: InstanceTypeInfo[],
  ) {
    this.requirements = template.requirements.copy().add(Requirement.of(Labels.hostname, 'In', [hostname]));
    this.requests = { ...template.daemonOverhead };
    this.options = options;
    this.refresh();
  }

  /**
   * Recomputes the ceiling (and the capacity reserved against limits) after the options shrank. The ceiling is
   * only a quick rejection, so a stale, larger one is still correct; it is recomputed once the options have
   * halved. The reservation must be exact when the NodePool has limits.
   */
  private refresh(): void {
    const stale = this.options.length * 2 > this.ceilingFrom;
    if (stale && !this.template.remaining) return;
    const ceiling: Resources = {};
    const reserved: Resources = {};
    for (const it of this.options) {
      if (!stale) maxInto(ceiling, it.allocatable);
      maxInto(reserved, it.capacity);
    }
    if (!stale) {
      this.ceiling = ceiling;
      this.ceilingFrom = this.options.length;
    }
    this.reserved = reserved;
  }

  /** The cheap checks first: taints, host ports, hostname topology, and whether any option is large enough. */
  private precheck(pod: PodInfo, topology: Topology): NoFit | undefined {
    const target = `nodepool/${this.template.name}`;
    const taint = untoleratedTaint(this.template.taints, pod.tolerations);
    if (taint) return noFit({ constraint: 'taints', target, message: `incompatible with nodepool "${this.template.name}", did not tolerate taint ${formatTaint(taint)}` });
    const port = conflictingPort(this.ports, pod.hostPorts);
    if (port) return noFit({ constraint: 'host-ports', target, message: `incompatible with nodepool "${this.template.name}", host port ${port.protocol}/${port.port} is already used on this node` });
    const quick = topology.quickReject(pod, this.hostname);
    if (quick) return noFit({ constraint: quick.constraint, target, details: quick.details, message: quick.message });
    const res = exceeded(this.requests, pod.requests, this.ceiling);
    if (res) {
      const details = { resource: res, requested: pod.requests[res] ?? 0, used: this.requests[res] ?? 0, largest: this.ceiling[res] ?? 0 };
      return noFit({ constraint: 'resources', target, details, message: `incompatible with nodepool "${this.template.name}", no instance type has enough ${res} (requested ${pod.requests[res] ?? 0}, already planned ${this.requests[res] ?? 0}, largest ${this.ceiling[res] ?? 0})` });
    }
    return undefined;
  }

  /** Whether `pod` fits, and what the bin would become. */
  canAdd(pod: PodInfo, topology: Topology): Fit {
    const target = `nodepool/${this.template.name}`;
    const early = this.precheck(pod, topology);
    if (early) return early;
    const incompatible = this.requirements.compatible(pod.requirements, WellKnownLabels);
    if (incompatible) return noFit({ constraint: 'requirements', target, message: `incompatible with nodepool "${this.template.name}", ${incompatible}` });
    const reqs = this.requirements.copy().addAll(pod.requirements);
    const topo = topology.addRequirements(pod, reqs);
    if (!topo.ok) return noFit({ constraint: topo.constraint, target, details: topo.details, message: `incompatible with nodepool "${this.template.name}", ${topo.message}` });
    for (const r of topo.requirements) reqs.add(r);
    const conflict = this.requirements.intersects(reqs);
    if (conflict) return noFit({ constraint: 'topology-spread', target, message: `incompatible with nodepool "${this.template.name}", ${conflict}` });
    const changed = pod.requirements.size > 0 || topo.requirements.length > 0;
    const total = { ...this.requests };
    addInto(total, pod.requests);
    const options = filterOptions(this.options, { requests: total, requirements: reqs, checkRequirements: changed });
    if (options.length === 0) return noFit(this.noOptionReason(total, reqs));
    const mv = minValuesFailure(options, reqs);
    if (mv) return noFit({ constraint: 'requirements', target, message: `incompatible with nodepool "${this.template.name}", ${mv}` });
    return { ok: true, requirements: reqs, options };
  }

  /** Why no option is left: none satisfies the requirements (and offerings), or none of those is large enough. */
  private noOptionReason(total: Resources, reqs: Requirements): UnplacedReason {
    const target = `nodepool/${this.template.name}`;
    const matching = filterOptions(this.template.instanceTypes, { requests: {}, requirements: reqs, checkRequirements: true });
    if (matching.length === 0) {
      return { constraint: 'requirements', target, message: `incompatible with nodepool "${this.template.name}", no instance type satisfies ${reqs.toString()}` };
    }
    let largest: Resources = {};
    for (const it of matching) largest = maxResources(largest, it.allocatable);
    const res = exceeded({}, total, largest) ?? Object.keys(total).find((k) => matching.every((it) => (it.allocatable[k] ?? 0) < (total[k] ?? 0))) ?? 'cpu';
    return {
      constraint: 'resources',
      target,
      details: { resource: res, requested: total[res] ?? 0, largest: largest[res] ?? 0, instanceTypes: matching.length },
      message: `incompatible with nodepool "${this.template.name}", no instance type satisfying the requirements has enough resources (${matching.length} considered)`,
    };
  }

  /** Adds `pod` with the plan canAdd returned. */
  add(pod: PodInfo, plan: { requirements: Requirements; options?: InstanceTypeInfo[] }, topology: Topology): void {
    addInto(this.requests, pod.requests);
    this.ports.push(...pod.hostPorts);
    this.pods.push(pod);
    this.requirements = plan.requirements;
    if (plan.options && plan.options !== this.options) {
      this.options = plan.options;
      if (this.target && !this.options.includes(this.target)) this.target = undefined;
      this.refresh();
    }
    topology.record(pod, this.requirements);
  }

  /** The type the bin is meant to fill: its target, else its cheapest option. */
  current(): InstanceTypeInfo | undefined {
    return this.target ?? this.options[0];
  }

  /** The cheapest option and its offering under the bin's requirements. */
  cheapest(): { it: InstanceTypeInfo; price: number; zone: string; capacityType: string } | undefined {
    let best: { it: InstanceTypeInfo; price: number; zone: string; capacityType: string } | undefined;
    for (const it of this.options) {
      if (best && it.price >= best.price) continue;
      const o = cheapestOffering(it, this.requirements);
      if (o && (!best || o.price < best.price)) best = { it, price: o.price, zone: o.zone, capacityType: o.capacityType };
    }
    return best;
  }
}
