/**
 * A set of requirements keyed by label: the constraint algebra shared by pods, NodePools, instance types and
 * NodeClaims. Knows nothing of the solver.
 */
import type { NodeSelectorRequirementWithMinValues } from '../../api/index.js';
import { Requirement, type RequirementTable } from './requirement.js';
import { normalizeLabelKey } from './well-known.js';

const notInOrDoesNotExist = (r: Requirement): boolean => {
  const op = r.operator();
  return op === 'NotIn' || op === 'DoesNotExist';
};

/** Label key -> allowed values; adding a key again intersects. */
export class Requirements {
  private readonly map = new Map<string, Requirement>();

  /** From node selector requirements (deprecated keys normalized), shared through `table` when given. */
  static fromSelector(
    reqs: readonly NodeSelectorRequirementWithMinValues[] | undefined,
    table?: RequirementTable,
  ): Requirements {
    const out = new Requirements();
    for (const r of reqs ?? []) out.add(Requirement.from({ ...r, key: normalizeLabelKey(r.key) }, table));
    return out;
  }

  /** From concrete labels: each key `In` its one value, shared through `table` when given. */
  static fromLabels(labels: Readonly<Record<string, string>> | undefined, table?: RequirementTable): Requirements {
    const out = new Requirements();
    for (const [k, v] of Object.entries(labels ?? {})) out.add(Requirement.single(normalizeLabelKey(k), v, table));
    return out;
  }

  /** A copy that can be changed independently. */
  copy(): Requirements {
    const out = new Requirements();
    for (const [k, r] of this.map) out.map.set(k, r);
    return out;
  }

  /** Intersects `r` into this set (in place); returns this. */
  add(r: Requirement): this {
    const existing = this.map.get(r.key);
    this.map.set(r.key, existing ? existing.intersect(r) : r);
    return this;
  }

  /** Intersects every requirement of `other` into this set (in place); returns this. */
  addAll(other: Requirements): this {
    for (const r of other.map.values()) this.add(r);
    return this;
  }

  /** The requirement on `key`, if any. */
  get(key: string): Requirement | undefined {
    return this.map.get(key);
  }

  /** True when `key` is constrained. */
  has(key: string): boolean {
    return this.map.has(key);
  }

  /** Constrained keys. */
  keys(): IterableIterator<string> {
    return this.map.keys();
  }

  /** All requirements. */
  values(): IterableIterator<Requirement> {
    return this.map.values();
  }

  /** Number of constrained keys. */
  get size(): number {
    return this.map.size;
  }

  /**
   * The first key on which both sets constrain and no value satisfies both, as a message; undefined when they
   * intersect. Two "absent" requirements (NotIn / DoesNotExist) never conflict: the label can simply be missing.
   */
  intersects(other: Requirements): string | undefined {
    const [small, large] = this.map.size <= other.map.size ? [this, other] : [other, this];
    for (const [key, a] of small.map) {
      const b = large.map.get(key);
      if (!b) continue;
      if (a.intersect(b).size > 0) continue;
      if (notInOrDoesNotExist(a) && notInOrDoesNotExist(b)) continue;
      const [mine, theirs] = small === this ? [a, b] : [b, a];
      return `key ${key}: ${theirs.toString()} not in ${mine.toString()}`;
    }
    return undefined;
  }

  /**
   * Karpenter's Compatible: `incoming` must intersect this set, and every key it requires to exist must be
   * defined here unless it is in `allowUndefined` (labels instance types provide).
   */
  compatible(incoming: Requirements, allowUndefined: ReadonlySet<string>): string | undefined {
    for (const [key, r] of incoming.map) {
      if (this.map.has(key) || allowUndefined.has(key) || notInOrDoesNotExist(r)) continue;
      return `label ${key} does not have known values`;
    }
    return this.intersects(incoming);
  }

  /** Single-valued `In` requirements as labels (what a node launched from them will carry). */
  labels(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, r] of this.map) {
      const v = r.size === 1 ? r.any() : undefined;
      if (v !== undefined) out[k] = v;
    }
    return out;
  }

  /** True when `labels` satisfy every requirement (a missing label satisfies only NotIn / DoesNotExist). */
  matchesLabels(labels: Readonly<Record<string, string>>): boolean {
    for (const [k, r] of this.map) {
      const v = labels[k];
      if (v === undefined ? !notInOrDoesNotExist(r) : !r.has(v)) return false;
    }
    return true;
  }

  /** Serialized, sorted by key. */
  toSelectorRequirements(): NodeSelectorRequirementWithMinValues[] {
    return [...this.map.keys()].sort().flatMap((k) => this.map.get(k)?.toSelectorRequirements() ?? []);
  }

  /** Human form. */
  toString(): string {
    return [...this.map.values()].map((r) => r.toString()).join('; ');
  }
}
