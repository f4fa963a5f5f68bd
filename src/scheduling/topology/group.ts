/**
 * A topology group (Karpenter's TopologyGroup): one spread constraint, affinity term or anti-affinity term, shared
 * by every pod that has the same one, with the count of matching pods per domain kept incrementally.
 */
import type { Taint, Toleration } from '../../api/index.js';
import type { LabelMatcher } from '../../api/index.js';
import { untoleratedDoNotSchedule } from '../taints.js';
import type { NodeFilter } from './node-filter.js';

/** What kind of constraint a group enforces. */
export type GroupType = 'spread' | 'affinity' | 'anti-affinity' | 'inverse-anti-affinity';

/** One group's definition. */
export interface GroupSpec {
  type: GroupType;
  key: string;
  /** Pods counted: their namespace must be in `namespaces` (undefined = all) and labels must match. */
  namespaces: ReadonlySet<string> | undefined;
  selector: LabelMatcher;
  maxSkew: number;
  minDomains: number | undefined;
  honorNodeAffinity: boolean;
  /**
   * Spread with nodeTaintsPolicy Honor on a key other than hostname: the owners' tolerations. Only pods on nodes
   * whose NoSchedule and NoExecute taints they tolerate are counted, and only domains such a node or NodePool
   * provides are eligible for the minimum; owners that tolerate differently are in different groups.
   */
  tolerations: readonly Toleration[] | undefined;
  /**
   * Spread with nodeAffinityPolicy Honor on a key other than hostname: the owners' node filter. Only pods on nodes
   * passing it are counted, and only domains it allows are eligible for the minimum.
   */
  nodeFilter: NodeFilter | undefined;
  /** Spread only: DoNotSchedule (a hard constraint the final placement must satisfy). */
  required: boolean;
  /** Hash of the definition, for de-duplication. */
  hash: string;
}

/** A group with its per-domain counts. */
export class TopologyGroup {
  readonly counts = new Map<string, number>();
  /** Of `counts`, pods on nodes that may or may not pass the node filter: they raise a domain, never its minimum. */
  readonly uncertain = new Map<string, number>();
  /** Domains with a count above zero. */
  nonEmpty = 0;
  /**
   * Spread only: pods placed in this solve that carry this constraint, per domain. A pod that is merely counted
   * may not push such a domain past maxSkew, or the final placement would break the constraint for them.
   */
  readonly constrained = new Map<string, number>();

  constructor(readonly spec: GroupSpec) {}

  /** True when pods on a node with `taints` count for this group (always, unless it honors node taints). */
  countsOn(taints: readonly Taint[] | undefined): boolean {
    const tol = this.spec.tolerations;
    return !tol || !taints || taints.length === 0 || untoleratedDoNotSchedule(taints, tol) === undefined;
  }

  /** True when a pod in `namespace` with `labels` is counted by this group. */
  selects(namespace: string, labels: Readonly<Record<string, string>>): boolean {
    const ns = this.spec.namespaces;
    return (ns === undefined || ns.has(namespace)) && this.spec.selector(labels);
  }

  /** Adds one matching pod to `domain`; `certain` false when its node may not pass the node filter. */
  record(domain: string, certain = true): void {
    const c = this.counts.get(domain) ?? 0;
    if (c === 0) this.nonEmpty++;
    this.counts.set(domain, c + 1);
    if (!certain) this.uncertain.set(domain, (this.uncertain.get(domain) ?? 0) + 1);
  }

  /** Notes one pod carrying this constraint in `domain`. */
  recordConstrained(domain: string): void {
    this.constrained.set(domain, (this.constrained.get(domain) ?? 0) + 1);
  }

  /** Matching pods in `domain`. */
  count(domain: string): number {
    return this.counts.get(domain) ?? 0;
  }

  /** Matching pods surely counted in `domain` (what a minimum may rely on). */
  floor(domain: string): number {
    return this.count(domain) - (this.uncertain.get(domain) ?? 0);
  }
}
