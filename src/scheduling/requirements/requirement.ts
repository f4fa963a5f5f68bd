/**
 * One label key's allowed values, as Karpenter models it: a finite set (`In`, `DoesNotExist` = empty set) or the
 * complement of one (`NotIn`, `Exists` = complement of nothing), optionally bounded by integer limits
 * (`Gt`, `Lt`, `Gte`, `Lte`). Immutable: operations return new requirements.
 */
import type { NodeSelectorRequirementWithMinValues, RequirementOperator } from '../../api/index.js';

const maxSingles = 1 << 16;

/**
 * Shared requirements: single-value `In` requirements of labels by key and value (a node's or an instance type's
 * labels each make one, and a large cluster would rebuild them, a Set each, for every solve), and `Exists` and
 * `DoesNotExist` per key. Immutability makes sharing safe. Bounded, since values such as hostnames are unique per
 * node. Owned by a solve cache (solve-cache.ts); without a table, requirements are not shared.
 */
export class RequirementTable {
  readonly singles = new Map<string, Map<string, Requirement>>();
  singleCount = 0;
  readonly exists = new Map<string, Requirement>();
  readonly doesNotExist = new Map<string, Requirement>();
}

interface Bounds {
  gt: number | undefined;
  lt: number | undefined;
  minValues: number | undefined;
}

/** Allowed values of one label key. */
export class Requirement {
  readonly key: string;
  /** When true, `values` lists what is excluded and everything else (within bounds) is allowed. */
  readonly complement: boolean;
  readonly values: ReadonlySet<string>;
  /** Exclusive integer bounds. */
  readonly greaterThan: number | undefined;
  readonly lessThan: number | undefined;
  readonly minValues: number | undefined;

  private constructor(key: string, complement: boolean, values: ReadonlySet<string>, bounds: Bounds) {
    this.key = key;
    this.complement = complement;
    this.values = values;
    this.greaterThan = bounds.gt;
    this.lessThan = bounds.lt;
    this.minValues = bounds.minValues;
  }

  /** Builds a requirement from an operator and its values. */
  static of(
    key: string,
    operator: RequirementOperator,
    values: readonly string[] = [],
    minValues?: number,
  ): Requirement {
    const first = Number.parseInt(values[0] ?? '', 10);
    switch (operator) {
      case 'In':
        return new Requirement(key, false, new Set(values), { gt: undefined, lt: undefined, minValues });
      case 'NotIn':
        return new Requirement(key, true, new Set(values), { gt: undefined, lt: undefined, minValues });
      case 'Exists':
        return new Requirement(key, true, new Set(), { gt: undefined, lt: undefined, minValues });
      case 'DoesNotExist':
        return new Requirement(key, false, new Set(), { gt: undefined, lt: undefined, minValues });
      case 'Gt':
        return new Requirement(key, true, new Set(), { gt: first, lt: undefined, minValues });
      case 'Gte':
        return new Requirement(key, true, new Set(), { gt: first - 1, lt: undefined, minValues });
      case 'Lt':
        return new Requirement(key, true, new Set(), { gt: undefined, lt: first, minValues });
      case 'Lte':
        return new Requirement(key, true, new Set(), { gt: undefined, lt: first + 1, minValues });
    }
  }

  /** `key In [value]`, one shared object per key and value of `table` when one is given. */
  static single(key: string, value: string, table?: RequirementTable): Requirement {
    const make = (): Requirement =>
      new Requirement(key, false, new Set([value]), { gt: undefined, lt: undefined, minValues: undefined });
    if (!table) return make();
    let byValue = table.singles.get(key);
    const known = byValue?.get(value);
    if (known) return known;
    if (table.singleCount >= maxSingles) {
      table.singles.clear();
      table.singleCount = 0;
      byValue = undefined;
    }
    if (!byValue) table.singles.set(key, (byValue = new Map()));
    const r = make();
    byValue.set(value, r);
    table.singleCount++;
    return r;
  }

  /**
   * The shared object for `Exists` and `DoesNotExist` (an instance type lists a dozen labels it lacks: one object per
   * key serves every type); undefined for other requirements. `In` is shared only through `single`: solves make a
   * requirement on each new NodeClaim's own hostname, which no other object would ever share.
   */
  private static sharedOf(
    table: RequirementTable,
    key: string,
    operator: RequirementOperator,
  ): Requirement | undefined {
    if (operator === 'Exists') return Requirement.shared(table.exists, key, true);
    if (operator === 'DoesNotExist') return Requirement.shared(table.doesNotExist, key, false);
    return undefined;
  }

  /** `Exists` (complement) or `DoesNotExist` on `key`, one shared object per key. */
  private static shared(table: Map<string, Requirement>, key: string, complement: boolean): Requirement {
    let r = table.get(key);
    if (!r) {
      if (table.size >= maxSingles) table.clear();
      r = new Requirement(key, complement, new Set(), { gt: undefined, lt: undefined, minValues: undefined });
      table.set(key, r);
    }
    return r;
  }

  /** From a serialized requirement. */
  static from(r: NodeSelectorRequirementWithMinValues, table?: RequirementTable): Requirement {
    const shared = r.minValues === undefined && table ? Requirement.sharedOf(table, r.key, r.operator) : undefined;
    return shared ?? Requirement.of(r.key, r.operator, r.values ?? [], r.minValues);
  }

  private withinBounds(value: string): boolean {
    if (this.greaterThan === undefined && this.lessThan === undefined) return true;
    if (!/^-?\d+$/.test(value)) return false;
    const n = Number(value);
    return (
      (this.greaterThan === undefined || n > this.greaterThan) && (this.lessThan === undefined || n < this.lessThan)
    );
  }

  /** True when `value` is allowed. */
  has(value: string): boolean {
    if (this.complement) return !this.values.has(value) && this.withinBounds(value);
    return this.values.has(value);
  }

  /** Number of allowed values (Infinity for complements). */
  get size(): number {
    return this.complement ? Number.POSITIVE_INFINITY : this.values.size;
  }

  /** The values both allow. */
  intersect(other: Requirement): Requirement {
    // A label's value against the same value (an instance type's labels against its own requirements): unchanged.
    if (this.sameSingleValue(other)) return this;
    const gt = maxDefined(this.greaterThan, other.greaterThan);
    const lt = minDefined(this.lessThan, other.lessThan);
    const minValues = maxDefined(this.minValues, other.minValues);
    if (this.complement && other.complement) {
      if (gt !== undefined && lt !== undefined && gt >= lt - 1) {
        return new Requirement(this.key, false, new Set(), { gt: undefined, lt: undefined, minValues });
      }
      return new Requirement(this.key, true, new Set([...this.values, ...other.values]), { gt, lt, minValues });
    }
    const [finite, other2] = this.complement ? [other, this] : [this, other];
    const values = new Set<string>();
    for (const v of finite.values) if (other2.has(v)) values.add(v);
    return new Requirement(this.key, false, values, { gt: undefined, lt: undefined, minValues });
  }

  private sameSingleValue(other: Requirement): boolean {
    if (other === this) return true;
    if (this.complement || other.complement || this.values.size !== 1 || other.values.size !== 1) return false;
    if (this.minValues !== other.minValues || other.greaterThan !== undefined || other.lessThan !== undefined)
      return false;
    const [v] = this.values;
    return v !== undefined && other.values.has(v);
  }

  /** Karpenter's operator view of this requirement. */
  operator(): RequirementOperator {
    if (this.complement) {
      if (this.values.size > 0) return 'NotIn';
      if (this.greaterThan !== undefined) return 'Gt';
      if (this.lessThan !== undefined) return 'Lt';
      return 'Exists';
    }
    return this.values.size > 0 ? 'In' : 'DoesNotExist';
  }

  /** A deterministic allowed value (the smallest), if the set is finite and non-empty. */
  any(): string | undefined {
    if (this.complement) return undefined;
    let best: string | undefined;
    for (const v of this.values) if (best === undefined || v < best) best = v;
    return best;
  }

  /** Serializes back to node selector requirements (bounded complements may need two). */
  toSelectorRequirements(): NodeSelectorRequirementWithMinValues[] {
    const mv = this.minValues !== undefined ? { minValues: this.minValues } : {};
    if (!this.complement) {
      if (this.values.size === 0) return [{ key: this.key, operator: 'DoesNotExist', ...mv }];
      return [{ key: this.key, operator: 'In', values: [...this.values].sort(), ...mv }];
    }
    const out: NodeSelectorRequirementWithMinValues[] = [];
    if (this.values.size > 0) out.push({ key: this.key, operator: 'NotIn', values: [...this.values].sort(), ...mv });
    if (this.greaterThan !== undefined)
      out.push({ key: this.key, operator: 'Gt', values: [String(this.greaterThan)], ...mv });
    if (this.lessThan !== undefined)
      out.push({ key: this.key, operator: 'Lt', values: [String(this.lessThan)], ...mv });
    if (out.length === 0) out.push({ key: this.key, operator: 'Exists', ...mv });
    return out;
  }

  /** Human form, e.g. `zone In [a b]`. */
  toString(): string {
    return this.toSelectorRequirements()
      .map((r) => `${r.key} ${r.operator}${r.values ? ` [${r.values.join(' ')}]` : ''}`)
      .join(', ');
  }
}

function maxDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.max(a, b);
}

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
