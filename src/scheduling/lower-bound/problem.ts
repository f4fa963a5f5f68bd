/**
 * The configuration LP's problem: pod classes, the variants they may use (dominated new-node variants dropped), how
 * many pods of each class one node of each variant holds, resources scaled alike, and NodePool limit rows.
 */
import { nanoOf, type Amounts } from '../rules/oracle-amounts.js';
import type { SchedulingInput } from '../model.js';
import type { Pricing } from './knapsack.js';
import { compatible, podClasses, variants, type PodClass, type Variant } from './shapes.js';

/** The problem every bound reads. */
export interface Problem {
  classes: PodClass[];
  variants: Variant[];
  resources: string[];
  scale: number[];
  /** Per resource: the greatest common divisor of the classes' requests, scaled as the weights (0 when none). */
  grain: number[];
  /** bound[v][i]: most pods of class i on one node of variant v (0: incompatible). */
  bound: number[][];
  limits: { pool: string; resource: string; index: number; remaining: number }[];
}

/** A quantity in whole units (cores, bytes). */
export function toNumber(a: Amounts, k: string): number {
  return Number(a.get(k) ?? 0n) / 1e9;
}

function perNode(c: PodClass, v: Variant, resources: readonly string[]): number {
  if (!compatible(c, v)) return 0;
  let n = c.antiGroup !== undefined ? Math.min(1, c.count) : c.count;
  for (const k of resources) {
    const w = toNumber(c.demand, k);
    if (w > 0) n = Math.min(n, Math.floor((toNumber(v.capacity, k) * (1 + 1e-12)) / w));
  }
  return Math.max(0, n);
}

function limitRows(input: SchedulingInput, usable: readonly Variant[]): Problem['limits'] {
  const out: Problem['limits'] = [];
  for (const pool of input.nodePools) {
    for (const [resource, q] of Object.entries(pool.limits ?? {})) {
      let used = 0;
      for (const n of [...(input.nodes ?? []), ...(input.nodeClaims ?? [])]) {
        const owner = n.labels['karpenter.sh/nodepool'] ?? ('nodePool' in n ? n.nodePool : undefined);
        if (owner === pool.name)
          used += toNumber(
            new Map([[resource, parseQuantity(n.capacity?.[resource] ?? n.allocatable[resource])]]),
            resource,
          );
      }
      const limit = toNumber(new Map([[resource, parseQuantity(q)]]), resource);
      if (usable.some((v) => v.pool === pool.name))
        out.push({ pool: pool.name, resource, index: out.length, remaining: Math.max(0, limit - used) });
    }
  }
  return out;
}

function gcd(a: bigint, b: bigint): bigint {
  return b === 0n ? a : gcd(b, a % b);
}

/** Per resource, the greatest common divisor of the classes' requests in the weights' scale. */
function grains(classes: readonly PodClass[], resources: readonly string[], scale: readonly number[]): number[] {
  return resources.map((k, r) => {
    const g = classes.reduce((acc, c) => gcd(c.demand.get(k) ?? 0n, acc), 0n);
    return g > 0n ? Number(g) / 1e9 / (scale[r] ?? 1) : 0;
  });
}

function parseQuantity(q: string | undefined): bigint {
  return q === undefined ? 0n : nanoOf(q);
}

/**
 * Drops new-node variants another variant of the same NodePool dominates (no dearer, at least as much of every
 * requested resource, no more limit capacity, every class it takes): any configuration moves to the dominating
 * variant at no higher cost, so the LP optimum is unchanged. Identical variants keep the first.
 */
function undominated(vs: readonly Variant[], rows: readonly number[][], resources: readonly string[]): Variant[] {
  const covers = (w: Variant, v: Variant): boolean =>
    w.pool === v.pool &&
    w.price <= v.price &&
    resources.every((k) => toNumber(w.capacity, k) >= toNumber(v.capacity, k)) &&
    [...v.limitCapacity].every(([k, q]) => (w.limitCapacity.get(k) ?? 0n) <= q) &&
    (rows[v.id] ?? []).every((n, i) => n === 0 || (rows[w.id]?.[i] ?? 0) > 0);
  return vs.filter((v) => {
    if (v.existing) return true;
    return !vs.some((w) => w !== v && !w.existing && covers(w, v) && (!covers(v, w) || w.id < v.id));
  });
}

/** Builds the problem; `all` and `allBound` keep every variant (dominated ones too) for per-zone pricing. */
export function buildProblem(
  input: SchedulingInput,
): Problem & { excluded: number; all: Variant[]; allBound: number[][] } {
  const all = podClasses(input.pods);
  const resources = [...new Set(all.flatMap((c) => [...c.demand.keys()]))].sort();
  const vs = variants(input).filter((v) => resources.every((k) => toNumber(v.capacity, k) >= 0) || v.existing);
  const boundAll = vs.map((v) => all.map((c) => perNode(c, v, resources)));
  const placeable = all.filter((c, i) => boundAll.some((row) => (row[i] ?? 0) > 0));
  const excluded = all.filter((c) => !placeable.includes(c)).reduce((s, c) => s + c.count, 0);
  const classes = placeable.map((c, id) => ({ ...c, id }));
  const rows = vs.map((v) => classes.map((c) => perNode(c, v, resources)));
  const kept = undominated(vs, rows, resources).map((v, id) => ({ ...v, id }));
  const bound = kept.map((v) => classes.map((c) => perNode(c, v, resources)));
  const scale = resources.map((k) => Math.max(1e-9, ...kept.map((v) => toNumber(v.capacity, k))));
  return {
    classes,
    variants: kept,
    resources,
    scale,
    grain: grains(classes, resources, scale),
    bound,
    limits: limitRows(input, kept),
    excluded,
    all: vs,
    allBound: rows,
  };
}

/** The pricing problem of variant `v` for class duals `duals`. */
export function pricing(p: Problem, v: Variant, duals: readonly number[]): Pricing {
  return {
    capacity: p.resources.map((k, r) => toNumber(v.capacity, k) / (p.scale[r] ?? 1)),
    grain: p.grain,
    items: p.classes.map((c, i) => ({
      cls: i,
      weight: p.resources.map((k, r) => toNumber(c.demand, k) / (p.scale[r] ?? 1)),
      bound: p.bound[v.id]?.[i] ?? 0,
      value: duals[i] ?? 0,
      anti: c.antiGroup,
    })),
  };
}

/** What one node of `v` costs in limit duals. */
export function limitCost(p: Problem, v: Variant, lambda: readonly number[]): number {
  let s = 0;
  for (const l of p.limits) if (l.pool === v.pool) s += (lambda[l.index] ?? 0) * toNumber(v.limitCapacity, l.resource);
  return s;
}
