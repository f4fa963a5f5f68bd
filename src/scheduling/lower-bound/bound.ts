/**
 * A valid lower bound on the hourly cost of any placement of the pending pods (see the cost benchmark's help):
 *
 * 1. Configuration LP, by column generation. A configuration is a multiset of pods that fits one node of a variant
 *    (resources after certain DaemonSet overhead, at most one pod of a hostname anti-affinity group); the LP covers
 *    every pod class at least its count, at the variant's price, with existing nodes free but usable once and
 *    NodePool limits as capacity rows. Every real placement is a feasible integer point, so the LP optimum is a bound.
 *    The bound reported never relies on the LP having converged: for any class duals π ≥ 0 and limit duals λ ≥ 0,
 *    scaling them by 1/ρ, where ρ bounds max over configurations of (π·a − λ·cap)/price, gives a feasible dual
 *    solution (Farley's bound), so  (π·d − λ·L − Σ_existing V_e) / ρ  is valid, V_e bounding π·a on existing node e.
 *    ρ and V_e come from exact MIP pricing where solved, else from a fractional knapsack upper bound.
 * 2. Node count for hostname anti-affinity: a group of n mutually anti-affine pods needs n nodes; beyond the existing
 *    nodes that could take one, each costs at least the cheapest variant that can hold a member.
 *
 * 3. The aggregate bound (aggregate.ts): prices per unit of resource and per node that no new node undercuts.
 * 4. Class cover (class-cover.ts): when no node can mix pod classes, the exact cheapest cover of each class.
 *
 * The result is the largest of the four. Pods no variant can hold are left out (no placement holds them either).
 */
import { nanoOf, type Amounts } from '../check/amounts.js';
import type { SchedulingInput } from '../model.js';
import { aggregateBound, type Aggregate } from './aggregate.js';
import type { DomainMode } from '../check/karpenter-domains.js';
import { classCoverBound } from './class-cover.js';
import { bestConfiguration, fractionalBound, type Pricing } from './knapsack.js';
import { gridBound } from './grid.js';
import { pricingLpBound } from './pricing-lp.js';
import { wholeNodesBound } from './whole-nodes.js';
import { writeLp, type LpSolve, type Term } from './lp.js';
import { compatible, podClasses, variants, type PodClass, type Variant } from './shapes.js';
import { zoneSplit } from './spread-cover.js';

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
}

interface Column {
  variant: Variant;
  counts: Map<number, number>;
}

interface Problem {
  classes: PodClass[];
  variants: Variant[];
  resources: string[];
  scale: number[];
  /** bound[v][i]: most pods of class i on one node of variant v (0: incompatible). */
  bound: number[][];
  limits: { pool: string; resource: string; index: number; remaining: number }[];
}

function toNumber(a: Amounts, k: string): number {
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
        if (owner === pool.name) used += toNumber(new Map([[resource, parseQuantity(n.capacity?.[resource] ?? n.allocatable[resource])]]), resource);
      }
      const limit = toNumber(new Map([[resource, parseQuantity(q)]]), resource);
      if (usable.some((v) => v.pool === pool.name)) out.push({ pool: pool.name, resource, index: out.length, remaining: Math.max(0, limit - used) });
    }
  }
  return out;
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

function buildProblem(input: SchedulingInput): Problem & { excluded: number; all: Variant[]; allBound: number[][] } {
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
  return { classes, variants: kept, resources, scale, bound, limits: limitRows(input, kept), excluded, all: vs, allBound: rows };
}

function pricing(p: Problem, v: Variant, duals: readonly number[]): Pricing {
  return {
    capacity: p.resources.map((k, r) => toNumber(v.capacity, k) / (p.scale[r] ?? 1)),
    items: p.classes.map((c, i) => ({
      cls: i,
      weight: p.resources.map((k, r) => toNumber(c.demand, k) / (p.scale[r] ?? 1)),
      bound: p.bound[v.id]?.[i] ?? 0,
      value: duals[i] ?? 0,
      anti: c.antiGroup,
    })),
  };
}

function limitCost(p: Problem, v: Variant, lambda: readonly number[]): number {
  let s = 0;
  for (const l of p.limits) if (l.pool === v.pool) s += (lambda[l.index] ?? 0) * toNumber(v.limitCapacity, l.resource);
  return s;
}

function initialColumns(p: Problem): Column[] {
  const out: Column[] = [];
  p.classes.forEach((c, i) => {
    let best: { v: Variant; n: number } | undefined;
    for (const v of p.variants) {
      const n = p.bound[v.id]?.[i] ?? 0;
      if (n > 0 && !v.existing && (!best || v.price / n < best.v.price / best.n)) best = { v, n };
    }
    if (best) out.push({ variant: best.v, counts: new Map([[i, best.n]]) });
  });
  return out;
}

interface Master {
  objective: number;
  duals: number[];
  lambda: number[];
  existingDuals: Map<number, number>;
}

function solveMaster(p: Problem, columns: readonly Column[], solveLp: LpSolve): Master | undefined {
  const big = 1e3 * Math.max(1, ...p.variants.map((v) => v.price));
  const objective: Term[] = columns.map((c, j): Term => [c.variant.price, `x${j}`]);
  const rows = p.classes.map((c, i) => {
    const terms: Term[] = columns.flatMap((col, j): Term[] => ((col.counts.get(i) ?? 0) > 0 ? [[col.counts.get(i) ?? 0, `x${j}`]] : []));
    terms.push([1, `art${i}`]);
    objective.push([big, `art${i}`]);
    return { name: `c${i}`, terms, rhs: c.count };
  });
  for (const l of p.limits) {
    const terms = columns.flatMap((col, j): Term[] => (col.variant.pool === l.pool ? [[-toNumber(col.variant.limitCapacity, l.resource), `x${j}`]] : []));
    rows.push({ name: `l${l.index}`, terms, rhs: -l.remaining });
  }
  const existing = [...new Set(columns.filter((c) => c.variant.existing).map((c) => c.variant.id))];
  for (const id of existing) rows.push({ name: `e${id}`, terms: columns.flatMap((c, j): Term[] => (c.variant.id === id ? [[-1, `x${j}`]] : [])), rhs: -1 });
  const r = solveLp(writeLp({ sense: 'Minimize', objective, rows: rows.map((row) => ({ ...row, terms: row.terms.length ? row.terms : [[0, 'x0']] })) }));
  if (!r.optimal) return undefined;
  const dual = (i: number): number => Math.max(0, r.rowDuals[i] ?? 0);
  const nClasses = p.classes.length;
  return {
    objective: r.objective,
    duals: p.classes.map((_, i) => dual(i)),
    lambda: p.limits.map((l) => dual(nClasses + l.index)),
    existingDuals: new Map(existing.map((id, k) => [id, dual(nClasses + p.limits.length + k)])),
  };
}

/** The bound from duals, given upper bounds on each variant's best configuration value. */
function farley(p: Problem, m: Master, best: ReadonlyMap<number, number>): number {
  let rho = 0;
  let existingValue = 0;
  for (const v of p.variants) {
    const ub = best.get(v.id) ?? 0;
    if (v.existing) existingValue += ub;
    else if (v.price > 0) rho = Math.max(rho, (ub - limitCost(p, v, m.lambda)) / v.price);
  }
  const demand = p.classes.reduce((s, c, i) => s + (m.duals[i] ?? 0) * c.count, 0);
  const limits = p.limits.reduce((s, l) => s + (m.lambda[l.index] ?? 0) * l.remaining, 0);
  const numerator = demand - limits - existingValue;
  return rho > 0 && numerator > 0 ? numerator / rho : 0;
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
  const fresh = p.variants.filter((v) => !v.existing).map((v) => ({ price: v.price, capacity: p.resources.map((k, r) => toNumber(v.capacity, k) / (p.scale[r] ?? 1)) }));
  return aggregateBound({ demand, nodes, variants: fresh }, solveLp);
}

/** The whole-nodes bound (whole-nodes.ts) from the problem; 0 when not tried or not solved. */
function wholeNodes(p: Problem, solveLp: LpSolve): number {
  const weights = p.classes.map((c) => p.resources.map((k, r) => toNumber(c.demand, k) / (p.scale[r] ?? 1)));
  const variants = p.variants.map((v) => ({ price: v.price, existing: v.existing, capacity: p.resources.map((k, r) => toNumber(v.capacity, k) / (p.scale[r] ?? 1)) }));
  const limits = p.limits.map((l) => ({ remaining: l.remaining, use: p.variants.map((v) => (v.pool === l.pool ? toNumber(v.limitCapacity, l.resource) : 0)) }));
  const perNode = p.variants.map((v) => p.bound[v.id] ?? []);
  return wholeNodesBound({ counts: p.classes.map((c) => c.count), weights, anti: p.classes.map((c) => c.antiGroup), variants, perNode, limits }, solveLp) ?? 0;
}

/** Blends of the master's duals with the aggregate's resource prices tried when column generation stopped early. */
const Blends = [0.25, 0.5, 0.75, 0.9];

/**
 * Farley's bound for blends of the last master's class duals with duals that price each class by its resources
 * (α·demand, from the aggregate bound): any duals give a valid bound, and a blend often beats both when the master
 * has not converged. ρ and V_e come from the fractional (surrogate) bounds only.
 */
function blended(p: Problem, m: Master, alpha: readonly number[]): number {
  const byResources = p.classes.map((c) => p.resources.reduce((s, k, r) => s + (alpha[r] ?? 0) * (toNumber(c.demand, k) / (p.scale[r] ?? 1)), 0));
  let out = 0;
  for (const t of Blends) {
    const duals = p.classes.map((_, i) => t * (m.duals[i] ?? 0) + (1 - t) * (byResources[i] ?? 0));
    const mix: Master = { ...m, duals, lambda: m.lambda.map((l) => t * l) };
    const best = new Map(p.variants.map((v) => [v.id, fractionalBound(pricing(p, v, duals))]));
    out = Math.max(out, farley(p, mix, best));
  }
  return out;
}

/** Lowers a variant's value bound to the grid bound (grid.ts) where that is smaller, nudged up against round-off. */
function tighten(best: Map<number, number>, id: number, pr: Pricing): void {
  const g = gridBound(pr);
  if (g !== undefined) best.set(id, Math.min(best.get(id) ?? Number.POSITIVE_INFINITY, g * (1 + 1e-9) + 1e-12));
}

/** Most exact LP pricing bounds (pricing-lp.ts) solved for the final bound. */
const FinalLps = 40;

/**
 * Farley's bound for the last master's duals with every variant bounded by the least of its fractional and grid
 * bounds, then, lazily from the variant that sets ρ, by the exact LP relaxation of its pricing problem as well.
 */
function finalFarley(p: Problem, m: Master, solveLp: LpSolve): number {
  const best = new Map<number, number>();
  for (const v of p.variants) {
    const pr = pricing(p, v, m.duals);
    best.set(v.id, fractionalBound(pr));
    tighten(best, v.id, pr);
  }
  const done = new Set<number>();
  const fresh = p.variants.filter((v) => !v.existing && v.price > 0);
  const ratio = (v: Variant): number => ((best.get(v.id) ?? 0) - limitCost(p, v, m.lambda)) / v.price;
  for (let k = 0; k < FinalLps; k++) {
    const top = fresh.reduce<Variant | undefined>((a, v) => (!a || ratio(v) > ratio(a) ? v : a), undefined);
    if (!top || done.has(top.id)) break;
    done.add(top.id);
    const lp = pricingLpBound(pricing(p, top, m.duals), solveLp);
    if (lp !== undefined) best.set(top.id, Math.min(best.get(top.id) ?? Number.POSITIVE_INFINITY, lp));
  }
  return farley(p, m, best);
}

interface Round {
  best: Map<number, number>;
  added: Column[];
  complete: boolean;
}

function priceRound(p: Problem, m: Master, opts: { solveLp: LpSolve; mips: number; seen: Set<string> }): Round {
  const best = new Map<number, number>();
  const scored = p.variants.map((v) => {
    const ub = fractionalBound(pricing(p, v, m.duals));
    best.set(v.id, ub);
    const gain = v.existing ? ub - (m.existingDuals.get(v.id) ?? 0) : ub - limitCost(p, v, m.lambda) - v.price;
    // New variants are ranked by value per dollar: the largest ratios decide Farley's ρ, so prove those first.
    const rank = v.existing ? Number.POSITIVE_INFINITY : (ub - limitCost(p, v, m.lambda)) / v.price;
    return { v, gain, rank };
  });
  scored.sort((a, b) => b.rank - a.rank || b.gain - a.gain);
  const added: Column[] = [];
  let solved = 0;
  let complete = true;
  for (const { v, gain } of scored) {
    if (gain <= 1e-9 * Math.max(1, v.price)) continue;
    if (solved >= opts.mips) {
      complete = false;
      break;
    }
    solved++;
    const exact = bestConfiguration(pricing(p, v, m.duals));
    if (exact.proven) {
      // Guard against float round-off: the value used for the bound is nudged up, never down.
      best.set(v.id, Math.min(best.get(v.id) ?? Number.POSITIVE_INFINITY, exact.value * (1 + 1e-9) + 1e-12));
    } else {
      complete = false;
      tighten(best, v.id, pricing(p, v, m.duals));
    }
    const reduced = v.existing ? (m.existingDuals.get(v.id) ?? 0) - exact.value : v.price + limitCost(p, v, m.lambda) - exact.value;
    const key = `${v.id}:${[...exact.counts].join(';')}`;
    if (reduced < -1e-9 && !opts.seen.has(key)) {
      opts.seen.add(key);
      added.push({ variant: v, counts: exact.counts });
    }
  }
  return { best, added, complete };
}

/** Duals between the stability centre and the master's: t·centre + (1 − t)·master (still ≥ 0, so still valid for Farley). */
function smooth(center: Master, m: Master, t: number): Master {
  const mix = (a: readonly number[], b: readonly number[]): number[] => b.map((x, i) => t * (a[i] ?? 0) + (1 - t) * x);
  const existingDuals = new Map([...m.existingDuals].map(([id, x]) => [id, t * (center.existingDuals.get(id) ?? 0) + (1 - t) * x]));
  return { objective: m.objective, duals: mix(center.duals, m.duals), lambda: mix(center.lambda, m.lambda), existingDuals };
}

/** Weight of the stability centre in the duals priced (Wentges smoothing). */
const Smoothing = 0.5;

interface Generation {
  lp: number;
  master: number;
  iterations: number;
  converged: boolean;
  last: Master | undefined;
}

/**
 * Column generation with dual smoothing: the master's duals oscillate on mixes with many classes, so each round prices
 * duals halfway between the master's and those that gave the best Farley bound so far (the centre), which adds columns
 * that matter and raises the bound steadily. When the smoothed duals find no column, the master's own duals are
 * priced, so convergence is still judged on the master's duals.
 */
function generate(p: Problem, opts: LowerBoundOptions): Generation {
  const columns = initialColumns(p);
  const seen = new Set<string>();
  const g: Generation = { lp: 0, master: 0, iterations: 0, converged: false, last: undefined };
  const maxIterations = opts.maxIterations ?? 60;
  let mips = opts.mipsPerIteration ?? 40;
  let center: Master | undefined;
  while (g.iterations < maxIterations && p.classes.length > 0) {
    g.iterations++;
    const m = solveMaster(p, columns, opts.solveLp);
    if (!m) break;
    g.last = m;
    g.master = m.objective;
    const tries = center ? [smooth(center, m, Smoothing), m] : [m];
    let round: Round | undefined;
    for (const duals of tries) {
      round = priceRound(p, duals, { solveLp: opts.solveLp, mips, seen });
      const bound = farley(p, duals, round.best);
      if (bound > g.lp) {
        g.lp = bound;
        center = duals;
      }
      if (round.added.length > 0) break;
    }
    if (!round) break;
    columns.push(...round.added);
    if (round.added.length === 0 && round.complete) {
      g.converged = true;
      break;
    }
    // Same duals next round: price further down the list instead of repeating the same problems.
    if (round.added.length === 0) mips *= 2;
  }
  return g;
}

/** A valid lower bound on the cost of placing `input.pods` (new NodeClaims only; existing capacity is free). */
export function lowerBound(input: SchedulingInput, opts: LowerBoundOptions): LowerBound {
  const p = buildProblem(input);
  const anti = antiAffinityBound(p);
  const agg = p.classes.length > 0 ? aggregate(p, opts.solveLp) : { bound: 0, alpha: [] };
  const splits = opts.domains === 'karpenter' ? p.classes.map((cls, index) => zoneSplit({ cls, index, input, variants: p.all, held: p.allBound })) : undefined;
  const cover = classCoverBound({ counts: p.classes.map((c) => c.count), variants: p.variants, perNode: p.variants.map((v) => p.bound[v.id] ?? []), splits }) ?? 0;
  const whole = wholeNodes(p, opts.solveLp);
  const g = generate(p, opts);
  let lp = g.lp;
  if (g.last && !g.converged) lp = Math.max(lp, blended(p, g.last, agg.alpha), finalFarley(p, g.last, opts.solveLp));
  return { lowerBound: Math.max(lp, anti, agg.bound, cover, whole), lpBound: lp, antiAffinityBound: anti, aggregateBound: agg.bound, classCoverBound: cover, wholeNodesBound: whole, masterObjective: g.master, iterations: g.iterations, converged: g.converged, excludedPods: p.excluded };
}
