/**
 * Topology domains discovered as Karpenter does: from each NodePool's requirements intersected with the instance
 * types (and their offerings) it may launch, from existing nodes' labels, and from the hostnames of NodeClaims the
 * solver plans. Each domain remembers the taints of what provides it (for nodeTaintsPolicy: Honor).
 */
import type { Taint, Toleration } from '../../api/index.js';
import { untoleratedDoNotSchedule } from '../taints.js';

/** Something that can provide a domain: a NodePool or a node. */
export interface DomainSource {
  taints: readonly Taint[];
}

/** Known domains per topology key. */
export class Domains {
  private readonly byKey = new Map<string, Map<string, DomainSource[]>>();
  /** The same sources as sets, for the membership check (thousands of nodes may provide one zone). */
  private readonly seen = new Map<DomainSource[], Set<DomainSource>>();

  /** Adds `domain` of `key`, provided by `source`. */
  register(key: string, domain: string, source: DomainSource): void {
    let m = this.byKey.get(key);
    if (!m) {
      m = new Map();
      this.byKey.set(key, m);
    }
    const sources = m.get(domain);
    if (!sources) {
      const list = [source];
      m.set(domain, list);
      this.seen.set(list, new Set(list));
      return;
    }
    const set = this.seen.get(sources);
    if (set?.has(source)) return;
    set?.add(source);
    sources.push(source);
  }

  /** Removes a domain (a planned NodeClaim that was not created after all). */
  unregister(key: string, domain: string): void {
    this.byKey.get(key)?.delete(domain);
  }

  /** Every known domain of `key`. */
  of(key: string): ReadonlyMap<string, DomainSource[]> {
    return this.byKey.get(key) ?? new Map<string, DomainSource[]>();
  }

  /**
   * True when some source of `domain` has no NoSchedule or NoExecute taint the tolerations leave untolerated (a
   * node nodeTaintsPolicy Honor keeps; PreferNoSchedule never excludes one).
   */
  tolerated(key: string, domain: string, tolerations: readonly Toleration[]): boolean {
    const sources = this.byKey.get(key)?.get(domain) ?? [];
    return sources.some((s) => untoleratedDoNotSchedule(s.taints, tolerations) === undefined);
  }
}
