/**
 * Placing one pod: existing nodes and in-flight NodeClaims first (first fit), then NodeClaims already planned in
 * this solve, then a new NodeClaim from the first NodePool (by weight) that can take it. The strategy decides how
 * planned NodeClaims are tried and how large they may grow.
 */
import { Labels } from '../../api/index.js';
import { offeringAllowed, type InstanceTypeInfo } from '../instance-types.js';
import type { Strategy, UnplacedReason } from '../model.js';
import type { PodInfo, PodTraits } from '../pod-info.js';
import { addResources, exceeded, type Resources } from '../resources/resources.js';
import type { SolveContext } from './context.js';
import type { ExistingBin } from './existing-bin.js';
import { NewBin } from './new-bin.js';
import { FreeCpuIndex } from './bin-index.js';
import { chooseTarget, Demand } from './target.js';
import { bestFirst, cheapestHolding, freeCandidate, scoreDearer, type Candidate } from './rank.js';
import { holdsAny, limitsReason, needOf, withinLimits } from './limits.js';
import type { Template } from './template.js';

/** Bins scored together when looking for a free fit. */
const FreeBatch = 16;
/** Bins examined for a free fit before opening a new NodeClaim instead. */
const FreeScan = 256;
/** Bins considered for growing to a dearer type (the roomiest), unless no new NodeClaim can take the pod. */
const DearerScan = 128;

/**
 * Existing bins without room for one shape of requests, by index in ctx.existing, and the first index not known to
 * be full: bins fill in order in a scale-up, so a pod skips the full ones without looking at each.
 */
interface NoRoom {
  reasons: UnplacedReason[];
  from: number;
}

/** The mutable state of one solve's packing. */
export class Packing {
  private readonly shapes = new WeakMap<Readonly<Resources>, string>();
  readonly newBins: NewBin[] = [];
  readonly placement = new Map<PodInfo, ExistingBin | NewBin>();
  private hostnames = 0;
  /** While set, refusals by planned NodeClaims are collected here (for the reasons of a pod left unplaced). */
  private refusals: UnplacedReason[] | undefined;
  private readonly index = new FreeCpuIndex();
  private readonly priceByShape = new Map<string, number>();
  private readonly demand: Demand | undefined;
  private readonly newBinPrice = new WeakMap<PodTraits, number>();
  /**
   * Per shape of requests, the existing bins found without room for it and why. Bins only fill up during a packing,
   * so they stay without room: a batch of 100,000 pending pods against thousands of full nodes is not a full check
   * of every pod on every node.
   */
  private readonly noRoom = new Map<string, NoRoom>();
  /** Whether planned NodeClaims give up their larger options when the limits bind (underLimits). */
  private readonly tighten: boolean;

  constructor(
    readonly ctx: SolveContext,
    readonly strategy: Strategy,
    opts: { targets: boolean; tighten?: boolean } = { targets: true },
  ) {
    this.tighten = opts.tighten ?? false;
    this.demand = strategy === 'tenon' && opts.targets ? new Demand(ctx.templates, ctx.pods) : undefined;
  }

  /** Places `pod`; returns the reasons it could not be placed anywhere, or undefined on success. */
  place(pod: PodInfo): UnplacedReason[] | undefined {
    const { topology } = this.ctx;
    const unmatched = topology.unmatchedAffinity(pod);
    if (unmatched)
      return [{ constraint: unmatched.constraint, details: unmatched.details, message: unmatched.message }];
    const existing = this.existingFit(pod);
    if (existing) return this.commit(pod, existing, () => existing.add(pod, topology));
    const newBinPrice = this.strategy === 'tenon' ? this.priceOfNewBin(pod) : Number.POSITIVE_INFINITY;
    const plannedReasons: UnplacedReason[] = [];
    if (this.strategy === 'karpenter-ffd') this.refusals = plannedReasons;
    const placed = this.placeOnPlanned(pod, newBinPrice);
    this.refusals = undefined;
    if (placed) return undefined;
    const templateReasons: UnplacedReason[] = [];
    for (const t of this.ctx.templates) {
      const r = this.openBin(t, pod);
      if (!r) return undefined;
      templateReasons.push(r);
    }
    // No new NodeClaim can take it (topology, limits): a planned one is worth its added price after all.
    if (Number.isFinite(newBinPrice)) {
      this.refusals = plannedReasons;
      const late = this.placeOnPlanned(pod, Number.POSITIVE_INFINITY);
      this.refusals = undefined;
      if (late) return undefined;
    }
    // The existing bins' refusals are gathered only now: most pods of a big batch go on new NodeClaims.
    const reasons = [...summarize(this.existingRefusals(pod)), ...templateReasons];
    if (this.ctx.templates.length === 0) reasons.push({ constraint: 'no-nodepool', message: 'no NodePool exists' });
    return [...reasons, ...summarize(plannedReasons, 'NodeClaims planned in this solve')];
  }

  /**
   * Places each pod that an earlier pass nominated to an existing node or in-flight NodeClaim there, in queue order,
   * while it still fits; returns the pods placed. Re-packing them from scratch each pass could scatter the pods an
   * in-flight NodeClaim was launched for and launch another for the ones left over (kube-scheduler likewise tries a
   * pod's nominated node first).
   */
  placeNominated(pods: readonly PodInfo[]): Set<PodInfo> {
    const placed = new Set<PodInfo>();
    const binOf = new Map<string, ExistingBin>();
    for (const bin of this.ctx.existing) for (const key of bin.node.nominatedPods ?? []) binOf.set(key, bin);
    if (binOf.size === 0) return placed;
    const { topology } = this.ctx;
    for (const pod of pods) {
      const bin = binOf.get(pod.key);
      if (!bin || topology.unmatchedAffinity(pod) || !bin.canAdd(pod, topology).ok) continue;
      this.commit(pod, bin, () => bin.add(pod, topology));
      placed.add(pod);
    }
    return placed;
  }

  /** The pod's requests as text: pods of one template share their requests object, so the text is made once. */
  private requestShape(pod: PodInfo): string {
    let s = this.shapes.get(pod.requests);
    if (s === undefined) this.shapes.set(pod.requests, (s = Object.entries(pod.requests).join(';')));
    return s;
  }

  /** The existing bins known to lack room for the pod's requests. */
  private noRoomFor(pod: PodInfo): NoRoom {
    const key = this.requestShape(pod);
    let known = this.noRoom.get(key);
    if (!known) this.noRoom.set(key, (known = { reasons: [], from: 0 }));
    return known;
  }

  /** The first existing bin that takes the pod, skipping those known to lack room for its requests. */
  private existingFit(pod: PodInfo): ExistingBin | undefined {
    const room = this.noRoomFor(pod);
    const bins = this.ctx.existing;
    for (let i = room.from; i < bins.length; i++) {
      const bin = bins[i];
      if (!bin) continue;
      if (!room.reasons[i]) {
        const fit = bin.canAdd(pod, this.ctx.topology);
        if (fit.ok) return bin;
        if (fit.reason.constraint === 'resources') room.reasons[i] = fit.reason;
      }
      if (room.reasons[i] && i === room.from) room.from++;
    }
    return undefined;
  }

  /** Why each existing bin refuses the pod (after existingFit found none). */
  private existingRefusals(pod: PodInfo): UnplacedReason[] {
    const room = this.noRoomFor(pod);
    const out: UnplacedReason[] = [];
    for (const [i, bin] of this.ctx.existing.entries()) {
      const known = room.reasons[i];
      const fit = known ? undefined : bin.canAdd(pod, this.ctx.topology);
      if (known) out.push(known);
      else if (fit && !fit.ok) out.push(fit.reason);
    }
    return out;
  }

  private commit(pod: PodInfo, bin: ExistingBin | NewBin, add: () => void): undefined {
    add();
    this.placement.set(pod, bin);
    this.demand?.remove(pod);
    return undefined;
  }

  /**
   * Tries the NodeClaims planned so far; true when the pod was added to one. Tenon takes a planned NodeClaim only
   * when the price it adds (after the pod's requirements narrow its instance types) is at most `limit`.
   */
  private placeOnPlanned(pod: PodInfo, limit: number): boolean {
    if (this.strategy === 'karpenter-ffd') {
      // Karpenter tries the planned NodeClaims with the fewest pods first.
      const ordered = [...this.newBins].sort((a, b) => a.pods.length - b.pods.length);
      return ordered.some((bin) => this.tryBin(pod, bin, Number.POSITIVE_INFINITY));
    }
    const topology = this.ctx.topology;
    const judges = topology.hostnameJudges(pod);
    const admits =
      judges.length > 0
        ? (bin: NewBin): boolean => topology.quickReject(pod, bin.hostname, judges) === undefined
        : (): boolean => true;
    // A pod that no new NodeClaim can take (limit infinite) looks at every bin.
    const bounded = Number.isFinite(limit);
    if (this.tryFree(pod, { admits, limit, cap: bounded ? FreeScan : Number.POSITIVE_INFINITY })) return true;
    const dearer: NewBin[] = [];
    let examined = 0;
    for (const bin of this.index.roomiestFirst()) {
      if (bounded && (dearer.length >= DearerScan || ++examined > DearerScan * 8)) break;
      if (exceeded(bin.requests, pod.requests, bin.ceiling) !== undefined || freeCandidate(bin, pod) || !admits(bin))
        continue;
      dearer.push(bin);
    }
    return this.tryAll(pod, scoreDearer(dearer, pod, limit), limit);
  }

  /** Free fits (no dearer type needed), tightest cpu first, tried in batches by least slack; `cap` bounds the tries. */
  private tryFree(pod: PodInfo, opts: { admits: (bin: NewBin) => boolean; limit: number; cap: number }): boolean {
    let batch: Candidate[] = [];
    let tried = 0;
    let examined = 0;
    for (const bin of this.index.atLeast(pod.requests['cpu'] ?? 0)) {
      if (++examined > opts.cap * 8) break;
      const c = freeCandidate(bin, pod);
      if (!c || !opts.admits(bin)) continue;
      batch.push(c);
      if (batch.length < FreeBatch) continue;
      if (this.tryAll(pod, batch, opts.limit)) return true;
      tried += batch.length;
      batch = [];
      if (tried >= opts.cap) return false;
    }
    return batch.length > 0 && this.tryAll(pod, batch, opts.limit);
  }

  private tryAll(pod: PodInfo, cands: Candidate[], limit: number): boolean {
    for (const c of bestFirst(cands)) if (this.tryBin(pod, c.bin, limit)) return true;
    return false;
  }

  private tryBin(pod: PodInfo, bin: NewBin, limit: number): boolean {
    const fit = bin.canAdd(pod, this.ctx.topology);
    if (!fit.ok) {
      this.refusals?.push({ ...fit.reason, target: `nodeclaim/${bin.hostname}` });
      return false;
    }
    if (Number.isFinite(limit) && fit.options) {
      const added = (fit.options[fit.firstFit ?? 0]?.price ?? Number.POSITIVE_INFINITY) - (bin.current()?.price ?? 0);
      // A tie goes to a new NodeClaim: growing this one would also narrow it (zone, type) for the pods to come.
      if (added > 0 && added >= limit) return false;
    }
    this.commit(pod, bin, () => bin.add(pod, fit, this.ctx.topology));
    this.index.update(bin);
    return true;
  }

  /**
   * The cheapest price of a new NodeClaim holding just this pod (and DaemonSet overhead) over all NodePools,
   * among the instance types its requirements allow. Cached per pod traits (relaxation changes them).
   */
  private priceOfNewBin(pod: PodInfo): number {
    const cached = this.newBinPrice.get(pod.traits);
    if (cached !== undefined) return cached;
    // Pods without node requirements share one answer per request shape.
    const shape = pod.requirements.size === 0 ? this.requestShape(pod) : undefined;
    const shared = shape === undefined ? undefined : this.priceByShape.get(shape);
    if (shared !== undefined) return shared;
    let price = Number.POSITIVE_INFINITY;
    for (const t of this.ctx.templates) {
      const allowed = withinLimits(t, this.newBins).filter(
        (it) =>
          it.requirements.intersects(pod.requirements) === undefined &&
          it.offerings.some((o) => offeringAllowed(o, pod.requirements)),
      );
      price = Math.min(price, cheapestHolding(allowed, addResources(t.daemonOverhead, pod.requests)));
    }
    this.newBinPrice.set(pod.traits, price);
    if (shape !== undefined) this.priceByShape.set(shape, price);
    return price;
  }

  /**
   * The instance types a new NodeClaim of `t` may take under its limits; undefined when the limits keep out every
   * type that would hold the pod. Before giving up, the planned NodeClaims of `t` drop their options larger than
   * the type they launch as (unless this is Karpenter's own packing), so the pod does not wait a pass for limits
   * held by capacity that will not be launched.
   */
  private underLimits(t: Template, pod: PodInfo): InstanceTypeInfo[] | undefined {
    let options = withinLimits(t, this.newBins);
    if (!t.remaining) return options.length > 0 ? options : undefined;
    const need = needOf(t, pod);
    if (holdsAny(options, pod, need)) return options;
    if (this.tighten) {
      let shrank = false;
      for (const b of this.newBins) if (b.template === t && b.tighten()) shrank = true;
      if (shrank) options = withinLimits(t, this.newBins);
      if (holdsAny(options, pod, need)) return options;
    }
    // Too large for every type is a size problem, not a limits one: canAdd says so.
    return holdsAny(t.instanceTypes, pod, need) || options.length === 0 ? undefined : options;
  }

  /** A hostname for a NodeClaim made outside openBin (the improvement pass). */
  newHostname(): string {
    return placeholder(this.hostnames++);
  }

  /** Swaps planned NodeClaims for others holding the same pods (the improvement pass, repack.ts). */
  replaceBins(old: readonly NewBin[], fresh: readonly NewBin[]): void {
    const gone = new Set(old);
    const kept = this.newBins.filter((b) => !gone.has(b));
    this.newBins.length = 0;
    this.newBins.push(...kept, ...fresh);
    for (const bin of fresh) for (const pod of bin.pods) this.placement.set(pod, bin);
  }

  private openBin(t: Template, pod: PodInfo): UnplacedReason | undefined {
    const options = this.underLimits(t, pod);
    if (!options) return limitsReason(t, this.newBins, pod);
    const hostname = placeholder(this.hostnames);
    this.ctx.domains.register(Labels.hostname, hostname, t);
    const bin = new NewBin(t, hostname, options);
    bin.lazy = this.strategy === 'tenon';

    const fit = bin.canAdd(pod, this.ctx.topology);
    if (!fit.ok) {
      this.ctx.domains.unregister(Labels.hostname, hostname);
      return fit.reason;
    }
    this.hostnames++;
    if (this.demand && fit.options) {
      const chosen = chooseTarget(fit.options, {
        demand: this.demand.of(t, pod),
        overhead: t.daemonOverhead,
        unit: pod.requests,
        sameShape: this.demand.sameShape(t, pod),
        requirements: fit.requirements,
      });
      // Only the target is kept: the NodeClaim still lists every type that fits (launch flexibility).
      if (chosen) bin.target = chosen.target;
    }
    this.newBins.push(bin);
    this.commit(pod, bin, () => bin.add(pod, fit, this.ctx.topology));
    this.index.add(bin);
    return undefined;
  }
}

/** The placeholder hostname of the n-th planned NodeClaim. */
function placeholder(n: number): string {
  return `hostname-placeholder-${String(n).padStart(4, '0')}`;
}

/** Failures on nodes grouped by constraint, as kube-scheduler's "0/N nodes are available: …". */
function summarize(reasons: readonly UnplacedReason[], what = 'existing nodes'): UnplacedReason[] {
  const by = new Map<string, UnplacedReason[]>();
  for (const r of reasons) {
    const list = by.get(r.constraint);
    if (list) list.push(r);
    else by.set(r.constraint, [r]);
  }
  return [...by.values()].map((rs) => {
    const first = rs[0] as UnplacedReason;
    if (rs.length === 1) return first;
    return {
      constraint: first.constraint,
      details: { nodes: rs.length },
      message: `${rs.length} ${what}: ${first.constraint} (e.g. ${first.message})`,
    };
  });
}
