/**
 * Pod topology (Karpenter's Topology): spread constraints, pod affinity and anti-affinity (including the inverse
 * direction: pods already placed whose anti-affinity rejects the incoming pod). Given a pod and the requirements
 * of a candidate node, it returns the domains the pod may use there; after a placement it records the counts.
 */
import type { Pod } from '../model.js';
import type { PodInfo } from '../pod-info.js';
import { Requirement } from '../requirements/requirement.js';
import type { Requirements } from '../requirements/requirements.js';
import type { Domains } from './domains.js';
import { TopologyGroup, type GroupSpec } from './group.js';
import { nextDomains, type TopologyDecision } from './next-domain.js';
import { affinitySpec, spreadSpec, type NamespaceLabels } from './terms.js';

/** A node whose pods are already counted. */
export interface CountedNode {
  labels: Readonly<Record<string, string>>;
  pods: readonly Pod[];
}

interface Owned {
  version: number;
  groups: TopologyGroup[];
}

/** Topology state for one solve. */
export class Topology {
  private readonly groups = new Map<string, TopologyGroup>();
  private readonly owned = new WeakMap<PodInfo, Owned>();
  private readonly selecting = new WeakMap<PodInfo, TopologyGroup[]>();
  private readonly inverseOwned = new WeakMap<PodInfo, TopologyGroup[]>();
  private readonly inverse: TopologyGroup[] = [];

  constructor(
    readonly domains: Domains,
    private readonly opts: { namespaces: NamespaceLabels; nodes: readonly CountedNode[]; pending: readonly PodInfo[] },
  ) {
    for (const p of opts.pending) {
      this.ownedGroups(p);
      this.inverseOwned.set(p, this.inverseGroupsOf(p.pod, p.namespace));
    }
    for (const n of opts.nodes) {
      for (const pod of n.pods) {
        for (const g of this.inverseGroupsOf(pod, pod.metadata.namespace ?? 'default')) recordDomain(g, n.labels[g.spec.key]);
      }
    }
    for (const p of opts.pending) {
      this.selecting.set(
        p,
        [...this.groups.values()].filter((g) => g.spec.type !== 'inverse-anti-affinity' && g.selects(p.namespace, p.labels)),
      );
    }
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
      if (domain === undefined) continue;
      for (const pod of n.pods) if (g.selects(pod.metadata.namespace ?? 'default', pod.metadata.labels ?? {})) g.record(domain);
    }
    return g;
  }

  private inverseGroupsOf(pod: Pod, namespace: string): TopologyGroup[] {
    const terms = pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    const owner = { namespace, labels: pod.metadata.labels ?? {} };
    return terms.map((t) => this.group(affinitySpec('inverse-anti-affinity', t, owner, this.opts.namespaces)));
  }

  /** The groups `pod` must satisfy in its current (possibly relaxed) state. */
  private ownedGroups(pod: PodInfo): TopologyGroup[] {
    const s = pod.state;
    const version = s.spread.length + s.affinity.length + s.antiAffinity.length;
    const cached = this.owned.get(pod);
    if (cached && cached.version === version) return cached.groups;
    const owner = { namespace: pod.namespace, labels: pod.labels };
    const groups = [
      ...s.spread.map((c) => this.group(spreadSpec(c, pod.namespace, pod.labels))),
      ...s.affinity.map((t) => this.group(affinitySpec('affinity', t.term, owner, this.opts.namespaces))),
      ...s.antiAffinity.map((t) => this.group(affinitySpec('anti-affinity', t.term, owner, this.opts.namespaces))),
    ];
    this.owned.set(pod, { version, groups });
    return groups;
  }

  /**
   * Requirements the pod's topology adds on a node with requirements `nodeReqs` (already intersected with the
   * pod's own), or the constraint that cannot be met there.
   */
  addRequirements(pod: PodInfo, nodeReqs: Requirements): TopologyDecision {
    const out: Requirement[] = [];
    const check = (g: TopologyGroup): TopologyDecision | undefined => {
      const d = nextDomains({ group: g, pod, nodeReqs, domains: this.domains });
      if (!d.ok) return d;
      out.push(...d.requirements);
      return undefined;
    };
    for (const g of this.ownedGroups(pod)) {
      const failed = check(g);
      if (failed) return failed;
    }
    for (const g of this.inverse) {
      if (g.nonEmpty === 0 || !g.selects(pod.namespace, pod.labels)) continue;
      const failed = check(g);
      if (failed) return failed;
    }
    return { ok: true, requirements: out };
  }

  /** True when the pod has any topology constraint, or some placed pod's anti-affinity may reject it. */
  constrains(pod: PodInfo): boolean {
    return this.ownedGroups(pod).length > 0 || this.inverse.some((g) => g.nonEmpty > 0 && g.selects(pod.namespace, pod.labels));
  }

  /** Counts `pod` placed on a node with requirements `nodeReqs`. */
  record(pod: PodInfo, nodeReqs: Requirements): void {
    for (const g of this.selecting.get(pod) ?? []) {
      const r = nodeReqs.get(g.spec.key);
      if (!r || r.complement) continue;
      // Anti-affinity blocks every domain the node may end up in; the others count only a known domain.
      if (g.spec.type === 'anti-affinity') for (const v of r.values) g.record(v);
      else if (r.values.size === 1) recordDomain(g, r.any());
    }
    for (const g of this.inverseOwned.get(pod) ?? []) {
      const r = nodeReqs.get(g.spec.key);
      if (r && !r.complement) for (const v of r.values) g.record(v);
    }
  }
}

function recordDomain(g: TopologyGroup, domain: string | undefined): void {
  if (domain !== undefined) g.record(domain);
}
