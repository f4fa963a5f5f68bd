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
import { Requirements } from '../requirements/requirements.js';
import { WellKnownLabels } from '../requirements/well-known.js';
import { amount } from '../resources/amounts.js';
import { addInto, exceeded, fitsIn, maxInto, maxResources, type Resources } from '../resources/resources.js';
import { formatTaint, untoleratedTaint } from '../taints.js';
import type { Topology } from '../topology/topology.js';
import { noFit, type Fit, type NoFit } from './fit.js';
import { filterOptions, minValuesFailure } from './options.js';
import type { Template } from './template.js';

/** True when adding `r` (one requirement or a set) would narrow `reqs` (the bin's current requirements). */
function narrows(reqs: Requirements, r: Requirement | Requirements): boolean {
  if (r instanceof Requirements) {
    for (const x of r.values()) if (narrows(reqs, x)) return true;
    return false;
  }
  const existing = reqs.get(r.key);
  if (!existing || existing.complement || existing.size !== 1) return true;
  const v = existing.any();
  return v === undefined || !r.has(v);
}

function hasMinValues(reqs: Requirements): boolean {
  for (const r of reqs.values()) if (r.minValues !== undefined) return true;
  return false;
}

/** A planned NodeClaim. */
export class NewBin {
  requirements: Requirements;
  options: InstanceTypeInfo[];
  readonly requests: Resources;
  readonly ports: HostPort[] = [];
  readonly pods: PodInfo[] = [];
  /** Element-wise max allocatable over the options: a cheap first rejection. */
  ceiling: Resources = {};
  /**
   * Tenon: while requirements do not change, adding a pod does not re-filter the options (hundreds of types on
   * large catalogs); `fit` points at the cheapest that still holds the bin, and readers skip the rest that do not.
   */
  lazy = false;
  /** Index in `options` of the cheapest option that holds the bin. */
  fit = 0;
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

  /** A NodeClaim rebuilt by the improvement pass (repack.ts) with its pods, requirements and fitting options. */
  static rebuilt(
    template: Template,
    hostname: string,
    opts: { requirements: Requirements; options: InstanceTypeInfo[]; pods: readonly PodInfo[] },
  ): NewBin {
    const bin = new NewBin(template, hostname, opts.options);
    bin.requirements = opts.requirements;
    for (const pod of opts.pods) {
      addInto(bin.requests, pod.requests);
      bin.ports.push(...pod.hostPorts);
      bin.pods.push(pod);
    }
    return bin;
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

  /**
   * Keeps only the options no larger, in the NodePool's limited resources, than the cheapest option that holds
   * the bin, so the bin holds the limits at the type it launches as rather than its largest. Called when the limits
   * bind; the bin loses launch flexibility (and growth), never its pods. Returns whether its reservation shrank.
   */
  tighten(): boolean {
    const limited = Object.keys(this.template.remaining ?? {});
    const fitting = this.fittingOptions();
    const cheapest = fitting[0];
    if (!cheapest || limited.length === 0) return false;
    const cap = (k: string): number => cheapest.capacity[k] ?? 0;
    if (limited.every((k) => (this.reserved[k] ?? 0) <= cap(k))) return false;
    const kept = fitting.filter((it) => limited.every((k) => (it.capacity[k] ?? 0) <= cap(k)));
    if (minValuesFailure(kept, this.requirements)) return false;
    this.options = kept;
    this.fit = 0;
    if (this.target && !kept.includes(this.target)) this.target = undefined;
    this.refresh();
    return true;
  }

  /** The cheap checks first: taints, host ports, hostname topology, and whether any option is large enough. */
  private precheck(pod: PodInfo, topology: Topology): NoFit | undefined {
    const target = `nodepool/${this.template.name}`;
    const taint = untoleratedTaint(this.template.taints, pod.tolerations);
    if (taint)
      return noFit({
        constraint: 'taints',
        target,
        message: `incompatible with nodepool "${this.template.name}", did not tolerate taint ${formatTaint(taint)}`,
      });
    const port = conflictingPort(this.ports, pod.hostPorts);
    if (port)
      return noFit({
        constraint: 'host-ports',
        target,
        message: `incompatible with nodepool "${this.template.name}", host port ${port.protocol}/${port.port} is already used on this node`,
      });
    const quick = topology.quickReject(pod, this.hostname);
    if (quick) return noFit({ constraint: quick.constraint, target, details: quick.details, message: quick.message });
    const res = exceeded(this.requests, pod.requests, this.ceiling);
    if (res) {
      const details = {
        resource: res,
        requested: pod.requests[res] ?? 0,
        used: this.requests[res] ?? 0,
        largest: this.ceiling[res] ?? 0,
      };
      return noFit({
        constraint: 'resources',
        target,
        details,
        message: `incompatible with nodepool "${this.template.name}", no instance type has enough ${res} (requested ${amount(res, pod.requests[res] ?? 0)}, already planned ${amount(res, this.requests[res] ?? 0)}, largest allocatable ${amount(res, this.ceiling[res] ?? 0)})`,
      });
    }
    return undefined;
  }

  /** Whether `pod` fits, and what the bin would become. */
  canAdd(pod: PodInfo, topology: Topology): Fit {
    const target = `nodepool/${this.template.name}`;
    const early = this.precheck(pod, topology);
    if (early) return early;
    const incompatible = this.requirements.compatible(pod.requirements, WellKnownLabels);
    if (incompatible)
      return noFit({
        constraint: 'requirements',
        target,
        message: `incompatible with nodepool "${this.template.name}", ${incompatible}`,
      });
    const reqs = this.requirements.copy().addAll(pod.requirements);
    const topo = topology.addRequirements(pod, reqs, this.template.taints);
    if (!topo.ok)
      return noFit({
        constraint: topo.constraint,
        target,
        details: topo.details,
        message: `incompatible with nodepool "${this.template.name}", ${topo.message}`,
      });
    for (const r of topo.requirements) reqs.add(r);
    const conflict = this.requirements.intersects(reqs);
    if (conflict)
      return noFit({
        constraint: 'topology-spread',
        target,
        message: `incompatible with nodepool "${this.template.name}", ${conflict}`,
      });
    const changed =
      narrows(this.requirements, pod.requirements) || topo.requirements.some((r) => narrows(this.requirements, r));
    const total = { ...this.requests };
    addInto(total, pod.requests);
    if (this.lazy && !changed && this.pods.length > 0 && !hasMinValues(reqs)) {
      // Same requirements: keep the option list as it is (types now too small are skipped when read).
      const first = this.firstFitting(total);
      if (first === undefined) return noFit(this.noOptionReason(total, reqs));
      return { ok: true, requirements: reqs, options: this.options, firstFit: first };
    }
    const options = filterOptions(this.options, { requests: total, requirements: reqs, checkRequirements: changed });
    if (options.length === 0) return noFit(this.noOptionReason(total, reqs));
    const mv = minValuesFailure(options, reqs);
    if (mv)
      return noFit({
        constraint: 'requirements',
        target,
        message: `incompatible with nodepool "${this.template.name}", ${mv}`,
      });
    return { ok: true, requirements: reqs, options, firstFit: 0 };
  }

  /** Why no option is left: none satisfies the requirements (and offerings), or none of those is large enough. */
  private noOptionReason(total: Resources, reqs: Requirements): UnplacedReason {
    const target = `nodepool/${this.template.name}`;
    const matching = filterOptions(this.template.instanceTypes, {
      requests: {},
      requirements: reqs,
      checkRequirements: true,
    });
    if (matching.length === 0) {
      return {
        constraint: 'requirements',
        target,
        message: `incompatible with nodepool "${this.template.name}", no instance type satisfies ${reqs.toString()}`,
      };
    }
    let largest: Resources = {};
    for (const it of matching) largest = maxResources(largest, it.allocatable);
    const res =
      exceeded({}, total, largest) ??
      Object.keys(total).find((k) => matching.every((it) => (it.allocatable[k] ?? 0) < (total[k] ?? 0))) ??
      'cpu';
    return {
      constraint: 'resources',
      target,
      details: {
        resource: res,
        requested: total[res] ?? 0,
        largest: largest[res] ?? 0,
        instanceTypes: matching.length,
      },
      message: `incompatible with nodepool "${this.template.name}", no instance type satisfying the requirements has enough ${res} (needs ${amount(res, total[res] ?? 0)}, largest allocatable ${amount(res, largest[res] ?? 0)} of ${matching.length} considered)`,
    };
  }

  /** Adds `pod` with the plan canAdd returned. */
  add(
    pod: PodInfo,
    plan: { requirements: Requirements; options?: InstanceTypeInfo[]; firstFit?: number },
    topology: Topology,
  ): void {
    addInto(this.requests, pod.requests);
    this.ports.push(...pod.hostPorts);
    this.pods.push(pod);
    this.requirements = plan.requirements;
    if (plan.options && plan.options !== this.options) {
      this.options = plan.options;
      if (this.target && !this.options.includes(this.target)) this.target = undefined;
      this.refresh();
    }
    this.fit = plan.firstFit ?? 0;
    topology.record(pod, this.requirements, this.template.taints);
  }

  /** Index of the cheapest option holding `requests` (options before `fit` never will again). */
  private firstFitting(requests: Resources): number | undefined {
    for (let i = this.fit; i < this.options.length; i++)
      if (fitsIn(requests, (this.options[i] as InstanceTypeInfo).allocatable)) return i;
    return undefined;
  }

  /** The options that hold what the bin has now, cheapest first (the lazily kept list, filtered). */
  fittingOptions(): InstanceTypeInfo[] {
    return this.options.slice(this.fit).filter((it) => fitsIn(this.requests, it.allocatable));
  }

  /** The type the bin is meant to fill: its target, else its cheapest option. */
  current(): InstanceTypeInfo | undefined {
    return this.target ?? this.options[this.fit];
  }

  /** The cheapest option and its offering under the bin's requirements. */
  cheapest(): { it: InstanceTypeInfo; price: number; zone: string; capacityType: string } | undefined {
    let best: { it: InstanceTypeInfo; price: number; zone: string; capacityType: string } | undefined;
    for (const it of this.options) {
      if (best && it.price >= best.price) continue;
      const o = cheapestOffering(it, this.requirements);
      if (o && (!best || o.price < best.price))
        best = { it, price: o.price, zone: o.zone, capacityType: o.capacityType };
    }
    return best;
  }
}
