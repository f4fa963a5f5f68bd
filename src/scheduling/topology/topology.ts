/**
 * Pod topology (Karpenter's Topology): spread constraints, pod affinity and anti-affinity (including the inverse
 * direction: pods already placed whose anti-affinity rejects the incoming pod). Given a pod and the requirements
 * of a candidate node, it returns the domains the pod may use there; after a placement it records the counts.
 */
import type { Pod } from '../model.js';
import type { PodInfo, PodTraits } from '../pod-info.js';
import { Requirement } from '../requirements/requirement.js';
import type { Requirements } from '../requirements/requirements.js';
import type { SolveCache } from '../solve-cache.js';
import type { Domains } from './domains.js';
import { TopologyGroup, type GroupSpec } from './group.js';
import type { Constraint } from '../model.js';
import { Labels, type Taint } from '../../api/index.js';
import { countedDomains, nextDomains, refuse, type DomainChoice, type Refusal } from './next-domain.js';
import { affinitySpec, requiredAffinitySpecs, spreadSpec, type NamespaceLabels } from './terms.js';
import { filterMatchesLabels, nodeFilterOf, type NodeFilter } from './node-filter.js';
import { finiteValues, knownDomain, matchingPods, recordDomain, recordFiltered } from './counting.js';
import { hostnameRefuses, pickDomain, type Judge, type KeyState } from './judge.js';
import { localRulesOf, movableKeysOf, nodeFilteredGroups } from './movability.js';

/** A node whose pods are already counted. */
export interface CountedNode {
  labels: Readonly<Record<string, string>>;
  /** Its taints, for spread that honors them (none: counted by every group). */
  taints?: readonly Taint[];
  pods: readonly Pod[];
  /** Its pods with required anti-affinity, when known (saves scanning every pod). */
  antiAffinityPods?: readonly Pod[];
}

/** The outcome for one pod and node: the requirements its topology adds, or why it cannot go there. */
export type TopologyDecision =
  | { ok: true; requirements: Requirement[] }
  | { ok: false; constraint: Constraint; message: string; details: Record<string, string | number> };

const hostnameKey = Labels.hostname;

interface Owned {
  groups: TopologyGroup[];
  /** The groups of several required affinity terms, which may only start together (see startAllowed). */
  joint: readonly TopologyGroup[];
}

/** Topology state for one solve. */
export class Topology {
  private readonly groups = new Map<string, TopologyGroup>();
  // Per pod answers, keyed by its traits: pods of one template share them, and relaxation gives a pod new ones.
  private readonly owned = new WeakMap<PodTraits, Owned>();
  private readonly filters = new WeakMap<PodTraits, NodeFilter | undefined>();
  private readonly selecting = new WeakMap<PodTraits, readonly TopologyGroup[]>();
  private readonly inverseOwned = new WeakMap<PodTraits, readonly TopologyGroup[]>();
  private readonly inverse: TopologyGroup[] = [];
  /**
   * Whether a pod matching its own required affinity term may start the group where no matching pod exists yet.
   * The solver allows it only when nothing else can be placed, one pod at a time, as kube-scheduler's binding of
   * the final placement would have to: a matching pod that can bind first anywhere else would leave the starter
   * with nothing to match and no right to start.
   */
  allowStart = false;
  private readonly judged = new WeakMap<PodTraits, { owned: TopologyGroup[]; list: Judge[] }>();
  private readonly byHostname = new WeakMap<Judge[], Judge[]>();

  constructor(
    readonly domains: Domains,
    private readonly opts: {
      namespaces: NamespaceLabels;
      nodes: readonly CountedNode[];
      pending: readonly PodInfo[];
      cache: SolveCache;
    },
  ) {
    for (const p of opts.pending) this.inverseOwnedGroups(p);
    for (const n of opts.nodes) {
      for (const pod of n.antiAffinityPods ?? n.pods) {
        for (const g of this.inverseGroupsOf(pod, pod.metadata.namespace ?? 'default'))
          recordDomain(g, n.labels[g.spec.key]);
      }
    }
    this.selectable = [...this.groups.values()].filter((g) => g.spec.type !== 'inverse-anti-affinity');
  }

  /** The groups that exist once the pending pods' own are made: those a pod may be counted by. */
  private readonly selectable: readonly TopologyGroup[];

  /** The groups (other than inverse anti-affinity) that count `pod`. */
  private selectingGroups(pod: PodInfo): readonly TopologyGroup[] {
    let list = this.selecting.get(pod.traits);
    if (!list)
      this.selecting.set(pod.traits, (list = this.selectable.filter((g) => g.selects(pod.namespace, pod.labels))));
    return list;
  }

  /** The inverse anti-affinity groups of `pod`'s own required anti-affinity terms (and its own groups made). */
  private inverseOwnedGroups(pod: PodInfo): readonly TopologyGroup[] {
    let list = this.inverseOwned.get(pod.traits);
    if (!list) {
      this.ownedGroups(pod);
      this.inverseOwned.set(pod.traits, (list = this.inverseGroupsOf(pod.pod, pod.namespace)));
    }
    return list;
  }

  private group(spec: GroupSpec): TopologyGroup {
    const existing = this.groups.get(spec.hash);
    if (existing) return existing;
    const g = new TopologyGroup(spec);
    this.groups.set(spec.hash, g);
    if (spec.type === 'inverse-anti-affinity') {
      this.inverse.push(g);
      return g;
    }
    for (const n of this.opts.nodes) {
      const domain = n.labels[spec.key];
      if (
        domain === undefined ||
        (spec.nodeFilter && !filterMatchesLabels(spec.nodeFilter, n.labels)) ||
        !g.countsOn(n.taints)
      )
        continue;
      for (let c = matchingPods(n.pods, g, this.opts.cache); c > 0; c--) g.record(domain);
    }
    return g;
  }

  private inverseGroupsOf(pod: Pod, namespace: string): TopologyGroup[] {
    const terms = pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    const owner = { namespace, labels: pod.metadata.labels ?? {} };
    return terms.map((t) => this.group(affinitySpec('inverse-anti-affinity', t, owner, this.opts.namespaces)));
  }

  /** The node filter of `pod`'s spread constraints (its node affinity and selector). */
  private nodeFilter(pod: PodInfo): NodeFilter | undefined {
    if (!this.filters.has(pod.traits)) this.filters.set(pod.traits, nodeFilterOf(pod.pod));
    return this.filters.get(pod.traits);
  }

  /** The groups `pod` must satisfy in its current (possibly relaxed) state. */
  private ownedGroups(pod: PodInfo): TopologyGroup[] {
    const s = pod.state;
    const cached = this.owned.get(pod.traits);
    if (cached) return cached.groups;
    const owner = { namespace: pod.namespace, labels: pod.labels };
    const filter = this.nodeFilter(pod);
    const required = s.affinity.filter((t) => t.required).map((t) => t.term);
    const joint =
      required.length > 1
        ? requiredAffinitySpecs(required, owner, this.opts.namespaces).map((spec) => this.group(spec))
        : [];
    const groups = [
      ...s.spread.map((c) =>
        this.group(spreadSpec(c, { ...owner, filter, tolerations: pod.pod.spec.tolerations ?? [] })),
      ),
      ...joint,
      ...s.affinity
        .filter((t) => joint.length === 0 || !t.required)
        .map((t) => this.group(affinitySpec('affinity', t.term, owner, this.opts.namespaces))),
      ...s.antiAffinity.map((t) => this.group(affinitySpec('anti-affinity', t.term, owner, this.opts.namespaces))),
    ];
    this.owned.set(pod.traits, { groups, joint });
    return groups;
  }

  /**
   * Whether `pod` may start its own affinity group `g` where no matching pod exists: only while starts are allowed,
   * and for a group of several required terms only while none of those terms' groups counts a pod anywhere
   * (kube-scheduler's first-pod rule asks that no pod match all the terms, judged across them).
   */
  private startAllowed(pod: PodInfo, g: TopologyGroup): boolean {
    if (!this.allowStart) return false;
    const joint = this.owned.get(pod.traits)?.joint ?? [];
    return !joint.includes(g) || joint.every((j) => j.nonEmpty === 0);
  }

  /**
   * The groups that judge `pod`: its own, placed pods' anti-affinity against it (`inverse`, only once such a pod
   * is placed), and those that count it. Cached until relaxation changes the pod's own groups.
   */
  private judges(pod: PodInfo): Judge[] {
    const owned = this.ownedGroups(pod);
    const cached = this.judged.get(pod.traits);
    if (cached && cached.owned === owned) return cached.list;
    const list: Judge[] = owned.map((group) => ({ group, role: 'own' }));
    for (const g of this.inverse) if (g.selects(pod.namespace, pod.labels)) list.push({ group: g, role: 'inverse' });
    for (const g of this.selectingGroups(pod)) {
      if (!(g.spec.type === 'affinity' || (g.spec.type === 'spread' && g.spec.required)) || owned.includes(g)) continue;
      list.push({ group: g, role: 'counted' });
    }
    this.judged.set(pod.traits, { owned, list });
    return list;
  }

  /**
   * A refusal that holds on every node: one of the pod's own required affinity terms selects no pod anywhere and
   * the pod may not start it (it does not match the term itself, or starts are not allowed now).
   */
  unmatchedAffinity(pod: PodInfo): Refusal | undefined {
    for (const g of this.ownedGroups(pod)) {
      if (g.spec.type !== 'affinity' || g.nonEmpty > 0) continue;
      if (this.startAllowed(pod, g) && g.selects(pod.namespace, pod.labels)) continue;
      return {
        ok: false,
        constraint: 'pod-affinity',
        message: `pod affinity on ${g.spec.key}: no pod matches ${this.owned.get(pod.traits)?.joint.includes(g) ? 'all its required terms' : 'the term'} anywhere${g.selects(pod.namespace, pod.labels) ? ' yet' : ''}`,
        details: { topologyKey: g.spec.key },
      };
    }
    return undefined;
  }

  /** The judges of `pod` keyed on hostname (cached with the judges); pass them to quickReject in loops. */
  hostnameJudges(pod: PodInfo): readonly Judge[] {
    const all = this.judges(pod);
    const cached = this.byHostname.get(all);
    if (cached) return cached;
    const list = all.filter((j) => j.group.spec.key === hostnameKey);
    this.byHostname.set(all, list);
    return list;
  }

  /**
   * A cheap first refusal on a node whose hostname is known, from the hostname-keyed groups alone (the common
   * case of anti-affinity and per-node spread), before the full requirement and topology check.
   */
  quickReject(
    pod: PodInfo,
    hostname: string | undefined,
    judges: readonly Judge[] = this.hostnameJudges(pod),
  ): Refusal | undefined {
    if (hostname === undefined) return undefined;
    for (const { group: g, role } of judges) {
      const c = g.count(hostname);
      if (hostnameRefuses(g, { pod, role, domain: hostname, count: c, allowStart: this.startAllowed(pod, g) })) {
        const kind: Constraint =
          g.spec.type === 'spread'
            ? 'topology-spread'
            : g.spec.type === 'affinity'
              ? 'pod-affinity'
              : 'pod-anti-affinity';
        return {
          ok: false,
          constraint: kind,
          message: `${g.spec.type} on ${hostnameKey}: ${hostname} holds ${c} matching pods`,
          details: { topologyKey: hostnameKey, count: c },
        };
      }
    }
    return undefined;
  }

  /** One judge's answer for `pod` on a node, or undefined when it has nothing to say there. */
  private answer(
    pod: PodInfo,
    judge: Judge,
    nodeReqs: Requirements,
    taints: readonly Taint[] | undefined,
  ): DomainChoice | undefined {
    const { group, role } = judge;
    if (role === 'inverse' && group.nonEmpty === 0) return undefined;
    // A group honoring taints its owners do not tolerate here does not count the pod on this node.
    if (role === 'counted' && !group.countsOn(taints)) return undefined;
    const a = { group, pod, nodeReqs, domains: this.domains, allowStart: this.startAllowed(pod, group) };
    return role === 'counted' ? countedDomains(a) : nextDomains(a);
  }

  /**
   * Requirements the pod's topology adds on a node with requirements `nodeReqs` (already intersected with the
   * pod's own) and `taints`, or the constraint that cannot be met there. The answers of all groups on one key are
   * intersected; when some group needs the domain settled, one is picked by the first such group's rule.
   */
  addRequirements(pod: PodInfo, nodeReqs: Requirements, taints?: readonly Taint[]): TopologyDecision {
    const byKey = new Map<string, KeyState>();
    for (const judge of this.judges(pod)) {
      const choice = this.answer(pod, judge, nodeReqs, taints);
      if (!choice) continue;
      if (!choice.ok) return choice;
      if (!choice.allowed) continue;
      const group = judge.group;
      const key = group.spec.key;
      const state = byKey.get(key);
      if (!state) {
        byKey.set(key, { allowed: choice.allowed, picker: choice.pick ? { group, pick: choice.pick } : undefined });
        continue;
      }
      const allowed = choice.allowed;
      state.allowed = state.allowed.filter((d) => allowed.includes(d));
      if (state.allowed.length === 0)
        return refuse(
          { group },
          group.spec.type === 'spread' ? 'topology-spread' : 'pod-affinity',
          'topology constraints together',
        );
      if (!state.picker && choice.pick) state.picker = { group, pick: choice.pick };
    }
    const requirements: Requirement[] = [];
    for (const [key, state] of byKey) {
      const values = state.picker ? [pickDomain(state.picker.group, state.allowed, state.picker.pick)] : state.allowed;
      requirements.push(Requirement.of(key, 'In', values));
    }
    return { ok: true, requirements };
  }

  /**
   * The topology keys whose domain of `pod` some constraint depends on, or undefined when its very node matters
   * (see movability.ts). A pod with keys may move to another planned node settled to the same domains.
   */
  movableKeys(pod: PodInfo): ReadonlySet<string> | undefined {
    return movableKeysOf(this.involving(pod), this.nodeFilteredGroups());
  }

  /**
   * What may keep `pod` from moving to another planned node of the same domains (see movability.ts), or undefined
   * when it may not move.
   */
  localRules(pod: PodInfo): { keys: ReadonlySet<string>; own: readonly TopologyGroup[] } | undefined {
    return localRulesOf(this.ownedGroups(pod), this.involving(pod), this.nodeFilteredGroups());
  }

  /** The groups involving `pod`: its own, those counting it, and anti-affinity against it. */
  private involving(pod: PodInfo): TopologyGroup[] {
    return [
      ...this.ownedGroups(pod),
      ...this.selectingGroups(pod),
      ...this.inverse.filter((g) => g.selects(pod.namespace, pod.labels)),
    ];
  }

  private filtered: Set<TopologyGroup> | undefined;

  /** The node-filtered spread groups (see movability.ts), found once the groups are all made. */
  private nodeFilteredGroups(): Set<TopologyGroup> {
    this.filtered ??= nodeFilteredGroups(this.groups.values());
    return this.filtered;
  }

  /** Counts `pod` placed on a node with requirements `nodeReqs` and `taints`. */
  record(pod: PodInfo, nodeReqs: Requirements, taints?: readonly Taint[]): void {
    for (const g of this.selectingGroups(pod)) {
      if (!g.countsOn(taints)) continue;
      // Anti-affinity blocks every domain the node may end up in; the others count only a known domain.
      if (g.spec.type === 'anti-affinity') for (const v of finiteValues(nodeReqs, g.spec.key)) g.record(v);
      else if (g.spec.nodeFilter) recordFiltered(g, g.spec.nodeFilter, nodeReqs);
      else recordDomain(g, knownDomain(nodeReqs, g.spec.key));
    }
    for (const g of this.inverseOwnedGroups(pod)) for (const v of finiteValues(nodeReqs, g.spec.key)) g.record(v);
    for (const g of this.ownedGroups(pod)) {
      const domain = knownDomain(nodeReqs, g.spec.key);
      if (domain === undefined) continue;
      if (g.spec.type === 'spread' && g.spec.required) g.recordConstrained(domain);
    }
  }
}
