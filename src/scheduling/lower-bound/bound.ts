/**
 * A valid lower bound on the hourly cost of any placement of the pending pods (see the cost benchmark's help):
 *
 * 1. Configuration LP, by column generation (column-generation.ts). A configuration is a multiset of pods that fits
 *    one node of a variant (resources after certain DaemonSet overhead, at most one pod of a hostname anti-affinity
 *    group); the LP covers every pod class at least its count, at the variant's price, with existing nodes free but
 *    usable once and NodePool limits as capacity rows. Every real placement is a feasible integer point, so the LP
 *    optimum is a bound. The bound reported never relies on the LP having converged: for any class duals π ≥ 0 and
 *    limit duals λ ≥ 0, scaling them by 1/ρ, where ρ bounds max over configurations of (π·a − λ·cap)/price, gives a
 *    feasible dual solution (Farley's bound), so  (π·d − λ·L − Σ_existing V_e) / ρ  is valid, V_e bounding π·a on
 *    existing node e. ρ and V_e come from exact pricing where branch and bound finished, else from the least of the
 *    valid upper bounds: surrogate fractional knapsacks (knapsack.ts), a two-resource integer grid (grid.ts) and, for
 *    the final bound, the pricing problem's exact LP relaxation (pricing-lp.ts).
 * 2. Node count for hostname anti-affinity: a group of n mutually anti-affine pods needs n nodes; beyond the existing
 *    nodes that could take one, each costs at least the cheapest variant that can hold a member.
 * 3. The aggregate bound (aggregate.ts): prices per unit of resource and per node that no new node undercuts.
 * 4. Class cover (class-cover.ts): when no node can mix pod classes, the exact cheapest cover of each class; under
 *    Karpenter's topology domains, a zone-spread class split over its zones (spread-cover.ts).
 * 5. Whole nodes (whole-nodes.ts): with few classes, an integer programme over node counts per variant.
 *
 * The result is the largest of the five. Pods no variant can hold are left out (no placement holds them either).
 */
import type { DomainMode } from '../rules/karpenter-domains.js';
import type { SchedulingInput, SchedulingResult } from '../model.js';
import { aggregateBound, type Aggregate } from './aggregate.js';
import { classCoverBound } from './class-cover.js';
import { blended, finalFarley, generate, type Column } from './column-generation.js';
import type { LpSolve } from './lp.js';
import { buildProblem, toNumber, type Problem } from './problem.js';
import type { Variant } from './shapes.js';
import { zoneSplit } from './spread-cover.js';
import { wholeNodesBound } from './whole-nodes.js';

/** The bound and how it was reached. */
export interface LowerBound {
  lowerBound: number;
  lpBound: number;
  antiAffinityBound: number;
  aggregateBound: number;
  /** The class cover bound (0 when classes may share nodes). */
  classCoverBound: number;
  /** The whole-nodes bound (0 when not tried: many classes or variants). */
  wholeNodesBound: number;
  /** Restricted master LP objective at the end (an upper estimate of the LP optimum). */
  masterObjective: number;
  iterations: number;
  converged: boolean;
  /** Pods no variant can hold, left out of the bound. */
  excludedPods: number;
}

/** Options: the injected LP/MIP solver and effort limits. */
export interface LowerBoundOptions {
  solveLp: LpSolve;
  maxIterations?: number;
  /** Exact pricing problems per iteration. */
  mipsPerIteration?: number;
  /**
   * The topology domains the placements it bounds are judged with (the checker's option): under Karpenter's, zone
   * spread also splits a class over the zones (spread-cover.ts). Default kube.
   */
  domains?: DomainMode;
  /**
   * A known placement of the same input (e.g. the solver's): its new NodeClaims start the column generation as
   * configurations, which only speeds convergence (the bound holds for any columns).
   */
  hint?: SchedulingResult;
}

/** Per hostname anti-affinity group: the new nodes it needs (members beyond the existing nodes able to host one) and the variants that can host one. */
function antiGroups(p: Problem): { needed: number; can: Variant[] }[] {
  const groups = new Map<string, number[]>();
  p.classes.forEach((c, i) => {
    if (c.antiGroup !== undefined) groups.set(c.antiGroup, [...(groups.get(c.antiGroup) ?? []), i]);
  });
  return [...groups.values()].map((members) => {
    const n = members.reduce((s, i) => s + (p.classes[i]?.count ?? 0), 0);
    const can = p.variants.filter((v) => members.some((i) => (p.bound[v.id]?.[i] ?? 0) > 0));
    return { needed: Math.max(0, n - can.filter((v) => v.existing).length), can };
  });
}

function antiAffinityBound(p: Problem): number {
  let best = 0;
  for (const g of antiGroups(p)) {
    const cheapest = Math.min(...g.can.filter((v) => !v.existing).map((v) => v.price));
    if (Number.isFinite(cheapest)) best = Math.max(best, g.needed * cheapest);
  }
  return best;
}

/** The aggregate bound's numbers (aggregate.ts) from the problem. */
function aggregate(p: Problem, solveLp: LpSolve): Aggregate {
  const demand = p.resources.map((k, r) => {
    const scale = p.scale[r] ?? 1;
    const total = p.classes.reduce((s, c) => s + c.count * toNumber(c.demand, k), 0);
    const free = p.variants.filter((v) => v.existing).reduce((s, v) => s + Math.max(0, toNumber(v.capacity, k)), 0);
    return Math.max(0, total - free) / scale;
  });
  const nodes = Math.max(0, ...antiGroups(p).map((g) => g.needed));
  const fresh = p.variants
    .filter((v) => !v.existing)
    .map((v) => ({ price: v.price, capacity: p.resources.map((k, r) => toNumber(v.capacity, k) / (p.scale[r] ?? 1)) }));
  return aggregateBound({ demand, nodes, variants: fresh }, solveLp);
}

/** The whole-nodes bound (whole-nodes.ts) from the problem; 0 when not tried or not solved. */
function wholeNodes(p: Problem, solveLp: LpSolve): number {
  const weights = p.classes.map((c) => p.resources.map((k, r) => toNumber(c.demand, k) / (p.scale[r] ?? 1)));
  const variants = p.variants.map((v) => ({
    price: v.price,
    existing: v.existing,
    capacity: p.resources.map((k, r) => toNumber(v.capacity, k) / (p.scale[r] ?? 1)),
  }));
  const limits = p.limits.map((l) => ({
    remaining: l.remaining,
    use: p.variants.map((v) => (v.pool === l.pool ? toNumber(v.limitCapacity, l.resource) : 0)),
  }));
  const perNode = p.variants.map((v) => p.bound[v.id] ?? []);
  return (
    wholeNodesBound(
      {
        counts: p.classes.map((c) => c.count),
        weights,
        anti: p.classes.map((c) => c.antiGroup),
        variants,
        perNode,
        limits,
      },
      solveLp,
    ) ?? 0
  );
}

/** The hint's new NodeClaims as columns: those whose variant survived and whose pods fit it, each pod counted once. */
function hintColumns(p: Problem, hint: SchedulingResult | undefined): Column[] {
  if (!hint) return [];
  const classOf = new Map<string, number>();
  p.classes.forEach((c, i) => {
    for (const pod of c.pods) classOf.set(`${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`, i);
  });
  const byName = new Map(p.variants.filter((v) => !v.existing).map((v) => [v.name, v]));
  const out: Column[] = [];
  for (const nc of hint.newNodeClaims) {
    const v = byName.get(`${nc.nodePool}/${nc.cheapest.instanceType}/${nc.cheapest.capacityType}`);
    if (!v) continue;
    const counts = new Map<number, number>();
    for (const pod of nc.pods) {
      const i = classOf.get(pod);
      if (i !== undefined) counts.set(i, (counts.get(i) ?? 0) + 1);
    }
    const fits =
      counts.size > 0 &&
      [...counts].every(([i, n]) => n <= (p.bound[v.id]?.[i] ?? 0)) &&
      p.resources.every(
        (k) =>
          [...counts].reduce((s, [i, n]) => s + n * toNumber(p.classes[i]?.demand ?? new Map(), k), 0) <=
          toNumber(v.capacity, k) * (1 + 1e-12),
      );
    if (fits) out.push({ variant: v, counts });
  }
  return out;
}

/** A valid lower bound on the cost of placing `input.pods` (new NodeClaims only; existing capacity is free). */
export function lowerBound(input: SchedulingInput, opts: LowerBoundOptions): LowerBound {
  const p = buildProblem(input);
  const anti = antiAffinityBound(p);
  const agg = p.classes.length > 0 ? aggregate(p, opts.solveLp) : { bound: 0, alpha: [] };
  const splits =
    opts.domains === 'karpenter'
      ? p.classes.map((cls, index) => zoneSplit({ cls, index, input, variants: p.all, held: p.allBound }))
      : undefined;
  const cover =
    classCoverBound({
      counts: p.classes.map((c) => c.count),
      variants: p.variants,
      perNode: p.variants.map((v) => p.bound[v.id] ?? []),
      splits,
    }) ?? 0;
  const whole = wholeNodes(p, opts.solveLp);
  const g = generate(p, { ...opts, columns: hintColumns(p, opts.hint) });
  let lp = g.lp;
  if (g.last && !g.converged) lp = Math.max(lp, blended(p, g.last, agg.alpha), finalFarley(p, g.last, opts.solveLp));
  if (g.center && g.center !== g.last && !g.converged) lp = Math.max(lp, finalFarley(p, g.center, opts.solveLp));
  return {
    lowerBound: Math.max(lp, anti, agg.bound, cover, whole),
    lpBound: lp,
    antiAffinityBound: anti,
    aggregateBound: agg.bound,
    classCoverBound: cover,
    wholeNodesBound: whole,
    masterObjective: g.master,
    iterations: g.iterations,
    converged: g.converged,
    excludedPods: p.excluded,
  };
}
