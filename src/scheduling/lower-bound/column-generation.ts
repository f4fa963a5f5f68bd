/**
 * The configuration LP by column generation (see bound.ts, bound 1): a restricted master LP solved by the injected
 * solver, pricing by branch and bound per variant, Farley's bound from any duals, with dual smoothing, and a final
 * bound from the last duals with every variant's value bounded as tightly as the fractional, grid and exact LP
 * pricing bounds allow.
 */
import { bestConfiguration, fractionalBound, type Pricing } from './knapsack.js';
import { gridBest, gridBound } from './grid.js';
import { writeLp, type LpSolve, type Term } from './lp.js';
import { pricingLp } from './pricing-lp.js';
import { limitCost, pricing, toNumber, type Problem } from './problem.js';
import type { Variant } from './shapes.js';

/** Effort limits of the column generation. */
export interface GenerationOptions {
  solveLp: LpSolve;
  maxIterations?: number;
  mipsPerIteration?: number;
  /** Columns to start from besides one per class (e.g. a known placement's nodes): a good start converges sooner. */
  columns?: readonly Column[];
}

/** A configuration of a variant: pods per class. */
export interface Column {
  variant: Variant;
  counts: Map<number, number>;
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

/** The restricted master's objective and duals. */
export interface Master {
  objective: number;
  duals: number[];
  lambda: number[];
  existingDuals: Map<number, number>;
}

function solveMaster(p: Problem, columns: readonly Column[], solveLp: LpSolve): Master | undefined {
  const big = 1e3 * Math.max(1, ...p.variants.map((v) => v.price));
  const objective: Term[] = columns.map((c, j): Term => [c.variant.price, `x${j}`]);
  const rows = p.classes.map((c, i) => {
    const terms: Term[] = columns.flatMap((col, j): Term[] =>
      (col.counts.get(i) ?? 0) > 0 ? [[col.counts.get(i) ?? 0, `x${j}`]] : [],
    );
    terms.push([1, `art${i}`]);
    objective.push([big, `art${i}`]);
    return { name: `c${i}`, terms, rhs: c.count };
  });
  for (const l of p.limits) {
    const terms = columns.flatMap((col, j): Term[] =>
      col.variant.pool === l.pool ? [[-toNumber(col.variant.limitCapacity, l.resource), `x${j}`]] : [],
    );
    rows.push({ name: `l${l.index}`, terms, rhs: -l.remaining });
  }
  const existing = [...new Set(columns.filter((c) => c.variant.existing).map((c) => c.variant.id))];
  for (const id of existing)
    rows.push({
      name: `e${id}`,
      terms: columns.flatMap((c, j): Term[] => (c.variant.id === id ? [[-1, `x${j}`]] : [])),
      rhs: -1,
    });
  const r = solveLp(
    writeLp({
      sense: 'Minimize',
      objective,
      rows: rows.map((row) => ({ ...row, terms: row.terms.length ? row.terms : [[0, 'x0']] })),
    }),
  );
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

/** Blends of the master's duals with the aggregate's resource prices tried when column generation stopped early. */
const Blends = [0.25, 0.5, 0.75, 0.9];

/**
 * Farley's bound for blends of the last master's class duals with duals that price each class by its resources
 * (α·demand, from the aggregate bound): any duals give a valid bound, and a blend often beats both when the master
 * has not converged. ρ and V_e come from the fractional (surrogate) bounds only.
 */
export function blended(p: Problem, m: Master, alpha: readonly number[]): number {
  const byResources = p.classes.map((c) =>
    p.resources.reduce((s, k, r) => s + (alpha[r] ?? 0) * (toNumber(c.demand, k) / (p.scale[r] ?? 1)), 0),
  );
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
function tighten(best: Map<number, number>, id: number, pr: Pricing, cells = 0): void {
  const g = gridBound(pr, cells);
  if (g !== undefined) best.set(id, Math.min(best.get(id) ?? Number.POSITIVE_INFINITY, g * (1 + 1e-9) + 1e-12));
}

/** Largest exact grid (cells) a pricing round solves by dynamic programming when branch and bound gave up. */
const RoundCells = 1 << 18;
/** Most dynamic programmes per pricing round (the highest-ranked variants branch and bound gave up on). */
const RoundGrids = 8;

/** A priced variant: the best configuration found, whether it is proven best, a bound on the best (∞: none yet). */
interface Priced {
  value: number;
  counts: Map<number, number>;
  proven: boolean;
  bound: number;
  /** Whether the dynamic programme ran. */
  dp: boolean;
}

/**
 * The best configuration of a pricing problem: branch and bound, and where it gives up, the exact grid's dynamic
 * programme (whose optimum bounds the value; its configuration is the best one when it fits the other resources).
 */
function price(pr: Pricing, cells: number, solveLp?: LpSolve): Priced {
  const exact = bestConfiguration(pr);
  if (exact.proven) return { ...exact, bound: exact.value, dp: false };
  const dp = cells > 0 ? gridBest(pr, cells) : undefined;
  if (dp?.fits && dp.value >= exact.value)
    return { value: dp.value, counts: dp.counts, proven: true, bound: dp.value, dp: true };
  // The LP relaxation bounds it too, and its rounded-down solution is a good configuration on large nodes.
  const lp = solveLp ? pricingLp(pr, solveLp) : undefined;
  const found = lp && lp.value > exact.value ? lp : exact;
  const bound = Math.min(dp?.value ?? Number.POSITIVE_INFINITY, lp?.bound ?? Number.POSITIVE_INFINITY);
  return {
    value: found.value,
    counts: found.counts,
    proven: bound <= found.value * (1 + 1e-9),
    bound,
    dp: !!dp,
  };
}

/** Most variants priced tightly (exactly, or by the exact grid and the LP relaxation) for the final bound. */
const FinalPricings = 40;
/** Largest exact grid (cells) for the final bound. */
const FinalCells = 1 << 21;

/**
 * Farley's bound for duals `m` with every variant bounded by its fractional bound (existing nodes also by the grid),
 * then, lazily from the variant that sets ρ, as tightly as branch and bound, the exact grid's dynamic programme, the
 * K × K grid and the exact LP relaxation of its pricing problem allow.
 */
export function finalFarley(p: Problem, m: Master, solveLp: LpSolve): number {
  const best = new Map<number, number>();
  for (const v of p.variants) {
    const pr = pricing(p, v, m.duals);
    best.set(v.id, fractionalBound(pr));
    if (v.existing) tighten(best, v.id, pr);
  }
  const done = new Set<number>();
  const fresh = p.variants.filter((v) => !v.existing && v.price > 0);
  const ratio = (v: Variant): number => ((best.get(v.id) ?? 0) - limitCost(p, v, m.lambda)) / v.price;
  const lower = (id: number, x: number): void => {
    best.set(id, Math.min(best.get(id) ?? Number.POSITIVE_INFINITY, x * (1 + 1e-9) + 1e-12));
  };
  for (let k = 0; k < FinalPricings; k++) {
    const top = fresh.reduce<Variant | undefined>((a, v) => (!a || ratio(v) > ratio(a) ? v : a), undefined);
    if (!top || done.has(top.id)) break;
    done.add(top.id);
    const pr = pricing(p, top, m.duals);
    const priced = price(pr, FinalCells, solveLp);
    if (Number.isFinite(priced.bound)) lower(top.id, priced.bound);
    if (!priced.proven) tighten(best, top.id, pr);
  }
  return farley(p, m, best);
}

function columnKey(v: Variant, counts: ReadonlyMap<number, number>): string {
  return `${v.id}:${[...counts].sort((a, b) => a[0] - b[0]).join(';')}`;
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
  let grids = 0;
  let complete = true;
  for (const { v, gain } of scored) {
    if (gain <= 1e-9 * Math.max(1, v.price)) continue;
    if (solved >= opts.mips) {
      complete = false;
      break;
    }
    solved++;
    const pr = pricing(p, v, m.duals);
    const exact = price(pr, grids < RoundGrids ? RoundCells : 0, opts.solveLp);
    if (exact.dp) grids++;
    // Guard against float round-off: the value used for the bound is nudged up, never down.
    if (Number.isFinite(exact.bound))
      best.set(v.id, Math.min(best.get(v.id) ?? Number.POSITIVE_INFINITY, exact.bound * (1 + 1e-9) + 1e-12));
    if (!exact.proven) {
      complete = false;
      if (!Number.isFinite(exact.bound)) tighten(best, v.id, pr);
    }
    const reduced = v.existing
      ? (m.existingDuals.get(v.id) ?? 0) - exact.value
      : v.price + limitCost(p, v, m.lambda) - exact.value;
    const key = columnKey(v, exact.counts);
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
  const existingDuals = new Map(
    [...m.existingDuals].map(([id, x]) => [id, t * (center.existingDuals.get(id) ?? 0) + (1 - t) * x]),
  );
  return {
    objective: m.objective,
    duals: mix(center.duals, m.duals),
    lambda: mix(center.lambda, m.lambda),
    existingDuals,
  };
}

/** Weight of the stability centre in the duals priced (Wentges smoothing). */
const Smoothing = 0.5;

/** Where column generation stopped. */
export interface Generation {
  lp: number;
  master: number;
  iterations: number;
  converged: boolean;
  last: Master | undefined;
  /** The duals that gave the best bound during the generation. */
  center: Master | undefined;
}

/**
 * Column generation with dual smoothing: the master's duals oscillate on mixes with many classes, so each round prices
 * duals halfway between the master's and those that gave the best Farley bound so far (the centre), which adds columns
 * that matter and raises the bound steadily. When the smoothed duals find no column, the master's own duals are
 * priced, so convergence is still judged on the master's duals.
 */
/** One column per class, then the given columns not already there. */
function startColumns(p: Problem, given: readonly Column[], seen: Set<string>): Column[] {
  const columns = initialColumns(p);
  for (const c of given) {
    const key = columnKey(c.variant, c.counts);
    if (!seen.has(key)) columns.push(c);
    seen.add(key);
  }
  return columns;
}

export function generate(p: Problem, opts: GenerationOptions): Generation {
  const seen = new Set<string>();
  const columns = startColumns(p, opts.columns ?? [], seen);
  const g: Generation = { lp: 0, master: 0, iterations: 0, converged: false, last: undefined, center: undefined };
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
        g.center = duals;
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
